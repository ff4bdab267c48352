"""The appointment book: wide fuzzy reads, narrow exact writes, double booking impossible.

Reads (``find_free_slots``) forgive typos and partial names. Writes take an exact slot id and run
in one transaction: the slot row is locked (``SELECT ... FOR UPDATE``), the live booking is checked,
then the row is written; the partial unique index ``appointments_one_booking_per_slot`` backs this
up whatever any client did. Rescheduling moves the appointment row (same reference) under locks on
both slots, taken in id order so two reschedules can never deadlock.

This module must never return ORM rows, never log or audit patient phone numbers or names (the
reference identifies an appointment), and never import Qt.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from sqlalchemy.orm import Session

from engine.errors import BookingError, SlotTaken, ValidationError
from engine.frontdesk import audit, slot_query
from engine.frontdesk.demo_schedule import seed_schedule
from engine.frontdesk.references import new_reference, normalise_reference
from engine.ops.db import Database
from engine.validation import clean_text

__all__ = [
    "AppointmentView",
    "BookingRequest",
    "BookingService",
    "SlotView",
    "normalise_uk_phone",
    "seed_schedule",
]

LONDON = ZoneInfo("Europe/London")
PARTS_OF_DAY = ("any", "morning", "afternoon")
PHONE_HINT = "Contact number must be a UK phone number such as 020 7946 0100 or 07700 900123"
_REFERENCE_ATTEMPTS = 8


@dataclass(frozen=True)
class SlotView:
    slot_id: int
    starts_at: datetime  # tz-aware, in the service's local time zone
    duration_minutes: int
    clinician_id: int
    clinician: str
    department: str
    is_free: bool


@dataclass(frozen=True)
class AppointmentView:
    reference: str
    slot: SlotView
    patient_name: str
    contact_number: str
    reason: str
    status: str  # "booked" | "cancelled"
    created_by: str
    created_at: datetime
    date_of_birth: date | None = None


@dataclass(frozen=True)
class BookingRequest:
    slot_id: int
    patient_name: str
    contact_number: str
    reason: str = ""
    date_of_birth: date | None = None  # lets the patient check in at the kiosk


def _utc_now() -> datetime:
    return datetime.now(UTC)


def normalise_uk_phone(text: str) -> str:
    """A UK number in national form with conventional spacing, or ValidationError."""
    digits = re.sub(r"[\s\-().]", "", text.strip())
    if digits.startswith("+44"):
        digits = "0" + digits[3:].removeprefix("0")
    elif digits.startswith("0044"):
        digits = "0" + digits[4:].removeprefix("0")
    if not re.fullmatch(r"0[1-9]\d{8,9}", digits):
        raise ValidationError(PHONE_HINT + ".")
    if len(digits) == 11 and digits.startswith("02"):
        return f"{digits[:3]} {digits[3:7]} {digits[7:]}"
    return f"{digits[:5]} {digits[5:]}"


def _validate(request: BookingRequest) -> tuple[str, str, str]:
    clean_text(request.patient_name, "Patient name")
    clean_text(request.contact_number, "Contact number")
    clean_text(request.reason, "Reason")
    name = " ".join(request.patient_name.split())
    if not name:
        raise ValidationError("Patient name is required.")
    if len(name) > 200 or not re.search(r"[^\W\d_]", name):
        raise ValidationError("Patient name must be a name of at most 200 characters.")
    if not request.contact_number.strip():
        raise ValidationError("Contact number is required. " + PHONE_HINT + ".")
    phone = normalise_uk_phone(request.contact_number)
    reason = request.reason.strip()
    if len(reason) > 1000:
        raise ValidationError("Reason must be at most 1000 characters.")
    check_date_of_birth(request.date_of_birth)
    return name, phone, reason


def check_date_of_birth(born: date | None, today: date | None = None) -> None:
    """A date of birth is optional, but never in the future or more than 120 years ago."""
    if born is None:
        return
    today = today or datetime.now(LONDON).date()
    if born > today:
        raise ValidationError("Date of birth cannot be in the future.")
    if today.year - born.year > 120:
        raise ValidationError("Date of birth must be within the last 120 years.")


_SLOT_COLUMNS = """
    s.id AS slot_id, s.starts_at, s.duration_minutes, c.id AS clinician_id,
    c.name AS clinician, d.name AS department
"""
_SLOT_JOINS = """
    FROM slots s JOIN clinicians c ON c.id = s.clinician_id
    JOIN departments d ON d.id = c.department_id
"""
_FREE = "NOT EXISTS (SELECT 1 FROM appointments b WHERE b.slot_id = s.id AND b.status = 'booked')"
_APPOINTMENT_SQL = f"""
    SELECT a.reference, a.patient_name, a.contact_number, a.reason, a.status, a.created_by,
           a.created_at, a.date_of_birth, {_SLOT_COLUMNS}, {_FREE} AS is_free
    FROM appointments a JOIN slots s ON s.id = a.slot_id
    JOIN clinicians c ON c.id = s.clinician_id JOIN departments d ON d.id = c.department_id
"""


class BookingService:
    """Find, book, cancel and reschedule appointments. Every write is audited."""

    def __init__(
        self,
        db: Database,
        *,
        now: Callable[[], datetime] = _utc_now,
        tz: ZoneInfo = LONDON,
        references: Callable[[], str] = new_reference,
    ) -> None:
        self.db = db
        self.now = now
        self.tz = tz
        self._references = references

    # ----- reads ---------------------------------------------------------------------------

    def departments(self) -> list[str]:
        with self.db.session() as s:
            rows = s.execute(sa.text("SELECT name FROM departments ORDER BY name")).all()
        return [str(r[0]) for r in rows]

    def clinicians(self, department: str | None = None) -> list[tuple[int, str, str]]:
        sql = (
            "SELECT c.id, c.name, d.name FROM clinicians c JOIN departments d "
            "ON d.id = c.department_id WHERE (CAST(:d AS text) IS NULL OR d.name = :d) "
            "ORDER BY d.name, c.name"
        )
        with self.db.session() as s:
            rows = s.execute(sa.text(sql), {"d": department}).all()
        return [(int(r[0]), str(r[1]), str(r[2])) for r in rows]

    def _matching_clinician_ids(self, query: str) -> list[int] | None:
        """Clinicians whose name or department matches every meaningful word; None = all."""
        tokens = slot_query.query_tokens(query)
        if not tokens:
            return None
        return [
            clinician_id
            for clinician_id, name, department in self.clinicians()
            if slot_query.matches(tokens, f"{name} {department}")
        ]

    def find_free_slots(
        self,
        query: str = "",
        date_from: date | None = None,
        date_to: date | None = None,
        part_of_day: str = "any",
        limit: int = 50,
    ) -> list[SlotView]:
        """Future free slots matching a forgiving query, earliest first."""
        if part_of_day not in PARTS_OF_DAY:
            raise ValidationError("Part of day must be any, morning or afternoon.")
        query, part_of_day = slot_query.split_part_of_day(query, part_of_day)
        clinician_ids = self._matching_clinician_ids(query)
        if clinician_ids == []:
            return []
        return self._free_slots(
            clinician_ids=clinician_ids,
            date_from=date_from,
            date_to=date_to,
            part_of_day=part_of_day,
            limit=limit,
        )

    def _free_slots(
        self,
        *,
        clinician_ids: Sequence[int] | None = None,
        department: str | None = None,
        date_from: date | None = None,
        date_to: date | None = None,
        part_of_day: str = "any",
        exclude: Iterable[int] = (),
        limit: int = 50,
    ) -> list[SlotView]:
        local = "(s.starts_at AT TIME ZONE :tz)"
        where = ["s.starts_at > :now", _FREE]
        params: dict[str, Any] = {"now": self.now(), "tz": self.tz.key, "limit": max(0, limit)}
        if clinician_ids is not None:
            where.append("s.clinician_id = ANY(:ids)")
            params["ids"] = list(clinician_ids)
        if department is not None:
            where.append("d.name = :dept")
            params["dept"] = department
        if date_from is not None:
            where.append(f"CAST({local} AS date) >= :date_from")
            params["date_from"] = date_from
        if date_to is not None:
            where.append(f"CAST({local} AS date) <= :date_to")
            params["date_to"] = date_to
        if part_of_day == "morning":
            where.append(f"CAST({local} AS time) < TIME '12:00'")
        elif part_of_day == "afternoon":
            where.append(f"CAST({local} AS time) >= TIME '12:00'")
        excluded = list(exclude)
        if excluded:
            where.append("NOT (s.id = ANY(:excluded))")
            params["excluded"] = excluded
        sql = (
            f"SELECT {_SLOT_COLUMNS} {_SLOT_JOINS} WHERE {' AND '.join(where)} "
            "ORDER BY s.starts_at, c.name, s.id LIMIT :limit"
        )
        with self.db.session() as s:
            rows = s.execute(sa.text(sql), params).mappings().all()
        return [self._slot_view(r, is_free=True) for r in rows]

    def _slot_view(self, row: Any, *, is_free: bool) -> SlotView:
        return SlotView(
            slot_id=int(row["slot_id"]),
            starts_at=row["starts_at"].astimezone(self.tz),
            duration_minutes=int(row["duration_minutes"]),
            clinician_id=int(row["clinician_id"]),
            clinician=str(row["clinician"]),
            department=str(row["department"]),
            is_free=is_free,
        )

    def _appointment_view(self, row: Any) -> AppointmentView:
        return AppointmentView(
            reference=str(row["reference"]),
            slot=self._slot_view(row, is_free=bool(row["is_free"])),
            patient_name=str(row["patient_name"]),
            contact_number=str(row["contact_number"]),
            reason=str(row["reason"]),
            status=str(row["status"]),
            created_by=str(row["created_by"]),
            created_at=row["created_at"].astimezone(self.tz),
            date_of_birth=row["date_of_birth"],
        )

    def _appointments(
        self, where: str, params: dict[str, Any], order: str
    ) -> list[AppointmentView]:
        with self.db.session() as s:
            rows = (
                s.execute(sa.text(f"{_APPOINTMENT_SQL} WHERE {where} ORDER BY {order}"), params)
                .mappings()
                .all()
            )
        return [self._appointment_view(r) for r in rows]

    def get(self, reference: str) -> AppointmentView:
        ref = normalise_reference(reference)
        found = [] if ref is None else self._appointments("a.reference = :r", {"r": ref}, "a.id")
        if not found:
            raise BookingError(
                f"No appointment has the reference {reference.strip()!r}. References look like "
                "CL-7KQ2XM; check the letters with the patient, or search by name or phone."
            )
        return found[0]

    def day_view(self, day: date, clinician_id: int | None = None) -> list[AppointmentView]:
        """Booked appointments on one local day, in time order."""
        return self._appointments(
            "a.status = 'booked' AND CAST((s.starts_at AT TIME ZONE :tz) AS date) = :day "
            "AND (CAST(:cid AS integer) IS NULL OR s.clinician_id = :cid)",
            {"tz": self.tz.key, "day": day, "cid": clinician_id},
            "s.starts_at, c.name",
        )

    def search(self, text: str) -> list[AppointmentView]:
        """By reference (exact), patient name (contains) or phone (digits); booked first."""
        text = " ".join(clean_text(text, "The search").split())
        if not text:
            return []
        clauses = ["a.patient_name ILIKE :name ESCAPE '\\'"]
        escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        params: dict[str, Any] = {"name": f"%{escaped}%"}
        ref = normalise_reference(text)
        if ref is not None:
            clauses.append("a.reference = :ref")
            params["ref"] = ref
        digits = re.sub(r"\D", "", text)
        if len(digits) >= 6 and not re.search(r"[^\d\s+\-()]", text):
            if digits.startswith("44"):
                digits = "0" + digits[2:].removeprefix("0")
            clauses.append("regexp_replace(a.contact_number, '[^0-9]', '', 'g') LIKE :digits")
            params["digits"] = f"%{digits.removeprefix('0')}%"
        return self._appointments(
            "(" + " OR ".join(clauses) + ")", params, "(a.status = 'booked') DESC, s.starts_at DESC"
        )[:100]

    def next_free_summary(
        self, query: str, part_of_day: str = "any", on: date | None = None, limit: int = 3
    ) -> list[SlotView]:
        """Read-only: the next few free slots for the assistant chat to mention."""
        return self.find_free_slots(
            query, date_from=on, date_to=on, part_of_day=part_of_day, limit=limit
        )

    def alternatives(self, slot_id: int, limit: int = 5) -> list[SlotView]:
        """The next free slots with the same clinician, then others in the same department."""
        with self.db.session() as s:
            row = (
                s.execute(
                    sa.text(f"SELECT {_SLOT_COLUMNS} {_SLOT_JOINS} WHERE s.id = :id"),
                    {"id": slot_id},
                )
                .mappings()
                .first()
            )
        if row is None:
            return []
        same = self._free_slots(clinician_ids=[row["clinician_id"]], exclude=[slot_id], limit=limit)
        if len(same) >= limit:
            return same
        others = self._free_slots(
            department=str(row["department"]),
            exclude=[slot_id, *(v.slot_id for v in same)],
            limit=limit - len(same),
        )
        return same + others

    # ----- writes --------------------------------------------------------------------------

    def _lock_slot(self, s: Session, slot_id: int) -> Any:
        row = s.execute(
            sa.text("SELECT id, starts_at FROM slots WHERE id = :id FOR UPDATE"), {"id": slot_id}
        ).first()
        if row is None:
            raise BookingError(
                "That slot no longer exists (the schedule may have changed). Please pick another."
            )
        return row

    def _check_bookable(self, s: Session, slot: Any) -> None:
        if slot.starts_at <= self.now():
            raise BookingError(
                "That slot has already started or is in the past. Please pick a later one."
            )
        live = s.execute(
            sa.text("SELECT 1 FROM appointments WHERE slot_id = :id AND status = 'booked'"),
            {"id": slot.id},
        ).first()
        if live is not None:
            raise SlotTaken("That slot was just taken by another booking.")

    def _taken(self, slot_id: int) -> SlotTaken:
        message = "That slot was just taken by another booking. Please choose another time."
        alternatives = self.alternatives(slot_id)
        if alternatives:
            first = alternatives[0]
            message += (
                f" The next free one is {first.starts_at:%a %d %b %H:%M} with {first.clinician}."
            )
        return SlotTaken(message, alternatives)

    def book(self, request: BookingRequest, user: str) -> AppointmentView:
        """Book one exact slot, or raise with an explanation a person can act on."""
        name, phone, reason = _validate(request)
        try:
            with self.db.session() as s:
                slot = self._lock_slot(s, request.slot_id)
                self._check_bookable(s, slot)
                reference = self._insert(s, request, (name, phone, reason), user)
                audit.record(
                    s,
                    user,
                    "book",
                    {
                        "reference": reference,
                        "slot_id": request.slot_id,
                        "starts_at": slot.starts_at.isoformat(),
                    },
                )
        except SlotTaken:
            raise self._taken(request.slot_id) from None
        return self.get(reference)

    def _insert(
        self, s: Session, request: BookingRequest, fields: tuple[str, str, str], user: str
    ) -> str:
        name, phone, reason = fields
        for _ in range(_REFERENCE_ATTEMPTS):
            reference = self._references()
            try:
                with s.begin_nested():
                    s.execute(
                        sa.text(
                            "INSERT INTO appointments (slot_id, reference, patient_name, "
                            "contact_number, reason, date_of_birth, status, created_by, "
                            "created_at) VALUES (:slot, :ref, :name, :phone, :reason, :born, "
                            "'booked', :user, :at)"
                        ),
                        {
                            "slot": request.slot_id,
                            "born": request.date_of_birth,
                            "ref": reference,
                            "name": name,
                            "phone": phone,
                            "reason": reason,
                            "user": user,
                            "at": self.now(),
                        },
                    )
            except sa.exc.IntegrityError as exc:
                if _constraint(exc) == "appointments_one_booking_per_slot":
                    raise SlotTaken("That slot was just taken by another booking.") from exc
                if _constraint(exc) != "appointments_reference_key":
                    raise
                continue  # reference collision: draw another
            return reference
        raise BookingError("Could not create a unique reference. Please try again.")

    def _locked_appointment(self, s: Session, reference: str) -> Any:
        """Lock the appointment's slot, then the appointment row (always slots first)."""
        ref = normalise_reference(reference)
        current = self.get(reference)  # raises for unknown references
        self._lock_slot(s, current.slot.slot_id)
        row = s.execute(
            sa.text("SELECT id, slot_id, status FROM appointments WHERE reference = :r FOR UPDATE"),
            {"r": ref},
        ).first()
        if row is None or row.slot_id != current.slot.slot_id:
            raise BookingError("That appointment changed a moment ago. Please look it up again.")
        return row

    def cancel(self, reference: str, user: str) -> AppointmentView:
        """Cancel a booked appointment and free its slot."""
        with self.db.session() as s:
            row = self._locked_appointment(s, reference)
            if row.status != "booked":
                raise BookingError(
                    f"Appointment {normalise_reference(reference)} is already cancelled."
                )
            s.execute(
                sa.text(
                    "UPDATE appointments SET status = 'cancelled', cancelled_by = :u, "
                    "cancelled_at = :at WHERE id = :id"
                ),
                {"u": user, "at": self.now(), "id": row.id},
            )
            audit.record(
                s,
                user,
                "cancel",
                {"reference": normalise_reference(reference), "slot_id": row.slot_id},
            )
        return self.get(reference)

    def reschedule(self, reference: str, new_slot_id: int, user: str) -> AppointmentView:
        """Move a booked appointment (same reference) to another slot, atomically."""
        current = self.get(reference)
        old_slot_id = current.slot.slot_id
        if new_slot_id == old_slot_id:
            raise BookingError("The appointment is already in that slot.")
        try:
            with self.db.session() as s:
                slots = {}
                for slot_id in sorted((old_slot_id, new_slot_id)):
                    slots[slot_id] = self._lock_slot(s, slot_id)
                row = s.execute(
                    sa.text(
                        "SELECT id, slot_id, status FROM appointments "
                        "WHERE reference = :r FOR UPDATE"
                    ),
                    {"r": current.reference},
                ).first()
                if row is None or row.slot_id != old_slot_id:
                    raise BookingError(
                        "That appointment changed a moment ago. Please look it up again."
                    )
                if row.status != "booked":
                    raise BookingError(
                        f"Appointment {current.reference} is cancelled; book a new one instead."
                    )
                self._check_bookable(s, slots[new_slot_id])
                try:
                    with s.begin_nested():
                        s.execute(
                            sa.text("UPDATE appointments SET slot_id = :new WHERE id = :id"),
                            {"new": new_slot_id, "id": row.id},
                        )
                except sa.exc.IntegrityError as exc:
                    if _constraint(exc) == "appointments_one_booking_per_slot":
                        raise SlotTaken("That slot was just taken.") from exc
                    raise
                audit.record(
                    s,
                    user,
                    "reschedule",
                    {
                        "reference": current.reference,
                        "from_slot_id": old_slot_id,
                        "to_slot_id": new_slot_id,
                    },
                )
        except SlotTaken:
            raise self._taken(new_slot_id) from None
        return self.get(current.reference)


def _constraint(exc: sa.exc.IntegrityError) -> str | None:
    diag = getattr(exc.orig, "diag", None)
    name = getattr(diag, "constraint_name", None)
    return None if name is None else str(name)
