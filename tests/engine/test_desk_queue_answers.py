"""Staff questions about the live queue ("who is waiting for Dr Hart?"): which questions are about
today's waiting room, the list composed from the snapshot's own rows with its "Live queue"
citation, the staff assistant on the real database, and the adversarial side: a public (kiosk)
assistant never names a patient, whatever it is asked and whatever it is given."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from engine.answering.assistant import Assistant
from engine.answering.desk_queue_answers import (
    DESK_NOT_VERIFIED,
    desk_queue_answer,
    desk_queue_question,
)
from engine.answering.queue_answers import LIVE_QUEUE_SLUG, checked
from engine.events import DoneEvent, Outcome, Route
from engine.frontdesk.waiting_queue import QueueService
from engine.ops.db import Database
from engine.ops.service import ServiceBackend
from engine.ops.settings import QueueSettings, Settings
from engine.protocols import DeskQueueEntry, DeskQueueSnapshot
from tests.support.clinic_corpus import fake_settings, ingest, write_corpus
from tests.support.fake_embedder import FakeEmbedder
from tests.support.waiting_room import Today

# Tuned on: the issue's own three questions and close variants.
TUNED = [
    "who is waiting for Dr Hart?",
    "who's next for physio?",
    "how many are waiting?",
    "Who is in the queue?",
    "how many patients are waiting for Dr Patel",
]
# Judged by (written before the rule, never tuned on).
UNSEEN = [
    "Is anyone waiting for Sarah Jenkins?",
    "who has checked in for cardiology",
    "how many people are in the waiting room right now?",
    "whos next?",
    "list the patients waiting for dermatology",
    "whos waiting for the GP",
    "show me today's queue",
    "Who has arrived for the nurse?",
]
# Waits that are not today's waiting room, booking questions, ordinary questions.
NOT_DESK_QUEUE = [
    "how long is the waiting list for a hip operation",
    "who is waiting for test results",
    "how many patients are waiting for a referral letter",
    "who is the next available physio?",
    "when is Dr Patel next free",
    "What are the opening hours?",
    "How long do I need to fast before a blood test?",
    "who is Dr Hart?",
    "book the next physio slot for Mrs Evans",
    "who is next of kin for Mrs Evans?",  # found while reviewing the rule, after the sets
]


@pytest.mark.parametrize("question", TUNED + UNSEEN)
def test_questions_about_todays_queue_are_recognised(question: str) -> None:
    assert desk_queue_question(question) is not None


@pytest.mark.parametrize("question", NOT_DESK_QUEUE)
def test_other_waits_and_bookings_are_not(question: str) -> None:
    assert desk_queue_question(question) is None


AT = dt.datetime(2026, 11, 30, 10, 42, tzinfo=dt.UTC)


def _entry(ticket: int, patient: str, clinician: str | None, **kw: object) -> DeskQueueEntry:
    department = {
        "Dr Olivia Hart": "General Practice",
        "Dr Priya Patel": "General Practice",
        "Sarah Jenkins": "Physiotherapy",
        "Nurse Shah": "Nursing",
    }
    values: dict[str, object] = {
        "ticket": ticket,
        "patient": patient,
        "department": kw.pop("department", department.get(clinician or "", "General Practice")),
        "clinician": clinician,
        "state": "arrived",
        "arrived_at": AT - dt.timedelta(minutes=ticket * 5),
    }
    values.update(kw)
    return DeskQueueEntry(**values)  # type: ignore[arg-type]


SNAPSHOT = DeskQueueSnapshot(
    taken_at=AT,
    entries=(
        _entry(1, "Maria Lopez", "Dr Olivia Hart"),
        _entry(2, "Tom Dyke", "Sarah Jenkins"),
        _entry(3, "Ann Smith", "Dr Olivia Hart", state="called", room="Room 3"),
        _entry(4, "Wendy Walker", None, department="General Practice", late=False),
        _entry(5, "Joe Bloggs", "Dr Olivia Hart", state="in_consultation", room="Room 1"),
        _entry(6, "Ravi Kumar", "Dr Priya Patel", late=True),
    ),
    departments=("General Practice", "Nursing", "Physiotherapy"),
    clinicians=(
        ("Dr Olivia Hart", "General Practice"),
        ("Dr Priya Patel", "General Practice"),
        ("Nurse Shah", "Nursing"),
        ("Sarah Jenkins", "Physiotherapy"),
    ),
)
NAMES = ("Maria Lopez", "Tom Dyke", "Ann Smith", "Wendy Walker", "Joe Bloggs", "Ravi Kumar")


def _answer(question: str, snapshot: DeskQueueSnapshot = SNAPSHOT) -> tuple[str, str]:
    asked = desk_queue_question(question)
    assert asked is not None
    text, [citation] = desk_queue_answer(asked, question, snapshot)
    assert citation.document_slug == LIVE_QUEUE_SLUG
    assert citation.heading_path == "Live queue, 10:42"
    # Every ticket and name shown is in the cited passage (composed from the same rows).
    for line in text.splitlines()[1:]:
        if line.startswith("- "):
            assert line[2:] in citation.text
    return text, citation.text


def test_who_is_waiting_for_a_clinician_lists_only_their_patients() -> None:
    text, passage = _answer("who is waiting for Dr Hart?")
    assert text.startswith(
        "1 patient is waiting for Dr Olivia Hart (General Practice) at 10:42, and 1 called but "
        "not yet in consultation. [1]"
    )
    assert (
        "Ticket 1, Maria Lopez (General Practice, Dr Olivia Hart): waiting since 10:37 (5 min)"
        in (text)
    )
    assert "Maria Lopez" in text and "Ann Smith" in text and "called to Room 3" in text
    # Unassigned walk-ins of the same department are shown apart, not silently dropped.
    assert "no clinician assigned" in text and "Wendy Walker" in text
    # Other clinicians' patients and people already in consultation are not listed.
    for other in ("Tom Dyke", "Ravi Kumar", "Joe Bloggs"):
        assert other not in text and other not in passage


def test_next_for_a_department_by_a_short_name() -> None:
    text, _passage = _answer("who's next for physio?")
    assert text.startswith("Next for Physiotherapy: ticket 2, Tom Dyke (waiting since 10:32). [1]")
    assert "Maria Lopez" not in text


def test_how_many_counts_the_whole_queue_with_late_flags() -> None:
    text, _passage = _answer("how many are waiting?")
    assert text.startswith(
        "4 patients are waiting at 10:42, and 1 called but not yet in consultation. [1]"
    )
    assert "Ravi Kumar (General Practice, Dr Priya Patel): waiting since 10:12 (30 min), " in text
    assert "arrived late" in text
    assert "Joe Bloggs" not in text  # in consultation: not waiting


def test_nobody_waiting_and_an_unknown_name_never_claim_an_empty_list_wrongly() -> None:
    text, passage = _answer("who is waiting for the nurse?")
    assert text == "Nobody is waiting for Nursing at 10:42. [1]"
    assert passage == "Nobody waiting for Nursing at 10:42."
    # A typo must not turn into "nobody is waiting for Dr Hartt": say so, show everyone.
    text, _passage = _answer("who is waiting for Dr Hartt?")
    assert text.startswith('No clinician or department in the clinic\'s list matches "Dr Hartt"')
    assert all(name in text for name in ("Maria Lopez", "Tom Dyke", "Ravi Kumar"))


class FakeQueue:
    """engine.protocols.QueueSnapshotSource over a fixed snapshot, counting reads."""

    def __init__(self, snapshot: DeskQueueSnapshot = SNAPSHOT) -> None:
        self.snapshot = snapshot
        self.reads = 0

    def desk_snapshot(self) -> DeskQueueSnapshot:
        self.reads += 1
        return self.snapshot


@pytest.fixture
def fake(settings: Settings, db: Database, tmp_path) -> Settings:
    """Settings for the fake embedder, over the test corpus (public and staff documents)."""
    configured = fake_settings(settings)
    ingest(db, configured, write_corpus(tmp_path / "knowledge"))
    return configured


def _ask(db: Database, settings: Settings, question: str, audience: str, queue: FakeQueue) -> str:
    assistant = Assistant(
        db, FakeEmbedder(), settings, audience=audience, channel="test", queue=queue
    )
    final = list(assistant.answer(question))[-1]
    assert isinstance(final, DoneEvent)
    return final.text + "\n" + "\n".join(c.text for c in final.citations)


def test_the_staff_assistant_answers_from_the_queue_source(db: Database, fake) -> None:
    queue = FakeQueue()
    assistant = Assistant(db, FakeEmbedder(), fake, audience="staff", channel="test", queue=queue)
    final = list(assistant.answer("who is waiting for Dr Hart?"))[-1]
    assert isinstance(final, DoneEvent)
    assert final.outcome is Outcome.QUEUE and final.route is Route.INFORMATION
    assert "Maria Lopez" in final.text and [c.heading_path for c in final.citations] == [
        "Live queue, 10:42"
    ]
    assert queue.reads == 1
    # The safety routes still come first: an emergency inside a queue question is an emergency.
    final = list(assistant.answer("who is waiting? a man has collapsed and is not breathing"))[-1]
    assert isinstance(final, DoneEvent) and final.outcome is Outcome.EMERGENCY
    assert queue.reads == 1


@pytest.mark.parametrize("question", TUNED + UNSEEN + ["who is waiting for Dr Hart? staff"])
def test_a_public_assistant_never_names_a_waiting_patient(
    db: Database, fake, question: str
) -> None:
    # Adversarial: even handed a queue source full of names, a public (kiosk) assistant
    # never reads it and never names anyone.
    queue = FakeQueue()
    shown = _ask(db, fake, question, "public", queue)
    assert queue.reads == 0
    # No first name or surname as a word (surnames are distinctive here: "Lopez", "Bloggs").
    words = set(re.findall(r"[A-Za-z]+", shown))
    assert not words & {part for name in NAMES for part in name.split()}, shown
    assert "Live queue" not in shown and not re.search(r"\bTicket \d", shown)


def test_the_kiosk_backend_is_never_given_the_queue(settings) -> None:
    for audience in ("public", "staff"):  # the kiosk channel is public whatever it is told
        kiosk = ServiceBackend(
            settings, audience=audience, channel="kiosk", embedder=FakeEmbedder()
        )
        assert kiosk._queue_source() is None
    public = ServiceBackend(settings, audience="public", channel="cli", embedder=FakeEmbedder())
    assert public._queue_source() is None


def test_the_staff_backend_lists_the_real_queue(db: Database, fake) -> None:
    today = Today(db)  # Physiotherapy (Dr Lena Fischer) and Nursing (Nurse Shah)
    queue = QueueService(db, QueueSettings())
    fischer = today.ids["Physiotherapy"]
    queue.walk_in("Physiotherapy", "amy", name="Maria Lopez", clinician_id=fischer)
    queue.walk_in("Physiotherapy", "amy", name="Tom Dyke", clinician_id=fischer)
    shah = queue.walk_in("Nursing", "amy", name="Ann Smith", clinician_id=today.ids["Nursing"])
    queue.call(shah.entry_id, "Room 2", "amy")

    staff = ServiceBackend(
        fake, audience="staff", channel="staff", username="amy", embedder=FakeEmbedder(), db=db
    )
    final = list(staff.answer("Who is waiting for Dr Fischer?"))[-1]
    assert isinstance(final, DoneEvent) and final.outcome is Outcome.QUEUE
    assert final.text.startswith("2 patients are waiting for Dr Lena Fischer (Physiotherapy) at ")
    assert final.text.index("Ticket 1, Maria Lopez") < final.text.index("Ticket 2, Tom Dyke")
    assert "Ann Smith" not in final.text
    [citation] = final.citations
    assert citation.heading_path.startswith("Live queue, ")
    final = list(staff.answer("who's next for the nurse?"))[-1]
    assert isinstance(final, DoneEvent)
    assert final.text.startswith("Nobody is waiting for Nursing at ")
    assert "called to Room 2" in final.text  # called, not yet in: still in the waiting room

    # The same question through the kiosk's backend on the same database names nobody.
    kiosk = ServiceBackend(fake, audience="public", channel="kiosk", embedder=FakeEmbedder())
    try:
        shown = list(kiosk.answer("Who is waiting for Dr Fischer?"))[-1]
    finally:
        kiosk.database().dispose()
    assert isinstance(shown, DoneEvent)
    assert not any(n in shown.text for n in ("Maria", "Lopez", "Tom", "Dyke", "Ann Smith"))


def test_a_desk_answer_with_a_changed_ticket_or_time_is_refused() -> None:
    question = "who is waiting for Dr Hart?"
    asked = desk_queue_question(question)
    assert asked is not None
    text, citations = desk_queue_answer(asked, question, SNAPSHOT)
    assert checked(text, citations, DESK_NOT_VERIFIED) == (text, citations)
    for changed in (
        text.replace("Ticket 1, Maria", "Ticket 7, Maria"),
        text.replace("since 10:37", "since 10:27"),
        text.replace("1 patient is waiting", "2 patients are waiting"),
    ):
        assert changed != text
        assert checked(changed, citations, DESK_NOT_VERIFIED) == (DESK_NOT_VERIFIED, ())
