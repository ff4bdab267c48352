"""The answer pipeline with the OpenAI-compatible backend: the real ``openai`` client against a
fake server speaking that protocol streams a cited answer, and every stream failure after tokens
were shown ends in the documents quoted, never in half an answer."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.answering.assistant import EXTRACTIVE_STATUS, Assistant
from engine.answering.openai_chat import OpenAIChat
from engine.answering.retrieval import Retriever
from engine.events import AnswerEvent, DoneEvent, Outcome, ReplaceEvent, StatusEvent, TokenEvent
from engine.ops.db import Database
from engine.ops.settings import Settings
from tests.support.clinic_corpus import answer_rows, fake_settings, ingest, write_corpus
from tests.support.fake_embedder import FakeEmbedder
from tests.support.fake_openai import FAKE_OPENAI_MODEL, FakeOpenAI, Script

FLU = "How much does the flu vaccine cost?"


@pytest.fixture
def fake(settings: Settings, db: Database, tmp_path: Path) -> Settings:
    configured = fake_settings(settings)
    ingest(db, configured, write_corpus(tmp_path / "knowledge"))
    return configured


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake_server:
        yield fake_server


def chat_for(url: str, model: str = FAKE_OPENAI_MODEL) -> OpenAIChat:
    return OpenAIChat(url, model, connect_timeout=2.0, read_timeout=10.0, temperature=0.1)


def ask(db: Database, settings: Settings, chat: OpenAIChat) -> list[AnswerEvent]:
    assistant = Assistant(db, FakeEmbedder(), settings, audience="public", chat=chat)
    return list(assistant.answer(FLU))


def final(events: list[AnswerEvent]) -> DoneEvent:
    assert isinstance(events[-1], DoneEvent)
    return events[-1]


def cited_flu(db: Database, settings: Settings) -> str:
    passages = Retriever(db, settings).search(FakeEmbedder().embed_query(FLU), FLU, "public")
    n = next(
        i
        for i, p in enumerate(passages, start=1)
        if p.heading_path == "Fees and payment > Vaccinations"
    )
    return f"The flu vaccine costs £15 for adults [{n}]."


def test_streams_a_cited_answer_with_token_counts(
    db: Database, fake: Settings, server: FakeOpenAI
) -> None:
    reply = cited_flu(db, fake)
    server.enqueue(Script.reply(reply, prompt_eval_count=400))
    with chat_for(server.base_url) as chat:
        events = ask(db, fake, chat)
    done = final(events)
    assert (done.outcome, done.text) == (Outcome.ANSWERED, reply)
    assert "".join(e.text for e in events if isinstance(e, TokenEvent)) == reply
    assert done.prompt_tokens == 400 and done.model == FAKE_OPENAI_MODEL
    assert "CLINIC DOCUMENTS" in server.chat_bodies()[0]["messages"][-1]["content"]


@pytest.mark.parametrize(
    "script",
    [
        Script(tokens=("Adults ", "pay ", "nothing ", "at ", "all "), failure="drop", fail_after=3),
        Script(tokens=("Adults ", "pay ", "nothing ", "at ", "all "), failure="cut", fail_after=3),
        Script(tokens=("Adults ", "pay ", "nothing ", "at"), failure="error_line", fail_after=2),
        Script(tokens=("Adults ", "pay ", "nothing ", "at ", "all [1]"), done_reason="length"),
    ],
    ids=["drop", "cut", "error_event", "length"],
)
def test_stream_failure_after_tokens_replaces_the_partial_text(
    db: Database, fake: Settings, server: FakeOpenAI, script: Script
) -> None:
    server.enqueue(script)
    with chat_for(server.base_url) as chat:
        events = ask(db, fake, chat)
    assert any(isinstance(e, TokenEvent) for e in events)
    done = final(events)
    assert done.outcome is Outcome.EXTRACTIVE
    replace = events[-2]
    assert isinstance(replace, ReplaceEvent) and replace.reason == "model_failed"
    assert "Adults pay nothing" not in done.text
    assert "\u201c" in done.text and "[1]" in done.text  # the documents quoted, cited


def test_refused_connection_and_unknown_model_quote_the_documents(
    db: Database, fake: Settings, server: FakeOpenAI
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with chat_for(f"http://127.0.0.1:{port}/v1") as chat:
        events = ask(db, fake, chat)
    assert StatusEvent(EXTRACTIVE_STATUS) in events
    assert final(events).outcome is Outcome.EXTRACTIVE
    with chat_for(server.base_url, model="not-served") as chat:
        events = ask(db, fake, chat)
    assert final(events).outcome is Outcome.EXTRACTIVE
    assert "not-served" in (answer_rows(db)[-1].guard_reason or "")
