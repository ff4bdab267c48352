"""Old answers are purged by a kiosk-only install too, through one narrow function.

The kiosk role may insert answers but not delete them (a stolen kiosk DSN must not be able to
erase the log). ``clinic_purge_expired_answers(retention_days)`` is a SECURITY DEFINER function
that deletes only answers older than ``retention_days`` (at least 1) that no reviewer decided on,
the same rule as ``engine.answering.answer_log.purge_expired``, and returns how many it deleted. EXECUTE
is revoked from PUBLIC here and granted to the kiosk and staff roles in ``engine/ops/roles.py``.

Revision ID: 0005
Revises: 0004
"""

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

SIGNATURE = "clinic_purge_expired_answers(integer)"

PURGE_FUNCTION = """
CREATE OR REPLACE FUNCTION clinic_purge_expired_answers(retention_days integer)
RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
DECLARE
    deleted integer;
BEGIN
    IF retention_days IS NULL OR retention_days < 1 THEN
        RAISE EXCEPTION 'retention_days must be at least 1';
    END IF;
    DELETE FROM answers a
    WHERE a.created_at < now() - make_interval(days => retention_days)
      AND NOT EXISTS (SELECT 1 FROM review_decisions r WHERE r.answer_id = a.id);
    GET DIAGNOSTICS deleted = ROW_COUNT;
    RETURN deleted;
END
$fn$
"""


def upgrade() -> None:
    op.execute(PURGE_FUNCTION)
    op.execute(f"REVOKE ALL ON FUNCTION {SIGNATURE} FROM PUBLIC")


def downgrade() -> None:
    op.execute(f"DROP FUNCTION IF EXISTS {SIGNATURE}")
