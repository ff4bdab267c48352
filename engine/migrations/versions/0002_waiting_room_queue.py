"""The waiting room: dates of birth on appointments, the live queue, self check-in.

- ``appointments.date_of_birth`` (nullable: older bookings check in at reception).
- ``queue_entries``: one row per person in today's waiting room, with a NOTIFY trigger
  (``clinic_queue``: id, state, ticket, room, day; never a name) so every desk and kiosk sees a
  change within a second.
- ``check_in_attempts`` and ``clinic_check_in(...)``: the kiosk's only way into appointments. A
  SECURITY DEFINER function that matches today's booking by reference, or by date of birth and
  the first letter of the surname, never returns a name or phone number, and refuses after five
  failed lookups from one kiosk in ten minutes.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

FUNCTIONS = (
    "clinic_check_in(text, date, text, boolean, text, text, integer, integer)",
    "clinic_queue_position(integer, integer)",
)

CHECK_IN_FUNCTION = r"""
CREATE OR REPLACE FUNCTION clinic_check_in(
    p_reference text, p_dob date, p_initial text, p_confirm boolean, p_source text,
    p_tz text, p_late_minutes integer, p_max_failures integer
) RETURNS TABLE (
    status text, entry_id integer, ticket integer, starts_at timestamptz,
    department text, clinician text, late boolean, matches integer
)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
#variable_conflict use_column
DECLARE
    v_day date := (now() AT TIME ZONE p_tz)::date;
    v_ref text := upper(regexp_replace(coalesce(p_reference, ''), '[^A-Za-z0-9]', '', 'g'));
    v_initial text := upper(left(btrim(coalesce(p_initial, '')), 1));
    v_ids integer[];
    v_failures integer;
    v_appt record;
    v_entry record;
    v_late boolean;
    v_ticket integer;
    v_id integer;
BEGIN
    SELECT count(*) INTO v_failures FROM check_in_attempts a
     WHERE a.source = p_source AND a.at > now() - interval '10 minutes';
    IF v_failures >= p_max_failures THEN
        RETURN QUERY SELECT 'throttled'::text, NULL::integer, NULL::integer, NULL::timestamptz,
            NULL::text, NULL::text, false, 0;
        RETURN;
    END IF;
    IF v_ref = '' AND (p_dob IS NULL OR v_initial = '') THEN
        RETURN QUERY SELECT 'invalid'::text, NULL::integer, NULL::integer, NULL::timestamptz,
            NULL::text, NULL::text, false, 0;
        RETURN;
    END IF;
    SELECT array_agg(a.id ORDER BY s.starts_at) INTO v_ids
      FROM appointments a JOIN slots s ON s.id = a.slot_id
     WHERE a.status = 'booked'
       AND (s.starts_at AT TIME ZONE p_tz)::date = v_day
       AND ((v_ref <> '' AND upper(replace(a.reference, '-', '')) = v_ref)
         OR (v_ref = '' AND a.date_of_birth = p_dob AND upper(left(
               regexp_replace(btrim(a.patient_name), '^.*\s', ''), 1)) = v_initial));
    IF v_ids IS NULL THEN
        INSERT INTO check_in_attempts (source, at) VALUES (p_source, now());
        RETURN QUERY SELECT 'none'::text, NULL::integer, NULL::integer, NULL::timestamptz,
            NULL::text, NULL::text, false, 0;
        RETURN;
    END IF;
    IF array_length(v_ids, 1) > 1 THEN
        RETURN QUERY SELECT 'several'::text, NULL::integer, NULL::integer, NULL::timestamptz,
            NULL::text, NULL::text, false, array_length(v_ids, 1);
        RETURN;
    END IF;
    SELECT a.id, s.starts_at, d.id AS department_id, d.name::text AS department,
           c.id AS clinician_id, c.name::text AS clinician
      INTO v_appt
      FROM appointments a JOIN slots s ON s.id = a.slot_id
      JOIN clinicians c ON c.id = s.clinician_id JOIN departments d ON d.id = c.department_id
     WHERE a.id = v_ids[1];
    v_late := now() > v_appt.starts_at + make_interval(mins => p_late_minutes);
    SELECT q.id, q.ticket, q.late INTO v_entry FROM queue_entries q
     WHERE q.appointment_id = v_appt.id;
    IF FOUND THEN
        RETURN QUERY SELECT 'already'::text, v_entry.id, v_entry.ticket, v_appt.starts_at,
            v_appt.department, v_appt.clinician, v_entry.late, 1;
        RETURN;
    END IF;
    IF NOT p_confirm THEN
        RETURN QUERY SELECT 'found'::text, NULL::integer, NULL::integer, v_appt.starts_at,
            v_appt.department, v_appt.clinician, v_late, 1;
        RETURN;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('clinic_queue_ticket'));
    SELECT coalesce(max(q.ticket), 0) + 1 INTO v_ticket FROM queue_entries q WHERE q.day = v_day;
    INSERT INTO queue_entries (day, ticket, kind, appointment_id, department_id, clinician_id,
                               state, late, arrived_at, updated_by)
    VALUES (v_day, v_ticket, 'booked', v_appt.id, v_appt.department_id, v_appt.clinician_id,
            'arrived', v_late, now(), p_source)
    RETURNING id INTO v_id;
    INSERT INTO audit_events (username, action, details)
    VALUES (p_source, 'queue.check_in',
            jsonb_build_object('entry_id', v_id, 'ticket', v_ticket, 'late', v_late));
    RETURN QUERY SELECT 'checked_in'::text, v_id, v_ticket, v_appt.starts_at,
        v_appt.department, v_appt.clinician, v_late, 1;
END
$fn$
"""

POSITION_FUNCTION = r"""
CREATE OR REPLACE FUNCTION clinic_queue_position(p_entry integer, p_default_minutes integer)
RETURNS TABLE (
    ticket integer, state text, room text, department text, clinician text, ahead integer,
    per_person double precision, measured boolean
)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
#variable_conflict use_column
DECLARE
    v record;
    v_ahead integer := 0;
    v_durations double precision[];
    v_per double precision;
    v_measured boolean := false;
BEGIN
    SELECT q.id, q.day, q.ticket, q.state, q.room, q.department_id, q.clinician_id,
           d.name AS dep_name, c.name AS clin_name,
           coalesce(s.starts_at, q.arrived_at) AS order_key
      INTO v
      FROM queue_entries q JOIN departments d ON d.id = q.department_id
      LEFT JOIN clinicians c ON c.id = q.clinician_id
      LEFT JOIN appointments a ON a.id = q.appointment_id
      LEFT JOIN slots s ON s.id = a.slot_id
     WHERE q.id = p_entry;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF v.state = 'arrived' THEN
        SELECT count(*) INTO v_ahead
          FROM queue_entries q2
          LEFT JOIN appointments a2 ON a2.id = q2.appointment_id
          LEFT JOIN slots s2 ON s2.id = a2.slot_id
         WHERE q2.day = v.day AND q2.state = 'arrived' AND q2.id <> v.id
           AND q2.department_id = v.department_id
           AND (q2.clinician_id IS NULL OR v.clinician_id IS NULL
                OR q2.clinician_id = v.clinician_id)
           AND (coalesce(s2.starts_at, q2.arrived_at), q2.ticket) < (v.order_key, v.ticket);
    END IF;
    SELECT array_agg(t.m) INTO v_durations FROM (
        SELECT EXTRACT(EPOCH FROM q3.finished_at - q3.started_at) / 60.0 AS m
          FROM queue_entries q3
         WHERE q3.department_id = v.department_id AND q3.state = 'done'
           AND q3.started_at IS NOT NULL AND q3.finished_at > now() - interval '28 days'
         ORDER BY q3.finished_at DESC LIMIT 50) t
     WHERE t.m > 0;
    IF coalesce(array_length(v_durations, 1), 0) >= 3 THEN
        SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) INTO v_per
          FROM unnest(v_durations) AS x;
        v_measured := true;
    ELSE
        v_per := p_default_minutes;
    END IF;
    RETURN QUERY SELECT v.ticket, v.state::text, v.room::text, v.dep_name::text,
        v.clin_name::text, v_ahead, v_per, v_measured;
END
$fn$
"""

NOTIFY_FUNCTION = r"""
CREATE OR REPLACE FUNCTION clinic_queue_notify() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM pg_notify('clinic_queue', json_build_object(
        'id', NEW.id, 'state', NEW.state, 'ticket', NEW.ticket, 'room', NEW.room,
        'day', NEW.day, 'department_id', NEW.department_id)::text);
    RETURN NEW;
END
$fn$
"""


def upgrade() -> None:
    op.add_column("appointments", sa.Column("date_of_birth", sa.Date(), nullable=True))
    op.create_table(
        "queue_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("ticket", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("appointment_id", sa.Integer(), nullable=True),
        sa.Column("department_id", sa.Integer(), nullable=False),
        sa.Column("clinician_id", sa.Integer(), nullable=True),
        sa.Column("walk_in_name", sa.Text(), nullable=True),
        sa.Column("state", sa.String(length=20), server_default="arrived", nullable=False),
        sa.Column("late", sa.Boolean(), server_default=sa.text("false"), nullable=False),
        sa.Column("room", sa.String(length=40), nullable=True),
        sa.Column("arrived_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("called_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_by", sa.String(length=100), nullable=False),
        sa.CheckConstraint(
            "state IN ('arrived', 'called', 'in_consultation', 'done', 'no_show', 'cancelled')",
            name="queue_entries_state_check",
        ),
        sa.CheckConstraint("kind IN ('booked', 'walk_in')", name="queue_entries_kind_check"),
        sa.CheckConstraint(
            "(kind = 'booked') = (appointment_id IS NOT NULL)", name="queue_entries_kind_link"
        ),
        sa.ForeignKeyConstraint(["appointment_id"], ["appointments.id"], ondelete="RESTRICT"),
        sa.ForeignKeyConstraint(["clinician_id"], ["clinicians.id"], ondelete="RESTRICT"),
        sa.ForeignKeyConstraint(["department_id"], ["departments.id"], ondelete="RESTRICT"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("appointment_id"),
        sa.UniqueConstraint("day", "ticket", name="queue_entries_day_ticket_key"),
    )
    op.create_index("queue_entries_day_state", "queue_entries", ["day", "state"], unique=False)
    op.create_table(
        "check_in_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("source", sa.String(length=100), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "check_in_attempts_source_at", "check_in_attempts", ["source", "at"], unique=False
    )
    op.execute(NOTIFY_FUNCTION)
    op.execute(
        "CREATE TRIGGER queue_entries_notify AFTER INSERT OR UPDATE ON queue_entries "
        "FOR EACH ROW EXECUTE FUNCTION clinic_queue_notify()"
    )
    op.execute(CHECK_IN_FUNCTION)
    op.execute(POSITION_FUNCTION)
    # Nobody but the owner and the roles granted in engine/ops/roles.py may run them.
    for signature in FUNCTIONS:
        op.execute(f"REVOKE ALL ON FUNCTION {signature} FROM PUBLIC")


def downgrade() -> None:
    for signature in FUNCTIONS:
        op.execute(f"DROP FUNCTION IF EXISTS {signature}")
    op.execute("DROP TRIGGER IF EXISTS queue_entries_notify ON queue_entries")
    op.execute("DROP FUNCTION IF EXISTS clinic_queue_notify()")
    op.drop_index("check_in_attempts_source_at", table_name="check_in_attempts")
    op.drop_table("check_in_attempts")
    op.drop_index("queue_entries_day_state", table_name="queue_entries")
    op.drop_table("queue_entries")
    op.drop_column("appointments", "date_of_birth")
