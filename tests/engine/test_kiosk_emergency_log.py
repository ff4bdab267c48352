"""A kiosk-only install logs the emergencies it routes itself (kept while the database is down)
and purges expired answers through the narrow function of migration 0005, never a DELETE grant."""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa

from engine.answering.answer_log import AnswerLogEntry, record_answer
from engine.errors import DatabaseUnavailable
from engine.ops.db import Database, open_database
from engine.ops.service import ServiceBackend
from engine.ops.settings import Settings
from tests.support.fake_embedder import FakeEmbedder

QUESTION = "my husband has chest pain and is sweating"


@pytest.fixture
def embedded_settings() -> Iterator[Settings]:
    root = Path(tempfile.mkdtemp(prefix="clinic-kiosk-log-"))
    root.chmod(0o755)
    yield Settings(data_dir=root)
    shutil.rmtree(root, ignore_errors=True)


class DownDatabase:
    """A database whose server is gone: every use fails as the real one does."""

    url = "postgresql+psycopg://nobody@/gone"

    def ping(self) -> None:
        raise DatabaseUnavailable("connection refused")

    @contextmanager
    def session(self) -> Iterator[None]:
        raise DatabaseUnavailable("connection refused")
        yield

    def dispose(self) -> None:
        pass


def logged(owner: Database) -> list[tuple[str, str, str]]:
    with owner.engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT channel, route, question FROM answers ORDER BY id"))
        return [(r[0], r[1], r[2]) for r in rows]


def test_an_emergency_routed_while_the_database_is_down_is_logged_when_it_is_back(
    embedded_settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    owner = open_database(embedded_settings)
    caplog.set_level(logging.INFO)
    backend = ServiceBackend(
        embedded_settings,
        audience="public",
        channel="kiosk",
        embedder=FakeEmbedder(),
        db=DownDatabase(),  # type: ignore[arg-type]
    )
    backend.record_emergency(QUESTION)  # must not raise: the banner is already up
    assert logged(owner) == []
    with pytest.raises(DatabaseUnavailable):
        backend.check_database()
    backend.check_database()  # the kiosk's retry: reconnects, then writes what was kept
    assert logged(owner) == [("kiosk", "emergency", QUESTION)]
    backend.record_emergency(QUESTION)
    assert len(logged(owner)) == 2
    assert not any(r.exc_info for r in caplog.records)  # one line each, never a traceback
    backend.database().dispose()
    owner.dispose()


def test_a_kiosk_only_install_purges_expired_answers_but_cannot_delete_others(
    embedded_settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    owner = open_database(embedded_settings)
    entry = AnswerLogEntry(
        channel="kiosk",
        audience="public",
        question="do you have a gym?",
        route="information",
        route_reason="information:default",
        outcome="no_answer",
        shown_text="I don't know.",
    )
    old = record_answer(owner, entry)
    recent = record_answer(owner, entry)
    with owner.engine.begin() as conn:
        conn.execute(
            sa.text("UPDATE answers SET created_at = now() - interval '400 days' WHERE id = :i"),
            {"i": old},
        )
    caplog.set_level(logging.INFO)
    backend = ServiceBackend(
        embedded_settings, audience="public", channel="kiosk", embedder=FakeEmbedder()
    )
    kiosk = backend.database()  # the start-up purge runs as clinic_kiosk
    with owner.engine.connect() as conn:
        ids = [r[0] for r in conn.execute(sa.text("SELECT id FROM answers"))]
    assert ids == [recent]
    assert not any(r.exc_info for r in caplog.records)
    with kiosk.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT current_user")).scalar() == "clinic_kiosk"
        with pytest.raises(sa.exc.ProgrammingError):
            conn.execute(sa.text("DELETE FROM answers"))
    with kiosk.engine.connect() as conn, pytest.raises(sa.exc.DBAPIError):
        conn.execute(sa.text("SELECT clinic_purge_expired_answers(0)"))  # at least one day
    kiosk.dispose()
    owner.dispose()
