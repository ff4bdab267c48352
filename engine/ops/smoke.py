"""The ``--smoke-test`` modes of both apps (and of the frozen builds).

Start (or join) the database, ingest the sample knowledge, and answer extractively. A smoke test
succeeds only on a cited answer: one that "passes" with "I don't know" proves nothing.

- kiosk: one public question, through whatever runner the app passes (the kiosk passes the real
  Qt worker, offscreen); then a self check-in through the kiosk's own database role (by booking
  reference, on a booking made for the smoke test), and the desk calling that ticket heard live
  by a listener on the kiosk's connection, with the kiosk's own reads (position, display board)
  showing the call;
- staff: a temporary account is created and signs in, one staff-only question must be answered
  from a staff document, one free slot is booked and cancelled, a booking made for the test is
  checked in at the desk and a walk-in added, both called and seen with every change heard live
  (the booking is cancelled after), and the account is disabled.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable
from dataclasses import replace

import sqlalchemy as sa

from engine.events import DoneEvent, Outcome
from engine.knowledge.embeddings import load_embedder
from engine.knowledge.ingest import Ingester
from engine.knowledge.ingest.results import IngestReport
from engine.ops.db import Database, open_database
from engine.ops.paths import knowledge_dir
from engine.ops.service import ServiceBackend
from engine.ops.settings import Settings
from engine.ops.smoke_kiosk import Heard, kiosk_queue_smoke, smoke_booking

SMOKE_QUESTION = "What are the clinic's opening hours?"
STAFF_SMOKE_QUESTION = "When do the couriers collect samples?"

AnswerRunner = Callable[[ServiceBackend, str], DoneEvent | None]


def iterate(backend: ServiceBackend, question: str) -> DoneEvent | None:
    """Run an answer by plain iteration (the command line's way)."""
    final = None
    for event in backend.answer(question):
        if isinstance(event, DoneEvent):
            final = event
    return final


def _prepare(settings: Settings) -> tuple[Settings, Database, IngestReport, ServiceBackend]:
    settings = settings.replace(ollama=replace(settings.ollama, generation="extractive"))
    db = open_database(settings)
    embedder = load_embedder(settings)
    report = Ingester(db, embedder, settings, user="smoke-test").ingest_folders(
        [knowledge_dir()], remove_missing=False
    )
    print(f"Ingested {len(report.results)} documents ({len(report.failed)} failed).")
    backend = ServiceBackend(settings, audience="public", channel="kiosk", embedder=embedder, db=db)
    return settings, db, report, backend


def print_answer(question: str, final: DoneEvent | None) -> bool:
    """Print the question, the final answer and its citations; False when there was none."""
    if final is None:
        print("smoke test failed: no final answer")
        return False
    print(
        f"Q: {question}\nA: {final.text}\nroute={final.route.value} outcome={final.outcome.value}"
    )
    for citation in final.citations:
        print(f"  {citation.label}")
    return True


def _show(question: str, final: DoneEvent | None) -> bool:
    """Printed, and a cited extractive answer (the only kind a model-less smoke test accepts)."""
    return (
        print_answer(question, final)
        and final is not None
        and final.outcome is Outcome.EXTRACTIVE
        and bool(final.citations)
    )


def run_smoke_test(
    settings: Settings,
    *,
    channel: str,
    question: str = SMOKE_QUESTION,
    run: AnswerRunner = iterate,
) -> int:
    """The kiosk's smoke test (``channel`` names who runs it in the answer log)."""
    settings, db, report, backend = _prepare(settings)
    backend.channel = channel
    try:
        ok = _show(question, run(backend, question)) and not report.failed
        if channel == "kiosk":
            checks = kiosk_queue_smoke(settings, db, backend.embedder())
            for name, passed in checks:
                print(f"{'OK  ' if passed else 'FAIL'} {name}")
            ok = ok and all(passed for _name, passed in checks)
    finally:
        db.dispose()
    print("SMOKE TEST PASSED" if ok else "SMOKE TEST FAILED")
    return 0 if ok else 1


def _queue_smoke(db: Database, username: str) -> list[tuple[str, bool]]:
    """A check-in at the desk (by reference, on a booking made for the test) and a walk-in, each
    called and seen, every change heard by a live listener; the booking is cancelled after."""
    from engine.frontdesk.booking import BookingService
    from engine.frontdesk.waiting_queue import QueueService

    queue = QueueService(db)
    reference = smoke_booking(db, queue.tz, user=username)
    heard = Heard(db.url)
    heard.start()
    checks: list[tuple[str, bool]] = []
    try:
        checked_in = queue.check_in_at_desk(reference, username)
        with db.session() as session:  # a walk-in needs a department: the first one
            department: str = session.execute(
                sa.text("SELECT name FROM departments ORDER BY name LIMIT 1")
            ).scalar_one()
        walk_in = queue.walk_in(str(department), username, name="Smoke Test").entry_id
        for name, entry in (("checked in at the desk", checked_in.entry_id), ("walk-in", walk_in)):
            if entry is None:
                checks.append((f"{name}: no queue entry", False))
                continue
            queue.call(entry, "Room 1", username)
            queue.start(entry, username)
            queue.finish(entry, username)
            live = heard.wait_for(entry, "done")
            states = heard.states.get(entry, [])
            checks.append(
                (
                    f"{name}, called and seen; live updates heard: {', '.join(states) or 'none'}",
                    live and states[:4] == ["arrived", "called", "in_consultation", "done"],
                )
            )
    finally:
        heard.stop()
        BookingService(db).cancel(reference, user=username)
    return checks


def run_staff_smoke_test(settings: Settings) -> int:
    """Sign in, answer a staff-only question, book and cancel a slot, as a temporary user."""
    from engine.frontdesk.booking import BookingRequest, BookingService, seed_schedule
    from engine.frontdesk.users import UserService

    settings, db, report, public = _prepare(settings)
    users = UserService(db)
    username = f"smoke-{secrets.token_hex(3)}"
    password = secrets.token_urlsafe(18)
    users.add(username, password, display_name="Smoke test", by="smoke-test")
    checks: list[tuple[str, bool]] = []
    try:
        user = users.authenticate(username, password)
        checks.append((f"signed in as {user.username}", True))

        staff = ServiceBackend(
            settings,
            audience="staff",
            channel="staff",
            username=username,
            db=db,
            embedder=public.embedder(),
        )
        final = iterate(staff, STAFF_SMOKE_QUESTION)
        with db.session() as session:
            staff_slugs = {
                str(r[0])
                for r in session.execute(
                    sa.text("SELECT slug FROM documents WHERE audience = 'staff'")
                )
            }
        cited_staff = final is not None and any(
            c.document_slug in staff_slugs for c in final.citations
        )
        checks.append(
            (
                "staff-only question answered from a staff document",
                _show(STAFF_SMOKE_QUESTION, final) and cited_staff,
            )
        )

        booking = BookingService(db)
        if not booking.departments():
            seed_schedule(db, start=dt.date.today(), weeks=1)
        slots = booking.find_free_slots(limit=1)
        if slots:
            appointment = booking.book(
                BookingRequest(slots[0].slot_id, "Smoke Test", "020 7946 0000", "smoke test"),
                user=username,
            )
            cancelled = booking.cancel(appointment.reference, user=username)
            checks.append(
                (f"booked and cancelled {appointment.reference}", cancelled.status == "cancelled")
            )
        else:
            checks.append(("a free slot to book", False))
        checks.extend(_queue_smoke(db, username))
    finally:
        users.disable(username, by="smoke-test")
        db.dispose()
    for name, ok in checks:
        print(f"{'OK  ' if ok else 'FAIL'} {name}")
    passed = all(ok for _name, ok in checks) and not report.failed
    print("SMOKE TEST PASSED" if passed else "SMOKE TEST FAILED")
    return 0 if passed else 1
