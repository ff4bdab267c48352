"""The backends the staff app talks to, bundled so tests can inject fakes.

``StaffServices`` holds the booking, user, review and knowledge services plus a factory for the
signed-in user's assistant backend. ``build_services(settings)`` wires the real engine services;
they open the database lazily (on a worker thread, at first use) and re-open it after a failure,
so the app starts and recovers while the database is down. Nothing here touches a widget.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from engine.errors import ClinicError, DatabaseUnavailable, ModelUnavailable
from engine.protocols import AssistantBackend

if TYPE_CHECKING:
    from engine.db import Database
    from engine.ingest import IngestReport
    from engine.knowledge import DocumentInfo, EmbeddingInfo
    from engine.settings import Settings

Progress = Callable[[str, int, int], None]


class BookingBackend(Protocol):
    def departments(self) -> list[str]: ...
    def clinicians(self, department: str | None = None) -> list[tuple[int, str, str]]: ...
    def find_free_slots(
        self,
        query: str = "",
        date_from: dt.date | None = None,
        date_to: dt.date | None = None,
        part_of_day: str = "any",
        limit: int = 50,
    ) -> list[Any]: ...
    def book(self, request: Any, user: str) -> Any: ...
    def cancel(self, reference: str, user: str) -> Any: ...
    def reschedule(self, reference: str, new_slot_id: int, user: str) -> Any: ...
    def day_view(self, day: dt.date, clinician_id: int | None = None) -> list[Any]: ...
    def search(self, text: str) -> list[Any]: ...
    def get(self, reference: str) -> Any: ...


class UserBackend(Protocol):
    def authenticate(self, username: str, password: str) -> Any: ...


class ReviewBackend(Protocol):
    def queue(self, include_decided: bool = False, limit: int = 200) -> list[Any]: ...
    def weekly_counts(self, weeks: int = 8) -> list[tuple[dt.date, dict[str, int]]]: ...
    def decide(self, answer_id: int, decision: str, comment: str, reviewer: str) -> str: ...
    def verify_chain(self) -> list[int]: ...


class KnowledgeBackend(Protocol):
    def list_documents(self) -> list[DocumentInfo]: ...
    def embedding_info(self) -> EmbeddingInfo: ...
    def ingest_folders(
        self,
        folders: Sequence[Path],
        *,
        audience: str | None = None,
        user: str,
        progress: Progress | None = None,
    ) -> IngestReport: ...
    def ingest_files(
        self,
        files: Sequence[Path],
        *,
        audience: str | None = None,
        user: str,
        progress: Progress | None = None,
    ) -> IngestReport: ...
    def remove_document(self, slug: str, *, user: str) -> bool: ...


@dataclass
class StaffServices:
    users: UserBackend
    booking: BookingBackend
    review: ReviewBackend
    knowledge: KnowledgeBackend
    #: The signed-in user's assistant (audience "staff"); called with the username at sign-in.
    make_assistant: Callable[[str], AssistantBackend]
    #: Raises a ClinicError when the database or model server is down; runs on a worker thread.
    check_health: Callable[[], None] | None = None
    #: Runs the evaluation and returns a short summary; None when not available.
    run_evaluation: Callable[[], str] | None = None


class _LazyDatabase:
    """Opens the database on first use (on whichever worker thread asks) and after failures."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._db: Database | None = None
        self._lock = threading.Lock()

    def get(self) -> Database:
        from engine.db import open_database

        with self._lock:
            if self._db is None:
                self._db = open_database(self.settings)
            return self._db

    def reset(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.dispose()
            self._db = None


class _Lazy:
    """A service built from the database at first attribute use; rebuilt after the DB resets."""

    def __init__(self, database: _LazyDatabase, make: Callable[[Database], Any]) -> None:
        self._database = database
        self._make = make
        self._built: tuple[Database, Any] | None = None

    def __getattr__(self, name: str) -> Any:
        db = self._database.get()
        if self._built is None or self._built[0] is not db:
            self._built = (db, self._make(db))
        return getattr(self._built[1], name)


class EngineKnowledge:
    """KnowledgeBackend over engine.knowledge and engine.ingest."""

    def __init__(self, database: _LazyDatabase, settings: Settings) -> None:
        self._database = database
        self.settings = settings
        self._embedder: Any = None
        self._lock = threading.Lock()

    def _embedder_instance(self) -> Any:
        from engine.embeddings import load_embedder

        with self._lock:
            if self._embedder is None:
                self._embedder = load_embedder(self.settings)
            return self._embedder

    def list_documents(self) -> list[DocumentInfo]:
        from engine.knowledge import list_documents

        return list_documents(self._database.get(), self.settings)

    def embedding_info(self) -> EmbeddingInfo:
        from engine.knowledge import embedding_info

        return embedding_info(self._database.get(), self.settings)

    def _ingester(self, user: str, progress: Progress | None) -> Any:
        from engine.ingest import Ingester

        return Ingester(
            self._database.get(),
            self._embedder_instance(),
            self.settings,
            user=user,
            progress=progress,
        )

    def ingest_folders(
        self,
        folders: Sequence[Path],
        *,
        audience: str | None = None,
        user: str,
        progress: Progress | None = None,
    ) -> IngestReport:
        report: IngestReport = self._ingester(user, progress).ingest_folders(
            list(folders), audience=audience
        )
        return report

    def ingest_files(
        self,
        files: Sequence[Path],
        *,
        audience: str | None = None,
        user: str,
        progress: Progress | None = None,
    ) -> IngestReport:
        report: IngestReport = self._ingester(user, progress).ingest_files(
            list(files), audience=audience
        )
        return report

    def remove_document(self, slug: str, *, user: str) -> bool:
        from engine.ingest import Ingester

        # Removing needs no embedding, but the Ingester checks the model: build it the same way.
        removed: bool = Ingester(
            self._database.get(), self._embedder_instance(), self.settings, user=user
        ).remove_document(slug)
        return removed


def _check_model_server(settings: Settings) -> None:
    if settings.ollama.generation == "extractive" or not settings.ollama.hosts:
        return
    from engine.ollama_chat import OllamaChat

    chat = OllamaChat.from_settings(settings)
    try:
        if not chat.is_reachable(timeout=3.0):
            hosts = ", ".join(settings.ollama.hosts)
            raise ModelUnavailable(f"No answer from the model server at {hosts}.")
    finally:
        chat.close()


def build_services(settings: Settings) -> StaffServices:
    """The real services. Imports the engine lazily so the window can show before they load."""
    from engine.review import ReviewService  # type: ignore[import-not-found,unused-ignore]
    from engine.users import UserService  # type: ignore[import-not-found,unused-ignore]

    from engine.booking import BookingService
    from engine.service import build_backend

    database = _LazyDatabase(settings)

    def check_health() -> None:
        try:
            database.get().ping()
        except DatabaseUnavailable:
            database.reset()
            raise
        except ClinicError as exc:
            database.reset()
            raise DatabaseUnavailable(str(exc)) from exc
        _check_model_server(settings)

    def make_assistant(username: str) -> AssistantBackend:
        return build_backend(settings, audience="staff", channel="staff", username=username)

    run_evaluation: Callable[[], str] | None = None
    try:
        from engine import evaluation  # type: ignore[attr-defined,unused-ignore]

        if hasattr(evaluation, "run_evaluation"):

            def run_evaluation() -> str:
                return str(evaluation.run_evaluation(settings))

    except ImportError:
        run_evaluation = None

    return StaffServices(
        users=_Lazy(database, UserService),
        booking=_Lazy(database, BookingService),
        review=_Lazy(database, ReviewService),
        knowledge=EngineKnowledge(database, settings),
        make_assistant=make_assistant,
        check_health=check_health,
        run_evaluation=run_evaluation,
    )
