"""The seams of the engine: each real part and its test fake implement one of these Protocols."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from engine.events import AnswerEvent, Turn


class Embedder(Protocol):
    """Turns text into unit-length vectors. Queries and passages have their own functions."""

    model_name: str
    dimension: int

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]: ...

    def embed_query(self, text: str) -> list[float]: ...


@dataclass(frozen=True)
class ChatDelta:
    """One piece of a streamed chat reply. The last one has ``done=True`` and the counts."""

    text: str
    done: bool = False
    done_reason: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


class ChatModel(Protocol):
    """A streaming chat model. Every failure surfaces as ``engine.errors.ModelUnavailable``,
    including a stream that ends without its final ``done`` chunk."""

    model: str

    def stream(self, messages: Sequence[Mapping[str, str]]) -> Iterator[ChatDelta]: ...

    def complete_json(
        self, messages: Sequence[Mapping[str, str]], schema: Mapping[str, Any], timeout: float
    ) -> dict[str, Any]: ...


class AssistantBackend(Protocol):
    """What a chat screen needs from the engine (the kiosk and the staff app both use it)."""

    def answer(self, question: str, history: Sequence[Turn] = ()) -> Iterator[AnswerEvent]: ...

    def check_database(self) -> None:
        """Raise ``engine.errors.DatabaseUnavailable`` if the database cannot be used now."""

    def suggested_questions(self) -> list[str]: ...


@dataclass(frozen=True)
class DeskQueueEntry:
    """One open entry of today's queue as the desk sees it (a patient's name: staff only)."""

    ticket: int
    patient: str
    department: str
    clinician: str | None
    state: str  # arrived | called | in_consultation
    arrived_at: datetime
    room: str | None = None
    late: bool = False


@dataclass(frozen=True)
class DeskQueueSnapshot:
    """Today's open queue at one moment, in calling order, and who could be asked about."""

    taken_at: datetime
    entries: tuple[DeskQueueEntry, ...]
    departments: tuple[str, ...] = ()
    clinicians: tuple[tuple[str, str], ...] = ()  # (clinician, department)


class QueueSnapshotSource(Protocol):
    """The live queue as the answering code may reach it
    (``engine.frontdesk.waiting_queue.QueueService`` implements it). Answering never imports the
    queue module: only this shape."""

    def desk_snapshot(self) -> DeskQueueSnapshot: ...
