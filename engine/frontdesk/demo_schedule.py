"""A realistic demonstration schedule: six departments, British clinicians, weekday sessions.

Used by ``clinic-assistant seed-schedule`` and by tests. Idempotent: running it twice does not
duplicate anything. It must never be run against a live clinic's appointment book by the apps
themselves; it is a command an administrator chooses to run. Contact numbers are from Ofcom's
drama ranges (07700 900xxx), so no real person is ever called.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import sqlalchemy as sa

from engine.frontdesk import audit
from engine.frontdesk.references import LENGTH
from engine.ops.db import Database

LONDON = ZoneInfo("Europe/London")
_REFERENCE_ATTEMPTS = 8
_CLINIC: dict[str, tuple[int, list[str]]] = {
    "General Practice": (15, ["Dr Priya Patel", "Dr James Whitfield", "Dr Fiona MacLeod"]),
    "Cardiology": (30, ["Dr Oliver Hughes", "Dr Aisha Rahman"]),
    "Dermatology": (20, ["Dr Eleanor Shaw", "Dr Thomas Gallagher"]),
    "Physiotherapy": (30, ["Sarah Jenkins", "Gareth Powell"]),
    "Paediatrics": (20, ["Dr Hannah O'Brien", "Dr Samuel Okafor"]),
    "Women's Health": (20, ["Dr Catherine Lloyd", "Dr Meera Shah", "Dr Rebecca Turner"]),
}
_SESSIONS = ((time(9, 0), time(12, 30)), (time(13, 30), time(17, 0)))
_PATIENTS = [
    "Margaret Evans",
    "David Thompson",
    "Chloe Roberts",
    "Harry Wilson",
    "Amelia Clarke",
    "George Wright",
    "Isla Campbell",
    "Mohammed Ali",
    "Grace Edwards",
    "Jack Robinson",
]


def seed_schedule(db: Database, start: date, weeks: int = 3, seed: int = 7) -> int:
    """Create a realistic demo schedule from ``start``; returns the number of new slots.

    Idempotent: departments, clinicians and slots that exist are left alone, and pre-booked
    appointments are only added to slots created by this call.
    """
    rng = random.Random(seed)
    created: list[int] = []
    with db.session() as s:
        for department, (minutes, names) in _CLINIC.items():
            s.execute(
                sa.text("INSERT INTO departments (name) VALUES (:n) ON CONFLICT (name) DO NOTHING"),
                {"n": department},
            )
            dept_id: int = s.execute(
                sa.text("SELECT id FROM departments WHERE name = :n"), {"n": department}
            ).scalar_one()
            for name in names:
                clinician_id: int | None = s.execute(
                    sa.text("SELECT id FROM clinicians WHERE name = :n AND department_id = :d"),
                    {"n": name, "d": dept_id},
                ).scalar()
                if clinician_id is None:
                    clinician_id = s.execute(
                        sa.text(
                            "INSERT INTO clinicians (name, department_id) VALUES (:n, :d) "
                            "RETURNING id"
                        ),
                        {"n": name, "d": dept_id},
                    ).scalar_one()
                working_days = sorted(rng.sample(range(5), rng.choice((3, 4, 5))))
                for offset in range(weeks * 7):
                    day = start + timedelta(days=offset)
                    if day.weekday() not in working_days:
                        continue
                    for begin, end in _SESSIONS:
                        at = datetime.combine(day, begin, tzinfo=LONDON)
                        finish = datetime.combine(day, end, tzinfo=LONDON)
                        while at + timedelta(minutes=minutes) <= finish:
                            new_id = s.execute(
                                sa.text(
                                    "INSERT INTO slots (clinician_id, starts_at, "
                                    "duration_minutes) VALUES (:c, :t, :m) "
                                    "ON CONFLICT (clinician_id, starts_at) DO NOTHING RETURNING id"
                                ),
                                {"c": clinician_id, "t": at, "m": minutes},
                            ).scalar()
                            if new_id is not None:
                                created.append(int(new_id))
                            at += timedelta(minutes=minutes)
        chosen = set(rng.sample(created, min(len(created), max(1, len(created) // 12))))
        # The first day is busy (about 60% booked) so the waiting-room demo has a queue.
        first_day: Iterable[int] = s.execute(
            sa.text(
                "SELECT id FROM slots WHERE id = ANY(:ids) "
                "AND (starts_at AT TIME ZONE 'Europe/London')::date = :d ORDER BY id"
            ),
            {"ids": created, "d": start},
        ).scalars()
        chosen.update(i for i in first_day if rng.random() < 0.6)
        for slot_id in sorted(chosen):
            patient = rng.choice(_PATIENTS)
            phone = f"07700 900{rng.randrange(1000):03d}"
            born = date(1940, 1, 1) + timedelta(days=rng.randrange(75 * 365))
            for _ in range(_REFERENCE_ATTEMPTS):
                reference = "CL-" + "".join(
                    rng.choice("ABCDEFGHJKMNPQRSTUVWXYZ23456789") for _ in range(LENGTH)
                )
                inserted = s.execute(
                    sa.text(
                        "INSERT INTO appointments (slot_id, reference, patient_name, "
                        "contact_number, reason, date_of_birth, created_by) VALUES "
                        "(:s, :r, :n, :p, 'Follow-up', :b, 'seed') "
                        "ON CONFLICT DO NOTHING RETURNING id"
                    ),
                    {"s": slot_id, "r": reference, "n": patient, "p": phone, "b": born},
                ).scalar()
                if inserted is not None:
                    break
        audit.record(
            s, "seed", "seed_schedule", {"start": start.isoformat(), "slots": len(created)}
        )
    return len(created)
