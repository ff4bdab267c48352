"""Typed events emitted by :func:`engine.answering.assistant.answer`.

The engine yields these small frozen dataclasses; ``engine.qt`` turns them into Qt signals and the
command line prints them. No callbacks, no Qt, no ORM rows in here.
"""

from __future__ import annotations

import datetime as dt
import enum
from dataclasses import dataclass, field


class Route(enum.StrEnum):
    """Where the safety router sent a question."""

    EMERGENCY = "emergency"
    CLINICAL = "clinical_advice"
    APPOINTMENT = "appointment"
    INFORMATION = "information"


class Outcome(enum.StrEnum):
    """How an answer ended, for the answer log, the review queue and the UI."""

    ANSWERED = "answered"  # a cited, guard-approved generated answer
    EXTRACTIVE = "extractive"  # passages quoted word for word (no model)
    NO_ANSWER = "no_answer"  # nothing passed the relevance gate, or the model refused
    GUARDED = "guarded"  # the citation guard replaced the model's text
    EMERGENCY = "emergency"  # fixed emergency redirect
    CLINICAL = "clinical"  # fixed clinical referral
    APPOINTMENT = "appointment"  # fixed booking sentence / pointer to the Appointments tab
    FAILED = "failed"  # model stream failed and no fallback was possible
    QUEUE = "queue"  # composed from the live queue's own rows (staff queue questions)


@dataclass(frozen=True)
class Citation:
    """A cited passage as shown under an answer (a snapshot: survives re-ingestion)."""

    number: int
    document_slug: str
    document_title: str
    heading_path: str
    text: str
    similarity: float
    reviewed_on: str | None = None

    @property
    def label(self) -> str:
        return f"[{self.number}] {self.heading_path or self.document_title}"

    @property
    def reviewed_display(self) -> str | None:
        """The review date as people here read it (``16 Nov 2026``), or None."""
        if not self.reviewed_on:
            return None
        try:
            return f"{dt.date.fromisoformat(self.reviewed_on):%d %b %Y}"
        except ValueError:
            return self.reviewed_on


@dataclass(frozen=True)
class StatusEvent:
    """Progress text such as "Searching the clinic's documents..."."""

    text: str


@dataclass(frozen=True)
class TokenEvent:
    """A piece of the answer as it streams."""

    text: str


@dataclass(frozen=True)
class ReplaceEvent:
    """Replace the text shown so far by ``text`` (the guard fired, or the stream failed)."""

    text: str
    reason: str


@dataclass(frozen=True)
class DoneEvent:
    """The answer is final. ``text`` is exactly what the person should see."""

    text: str
    route: Route
    outcome: Outcome
    citations: tuple[Citation, ...] = ()
    timings: dict[str, float] = field(default_factory=dict)
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    model: str | None = None


AnswerEvent = StatusEvent | TokenEvent | ReplaceEvent | DoneEvent


@dataclass(frozen=True)
class Turn:
    """One earlier exchange of a conversation, for follow-up questions."""

    question: str
    answer: str
    # The route the answer took, when known: after an emergency or clinical answer the next
    # question's follow-up test is looser (engine.answering.follow_up).
    route: Route | None = None
