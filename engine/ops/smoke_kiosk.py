"""The waiting-room part of the ``--smoke-test``s: a check-in and a live update.

On the real database, as the kiosk does it: a booking is made for today (as the table owner, the
way the desk's booking form writes one), the kiosk checks in by its reference through its OWN
connection (the ``clinic_kiosk`` role on the embedded server, whose only way into appointments is
``clinic_check_in``), a listener on that same connection hears the desk call the ticket to a
room, and the kiosk's own reads (its position, the display board's called tickets) show the call.
The ticket is then seen and the smoke booking cancelled, so no live booking is left behind.
The staff smoke test uses :func:`smoke_booking` and :class:`Heard` for its desk check-in.

It decides only what the smoke test checks; it must never touch another patient's booking (the
check-in is by the smoke booking's own reference, never by date of birth).
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from zoneinfo import ZoneInfo

import sqlalchemy as sa

from engine.frontdesk.booking import BookingService, seed_schedule
from engine.frontdesk.queue_listener import QUEUE_CHANNEL, ChangeListener
from engine.frontdesk.references import new_reference
from engine.frontdesk.waiting_queue import QueueService
from engine.ops.db import Database
from engine.ops.service import ServiceBackend
from engine.ops.settings import Settings
from engine.protocols import Embedder

Check = tuple[str, bool]
SMOKE_USER = "smoke-test"
LONDON = ZoneInfo("Europe/London")
HEAR_SECONDS = 10.0


def smoke_booking(db: Database, tz: ZoneInfo, user: str = SMOKE_USER) -> str:
    """A booking a few minutes either side of now, always on today's date where the clinic is
    (the check-in matches only today's bookings), for the first clinician; its reference."""
    if not BookingService(db).departments():
        seed_schedule(db, start=dt.date.today(), weeks=1)
    reference = new_reference()
    with db.session() as s:
        now: dt.datetime = s.execute(sa.text("SELECT now()")).scalar_one()
        at = now - dt.timedelta(minutes=5)
        if at.astimezone(tz).date() != now.astimezone(tz).date():
            at = now + dt.timedelta(minutes=5)  # just after midnight
        clinician: int = s.execute(
            sa.text("SELECT id FROM clinicians ORDER BY id LIMIT 1")
        ).scalar_one()
        slot: int = s.execute(
            sa.text(
                "INSERT INTO slots (clinician_id, starts_at, duration_minutes) "
                "VALUES (:c, :t, 15) RETURNING id"
            ),
            {"c": clinician, "t": at},
        ).scalar_one()
        s.execute(
            sa.text(
                "INSERT INTO appointments (slot_id, reference, patient_name, contact_number, "
                "reason, status, created_by) VALUES (:s, :r, 'Smoke Test', '020 7946 0000', "
                "'kiosk smoke test', 'booked', :u)"
            ),
            {"s": slot, "r": reference, "u": user},
        )
    return reference


class Heard:
    """Queue notifications heard on one connection, by entry id."""

    def __init__(self, url: str) -> None:
        self.listener = ChangeListener(url, (QUEUE_CHANNEL,), poll_seconds=0.1)
        self.states: dict[int, list[str]] = {}
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        for change in self.listener.changes():
            entry = change.payload.get("id")
            if isinstance(entry, int):
                with self._changed:
                    self.states.setdefault(entry, []).append(str(change.payload.get("state")))
                    self._changed.notify_all()

    def start(self) -> None:
        self._thread.start()
        time.sleep(0.5)  # listening before the first change

    def wait_for(self, entry: int, state: str) -> bool:
        with self._changed:
            return self._changed.wait_for(
                lambda: state in self.states.get(entry, []), timeout=HEAR_SECONDS
            )

    def stop(self) -> None:
        self.listener.stop()
        self._thread.join(timeout=5)


def kiosk_queue_smoke(settings: Settings, owner: Database, embedder: Embedder) -> list[Check]:
    """Check in through the kiosk's own connection and hear the desk's call live there."""
    tz = LONDON
    kiosk_backend = ServiceBackend(settings, audience="public", channel="kiosk", embedder=embedder)
    kiosk_db = kiosk_backend.database()  # the kiosk's role, as the kiosk app connects
    kiosk = QueueService(kiosk_db, settings.queue, tz=tz)
    desk = QueueService(owner, settings.queue, tz=tz)
    checks: list[Check] = []
    reference = smoke_booking(owner, tz)
    heard = Heard(str(kiosk_db.url))
    heard.start()
    try:
        source = "kiosk:smoke-test"
        found = kiosk.check_in(source, reference=reference)
        done = kiosk.check_in(source, reference=reference, confirm=True)
        entry = done.entry_id
        checks.append(
            (
                f"checked in at the kiosk by reference: {found.status} -> {done.status}, "
                f"ticket {done.ticket}",
                found.status == "found" and done.status == "checked_in" and entry is not None,
            )
        )
        if entry is None:
            return checks
        arrived = heard.wait_for(entry, "arrived")
        desk.call(entry, "Room 1", SMOKE_USER)
        called = heard.wait_for(entry, "called")
        position = kiosk.position(entry)
        board = [t.ticket for t in kiosk.called_tickets()]
        checks.append(
            (
                "live update heard on the kiosk's connection: "
                f"{', '.join(heard.states.get(entry, [])) or 'nothing'}",
                arrived and called,
            )
        )
        checks.append(
            (
                "the kiosk sees the call (its position and the display board)",
                position is not None
                and position.state == "called"
                and position.room == "Room 1"
                and done.ticket in board,
            )
        )
        desk.start(entry, SMOKE_USER)
        desk.finish(entry, SMOKE_USER)
        checks.append(("the ticket seen and done, heard live", heard.wait_for(entry, "done")))
    finally:
        heard.stop()
        try:
            BookingService(owner).cancel(reference, user=SMOKE_USER)
        finally:
            kiosk_db.dispose()
    return checks
