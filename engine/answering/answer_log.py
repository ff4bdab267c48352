"""The answer log: every answer shown, stored for the review queue, with a retention limit.

Citations are stored as snapshots (title, heading path, excerpt, similarity) of the passages the
answer actually cited, so they survive re-ingestion. Writing the log never blocks or breaks an
answer: :class:`AnswerLogWriter` never raises.

A database blip must not lose an answer from the log (the review queue and reception read it).
When the embedded server dies, a pooled connection can pass its pre-ping (its backend has not yet
noticed the postmaster is gone) and fail on the INSERT that follows: the writer then tries once
more at once (SQLAlchemy has invalidated the pool, so the retry opens a fresh connection, which
restarts a dead embedded server through the supervisor in ``engine.ops.db``). If that fails too, the
entry is kept in memory, bounded, and written oldest first before the next entry or at
:meth:`AnswerLogWriter.flush` (the kiosk's database check when the server is back).

Never: a traceback for an unreachable database (one line when entries start being kept, one when
they are written); a retry of an entry that failed for another reason (a bug would only fail
again and block the ones behind it: it is logged once with its traceback and dropped).
"""

from __future__ import annotations

import json
import logging
import threading
from collections import deque
from dataclasses import dataclass, field

import sqlalchemy as sa

from engine.errors import DatabaseUnavailable
from engine.events import Citation
from engine.ops.db import Database

log = logging.getLogger(__name__)

EXCERPT_CHARS = 600
MAX_PENDING = 500  # entries kept in memory while the database is down (oldest dropped first)
_CONNECTION_ERRORS = (DatabaseUnavailable, sa.exc.OperationalError, sa.exc.InterfaceError)


@dataclass(frozen=True)
class AnswerLogEntry:
    channel: str
    audience: str
    question: str
    route: str
    route_reason: str | None
    outcome: str
    shown_text: str
    original_text: str | None = None
    guard_reason: str | None = None
    citations: tuple[Citation, ...] = ()
    best_similarity: float | None = None
    model: str | None = None
    timings: dict[str, float] = field(default_factory=dict)
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    username: str | None = None
    # the prompt that wrote it (engine.answering.prompting.PROMPT_VERSION)
    prompt_version: str | None = None


def record_answer(db: Database, entry: AnswerLogEntry) -> int:
    snapshots = [
        {
            "number": c.number,
            "document_slug": c.document_slug,
            "document_title": c.document_title,
            "heading_path": c.heading_path,
            "excerpt": c.text[:EXCERPT_CHARS],
            "similarity": round(c.similarity, 4),
        }
        for c in entry.citations
    ]
    with db.session() as session:
        answer_id: int = session.execute(
            sa.text(
                """
                INSERT INTO answers (channel, username, audience, question, route, route_reason,
                    outcome, shown_text, original_text, guard_reason, citations, best_similarity,
                    model, timings, prompt_tokens, completion_tokens, prompt_version)
                VALUES (:channel, :username, :audience, :question, :route, :route_reason,
                    :outcome, :shown_text, :original_text, :guard_reason, CAST(:citations AS jsonb),
                    :best_similarity, :model, CAST(:timings AS jsonb), :prompt_tokens,
                    :completion_tokens, :prompt_version)
                RETURNING id
                """
            ),
            {
                "channel": entry.channel,
                "username": entry.username,
                "audience": entry.audience,
                "question": entry.question,
                "route": entry.route,
                "route_reason": entry.route_reason,
                "outcome": entry.outcome,
                "shown_text": entry.shown_text,
                "original_text": entry.original_text,
                "guard_reason": entry.guard_reason,
                "citations": json.dumps(snapshots),
                "best_similarity": entry.best_similarity,
                "model": entry.model,
                "timings": json.dumps(entry.timings),
                "prompt_tokens": entry.prompt_tokens,
                "completion_tokens": entry.completion_tokens,
                "prompt_version": entry.prompt_version,
            },
        ).scalar_one()
    return int(answer_id)


def purge_expired(db: Database, retention_days: int) -> int:
    """Delete answers older than the retention period, except those a reviewer decided on.

    Runs through the SECURITY DEFINER function of migration 0005, so the kiosk role (which may
    not delete answers) purges too, and nothing but expired answers can be deleted that way."""
    if retention_days <= 0:
        return 0
    with db.session() as session:
        deleted = session.execute(
            sa.text("SELECT clinic_purge_expired_answers(:d)"), {"d": int(retention_days)}
        ).scalar()
    return int(deleted or 0)


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return (lines[0] if lines else type(error).__name__)[:200]


class AnswerLogWriter:
    """Writes answer-log entries so that a database that is down or restarting loses none.

    Thread-safe (answers finish on worker threads). :meth:`write` and :meth:`flush` never raise.
    """

    def __init__(self, max_pending: int = MAX_PENDING) -> None:
        self._lock = threading.Lock()
        self._flushing = threading.Lock()  # one flush at a time: an entry is written once
        self._pending: deque[AnswerLogEntry] = deque(maxlen=max_pending)
        self._dropped = 0

    @property
    def pending(self) -> int:
        """Entries kept because the database could not be reached, not yet written."""
        with self._lock:
            return len(self._pending)

    def write(self, db: Database, entry: AnswerLogEntry) -> bool:
        """Write what was kept, then ``entry`` (retried once on a connection failure); keep it if
        the database cannot be reached. True when ``entry`` is in the log now."""
        if not self.flush(db):
            self.keep(entry, "the database is still unavailable")
            return False
        try:
            self._write_retrying(db, entry)
        except _CONNECTION_ERRORS as exc:
            self.keep(entry, _first_line(exc))
            return False
        except Exception:
            log.warning("an answer could not be written to the answer log", exc_info=True)
            return False
        return True

    def keep(self, entry: AnswerLogEntry, reason: str) -> None:
        """Keep ``entry`` for later (the database could not be reached: ``reason``)."""
        with self._lock:
            first = not self._pending
            if len(self._pending) == self._pending.maxlen:
                self._dropped += 1
            self._pending.append(entry)
        if first:
            log.warning(
                "The answer log cannot be written now (%s); answers are kept and written when "
                "the database is back",
                reason,
            )

    def flush(self, db: Database) -> bool:
        """Write the kept entries, oldest first. True when none is left."""
        with self._flushing:
            return self._flush(db)

    def _flush(self, db: Database) -> bool:
        written = 0
        while True:
            with self._lock:
                entry = self._pending[0] if self._pending else None
            if entry is None:
                break
            try:
                self._write_retrying(db, entry)
            except _CONNECTION_ERRORS:
                return False  # still down: kept for the next attempt
            except Exception:
                log.warning("a kept answer could not be written to the answer log", exc_info=True)
            with self._lock:
                if self._pending and self._pending[0] is entry:
                    self._pending.popleft()
            written += 1
        if written:
            with self._lock:
                dropped, self._dropped = self._dropped, 0
            log.info(
                "The answer log is written again: %d kept answer(s) written%s",
                written,
                f", {dropped} older one(s) lost (more than {self._pending.maxlen} kept)"
                if dropped
                else "",
            )
        return True

    @staticmethod
    def _write_retrying(db: Database, entry: AnswerLogEntry) -> None:
        try:
            record_answer(db, entry)
        except _CONNECTION_ERRORS:
            # The failed connection was invalidated with the pool: the retry opens a fresh one
            # (and a dead embedded server is started again on the way, by the supervisor).
            record_answer(db, entry)
