"""Queue questions after a check-in: which questions are about the patient's own wait (and which
only look like it), the answer composed from the snapshot's own numbers with its citation, and
the number check every answer citing the live queue passes (a changed number is refused)."""

from __future__ import annotations

import datetime as dt

import pytest

from engine.answering.queue_answers import (
    NOT_CHECKED_IN,
    NOT_VERIFIED,
    QueueSnapshot,
    checked,
    is_queue_question,
    queue_answer,
    unverified_number,
)

# Tuned on: the issue's own three questions and close variants.
TUNED_QUEUE = [
    "how long will I wait?",
    "how many people are before me?",
    "has the doctor been delayed?",
    "How long until I'm seen?",
    "when will I be called",
]
# Judged by (written before the rule, never tuned on): other people, typos, indirect phrasings.
UNSEEN_QUEUE = [
    "how much longer is the wait",
    "is anyone ahead of me",
    "how many patients are in front of me now",
    "is the physio running late today?",
    "whens my turn",
    "what is my place in the queue",
    "how long do we have to wait to be seen",
    "Has Dr Hart been delayed this morning?",
]
# Waits that are not the waiting room, and ordinary questions.
NOT_QUEUE = [
    "How long do I have to wait for my blood test results?",
    "how long will I wait for a referral letter",
    "How long do I need to fast before a blood test?",
    "how long is the waiting list for an operation",
    "What are your opening hours?",
    "how long does a repeat prescription take",
    "how long will I wait for an appointment with a GP",
    "Where can I park?",
    "can I book the next free physio slot",
]


@pytest.mark.parametrize("question", TUNED_QUEUE + UNSEEN_QUEUE)
def test_questions_about_my_wait_are_queue_questions(question: str) -> None:
    assert is_queue_question(question)


@pytest.mark.parametrize("question", NOT_QUEUE)
def test_other_waits_are_not(question: str) -> None:
    assert not is_queue_question(question)


AT = dt.datetime(2026, 11, 30, 10, 42)


def test_the_answer_is_the_snapshot_numbers_with_a_live_queue_citation() -> None:
    snapshot = QueueSnapshot(14, "Physiotherapy", "arrived", 2, 30, None, AT)
    text, [citation] = queue_answer(snapshot)
    assert text == (
        "2 people are ahead of you for Physiotherapy; the estimated wait is about 30 minutes. [1]"
    )
    assert citation.heading_path == "Live queue, 10:42"
    assert citation.text == ("Ticket 14, Physiotherapy: 2 people ahead; estimated wait 30 minutes.")
    # Every number in the answer is in the cited snapshot (what a guard would demand).
    for number in ("2", "30"):
        assert number in citation.text


def test_called_next_and_not_checked_in() -> None:
    called = QueueSnapshot(14, "Physiotherapy", "called", 0, 0, "Room 3", AT)
    assert queue_answer(called)[0].startswith("You have been called: please go to Room 3 now.")
    nxt = QueueSnapshot(14, "Physiotherapy", "arrived", 0, 0, None, AT)
    assert queue_answer(nxt)[0] == "You are next for Physiotherapy. [1]"
    one = QueueSnapshot(14, "Nursing", "arrived", 1, 15, None, AT)
    assert queue_answer(one)[0].startswith("1 person is ahead of you for Nursing")
    assert queue_answer(None) == (NOT_CHECKED_IN, ())


SNAPSHOT = QueueSnapshot(14, "Physiotherapy", "arrived", 2, 30, None, AT)
RIGHT = "2 people are ahead of you for Physiotherapy; the estimated wait is about 30 minutes. [1]"


@pytest.mark.parametrize(
    ("changed", "number"),
    [
        (RIGHT.replace("30 minutes", "45 minutes"), "45"),  # a "tidied" estimate
        (RIGHT.replace("2 people", "3 people"), "3"),  # a count the document guard lets through
        ("You are ticket 15: 2 people are ahead of you, about 30 minutes. [1]", "15"),
        ("2 people are ahead; you should be called at about 11:12. [1]", "11:12"),  # invented
        ("There are 2 people ahead of you and the wait is 30 minutes, so 1 hour at most. [1]", "1"),
    ],
)
def test_an_answer_citing_the_queue_with_a_changed_number_is_refused(
    changed: str, number: str
) -> None:
    """Adversarial: what a model (or a bug) could write over the [Q] source. Every number must
    be in the cited snapshot, or the fixed sentence is shown with no citation."""
    text, citations = queue_answer(SNAPSHOT)
    assert text == RIGHT  # the composed answer passes its own check
    assert unverified_number(changed, citations) == number
    assert checked(changed, citations) == (NOT_VERIFIED, ())
    assert checked(RIGHT, citations) == (RIGHT, citations)
    # A number with no live-queue citation at all is never vouched for.
    assert checked(RIGHT, ()) == (NOT_VERIFIED, ())


@pytest.mark.parametrize(
    "snapshot",
    [
        SNAPSHOT,
        QueueSnapshot(3, "Nursing", "arrived", 1, 15, None, AT),
        QueueSnapshot(3, "Nursing", "arrived", 0, 0, None, AT),
        QueueSnapshot(7, "Physiotherapy", "called", 0, 0, "Room 12", AT),
        QueueSnapshot(7, "Physiotherapy", "done", 0, 0, "Room 12", AT),
    ],
)
def test_every_composed_answer_passes_the_number_check(snapshot: QueueSnapshot) -> None:
    text, citations = queue_answer(snapshot)
    assert text != NOT_VERIFIED and citations
