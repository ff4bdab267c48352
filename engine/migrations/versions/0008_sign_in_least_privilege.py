"""Sign-in without reading password hashes, throttled sign-in, and an append-only audit log.

- ``clinic_password_salt(username)`` and ``clinic_password_matches(username, digest)``: SECURITY
  DEFINER functions, so the ``clinic_staff`` role signs people in without SELECT on
  ``staff_users.password_hash`` (``engine.ops.roles`` grants it the other columns only). The first
  returns the scrypt parameters and salt (for an unknown name, a fake salt derived from a secret
  in the owner-only ``sign_in_secret`` table, so it does not reveal which accounts exist); the
  second compares the client's scrypt digest with the stored one, through sha256 of both, so the
  comparison's timing says nothing about the stored hash.
- ``sign_in_throttle``: failures and a "blocked until" time per account and per machine, kept in
  the database so a restart does not reset them (``engine.frontdesk.users`` decides the delays).
- ``audit_events`` is append-only: UPDATE, DELETE and TRUNCATE are refused by triggers, for every
  role (like ``review_decisions``).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

SALT_FUNCTION = r"""
CREATE OR REPLACE FUNCTION clinic_password_salt(p_username text) RETURNS text
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
DECLARE
    v_hash text;
    v_secret text;
BEGIN
    SELECT u.password_hash INTO v_hash FROM staff_users u WHERE u.username = p_username;
    IF v_hash IS NOT NULL AND split_part(v_hash, '$', 6) <> '' THEN
        RETURN array_to_string((string_to_array(v_hash, '$'))[1:5], '$');
    END IF;
    SELECT s.secret INTO v_secret FROM sign_in_secret s WHERE s.id = 1;
    RETURN 'scrypt$16384$8$1$' || encode(substring(
        sha256(convert_to(coalesce(v_secret, '') || ':' || coalesce(p_username, ''), 'UTF8'))
        FROM 1 FOR 16), 'base64');
END;
$fn$
"""

MATCH_FUNCTION = r"""
CREATE OR REPLACE FUNCTION clinic_password_matches(p_username text, p_digest text)
RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
    SELECT coalesce((
        SELECT sha256(convert_to(split_part(u.password_hash, '$', 6), 'UTF8'))
               = sha256(convert_to(coalesce(p_digest, ''), 'UTF8'))
          FROM staff_users u WHERE u.username = p_username), false);
$fn$
"""

APPEND_ONLY = r"""
CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger AS $fn$
BEGIN
    RAISE EXCEPTION 'audit events are append-only';
END;
$fn$ LANGUAGE plpgsql
"""


def upgrade() -> None:
    op.create_table(
        "sign_in_secret",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("secret", sa.Text(), nullable=False),
        sa.CheckConstraint("id = 1", name="sign_in_secret_single_row"),
    )
    op.execute("INSERT INTO sign_in_secret (id, secret) VALUES (1, gen_random_uuid()::text)")
    op.execute("REVOKE ALL ON sign_in_secret FROM PUBLIC")
    op.create_table(
        "sign_in_throttle",
        sa.Column("key", sa.Text(), primary_key=True),  # 'account:NAME' or 'machine:HOST'
        sa.Column("failures", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("last_failure_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("blocked_until", sa.DateTime(timezone=True), nullable=True),
    )
    op.execute(SALT_FUNCTION)
    op.execute(MATCH_FUNCTION)
    for signature in ("clinic_password_salt(text)", "clinic_password_matches(text, text)"):
        op.execute(f"REVOKE ALL ON FUNCTION {signature} FROM PUBLIC")
    op.execute(APPEND_ONLY)
    op.execute(
        "CREATE TRIGGER audit_events_no_change BEFORE UPDATE OR DELETE ON audit_events "
        "FOR EACH ROW EXECUTE FUNCTION audit_events_append_only()"
    )
    op.execute(
        "CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events "
        "FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only()"
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS audit_events_no_truncate ON audit_events")
    op.execute("DROP TRIGGER IF EXISTS audit_events_no_change ON audit_events")
    op.execute("DROP FUNCTION IF EXISTS audit_events_append_only()")
    op.execute("DROP FUNCTION IF EXISTS clinic_password_matches(text, text)")
    op.execute("DROP FUNCTION IF EXISTS clinic_password_salt(text)")
    op.drop_table("sign_in_throttle")
    op.drop_table("sign_in_secret")
