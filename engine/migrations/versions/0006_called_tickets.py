"""The waiting-room display board: today's called tickets, for a role that sees no names.

``clinic_called_tickets(p_tz, p_limit)`` returns the most recent calls today (ticket, room,
state, called time) as SECURITY DEFINER, so a display connected as the kiosk role can show
"Ticket 14 - Room 3" without any access to appointments or names.

Revision ID: 0006
Revises: 0005
"""

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

SIGNATURE = "clinic_called_tickets(text, integer)"

CALLED_TICKETS = r"""
CREATE OR REPLACE FUNCTION clinic_called_tickets(p_tz text, p_limit integer)
RETURNS TABLE (ticket integer, room text, state text, called_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
    SELECT q.ticket, q.room::text, q.state::text, q.called_at
      FROM queue_entries q
     WHERE q.day = (now() AT TIME ZONE p_tz)::date AND q.called_at IS NOT NULL
       AND q.state IN ('called', 'in_consultation', 'done')
     ORDER BY q.called_at DESC
     LIMIT least(greatest(p_limit, 1), 20)
$fn$
"""


def upgrade() -> None:
    op.execute(CALLED_TICKETS)
    op.execute(f"REVOKE ALL ON FUNCTION {SIGNATURE} FROM PUBLIC")


def downgrade() -> None:
    op.execute(f"DROP FUNCTION IF EXISTS {SIGNATURE}")
