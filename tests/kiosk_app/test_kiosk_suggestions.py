"""The welcome screen's topics come from the public documents and each one finds an answer.

Runs the real service (embedded PostgreSQL, the sample ``knowledge/`` folder ingested with the
deterministic FakeEmbedder, extractive answers) exactly as the kiosk builds it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import sqlalchemy as sa

from engine.events import DoneEvent, Outcome
from engine.knowledge.ingest import Ingester
from engine.ops.service import ServiceBackend
from engine.ops.settings import DatabaseSettings, EmbeddingSettings, RetrievalSettings, Settings
from tests.support.fake_embedder import FakeEmbedder

KNOWLEDGE = Path(__file__).resolve().parents[2] / "knowledge"
MAX_TOPIC_CHARS = 40


@pytest.fixture
def settings(tmp_path: Path, database_url: str) -> Settings:
    # Overrides the kiosk's FakeBackend settings: this module talks to a real database.
    return Settings(
        data_dir=tmp_path / "data",
        database=DatabaseSettings(url=database_url),
        embedding=EmbeddingSettings(model="fake/hash-embedder"),
        retrieval=RetrievalSettings(similarity_floors={"fake/hash-embedder": 0.3}),
    )


@pytest.fixture
def ingested(db, settings):
    embedder = FakeEmbedder()
    report = Ingester(db, embedder, settings).ingest_folders([KNOWLEDGE])
    assert not report.failed
    return embedder


def headings(db, audience: str) -> set[str]:
    with db.session() as session:
        rows = session.execute(
            sa.text(
                "SELECT DISTINCT split_part(c.heading_path, ' > ', 2) FROM chunks c "
                "JOIN documents d ON d.id = c.document_id WHERE d.audience = :a"
            ),
            {"a": audience},
        ).all()
    return {str(r[0]) for r in rows if r[0]}


def test_kiosk_topics_are_short_public_and_each_finds_a_cited_answer(db, settings, ingested):
    backend = ServiceBackend(settings, audience="staff", channel="kiosk", embedder=ingested, db=db)
    topics = backend.suggested_questions()

    assert 4 <= len(topics) <= 6
    assert len({t.casefold() for t in topics}) == len(topics)
    assert all(0 < len(t) <= MAX_TOPIC_CHARS for t in topics)
    public = headings(db, "public")
    assert set(topics) <= public  # never a staff heading, even when the caller asked for staff
    with db.session() as session:
        public_slugs = {
            str(r[0])
            for r in session.execute(sa.text("SELECT slug FROM documents WHERE audience='public'"))
        }
    refusal = settings.texts.refusal
    print(topics)
    for topic in topics:
        done = list(backend.answer(topic))[-1]
        assert isinstance(done, DoneEvent), topic
        assert done.outcome is Outcome.EXTRACTIVE, (topic, done.outcome)
        assert done.citations, topic
        assert refusal not in done.text
        assert re.search(r"\u201d \[\d+\]", done.text), done.text  # quotes, each cited
        assert {c.document_slug for c in done.citations} <= public_slugs


def test_topics_come_from_several_documents(db, settings, ingested):
    backend = ServiceBackend(settings, audience="public", channel="kiosk", embedder=ingested, db=db)
    topics = backend.suggested_questions()
    with db.session() as session:
        owners = {
            str(r[0])
            for r in session.execute(
                sa.text(
                    "SELECT DISTINCT d.slug FROM chunks c JOIN documents d ON d.id = c.document_id "
                    "WHERE d.audience = 'public' "
                    "AND split_part(c.heading_path, ' > ', 2) = ANY(CAST(:t AS text[]))"
                ),
                {"t": topics},
            )
        }
    assert len(owners) >= 4  # one leaflet's headings do not crowd out the others


def test_no_documents_means_no_topics(db, settings):
    backend = ServiceBackend(
        settings, audience="public", channel="kiosk", embedder=FakeEmbedder(), db=db
    )
    assert backend.suggested_questions() == []
