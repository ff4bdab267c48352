"""The waiting room on the real database: self check-in (privacy, guessing limit, lateness), the
queue's allowed moves with audit, wait estimates, NOTIFY to listeners, and the kiosk role."""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Iterator
from dataclasses import fields

import psycopg
import pytest
import sqlalchemy as sa

from engine.errors import BookingError, ValidationError
from engine.frontdesk.queue_listener import Change, ChangeListener
from engine.frontdesk.waiting_queue import CheckIn, QueueService, describe_position
from engine.ops.db import Database
from engine.ops.roles import init_roles
from engine.ops.settings import QueueSettings
from tests.support.waiting_room import BORN, Today, kiosk_url, too_close_to_midnight


@pytest.fixture
def today(db: Database) -> Today:
    if too_close_to_midnight(db):
        pytest.skip("too close to midnight for same-day bookings")
    return Today(db)


@pytest.fixture
def queue(db: Database) -> QueueService:
    return QueueService(db, QueueSettings(default_consultation_minutes=12))


def test_check_in_by_birth_date_and_initial_shows_no_name(queue, today) -> None:
    today.book("Maria Lopez", 20, reference="CL-MARAAA")
    found = queue.check_in("kiosk-1", date_of_birth=BORN, initial="l")
    assert found.status == "found" and found.entry_id is None  # nothing written before Confirm
    assert found.department == "Physiotherapy" and found.clinician == "Dr Lena Fischer"
    # A kiosk-facing result has no field that could carry a name or phone number.
    names = {f.name for f in fields(CheckIn)}
    assert not names & {"patient", "patient_name", "name", "contact_number", "phone"}
    assert "Maria" not in repr(found) and "Lopez" not in repr(found)

    done = queue.check_in("kiosk-1", date_of_birth=BORN, initial="L", confirm=True)
    assert done.status == "checked_in" and done.ticket == 1 and not done.late
    again = queue.check_in("kiosk-1", date_of_birth=BORN, initial="L", confirm=True)
    assert again.status == "already" and again.ticket == 1
    [item] = queue.entries()
    assert item.patient == "Maria Lopez" and item.state == "arrived"  # staff see the name


def test_surname_initial_is_the_last_word_and_other_days_never_match(queue, today) -> None:
    today.book("Anne-Marie van Dyke", 30, reference="CL-VANAAA")
    today.book("Tom Dyke", 60 * 30, reference="CL-TOMAAA")  # tomorrow-ish: not today
    assert queue.check_in("k", date_of_birth=BORN, initial="V").status == "none"
    assert queue.check_in("k", date_of_birth=BORN, initial="D").status == "found"
    today.book("Zed Cancelled", 40, born=dt.date(1990, 1, 1), status="cancelled")
    assert queue.check_in("k", date_of_birth=dt.date(1990, 1, 1), initial="C").status == "none"


def test_two_matches_ask_for_the_reference(queue, today) -> None:
    today.book("Ann Smith", 10, reference="CL-SMAAAA")
    today.book("Alan Stone", 50, reference="CL-STAAAA")
    several = queue.check_in("k", date_of_birth=BORN, initial="S")
    assert several.status == "several" and several.matches == 2
    assert several.department is None and several.starts_at is None
    done = queue.check_in("k", reference="cl staaaa", confirm=True)
    assert done.status == "checked_in"
    assert done.starts_at is not None and done.starts_at > today.now


def test_guessing_is_limited_per_kiosk(queue, today) -> None:
    today.book("Maria Lopez", 20)
    for day in range(1, 6):
        wrong = queue.check_in("kiosk-1", date_of_birth=dt.date(1970, 1, day), initial="L")
        assert wrong.status == "none"
    # Even the right details are refused now at that kiosk; another kiosk is not affected.
    assert queue.check_in("kiosk-1", date_of_birth=BORN, initial="L").status == "throttled"
    assert queue.check_in("kiosk-2", date_of_birth=BORN, initial="L").status == "found"


def test_bad_input_is_a_validation_error(queue) -> None:
    with pytest.raises(ValidationError):
        queue.check_in("k", reference="not a reference")
    with pytest.raises(ValidationError):
        queue.check_in("k", date_of_birth=BORN, initial="")
    with pytest.raises(ValidationError):
        queue.check_in("k")


def test_late_arrivals_are_checked_in_and_flagged(queue, today) -> None:
    today.book("Maria Lopez", -30)
    done = queue.check_in("k", date_of_birth=BORN, initial="L", confirm=True)
    assert done.status == "checked_in" and done.late
    assert queue.entries()[0].late


def test_queue_moves_are_checked_and_audited(queue, today, db) -> None:
    today.book("Maria Lopez", 5)
    entry = queue.check_in("k", date_of_birth=BORN, initial="L", confirm=True).entry_id
    assert entry is not None
    with pytest.raises(BookingError, match="cannot become done"):
        queue.finish(entry, "amy")
    with pytest.raises(ValidationError):
        queue.call(entry, "  ", "amy")
    called = queue.call(entry, "Room 3", "amy")
    assert called.state == "called" and called.room == "Room 3"
    assert queue.start(entry, "amy").state == "in_consultation"
    assert queue.finish(entry, "amy").state == "done"
    assert queue.entries() == []  # done leaves the open queue
    with db.session() as s:
        actions = s.execute(
            sa.text(
                "SELECT username, action FROM audit_events WHERE action LIKE 'queue.%' ORDER BY id"
            )
        ).all()
    assert [tuple(a) for a in actions] == [
        ("k", "queue.check_in"),
        ("amy", "queue.called"),
        ("amy", "queue.in_consultation"),
        ("amy", "queue.done"),
    ]
    summary = queue.summary()
    assert (summary.arrived, summary.seen, summary.no_shows, summary.waiting) == (1, 1, 0, 0)
    assert summary.median_wait_minutes is not None


def test_people_ahead_and_minutes(queue, today) -> None:
    # Booked a little before now, so a walk-in arriving now queues behind all three.
    for name, day in (("Ann Able", 5), ("Bob Baker", 10), ("Cat Cole", 15)):
        today.book(name, day - 16, born=dt.date(1980, 1, day))
    ids = [
        queue.check_in("k", date_of_birth=dt.date(1980, 1, d), initial=i, confirm=True).entry_id
        for d, i in ((15, "C"), (5, "A"), (10, "B"))  # arrival order differs from booking order
    ]
    walk_in = queue.walk_in("physio", "amy", name="Dan Drew")
    positions = [queue.position(i) for i in ids]
    assert [p.ahead for p in positions if p] == [2, 0, 1]  # by appointment time, not arrival
    cat = positions[0]
    assert cat is not None and cat.minutes == 24 and not cat.estimated_from_history
    assert "2 people are ahead of you for Physiotherapy, about 24 minutes" in describe_position(cat)
    assert queue.position(walk_in.entry_id).ahead == 3  # type: ignore[union-attr]
    first = queue.call_next("physio", "Room 1", "amy")
    assert first is not None and first.patient == "Ann Able"
    assert "go to Room 1" in describe_position(queue.position(ids[1]))  # type: ignore[arg-type]
    assert queue.position(ids[0]).ahead == 1  # type: ignore[union-attr]
    assert queue.call_next("nursing", "Room 2", "amy") is None


@pytest.fixture
def listener(db: Database) -> Iterator[tuple[ChangeListener, list[Change], threading.Event]]:
    listener = ChangeListener(db.url, poll_seconds=0.1)
    seen: list[Change] = []
    arrived = threading.Event()

    def run() -> None:
        for change in listener.changes():
            seen.append(change)
            arrived.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    time.sleep(0.5)  # let it connect and LISTEN before the change
    yield listener, seen, arrived
    listener.stop()
    thread.join(timeout=5)


def test_every_change_is_notified_without_names(queue, today, listener) -> None:
    _listener, seen, arrived = listener
    today.book("Maria Lopez", 5)
    entry = queue.check_in("k", date_of_birth=BORN, initial="L", confirm=True).entry_id
    assert arrived.wait(5)
    queue.call(entry, "Room 3", "amy")  # type: ignore[arg-type]
    deadline = time.monotonic() + 5
    while len(seen) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [c.payload["state"] for c in seen] == ["arrived", "called"]
    assert seen[1].payload["room"] == "Room 3" and seen[1].payload["ticket"] == 1
    assert all("Maria" not in str(c.payload) for c in seen)


class _DownOnceListener(ChangeListener):
    """The real listener, whose first connection attempt finds the database down."""

    def __init__(self, url: str) -> None:
        super().__init__(url, poll_seconds=0.1, sleep=lambda _seconds: False)
        self.opened: list[psycopg.Connection[object]] = []
        self.refused = False

    def _connect(self) -> psycopg.Connection[object]:
        if not self.refused:
            self.refused = True
            raise psycopg.OperationalError("connection refused")
        conn = super()._connect()
        self.opened.append(conn)
        return conn


def test_a_listener_stopped_at_the_reconnected_change_closes_its_connection(db) -> None:
    """A desk that stops listening right after 'connected again' leaves no connection open."""
    listener = _DownOnceListener(db.url)
    changes = listener.changes()
    assert next(changes).reconnected
    changes.close()
    assert len(listener.opened) == 1 and listener.opened[0].closed


def test_the_kiosk_role_checks_in_but_cannot_read_appointments(db, today) -> None:
    init_roles(db, kiosk_password="kiosk-pw-1", staff_password="staff-pw-1")
    today.book("Maria Lopez", 20)
    kiosk_db = Database(kiosk_url(db.url))
    try:
        kiosk_queue = QueueService(kiosk_db)
        done = kiosk_queue.check_in("kiosk-1", date_of_birth=BORN, initial="L", confirm=True)
        assert done.status == "checked_in"
        assert kiosk_queue.position(done.entry_id).ahead == 0  # type: ignore[arg-type,union-attr]
        for table in ("appointments", "queue_entries", "check_in_attempts"):
            with (
                pytest.raises(sa.exc.ProgrammingError, match="permission denied"),
                kiosk_db.engine.connect() as conn,
            ):
                conn.execute(sa.text(f"SELECT * FROM {table}"))
    finally:
        kiosk_db.dispose()


def test_the_board_reads_tickets_through_the_kiosk_role(db: Database) -> None:
    if too_close_to_midnight(db):
        pytest.skip("too close to midnight for same-day bookings")
    today = Today(db)
    today.book("Maria Lopez", 5)
    queue = QueueService(db)
    entry = queue.check_in("k", date_of_birth=BORN, initial="L", confirm=True).entry_id
    assert queue.called_tickets() == []
    queue.call(entry, "Room 3", "amy")  # type: ignore[arg-type]
    init_roles(db, kiosk_password="kiosk-pw-1", staff_password="staff-pw-1")
    kiosk = Database(kiosk_url(db.url))
    try:
        [called] = QueueService(kiosk).called_tickets()
    finally:
        kiosk.dispose()
    assert (called.ticket, called.room, called.state) == (1, "Room 3", "called")
    assert "Maria" not in repr(called)
