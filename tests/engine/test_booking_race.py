"""Real races: many clients, each with its own connection pool, released together on one slot."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from engine.errors import SlotTaken
from engine.frontdesk.booking import AppointmentView, BookingRequest, BookingService
from engine.ops.db import Database

pytestmark = pytest.mark.slow

NOW = datetime(2030, 6, 3, 7, 0, tzinfo=UTC)


def make_slots(db: Database, count: int) -> list[int]:
    with db.engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO departments (name) VALUES ('Cardiology')"))
        clinician = conn.execute(
            sa.text(
                "INSERT INTO clinicians (name, department_id) "
                "SELECT 'Dr Oliver Hughes', id FROM departments RETURNING id"
            )
        ).scalar_one()
        return [
            conn.execute(
                sa.text(
                    "INSERT INTO slots (clinician_id, starts_at, duration_minutes) "
                    "VALUES (:c, :t, 15) RETURNING id"
                ),
                {"c": clinician, "t": NOW + timedelta(hours=2, minutes=15 * i)},
            ).scalar_one()
            for i in range(count)
        ]


def race(
    database_url: str, count: int, action: Callable[[BookingService, int], AppointmentView]
) -> tuple[list[AppointmentView], list[BaseException]]:
    """Run ``action(service, i)`` in ``count`` threads, each with its own pool, all at once."""
    barrier = threading.Barrier(count, timeout=30)
    results: list[AppointmentView] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def worker(index: int) -> None:
        db = Database(database_url, pool_size=1)
        try:
            db.ping()  # connect before the start line so the race is on the lock, not on connect
            service = BookingService(db, now=lambda: NOW)
            barrier.wait()
            try:
                result = action(service, index)
            except BaseException as exc:
                with lock:
                    errors.append(exc)
            else:
                with lock:
                    results.append(result)
        finally:
            db.dispose()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a racing client hung"
    return results, errors


def live_bookings(db: Database, slot_id: int) -> int:
    with db.engine.connect() as conn:
        return int(
            conn.execute(
                sa.text(
                    "SELECT count(*) FROM appointments WHERE slot_id = :s AND status = 'booked'"
                ),
                {"s": slot_id},
            ).scalar_one()
        )


def test_twenty_clients_racing_for_one_slot_get_exactly_one_booking(
    db: Database, database_url: str
) -> None:
    (slot_id,) = make_slots(db, 1)

    def book(service: BookingService, i: int) -> AppointmentView:
        return service.book(BookingRequest(slot_id, f"Patient {i}", "07700 900123"), f"desk{i}")

    results, errors = race(database_url, 24, book)
    assert len(results) == 1
    assert len(errors) == 23
    assert all(isinstance(e, SlotTaken) and "just taken" in str(e) for e in errors), errors
    with db.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM appointments")).scalar_one() == 1
    assert live_bookings(db, slot_id) == 1


def test_ten_reschedules_into_one_slot_move_exactly_one_appointment(
    db: Database, database_url: str
) -> None:
    *origins, target = make_slots(db, 11)
    service = BookingService(db, now=lambda: NOW)
    references = [
        service.book(BookingRequest(slot, f"Patient {i}", "07700 900123"), "desk").reference
        for i, slot in enumerate(origins)
    ]

    def move(racer: BookingService, i: int) -> AppointmentView:
        return racer.reschedule(references[i], target, f"desk{i}")

    results, errors = race(database_url, 10, move)
    assert len(results) == 1
    assert len(errors) == 9
    assert all(isinstance(e, SlotTaken) for e in errors), errors
    assert live_bookings(db, target) == 1
    winner = results[0].reference
    for reference, origin in zip(references, origins, strict=True):
        view = service.get(reference)
        assert view.status == "booked"
        # The winner moved; every loser is still exactly where it was.
        assert view.slot.slot_id == (target if reference == winner else origin)
