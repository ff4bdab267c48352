"""A scripted ``AssistantBackend`` for Qt and app tests: no database, no model, no network.

Each question gets a scripted list of events (or the default script). Options make ``answer``
raise, make ``check_database`` fail, or block the stream on a ``threading.Event`` until a test
releases it; every call is recorded, and whether the stream was closed early is observable.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from engine.errors import DatabaseUnavailable
from engine.events import (
    AnswerEvent,
    Citation,
    DoneEvent,
    Outcome,
    Route,
    StatusEvent,
    TokenEvent,
    Turn,
)

SEARCHING = "Searching the clinic's documents..."

PARKING = Citation(
    number=1,
    document_slug="visiting",
    document_title="Visiting the clinic",
    heading_path="Visiting the clinic > Parking",
    text="Free parking for patients is behind the building, entrance on Mill Lane. "
    "Blue badge bays are next to the main door.",
    similarity=0.71,
    reviewed_on="2025-03-01",
)


def cited_answer(
    text: str = "Free parking is behind the building, entrance on Mill Lane [1].",
    citations: tuple[Citation, ...] = (PARKING,),
    pieces: int = 8,
) -> list[AnswerEvent]:
    """Status, the text split into token events, then a DoneEvent with citations."""
    words = text.split(" ")
    size = max(1, len(words) // pieces)
    tokens = [" ".join(words[i : i + size]) for i in range(0, len(words), size)]
    events: list[AnswerEvent] = [StatusEvent(SEARCHING)]
    events += [TokenEvent(t if i == 0 else " " + t) for i, t in enumerate(tokens)]
    events.append(DoneEvent(text, Route.INFORMATION, Outcome.ANSWERED, citations))
    return events


def fixed_answer(text: str, route: Route, outcome: Outcome) -> list[AnswerEvent]:
    return [DoneEvent(text, route, outcome)]


@dataclass
class FakeBackend:
    """Implements ``engine.protocols.AssistantBackend`` with scripted event sequences."""

    scripts: dict[str, list[AnswerEvent]] = field(default_factory=dict)
    default: list[AnswerEvent] = field(default_factory=cited_answer)
    suggestions: list[str] = field(
        default_factory=lambda: [
            "Where can I park?",
            "What should I bring to my appointment?",
            "What time does the clinic open?",
        ]
    )
    database_up: bool = True
    answer_error: BaseException | None = None  # raised by answer() itself, before any event
    fail_after: int | None = None  # raise ``stream_error`` after this many events
    stream_error: BaseException = field(default_factory=lambda: DatabaseUnavailable("db gone"))
    block_after: int | None = None  # wait on ``release`` after this many events
    release: threading.Event = field(default_factory=threading.Event)
    blocked: threading.Event = field(default_factory=threading.Event)
    calls: list[tuple[str, tuple[Turn, ...]]] = field(default_factory=list)
    database_checks: int = 0
    emergencies_logged: list[str] = field(default_factory=list)
    closed_early: threading.Event = field(default_factory=threading.Event)
    completed: threading.Event = field(default_factory=threading.Event)

    def answer(self, question: str, history: Sequence[Turn] = ()) -> Iterator[AnswerEvent]:
        self.calls.append((question, tuple(history)))
        if self.answer_error is not None:
            raise self.answer_error
        return self._stream(list(self.scripts.get(question, self.default)))

    def _stream(self, events: list[AnswerEvent]) -> Iterator[AnswerEvent]:
        try:
            for index, event in enumerate(events):
                if self.fail_after is not None and index == self.fail_after:
                    raise self.stream_error
                if self.block_after is not None and index == self.block_after:
                    self.blocked.set()
                    self.release.wait(10)
                yield event
            self.completed.set()
        except GeneratorExit:
            self.closed_early.set()
            raise

    def record_emergency(self, question: str) -> None:
        """The kiosk logs the emergencies it routes itself (engine.ops.service.ServiceBackend)."""
        self.emergencies_logged.append(question)

    def check_database(self) -> None:
        self.database_checks += 1
        if not self.database_up:
            raise DatabaseUnavailable("The database cannot be reached.")

    def suggested_questions(self) -> list[str]:
        return list(self.suggestions)
