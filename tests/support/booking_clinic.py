"""A tiny, fully known schedule for booking tests (June 2030, so London is on BST = UTC+1)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import sqlalchemy as sa

from engine.frontdesk.booking import BookingRequest, BookingService
from engine.ops.db import Database

LONDON = ZoneInfo("Europe/London")
NOW = datetime(2030, 6, 3, 7, 0, tzinfo=UTC)  # Monday 3 June 2030, 08:00 in London

# name -> (department, clinician, day of June, hour, minute) in London time
SLOTS = {
    "patel_past": ("General Practice", "Dr Priya Patel", 3, 7, 30),
    "hughes_mon_0930": ("Cardiology", "Dr Oliver Hughes", 3, 9, 30),
    "hughes_mon_1000": ("Cardiology", "Dr Oliver Hughes", 3, 10, 0),
    "patel_mon_1130": ("General Practice", "Dr Priya Patel", 3, 11, 30),
    "patel_mon_1200": ("General Practice", "Dr Priya Patel", 3, 12, 0),
    "hughes_tue_1400": ("Cardiology", "Dr Oliver Hughes", 4, 14, 0),
    "rahman_tue_0900": ("Cardiology", "Dr Aisha Rahman", 4, 9, 0),
    "shaw_wed_0900": ("Dermatology", "Dr Eleanor Shaw", 5, 9, 0),
}


@dataclass
class Clinic:
    service: BookingService
    slots: dict[str, int]
    clinicians: dict[str, int]

    def book(self, slot: str, name: str = "Ada Lovelace", phone: str = "07700 900123") -> str:
        request = BookingRequest(self.slots[slot], name, phone, "check-up")
        return self.service.book(request, "frontdesk").reference


def build_clinic(db: Database) -> Clinic:
    slots: dict[str, int] = {}
    clinicians: dict[str, int] = {}
    with db.engine.begin() as conn:
        for key, (department, clinician, day, hour, minute) in SLOTS.items():
            conn.execute(
                sa.text("INSERT INTO departments (name) VALUES (:n) ON CONFLICT DO NOTHING"),
                {"n": department},
            )
            if clinician not in clinicians:
                clinicians[clinician] = conn.execute(
                    sa.text(
                        "INSERT INTO clinicians (name, department_id) "
                        "SELECT :c, id FROM departments WHERE name = :d RETURNING id"
                    ),
                    {"c": clinician, "d": department},
                ).scalar_one()
            slots[key] = conn.execute(
                sa.text(
                    "INSERT INTO slots (clinician_id, starts_at, duration_minutes) "
                    "VALUES (:c, :t, 15) RETURNING id"
                ),
                {
                    "c": clinicians[clinician],
                    "t": datetime(2030, 6, day, hour, minute, tzinfo=LONDON),
                },
            ).scalar_one()
    return Clinic(BookingService(db, now=lambda: NOW), slots, clinicians)
