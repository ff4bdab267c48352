"""The backends the staff app talks to, bundled so tests can inject fakes.

``StaffServices`` holds the booking, user, review and knowledge services, a factory for the
signed-in user's assistant backend, the health check and the evaluation. ``build_services``
wires the real engine services over ONE database (opened lazily on a worker thread at first use,
re-opened after a failure, so the app starts and recovers while the database is down) and ONE
embedder shared by answering, ingest and evaluation. Nothing here touches a widget.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from engine.errors import ClinicError, DatabaseUnavailable, ModelUnavailable
from engine.ops.paths import knowledge_dir
from engine.ops.settings import SignInSettings
from engine.protocols import AssistantBackend, Embedder

if TYPE_CHECKING:
    from engine.knowledge.catalog import DocumentInfo, EmbeddingInfo
    from engine.knowledge.ingest.results import IngestReport
    from engine.ops.db import Database
    from engine.ops.settings import Settings

log = logging.getLogger(__name__)

EXTRACTIVE_NO_HOSTS = (
    "Answers are extractive: no model server is configured, so answers quote the documents "
    "word for word."
)
EXTRACTIVE_CONFIGURED = (
    "Answers are extractive (set in the configuration): they quote the documents word for word."
)

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
    def list(self) -> list[Any]: ...
    def check_active(self, username: str) -> None: ...


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


@dataclass(frozen=True)
class EvaluationOutcome:
    """What the Knowledge tab shows after an evaluation run."""

    questions_file: Path
    text: str  # engine.ops.evaluation.rendering.format_report
    plot: Path | None  # PNG of the similarity distributions
    passed: bool


def default_questions_file() -> Path:
    """The labelled questions shipped beside the sample knowledge: ``evaluation/questions.yaml``."""
    return knowledge_dir().parent / "evaluation" / "questions.yaml"


@dataclass
class StaffServices:
    users: UserBackend
    booking: BookingBackend
    review: ReviewBackend
    knowledge: KnowledgeBackend
    #: The signed-in user's assistant (audience "staff"); called with the username at sign-in.
    make_assistant: Callable[[str], AssistantBackend]
    #: Raises a ClinicError when the database or model server is down; runs on a worker thread.
    #: May return a short note for the status bar (such as "answers are extractive").
    check_health: Callable[[], str | None] | None = None
    #: Runs the evaluation on a questions file (on a worker thread); None when not available.
    run_evaluation: Callable[[Path], EvaluationOutcome] | None = None
    #: The questions file the evaluation uses unless the person picks another.
    default_questions: Path | None = None
    #: Releases the database connections (called when the app quits).
    close: Callable[[], None] | None = None
    #: Today's waiting room (engine.frontdesk.waiting_queue.QueueService); None hides the Queue tab.
    queue: Any = None
    #: Reception alerts (engine.frontdesk.alerts.AlertService); None shows no alerts.
    alerts: Any = None
    #: The database URL for live notifications (asked on a worker thread); None: no live updates.
    live_url: Callable[[], str] | None = None
    #: Sign-in throttling and idle sign-out ([sign_in] in the configuration).
    sign_in_policy: SignInSettings = field(default_factory=SignInSettings)


class EngineResources:
    """The one database and the one embedder every staff service shares.

    Both load on first use, on whichever worker thread asks. After a database failure the
    connection pool is dropped and the next use opens it again.
    """

    def __init__(self, settings: Settings, embedder: Embedder | None = None) -> None:
        self.settings = settings
        self._db: Database | None = None
        self._embedder = embedder
        self._db_lock = threading.Lock()
        self._embedder_lock = threading.Lock()

    def database(self) -> Database:
        from engine.ops.db import open_database

        with self._db_lock:
            if self._db is None:
                self._db = open_database(self.settings)
            return self._db

    def embedder(self) -> Embedder:
        from engine.knowledge.embeddings import load_embedder

        with self._embedder_lock:
            if self._embedder is None:
                self._embedder = load_embedder(self.settings)
            return self._embedder

    def reset(self) -> None:
        with self._db_lock:
            if self._db is not None:
                self._db.dispose()
            self._db = None

    def check_database(self) -> None:
        try:
            self.database().ping()
        except DatabaseUnavailable:
            self.reset()
            raise
        except ClinicError as exc:
            self.reset()
            raise DatabaseUnavailable(str(exc)) from exc


class _Lazy:
    """A service built from the shared database when one of its methods is CALLED (on the
    worker thread that calls it), and rebuilt after the database was re-opened.

    Looking a method up (``services.booking.clinicians``, on the GUI thread) does no I/O: it
    returns a function that resolves the service when it runs.
    """

    def __init__(self, resources: EngineResources, make: Callable[[Database], Any]) -> None:
        self._resources = resources
        self._make = make
        self._built: tuple[Database, Any] | None = None
        self._lock = threading.Lock()

    def _service(self) -> Any:
        db = self._resources.database()
        with self._lock:
            if self._built is None or self._built[0] is not db:
                self._built = (db, self._make(db))
            return self._built[1]

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("_"):
            raise AttributeError(name)

        def call(*args: Any, **kwargs: Any) -> Any:
            return getattr(self._service(), name)(*args, **kwargs)

        call.__name__ = name
        return call


class EngineKnowledge:
    """KnowledgeBackend over engine.knowledge.catalog and engine.knowledge.ingest."""

    def __init__(self, resources: EngineResources) -> None:
        self._resources = resources
        self.settings = resources.settings

    def list_documents(self) -> list[DocumentInfo]:
        from engine.knowledge.catalog import list_documents

        return list_documents(self._resources.database(), self.settings)

    def embedding_info(self) -> EmbeddingInfo:
        from engine.knowledge.catalog import embedding_info

        return embedding_info(self._resources.database(), self.settings)

    def _ingester(self, user: str, progress: Progress | None = None) -> Any:
        from engine.knowledge.ingest import Ingester

        return Ingester(
            self._resources.database(),
            self._resources.embedder(),
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
        # Removing needs no embedding, but the Ingester checks the model: build it the same way.
        removed: bool = self._ingester(user).remove_document(slug)
        return removed


def check_model_server(settings: Settings) -> str | None:
    """None when answers are generated and the server answers; a note when they are extractive
    by configuration; ModelUnavailable when a configured server does not answer."""
    if settings.ollama.generation == "extractive":
        return EXTRACTIVE_CONFIGURED
    if settings.generation.backend == "openai":
        if not settings.generation.openai_base_url:
            return EXTRACTIVE_NO_HOSTS
        from engine.answering.openai_chat import OpenAIChat

        with OpenAIChat.from_settings(settings) as server:
            server.available_models()  # raises ModelUnavailable when it does not answer
        return None
    if not settings.ollama.hosts:
        return EXTRACTIVE_NO_HOSTS
    from engine.answering.ollama_chat import OllamaChat

    unreachable = []
    for host in settings.ollama.hosts:
        chat = OllamaChat.from_settings(settings, host=host)
        try:
            if chat.is_reachable(timeout=3.0):
                return None
        finally:
            chat.close()
        unreachable.append(host)
    raise ModelUnavailable(f"No answer from the model server at {', '.join(unreachable)}.")


def evaluate(resources: EngineResources, questions_file: Path) -> EvaluationOutcome:
    """Run engine.ops.evaluation on ``questions_file``; the plot goes to the data folder.

    The measured floor is reported, not stored: applying it is a deliberate command-line step
    (``clinic-assistant evaluate``), not a side effect of a button.
    """
    from engine.ops.db import check_embedding_model
    from engine.ops.evaluation import run_evaluation
    from engine.ops.evaluation.questions import load_questions
    from engine.ops.evaluation.rendering import format_report, write_plot

    questions = load_questions(questions_file)
    db = resources.database()
    embedder = resources.embedder()
    check_embedding_model(db, embedder.model_name, embedder.dimension)
    report = run_evaluation(db, embedder, resources.settings, questions)
    png = resources.settings.data_dir / "evaluation" / "similarity.png"
    try:
        png.parent.mkdir(parents=True, exist_ok=True)
        write_plot(report, png)
    except OSError:
        log.warning("could not write the evaluation plot to %s", png, exc_info=True)
        return EvaluationOutcome(questions_file, format_report(report), None, report.passed)
    return EvaluationOutcome(questions_file, format_report(report), png, report.passed)


def make_staff_backend(resources: EngineResources, username: str) -> AssistantBackend:
    """The signed-in user's assistant: audience staff, channel staff, the shared DB/embedder."""
    from engine.ops.service import ServiceBackend

    class StaffBackend(ServiceBackend):
        def database(self) -> Database:
            self._db = resources.database()
            return super().database()

        def embedder(self) -> Embedder:
            return resources.embedder()

        def check_database(self) -> None:
            resources.check_database()

    return StaffBackend(resources.settings, audience="staff", channel="staff", username=username)


def build_services(settings: Settings, *, embedder: Embedder | None = None) -> StaffServices:
    """The real services. ``embedder`` replaces the configured model (tests pass a fake)."""
    from engine.frontdesk.alerts import AlertService
    from engine.frontdesk.booking import BookingService
    from engine.frontdesk.review import ReviewService
    from engine.frontdesk.users import UserService
    from engine.frontdesk.waiting_queue import QueueService

    resources = EngineResources(settings, embedder)

    def check_health() -> str | None:
        resources.check_database()
        return check_model_server(settings)

    return StaffServices(
        users=_Lazy(resources, lambda db: UserService(db, policy=settings.sign_in)),
        booking=_Lazy(resources, BookingService),
        review=_Lazy(resources, ReviewService),
        knowledge=EngineKnowledge(resources),
        make_assistant=lambda username: make_staff_backend(resources, username),
        check_health=check_health,
        run_evaluation=lambda path: evaluate(resources, path),
        default_questions=default_questions_file(),
        close=resources.reset,
        queue=_Lazy(resources, lambda db: QueueService(db, settings.queue)),
        alerts=_Lazy(resources, AlertService),
        live_url=lambda: resources.database().url,
        sign_in_policy=settings.sign_in,
    )
