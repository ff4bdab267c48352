"""Today's waiting room: self check-in, the live queue, wait estimates and a day summary.

States: an appointment is ``booked``; at check-in (kiosk or desk) it gets a queue entry in state
``arrived``, then ``called`` (to a room), ``in_consultation``, ``done``; or ``no_show`` or
``cancelled``. Walk-ins enter as ``arrived`` with no appointment. Only the moves in
:data:`TRANSITIONS` are allowed; each runs under a row lock, stamps its time with the database's
clock, and is audited with who did it. The database is the source of truth: a trigger sends
``NOTIFY clinic_queue`` on every change (``engine.frontdesk.queue_listener`` reads it).

The kiosk never reads appointments: :meth:`QueueService.check_in` calls the SECURITY DEFINER
function ``clinic_check_in`` (migration 0002), which matches today's booking by reference or by
date of birth and surname initial, returns no name or phone number, and refuses after repeated
failed lookups from one kiosk. :meth:`QueueService.position` is the only other kiosk read, and it
returns counts and minutes for one ticket.

This module must never return a patient's name or phone number to a kiosk-facing call, never
log them, and never import Qt.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, ClassVar
from zoneinfo import ZoneInfo

import sqlalchemy as sa

from engine.errors import BookingError, ValidationError
from engine.frontdesk import audit
from engine.frontdesk.references import normalise_reference
from engine.ops.db import Database
from engine.ops.settings import QueueSettings
from engine.protocols import DeskQueueEntry, DeskQueueSnapshot
from engine.validation import clean_text

LONDON = ZoneInfo("Europe/London")
TRANSITIONS: dict[str, frozenset[str]] = {
    "arrived": frozenset({"called", "no_show", "cancelled"}),
    "called": frozenset({"in_consultation", "arrived", "no_show", "cancelled"}),
    "in_consultation": frozenset({"done"}),
    "done": frozenset(),
    "no_show": frozenset({"arrived"}),  # they turned up after all
    "cancelled": frozenset(),
}
WAITING_STATES = ("arrived", "called")
OPEN_STATES = ("arrived", "called", "in_consultation")


@dataclass(frozen=True)
class CheckIn:
    """A self check-in's result, safe to show on a kiosk: no name, no phone number.

    ``status``: ``found`` (one booking today: confirm it), ``checked_in``, ``already``,
    ``several`` (ask for the reference), ``none`` (see reception), ``throttled``, ``invalid``.
    """

    status: str
    entry_id: int | None = None
    ticket: int | None = None
    starts_at: datetime | None = None
    department: str | None = None
    clinician: str | None = None
    late: bool = False
    matches: int = 0


@dataclass(frozen=True)
class Position:
    """Where one ticket stands: people ahead in its line and an estimate in minutes."""

    entry_id: int
    ticket: int
    state: str
    department: str
    clinician: str | None
    ahead: int
    minutes: int
    room: str | None
    estimated_from_history: bool


@dataclass(frozen=True)
class QueueItem:
    """One entry for the staff desk (names included: staff only)."""

    entry_id: int
    ticket: int
    kind: str
    state: str
    patient: str
    reference: str | None
    department: str
    clinician: str | None
    appointment_at: datetime | None
    arrived_at: datetime
    called_at: datetime | None
    room: str | None
    late: bool


@dataclass(frozen=True)
class CalledTicket:
    """One line of the waiting-room display board: never a name."""

    ticket: int
    room: str
    state: str
    called_at: datetime


@dataclass(frozen=True)
class DaySummary:
    arrived: int
    seen: int
    no_shows: int
    waiting: int
    median_wait_minutes: float | None


class QueueService:
    """The waiting room over one database; every write is one locked, audited transaction."""

    def __init__(
        self,
        db: Database,
        settings: QueueSettings | None = None,
        *,
        tz: ZoneInfo = LONDON,
    ) -> None:
        self.db = db
        self.settings = settings or QueueSettings()
        self.tz = tz

    # ----- check-in (kiosk and desk) --------------------------------------------------------

    def check_in(
        self,
        source: str,
        *,
        reference: str | None = None,
        date_of_birth: date | None = None,
        initial: str | None = None,
        confirm: bool = False,
    ) -> CheckIn:
        """Look up (``confirm=False``) or check in (``confirm=True``) today's booking."""
        if reference:
            normalised = normalise_reference(reference)
            if normalised is None:
                raise ValidationError(
                    "A booking reference is CL- followed by six letters and numbers, "
                    "e.g. CL-7KQ2XM."
                )
            reference = normalised
        elif date_of_birth is None or not (initial or "").strip()[:1].isalpha():
            raise ValidationError(
                "Enter your booking reference, or your date of birth and the first letter of "
                "your surname."
            )
        row = self._call_check_in(source, reference, date_of_birth, initial, confirm)
        return CheckIn(
            status=str(row["status"]),
            entry_id=row["entry_id"],
            ticket=row["ticket"],
            starts_at=row["starts_at"].astimezone(self.tz) if row["starts_at"] else None,
            department=row["department"],
            clinician=row["clinician"],
            late=bool(row["late"]),
            matches=int(row["matches"] or 0),
        )

    def _call_check_in(
        self,
        source: str,
        reference: str | None,
        date_of_birth: date | None,
        initial: str | None,
        confirm: bool,
    ) -> Any:
        params = {
            "ref": reference or "",
            "dob": date_of_birth,
            "initial": (initial or "")[:1],
            "confirm": confirm,
            "source": source[:100],
            "tz": self.tz.key,
            "late": self.settings.late_after_minutes,
            "max": self.settings.max_failed_lookups,
        }
        with self.db.session() as s:
            return (
                s.execute(
                    sa.text(
                        "SELECT * FROM clinic_check_in(:ref, CAST(:dob AS date), :initial, "
                        ":confirm, :source, :tz, :late, :max)"
                    ),
                    params,
                )
                .mappings()
                .one()
            )

    def position(self, entry_id: int) -> Position | None:
        """People ahead of this ticket in its line (same department and clinician) and minutes.

        Runs through ``clinic_queue_position`` so a kiosk role with no access to appointments
        can ask; it returns counts and minutes, never a name."""
        with self.db.session() as s:
            row = (
                s.execute(
                    sa.text("SELECT * FROM clinic_queue_position(:id, :minutes)"),
                    {"id": entry_id, "minutes": self.settings.default_consultation_minutes},
                )
                .mappings()
                .first()
            )
        if row is None:
            return None
        ahead = int(row["ahead"])
        state = str(row["state"])
        return Position(
            entry_id=entry_id,
            ticket=int(row["ticket"]),
            state=state,
            department=str(row["department"]),
            clinician=row["clinician"],
            ahead=ahead,
            minutes=round(ahead * float(row["per_person"])) if state == "arrived" else 0,
            room=row["room"],
            estimated_from_history=bool(row["measured"]),
        )

    def called_tickets(self, limit: int = 6) -> list[CalledTicket]:
        """Today's most recent calls for the display board (works for the kiosk role)."""
        with self.db.session() as s:
            rows = (
                s.execute(
                    sa.text("SELECT * FROM clinic_called_tickets(:tz, :limit)"),
                    {"tz": self.tz.key, "limit": limit},
                )
                .mappings()
                .all()
            )
        return [
            CalledTicket(
                ticket=int(r["ticket"]),
                room=str(r["room"] or ""),
                state=str(r["state"]),
                called_at=r["called_at"].astimezone(self.tz),
            )
            for r in rows
        ]

    # ----- the desk -------------------------------------------------------------------------

    def today(self) -> date:
        with self.db.session() as s:
            value: date = s.execute(
                sa.text("SELECT (now() AT TIME ZONE :tz)::date"), {"tz": self.tz.key}
            ).scalar_one()
        return value

    def entries(
        self,
        day: date | None = None,
        *,
        department: str | None = None,
        open_only: bool = True,
        entry_id: int | None = None,
    ) -> list[QueueItem]:
        """The day's queue in calling order (appointment time, then arrival), names included;
        ``entry_id`` picks one entry of any day."""
        where = ["q.day = :day"] if entry_id is None else ["q.id = :id"]
        params: dict[str, Any] = (
            {"day": day or self.today()} if entry_id is None else {"id": entry_id}
        )
        if open_only:
            where.append("q.state IN ('arrived', 'called', 'in_consultation')")
        if department:
            where.append("lower(d.name) LIKE :dep")
            params["dep"] = f"%{department.strip().lower()}%"
        with self.db.session() as s:
            rows = (
                s.execute(
                    sa.text(
                        "SELECT q.id, q.ticket, q.kind, q.state, q.room, q.late, q.arrived_at, "
                        "q.called_at, coalesce(a.patient_name, q.walk_in_name, 'Walk-in') "
                        "AS patient, a.reference, d.name AS department, c.name AS clinician, "
                        "s.starts_at FROM queue_entries q "
                        "JOIN departments d ON d.id = q.department_id "
                        "LEFT JOIN clinicians c ON c.id = q.clinician_id "
                        "LEFT JOIN appointments a ON a.id = q.appointment_id "
                        "LEFT JOIN slots s ON s.id = a.slot_id "
                        f"WHERE {' AND '.join(where)} ORDER BY {_ORDER_KEY}, q.ticket"
                    ),
                    params,
                )
                .mappings()
                .all()
            )
        return [self._item(r) for r in rows]

    def _item(self, r: Any) -> QueueItem:
        return QueueItem(
            entry_id=int(r["id"]),
            ticket=int(r["ticket"]),
            kind=str(r["kind"]),
            state=str(r["state"]),
            patient=str(r["patient"]),
            reference=r["reference"],
            department=str(r["department"]),
            clinician=r["clinician"],
            appointment_at=r["starts_at"].astimezone(self.tz) if r["starts_at"] else None,
            arrived_at=r["arrived_at"].astimezone(self.tz),
            called_at=r["called_at"].astimezone(self.tz) if r["called_at"] else None,
            room=r["room"],
            late=bool(r["late"]),
        )

    def desk_snapshot(self) -> DeskQueueSnapshot:
        """Today's open queue for the staff assistant ("who is waiting for Dr Hart?"), in calling
        order, with the departments and clinicians it could be asked about. Names included: the
        engine offers it to a staff assistant only (``engine.protocols.QueueSnapshotSource``)."""
        with self.db.session() as s:
            taken_at: datetime = s.execute(sa.text("SELECT now()")).scalar_one()
            people = s.execute(
                sa.text(
                    "SELECT c.name, d.name FROM clinicians c "
                    "JOIN departments d ON d.id = c.department_id ORDER BY c.name"
                )
            ).all()
            departments = s.execute(sa.text("SELECT name FROM departments ORDER BY name")).all()
        entries = tuple(
            DeskQueueEntry(
                ticket=e.ticket,
                patient=e.patient,
                department=e.department,
                clinician=e.clinician,
                state=e.state,
                arrived_at=e.arrived_at,
                room=e.room,
                late=e.late,
            )
            for e in self.entries(taken_at.astimezone(self.tz).date())
        )
        return DeskQueueSnapshot(
            taken_at=taken_at.astimezone(self.tz),
            entries=entries,
            departments=tuple(str(r[0]) for r in departments),
            clinicians=tuple((str(r[0]), str(r[1])) for r in people),
        )

    def check_in_at_desk(self, reference: str, user: str) -> CheckIn:
        """Reception checks a patient in by reference (no lookup limit: staff are trusted)."""
        result = self.check_in(f"desk:{user}", reference=reference, confirm=True)
        if result.status == "none":
            raise BookingError(f"No booking today with reference {reference.strip().upper()}.")
        return result

    def walk_in(
        self, department: str, user: str, *, name: str = "", clinician_id: int | None = None
    ) -> QueueItem:
        """Add a walk-in to today's queue for a department (and optionally a clinician)."""
        clean_text(department, "The department")
        label = " ".join(clean_text(name, "The name").split())[:200] or None
        with self.db.session() as s:
            dep = s.execute(
                sa.text("SELECT id FROM departments WHERE lower(name) LIKE :d ORDER BY name"),
                {"d": f"%{department.strip().lower()}%"},
            ).first()
            if dep is None or not department.strip():
                raise ValidationError(f"No department matches {department!r}.")
            s.execute(sa.text("SELECT pg_advisory_xact_lock(hashtext('clinic_queue_ticket'))"))
            day: date = s.execute(
                sa.text("SELECT (now() AT TIME ZONE :tz)::date"), {"tz": self.tz.key}
            ).scalar_one()
            ticket: int = s.execute(
                sa.text("SELECT coalesce(max(ticket), 0) + 1 FROM queue_entries WHERE day = :d"),
                {"d": day},
            ).scalar_one()
            entry_id: int = s.execute(
                sa.text(
                    "INSERT INTO queue_entries (day, ticket, kind, department_id, clinician_id, "
                    "walk_in_name, state, arrived_at, updated_by) VALUES (:day, :ticket, "
                    "'walk_in', :dep, :clin, :name, 'arrived', now(), :user) RETURNING id"
                ),
                {
                    "day": day,
                    "ticket": ticket,
                    "dep": dep[0],
                    "clin": clinician_id,
                    "name": label,
                    "user": user,
                },
            ).scalar_one()
            audit.record(s, user, "queue.walk_in", {"entry_id": entry_id, "ticket": ticket})
        return self._one(int(entry_id))

    def call(self, entry_id: int, room: str, user: str) -> QueueItem:
        room = " ".join(room.split())
        if not room or len(room) > 40:
            raise ValidationError("Say which room (at most 40 characters), e.g. 'Room 3'.")
        return self._move(entry_id, "called", user, room=room)

    def start(self, entry_id: int, user: str) -> QueueItem:
        return self._move(entry_id, "in_consultation", user)

    def finish(self, entry_id: int, user: str) -> QueueItem:
        return self._move(entry_id, "done", user)

    def no_show(self, entry_id: int, user: str) -> QueueItem:
        return self._move(entry_id, "no_show", user)

    def call_next(self, department: str, room: str, user: str) -> QueueItem | None:
        """Call the first person waiting for a department; None when nobody is waiting."""
        waiting = [e for e in self.entries(department=department) if e.state == "arrived"]
        if not waiting:
            return None
        return self.call(waiting[0].entry_id, room, user)

    _STAMP: ClassVar[dict[str, str]] = {
        "called": "called_at = now(), room = :room",
        "in_consultation": "started_at = now()",
        "done": "finished_at = now()",
        "no_show": "finished_at = now()",
        "cancelled": "finished_at = now()",
        "arrived": "room = NULL, called_at = NULL, finished_at = NULL",
    }

    def _move(self, entry_id: int, state: str, user: str, *, room: str | None = None) -> QueueItem:
        with self.db.session() as s:
            row = s.execute(
                sa.text("SELECT state, ticket FROM queue_entries WHERE id = :id FOR UPDATE"),
                {"id": entry_id},
            ).first()
            if row is None:
                raise BookingError("That queue entry no longer exists. Refresh the queue.")
            current = str(row[0])
            if state not in TRANSITIONS[current]:
                raise BookingError(
                    f"Ticket {row[1]} is {_words(current)}; it cannot become {_words(state)}."
                )
            s.execute(
                sa.text(
                    f"UPDATE queue_entries SET state = :state, updated_by = :user, "
                    f"{self._STAMP[state]} WHERE id = :id"
                ),
                {"state": state, "user": user, "room": room, "id": entry_id},
            )
            audit.record(
                s,
                user,
                f"queue.{state}",
                {"entry_id": entry_id, "ticket": row[1], "from": current, "room": room},
            )
        return self._one(entry_id)

    def _one(self, entry_id: int) -> QueueItem:
        """One entry by id (a single-row read, not the whole day's queue)."""
        found = self.entries(open_only=False, entry_id=entry_id)
        if not found:
            raise BookingError("That queue entry no longer exists. Refresh the queue.")
        return found[0]

    def summary(self, day: date | None = None) -> DaySummary:
        """Arrived, seen, no-shows, still waiting, and the median wait from arrival to call."""
        with self.db.session() as s:
            rows = (
                s.execute(
                    sa.text(
                        "SELECT state, EXTRACT(EPOCH FROM called_at - arrived_at) / 60.0 AS wait "
                        "FROM queue_entries WHERE day = :day"
                    ),
                    {"day": day or self.today()},
                )
                .mappings()
                .all()
            )
        waits = [float(r["wait"]) for r in rows if r["wait"] is not None]
        states = [str(r["state"]) for r in rows]
        return DaySummary(
            arrived=sum(1 for st in states if st != "cancelled"),
            seen=states.count("done"),
            no_shows=states.count("no_show"),
            waiting=sum(1 for st in states if st in WAITING_STATES),
            median_wait_minutes=round(statistics.median(waits), 1) if waits else None,
        )


# Calling order: booked patients by appointment time, walk-ins by arrival time (the same
# order clinic_queue_position counts in).
_ORDER_KEY = "coalesce(s.starts_at, q.arrived_at)"


def _words(state: str) -> str:
    return state.replace("_", " ")


def describe_position(position: Position) -> str:
    """The kiosk's sentence for a ticket, e.g. '2 people are ahead of you for Physiotherapy,
    about 30 minutes.'"""
    if position.state == "called":
        return f"Ticket {position.ticket}: please go to {position.room or 'the room shown'} now."
    if position.state == "in_consultation":
        return f"Ticket {position.ticket} is in consultation."
    if position.state != "arrived":
        return f"Ticket {position.ticket} is no longer waiting. Please ask at reception."
    people = "1 person is" if position.ahead == 1 else f"{position.ahead} people are"
    if position.ahead == 0:
        return (
            f"You are checked in (ticket {position.ticket}). You are next for "
            f"{position.department}."
        )
    return (
        f"You are checked in (ticket {position.ticket}). {people} ahead of you for "
        f"{position.department}, about {position.minutes} minutes."
    )
