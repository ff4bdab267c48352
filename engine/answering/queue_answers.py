"""Questions about the live queue ("how long will I wait?"), answered from a queue snapshot.

After a patient checks in at the kiosk, questions about their wait, the people ahead of them or a
delay are answered from the database's own figures for their ticket, cited as a source of its own
(``Live queue, 10:42``) like a document. The sentence is composed here from the snapshot's
numbers, never by a model, so there is no number for a model to change: what the patient reads
is exactly what the queue says at that minute. Without a check-in in this session the answer says
how to check in.

Every answer citing the live queue is still checked before it is shown (:func:`checked`): each
number in it (people ahead, minutes, ticket, room, clock time) must be in the cited snapshot,
stricter than the document guard (which checks times, prices and phone numbers, not counts). An
answer with a changed number is replaced by a fixed sentence.

It decides only whether a question is about the queue and what the answer says; it takes the
snapshot through the small :class:`QueueSnapshot` shape, never imports the front-desk code, and
never says anything about another patient.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from engine.events import Citation

LIVE_QUEUE_SLUG = "live-queue"
LIVE_QUEUE_TITLE = "Waiting room"
NOT_CHECKED_IN = (
    "I can tell you about your wait once you have checked in: tap 'Check in for my "
    "appointment' on the first screen (or tap Start again), or ask at reception."
)
NOT_VERIFIED = "The queue cannot be checked just now. Please ask at reception."
_NUMBER = re.compile(r"\d+(?::\d\d)?")
_MARKER = re.compile(r"\[\d+\]")

_QUEUE = re.compile(
    r"\b(how long (will|do|shall|must|until|till) (i|we)\b.*\b(wait|waiting|seen|called)"
    r"|how (long|much longer) (is|will) (the|my) wait"
    r"|how many (people|patients|persons)\b.*\b(before|ahead|in front)"
    r"|(people|patients|anyone|someone|others?) (are )?(before|ahead of|in front of) me"
    r"|when (will|do) (i|we) (be|get) (seen|called)|when (is|will be) my turn|my turn"
    r"|(is|has) (the )?(doctor|nurse|clinician|physio\w*|dr \w+)\b.*\b(late|delayed|running late"
    r"|behind)|running (late|behind)|(what|which) (is )?my (place|position|number|ticket)"
    r"|wait(ing)? time)",
    re.IGNORECASE,
)


# Waits that are not today's queue: results, letters, prescriptions, referrals, the booking list.
_NOT_QUEUE = re.compile(
    r"\b(results?|prescriptions?|repeat|referrals?|letters?|reports?|scans?|x-?rays?|"
    r"blood tests?|operations?|surgery|waiting list|appointment (for|with|to)|to book|"
    r"book(ing)?|next (free|available)|sick note|certificate|refund|fast(ing)?)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class QueueSnapshot:
    """One ticket's place in the queue at one moment (counts and minutes, no names)."""

    ticket: int
    department: str
    state: str  # arrived | called | in_consultation | ...
    ahead: int
    minutes: int
    room: str | None
    taken_at: datetime


def is_queue_question(question: str) -> bool:
    """True for questions about the patient's own wait, place or a delay."""
    text = " ".join(question.split())
    return bool(_QUEUE.search(text)) and not _NOT_QUEUE.search(text)


def unverified_number(text: str, citations: Sequence[Citation]) -> str | None:
    """The first number in ``text`` (citation markers aside) that none of the cited live-queue
    snapshots (heading and text, as offered) holds; None when every number is there."""
    held: set[str] = set()
    for citation in citations:
        if citation.document_slug == LIVE_QUEUE_SLUG:
            held.update(_NUMBER.findall(f"{citation.heading_path}\n{citation.text}"))
    shown: list[str] = _NUMBER.findall(_MARKER.sub("", text))
    return next((number for number in shown if number not in held), None)


def checked(
    text: str, citations: tuple[Citation, ...], fallback: str = NOT_VERIFIED
) -> tuple[str, tuple[Citation, ...]]:
    """``text`` and its citations when every number in it is in a cited live-queue snapshot;
    otherwise the fixed ``fallback`` and no citation (a changed number is never shown)."""
    if unverified_number(text, citations) is None:
        return text, citations
    return fallback, ()


def snapshot_text(snapshot: QueueSnapshot) -> str:
    """The cited passage: the queue's own figures for this ticket, as they are now."""
    if snapshot.state == "called":
        return f"Ticket {snapshot.ticket} has been called to {snapshot.room or 'a room'}."
    if snapshot.state != "arrived":
        return (
            f"Ticket {snapshot.ticket} is no longer waiting ({snapshot.state.replace('_', ' ')})."
        )
    people = "1 person" if snapshot.ahead == 1 else f"{snapshot.ahead} people"
    return (
        f"Ticket {snapshot.ticket}, {snapshot.department}: {people} ahead; estimated wait "
        f"{snapshot.minutes} minutes."
    )


def queue_answer(snapshot: QueueSnapshot | None) -> tuple[str, tuple[Citation, ...]]:
    """The answer and its one citation; no citation (and how to check in) without a snapshot.
    Checked like any answer citing the queue (:func:`checked`)."""
    if snapshot is None:
        return NOT_CHECKED_IN, ()
    citation = Citation(
        number=1,
        document_slug=LIVE_QUEUE_SLUG,
        document_title=LIVE_QUEUE_TITLE,
        heading_path=f"Live queue, {snapshot.taken_at:%H:%M}",
        text=snapshot_text(snapshot),
        similarity=1.0,
    )
    if snapshot.state == "called":
        text = f"You have been called: please go to {snapshot.room or 'the room shown'} now. [1]"
    elif snapshot.state != "arrived":
        text = "Your ticket is no longer in the waiting queue. Please ask at reception. [1]"
    elif snapshot.ahead == 0:
        text = f"You are next for {snapshot.department}. [1]"
    else:
        people = "1 person is" if snapshot.ahead == 1 else f"{snapshot.ahead} people are"
        text = (
            f"{people.capitalize()} ahead of you for {snapshot.department}; the estimated wait "
            f"is about {snapshot.minutes} minutes. [1]"
        )
    return checked(text, (citation,))
