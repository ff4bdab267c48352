"""The answer log loses no answer to a database blip.

The fault the kiosk met after its embedded server was killed: a pooled connection passed its
pre-ping (its backend had not yet noticed the postmaster was gone) and the answer-log INSERT that
followed failed with "server closed the connection unexpectedly"; the answer was lost from the
log with a traceback. Reproduced here on the real server: the connection's backend is terminated
right after the pre-ping, at checkout. And a database that stays down keeps the entries in
memory and writes them, oldest first, when it is back.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa

from engine.answering.answer_log import AnswerLogEntry, AnswerLogWriter
from engine.answering.assistant import Assistant
from engine.errors import DatabaseUnavailable
from engine.ops import db as dbm
from engine.ops.settings import EmbeddingSettings, RetrievalSettings, Settings
from tests.support.fake_embedder import FakeEmbedder


def entry(question: str) -> AnswerLogEntry:
    return AnswerLogEntry(
        channel="kiosk",
        audience="public",
        question=question,
        route="information",
        route_reason=None,
        outcome="answered",
        shown_text="We open at 8:00 [1].",
    )


def questions(db: dbm.Database) -> list[str]:
    with db.engine.connect() as conn:
        return list(conn.execute(sa.text("SELECT question FROM answers ORDER BY id")).scalars())


@contextmanager
def backend_dies_after_pre_ping(db: dbm.Database, admin_url: str) -> Iterator[list[int]]:
    """The next connection checked out of ``db``'s pool loses its server process right after the
    pre-ping passed, as a backend does when its postmaster was killed. Yields the killed PIDs."""
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    killed: list[int] = []

    def checkout(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        if killed:
            return
        pid = dbapi_connection.info.backend_pid
        with admin.connect() as conn:
            terminate = sa.text("SELECT pg_terminate_backend(:p, 5000)")
            assert conn.execute(terminate, {"p": pid}).scalar()
        killed.append(pid)

    sa.event.listen(db.engine, "checkout", checkout)
    try:
        yield killed
    finally:
        sa.event.remove(db.engine, "checkout", checkout)
        admin.dispose()


def test_a_pooled_connection_that_died_after_its_pre_ping_does_not_lose_the_answer(
    db: dbm.Database, pg_admin_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    writer = AnswerLogWriter()
    assert writer.write(db, entry("warm the pool"))  # a pooled connection exists now
    caplog.set_level(logging.INFO)
    with backend_dies_after_pre_ping(db, pg_admin_url) as killed:
        assert writer.write(db, entry("What time do you open on weekdays?"))
    assert killed  # the fault really happened on the write
    assert questions(db) == ["warm the pool", "What time do you open on weekdays?"]
    assert writer.pending == 0
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


class DownDatabase:
    """A database whose server is gone: every session fails as the real one's does."""

    url = "postgresql+psycopg://nobody@/gone"

    @contextmanager
    def session(self) -> Iterator[None]:
        raise DatabaseUnavailable("connection refused")
        yield


def test_answers_written_while_the_database_is_down_are_kept_and_written_in_order_when_back(
    db: dbm.Database, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    writer = AnswerLogWriter()
    down: Any = DownDatabase()
    assert not writer.write(down, entry("first, while down"))
    assert not writer.write(down, entry("second, while down"))
    assert writer.pending == 2
    assert not writer.flush(down)
    assert questions(db) == []
    assert writer.write(db, entry("third, the database is back"))
    assert questions(db) == [
        "first, while down",
        "second, while down",
        "third, the database is back",
    ]
    assert writer.pending == 0
    # One line when entries start being kept, one when they are written; no traceback.
    lines = [r.getMessage() for r in caplog.records if r.name == "engine.answering.answer_log"]
    assert len(lines) == 2, lines
    assert "kept" in lines[0] and "2 kept answer(s) written" in lines[1]
    assert not any(r.exc_info for r in caplog.records)


def test_at_most_the_newest_entries_are_kept_and_the_loss_is_said(
    db: dbm.Database, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    writer = AnswerLogWriter(max_pending=2)
    down: Any = DownDatabase()
    for n in range(3):
        writer.write(down, entry(f"question {n}"))
    assert writer.flush(db)
    assert questions(db) == ["question 1", "question 2"]
    assert "1 older one(s) lost" in caplog.records[-1].getMessage()


def test_an_assistant_answer_finished_while_the_database_is_down_is_logged_when_it_is_back(
    db: dbm.Database, settings: Settings
) -> None:
    settings = settings.replace(
        embedding=EmbeddingSettings(model="fake/hash-embedder"),
        retrieval=RetrievalSettings(similarity_floors={"fake/hash-embedder": 0.3}),
    )
    writer = AnswerLogWriter()
    down: Any = DownDatabase()
    writer.write(down, entry("kept before"))
    assistant = Assistant(db, FakeEmbedder(), settings, audience="public", answer_log=writer)
    events = list(assistant.answer("Should I stop my warfarin before my colonoscopy?"))
    assert events[-1].outcome.value == "clinical"  # type: ignore[union-attr]
    # The shared writer wrote what was kept first, then this answer.
    assert questions(db) == ["kept before", "Should I stop my warfarin before my colonoscopy?"]
