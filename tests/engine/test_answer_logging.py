"""Answers reach the log even when the consumer stops at the final event, as the Qt worker does."""

from __future__ import annotations

import sqlalchemy as sa

from engine.answering.assistant import Assistant
from engine.events import DoneEvent
from engine.ops import db as dbm
from engine.ops.service import ServiceBackend
from engine.ops.settings import EmbeddingSettings, RetrievalSettings, Settings
from tests.support.fake_embedder import FakeEmbedder


def fake_settings(settings: Settings) -> Settings:
    return settings.replace(
        embedding=EmbeddingSettings(model="fake/hash-embedder"),
        retrieval=RetrievalSettings(similarity_floors={"fake/hash-embedder": 0.3}),
    )


def stop_at_done(events: object) -> DoneEvent:
    iterator = iter(events)  # type: ignore[call-overload]
    for event in iterator:
        if isinstance(event, DoneEvent):
            iterator.close()
            return event
    raise AssertionError("no DoneEvent")


def logged(db: dbm.Database) -> list[tuple[str, str]]:
    with db.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(sa.text("SELECT question, outcome FROM answers"))]


def test_answer_logged_when_consumer_closes_at_done(db: dbm.Database, settings: Settings) -> None:
    assistant = Assistant(db, FakeEmbedder(), fake_settings(settings), audience="public")
    done = stop_at_done(assistant.answer("Do you have a gym?"))
    assert done.outcome.value == "no_answer"
    assert logged(db) == [("Do you have a gym?", "no_answer")]


def test_clinical_refusal_logged_when_consumer_closes_at_done(
    db: dbm.Database, settings: Settings
) -> None:
    assistant = Assistant(db, FakeEmbedder(), fake_settings(settings), audience="public")
    stop_at_done(assistant.answer("Should I stop my warfarin before my colonoscopy?"))
    assert logged(db) == [("Should I stop my warfarin before my colonoscopy?", "clinical")]


def test_emergency_logged_when_consumer_closes_at_done(
    db: dbm.Database, settings: Settings
) -> None:
    backend = ServiceBackend(
        fake_settings(settings), audience="public", channel="staff", embedder=FakeEmbedder(), db=db
    )
    done = stop_at_done(backend.answer("my husband collapsed and is not breathing"))
    assert done.text == settings.texts.emergency
    assert logged(db) == [("my husband collapsed and is not breathing", "emergency")]
