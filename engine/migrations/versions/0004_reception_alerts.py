"""Reception alerts: a kiosk emergency or a "call staff" press reaches every desk.

- ``alerts``: one row per alert (``emergency`` or ``help``), who responded and when.
- A trigger on ``answers`` turns every kiosk answer routed to the emergency redirect into an
  alert, whatever wrote the answer log (the kiosk role only INSERTs answers), so an alert exists
  even when no desk is open; it also stays in the review queue as an emergency routing.
- ``NOTIFY clinic_alerts`` (alert id, kind, responded; never the question) on every change.
- ``clinic_call_staff(source)``: the kiosk's "Call staff" button, at most one open request per
  kiosk at a time.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

FUNCTIONS = ("clinic_call_staff(text)",)

ALERT_FROM_ANSWER = r"""
CREATE OR REPLACE FUNCTION clinic_alert_from_answer() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
BEGIN
    INSERT INTO alerts (kind, source, answer_id)
    VALUES ('emergency',
            left(coalesce(nullif(current_setting('application_name', true), ''), NEW.channel),
                 100),
            NEW.id);
    RETURN NEW;
END
$fn$
"""

ALERT_NOTIFY = r"""
CREATE OR REPLACE FUNCTION clinic_alert_notify() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM pg_notify('clinic_alerts', json_build_object(
        'id', NEW.id, 'kind', NEW.kind, 'responded', NEW.responded_at IS NOT NULL)::text);
    RETURN NEW;
END
$fn$
"""

CALL_STAFF = r"""
CREATE OR REPLACE FUNCTION clinic_call_staff(p_source text) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
DECLARE
    v_id integer;
BEGIN
    SELECT a.id INTO v_id FROM alerts a
     WHERE a.kind = 'help' AND a.source = left(p_source, 100) AND a.responded_at IS NULL
       AND a.created_at > now() - interval '15 minutes'
     ORDER BY a.id DESC LIMIT 1;
    IF FOUND THEN
        RETURN v_id;  -- already asked: pressing again does not flood the desk
    END IF;
    INSERT INTO alerts (kind, source) VALUES ('help', left(p_source, 100)) RETURNING id INTO v_id;
    RETURN v_id;
END
$fn$
"""


def upgrade() -> None:
    op.create_table(
        "alerts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("source", sa.String(length=100), nullable=False),
        sa.Column("answer_id", sa.Integer(), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column("responded_by", sa.String(length=100), nullable=True),
        sa.Column("responded_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("kind IN ('emergency', 'help')", name="alerts_kind_check"),
        sa.ForeignKeyConstraint(["answer_id"], ["answers.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("alerts_open", "alerts", ["responded_at", "created_at"], unique=False)
    op.execute(ALERT_FROM_ANSWER)
    op.execute(
        "CREATE TRIGGER answers_emergency_alert AFTER INSERT ON answers FOR EACH ROW "
        "WHEN (NEW.outcome = 'emergency' AND NEW.channel = 'kiosk') "
        "EXECUTE FUNCTION clinic_alert_from_answer()"
    )
    op.execute(ALERT_NOTIFY)
    op.execute(
        "CREATE TRIGGER alerts_notify AFTER INSERT OR UPDATE ON alerts FOR EACH ROW "
        "EXECUTE FUNCTION clinic_alert_notify()"
    )
    op.execute(CALL_STAFF)
    for signature in FUNCTIONS:
        op.execute(f"REVOKE ALL ON FUNCTION {signature} FROM PUBLIC")


def downgrade() -> None:
    for signature in FUNCTIONS:
        op.execute(f"DROP FUNCTION IF EXISTS {signature}")
    op.execute("DROP TRIGGER IF EXISTS alerts_notify ON alerts")
    op.execute("DROP FUNCTION IF EXISTS clinic_alert_notify()")
    op.execute("DROP TRIGGER IF EXISTS answers_emergency_alert ON answers")
    op.execute("DROP FUNCTION IF EXISTS clinic_alert_from_answer()")
    op.drop_index("alerts_open", table_name="alerts")
    op.drop_table("alerts")
