"""Bookings placed relative to the database's own clock, for waiting-room tests (check-in uses
the server's ``now()``, so these never depend on the test machine's clock)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import sqlalchemy as sa

from engine.ops.db import Database

BORN = dt.date(1961, 4, 9)


def db_now(db: Database) -> dt.datetime:
    with db.session() as s:
        value: dt.datetime = s.execute(sa.text("SELECT now()")).scalar_one()
    return value


class Today:
    """Two departments with one clinician each, and ``book`` for appointments around now."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.now = db_now(db)
        self.ids: dict[str, int] = {}
        with db.session() as s:
            for dep, clin in (("Physiotherapy", "Dr Lena Fischer"), ("Nursing", "Nurse Shah")):
                dep_id = s.execute(
                    sa.text("INSERT INTO departments (name) VALUES (:n) RETURNING id"), {"n": dep}
                ).scalar_one()
                self.ids[dep] = s.execute(
                    sa.text(
                        "INSERT INTO clinicians (name, department_id) VALUES (:c, :d) RETURNING id"
                    ),
                    {"c": clin, "d": dep_id},
                ).scalar_one()

    def book(
        self,
        name: str,
        minutes_from_now: int,
        *,
        born: dt.date | None = BORN,
        department: str = "Physiotherapy",
        reference: str | None = None,
        status: str = "booked",
    ) -> str:
        at = self.now + dt.timedelta(minutes=minutes_from_now)
        reference = reference or f"CL-{len(self.ids) + 100:06d}".replace("0", "A").replace("1", "B")
        with self.db.session() as s:
            slot = s.execute(
                sa.text(
                    "INSERT INTO slots (clinician_id, starts_at, duration_minutes) "
                    "VALUES (:c, :t, 15) RETURNING id"
                ),
                {"c": self.ids[department], "t": at},
            ).scalar_one()
            s.execute(
                sa.text(
                    "INSERT INTO appointments (slot_id, reference, patient_name, contact_number, "
                    "date_of_birth, status, created_by) VALUES (:s, :r, :n, '07700 900123', :b, "
                    ":st, 'test')"
                ),
                {"s": slot, "r": reference, "n": name, "b": born, "st": status},
            )
        self.ids[reference] = slot
        return reference


def kiosk_url(url: str, password: str = "kiosk-pw-1") -> str:
    """``url`` as the clinic_kiosk role (after ``init_roles`` with that password)."""
    from engine.ops.roles import KIOSK_ROLE

    return (
        sa.engine.make_url(url)
        .set(username=KIOSK_ROLE, password=password)
        .render_as_string(hide_password=False)
    )


def too_close_to_midnight(db: Database) -> bool:
    """Bookings the tests make around now (30 minutes before to 50 after) could fall on another
    day where the clinic is: check-in matches today's date in London, on either side of midnight
    (the old check, in UTC, missed the first minutes after a winter midnight)."""
    local = db_now(db).astimezone(ZoneInfo("Europe/London"))
    minutes = local.hour * 60 + local.minute
    return minutes < 40 or minutes >= 23 * 60
