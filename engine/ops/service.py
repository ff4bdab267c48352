"""Wiring: builds the engine's parts from settings for an app or the command line.

``build_backend`` returns an :class:`engine.protocols.AssistantBackend`. The kiosk channel is
always public, whatever the audience argument or the configuration says.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import secrets
import threading
import time
from collections.abc import Iterator, Sequence

import sqlalchemy as sa

from engine.answering.answer_log import AnswerLogEntry, AnswerLogWriter, purge_expired
from engine.answering.assistant import Assistant
from engine.errors import ClinicError, DatabaseUnavailable
from engine.events import AnswerEvent, DoneEvent, Outcome, Route, Turn
from engine.frontdesk.alerts import kiosk_source
from engine.knowledge.embeddings import load_embedder
from engine.ops.db import Database, open_database, supervisor_for
from engine.ops.roles import KIOSK_ROLE, init_roles
from engine.ops.settings import Settings
from engine.protocols import ChatModel, Embedder, QueueSnapshotSource
from engine.safety import route_question
from engine.validation import checked_question, loggable

log = logging.getLogger(__name__)

MAX_SUGGESTIONS = 6
# Answers past their retention are deleted at start and then daily (kiosks run for months).
PURGE_EVERY_SECONDS = 24 * 3600


def build_chat(settings: Settings) -> ChatModel | None:
    """The configured chat model (``[generation] backend``), or None when answers are extractive
    (generation = extractive, or the chosen backend has no server configured)."""
    if settings.ollama.generation == "extractive":
        return None
    if settings.generation.backend == "openai":
        if not settings.generation.openai_base_url:
            return None
        from engine.answering.openai_chat import OpenAIChat

        return OpenAIChat.from_settings(settings)
    if not settings.ollama.hosts:
        return None
    from engine.answering.ollama_chat import OllamaChat

    return OllamaChat.from_settings(settings)


class ServiceBackend:
    """AssistantBackend over the real database, embedder and (optional) chat model.

    The database is opened lazily and re-opened after a failure, so a kiosk started while the
    database is down recovers by itself.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        audience: str,
        channel: str,
        username: str | None = None,
        embedder: Embedder | None = None,
        chat: ChatModel | None = None,
        db: Database | None = None,
    ) -> None:
        self.settings = settings
        self.channel = channel
        self.audience = "public" if channel == "kiosk" or audience != "staff" else "staff"
        self.username = username
        self._embedder = embedder
        self._chat = chat if chat is not None else build_chat(settings)
        self._db = db
        self._lock = threading.Lock()
        self._purged_at: float | None = None  # monotonic time of the last retention purge
        # Answers and emergencies that could not be logged while the database was down are kept
        # here and written when it is back (``check_database``).
        self.answer_log = AnswerLogWriter()

    def database(self) -> Database:
        with self._lock:
            if self._db is None:
                self._db = self._open()
            db = self._db
        now = time.monotonic()
        if self._purged_at is None or now - self._purged_at > PURGE_EVERY_SECONDS:
            self._purged_at = now
            try:
                purge_expired(db, self.settings.logging.answer_retention_days)
            except Exception as exc:  # never blocks answering; tried again the next day
                log.warning("Old answers were not purged: %s", str(exc).splitlines()[0][:200])
        return db

    def _open(self) -> Database:
        """Staff and CLI connect as configured. A kiosk never reads as the table owner: on a
        shared server IT gives it a DSN for the ``clinic_kiosk`` role; on the embedded server it
        creates that role itself and connects with it, so row-level security hides staff rows
        even from a buggy query."""
        settings = self.settings
        if self.channel != "kiosk":
            return open_database(settings)
        # The kiosk's name travels as application_name: the alert trigger records it.
        name = kiosk_source(settings)
        if settings.database.url:
            return open_database(settings, migrate=False, application_name=name)
        owner = open_database(settings)
        try:
            init_roles(
                owner,
                kiosk_password=secrets.token_urlsafe(32),
                staff_password=secrets.token_urlsafe(32),
            )
            url = sa.engine.make_url(owner.url).set(username=KIOSK_ROLE, password=None)
        finally:
            owner.dispose()
        kiosk = Database(
            url.render_as_string(hide_password=False),
            pool_size=settings.database.pool_size,
            connect_timeout=settings.database.connect_timeout,
            supervisor=supervisor_for(settings),
            application_name=name,
        )
        kiosk.ping()
        return kiosk

    def embedder(self) -> Embedder:
        with self._lock:
            if self._embedder is None:
                self._embedder = load_embedder(self.settings)
                _warm_exemplars(self._embedder)
            return self._embedder

    def assistant(self) -> Assistant:
        return Assistant(
            self.database(),
            self.embedder(),
            self.settings,
            audience=self.audience,
            chat=self._chat,
            channel=self.channel,
            username=self.username,
            appointment_helper=self._appointment_helper if self.audience == "staff" else None,
            queue=self._queue_source(),
            answer_log=self.answer_log,
        )

    def _queue_source(self) -> QueueSnapshotSource | None:
        """The live queue for staff queue questions; never for a kiosk or a public answer."""
        if self.audience != "staff" or self.channel == "kiosk":
            return None
        from engine.frontdesk.waiting_queue import QueueService

        return QueueService(self.database(), self.settings.queue)

    def answer(self, question: str, history: Sequence[Turn] = ()) -> Iterator[AnswerEvent]:
        # Safety routing needs neither the database nor the embedder: an emergency is answered
        # even when both are down (and even with a NUL in it: checked_question cleans it then).
        question = checked_question(question)
        decision = route_question(question)
        if decision.route is Route.EMERGENCY:
            try:  # shown first, logged after, even if the consumer stops at this event
                yield DoneEvent(
                    text=self.settings.texts.emergency,
                    route=Route.EMERGENCY,
                    outcome=Outcome.EMERGENCY,
                )
            finally:
                self._log_emergency(question, decision.reason)
            return
        yield from self.assistant().answer(question, history)

    def record_emergency(self, question: str) -> None:
        """Log an emergency an app routed itself (the kiosk decides in its GUI thread, before
        any call to ``answer``). Queued in memory while the database is down."""
        self._log_emergency(question, route_question(question).reason or "decided by the app")

    def _log_emergency(self, question: str, reason: str) -> None:
        entry = AnswerLogEntry(
            channel=self.channel,
            audience=self.audience,
            question=loggable(question),
            route=Route.EMERGENCY.value,
            route_reason=reason,
            outcome="emergency",
            shown_text=self.settings.texts.emergency,
            username=self.username,
        )
        try:
            db = self.database()
        except Exception as exc:  # the banner is already up; the entry waits for the database
            self.answer_log.keep(entry, str(exc).splitlines()[0][:200] if str(exc) else "")
            return
        self.answer_log.write(db, entry)

    def restart_database(self) -> None:
        """Bring a dead database back through the one supervisor (``engine.ops.db``): an embedded
        server is started again the way it is at launch; a shared server is probed with backoff.
        Never raises: ``check_database`` says whether it worked."""
        supervisor_for(self.settings).check()

    def check_database(self) -> None:
        try:
            db = self.database()
            db.ping()
            self.answer_log.flush(db)
        except DatabaseUnavailable:
            with self._lock:
                if self._db is not None:
                    self._db.dispose()
                self._db = None
            raise
        except ClinicError as exc:
            raise DatabaseUnavailable(str(exc)) from exc

    def suggested_questions(self) -> list[str]:
        """Up to six short topics (section headings) a person can tap, each known to find an answer.

        Headings come only from documents this audience may read (the kiosk: public only), taken
        in turn from each document so the topics cover different leaflets. A heading is offered
        only if it is short (at most 40 characters), distinct, routed as an information question
        and, asked as it is, passes the same relevance gate as a typed question: tapping a topic
        never ends in "I don't know", an emergency banner or a clinical referral.
        """
        from engine.answering.retrieval import Retriever

        max_chars = 40
        audiences = ["public", "staff"] if self.audience == "staff" else ["public"]
        with self.database().session() as session:
            rows = session.execute(
                sa.text(
                    """
                    SELECT d.slug, split_part(c.heading_path, ' > ', 2) AS heading,
                           min(c.ordinal) AS first
                    FROM chunks c JOIN documents d ON d.id = c.document_id
                    WHERE d.audience = ANY(CAST(:a AS varchar[]))
                      AND split_part(c.heading_path, ' > ', 2) <> ''
                    GROUP BY d.slug, heading
                    ORDER BY d.slug, first
                    """
                ),
                {"a": audiences},
            ).all()
        per_document: dict[str, list[str]] = {}
        for slug, heading, _first in rows:
            per_document.setdefault(str(slug), []).append(" ".join(str(heading).split()))
        candidates: list[str] = []
        depth = max((len(h) for h in per_document.values()), default=0)
        for index in range(depth):
            candidates += [h[index] for h in per_document.values() if index < len(h)]
        retriever = Retriever(self.database(), self.settings)
        chosen: list[str] = []
        seen: set[str] = set()
        for heading in candidates:
            key = heading.casefold()
            if not heading or len(heading) > max_chars or key in seen:
                continue
            seen.add(key)
            if route_question(heading).route is not Route.INFORMATION:
                continue
            vector = self.embedder().embed_query(heading)
            if not retriever.search(vector, heading, self.audience):
                continue
            chosen.append(heading)
            if len(chosen) == MAX_SUGGESTIONS:
                break
        return chosen

    def _appointment_helper(self, question: str) -> str | None:
        """Read-only: the next free slots matching a clinician or department, day and part of day
        named in the question. Booking itself is always a staff click on the Appointments form."""
        try:
            from engine.frontdesk.booking import BookingService
        except ImportError:
            return None
        from engine.frontdesk.slot_query import slot_request

        service = BookingService(self.database())
        lowered = question.lower()
        wanted = slot_request(question, service.departments(), service.clinicians())
        part = (
            "morning" if "morning" in lowered else "afternoon" if "afternoon" in lowered else "any"
        )
        slots = service.next_free_summary(
            wanted,
            part_of_day=part,
            on=named_day(lowered, service.now().astimezone(service.tz)),
        )
        if not slots:
            return None
        lines = [
            f"- {s.starts_at.astimezone(service.tz):%a %d %b %H:%M}, {s.clinician} "
            f"({s.department}), slot {s.slot_id}"
            for s in slots
        ]
        return "Next free slots (read-only; book them in the Appointments tab):\n" + "\n".join(
            lines
        )


def _warm_exemplars(embedder: Embedder) -> None:
    """Embed the routing signal's exemplar bank in the background as soon as the embedder is
    loaded (about 0.6 s on a quiet 2-core machine), so the first question does not wait for it.
    A question that comes first simply waits on the bank's lock; a failure is logged and the
    first question computes the bank itself."""
    from engine.safety.exemplars import default_bank

    def warm() -> None:
        try:
            default_bank().vectors(embedder)
        except Exception:
            log.warning("could not embed the exemplar bank in the background", exc_info=True)

    threading.Thread(target=warm, name="exemplar-bank", daemon=True).start()


WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def named_day(text: str, now: dt.datetime) -> dt.date | None:
    """``today``, ``tomorrow`` or the next weekday named in ``text`` (today if it is that day)."""
    today = now.date()
    if re.search(r"\btoday\b", text):
        return today
    if re.search(r"\btomorrow\b", text):
        return today + dt.timedelta(days=1)
    for index, name in enumerate(WEEKDAYS):
        if re.search(rf"\b{name}\b", text):
            return today + dt.timedelta(days=(index - today.weekday()) % 7)
    return None


def build_backend(
    settings: Settings,
    audience: str = "public",
    channel: str = "kiosk",
    username: str | None = None,
) -> ServiceBackend:
    """The backend an app uses. A kiosk is public whatever ``audience`` says."""
    return ServiceBackend(settings, audience=audience, channel=channel, username=username)
