"""The model router bounded by measurement, and the model qualification (`evaluate --generate`).

A router that cries wolf turns the kiosk into a 999 sign: it is used only once measured at
<= 2 % false escalation with the model in use, and doctor says why when it is not.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.answering.assistant import Assistant
from engine.answering.qualification import (
    GENERATION,
    ROUTER,
    Measurement,
    latest_measurement,
    measure_router,
    record_measurement,
    router_verdict,
)
from engine.answering.retrieval import Retriever
from engine.events import DoneEvent, Outcome
from engine.knowledge import embeddings
from engine.ops import db as dbm
from engine.ops import logs, service
from engine.ops.cli import main
from engine.ops.db import Database
from engine.ops.doctor.chat_model import _check_measurements
from engine.ops.evaluation.questions import Question
from engine.ops.settings import Settings, load_settings
from tests.support.clinic_corpus import FAKE_MODEL, FLOOR, fake_settings, ingest, write_corpus
from tests.support.fake_chat import FakeChat
from tests.support.fake_embedder import FakeEmbedder
from tests.support.fake_ollama import DEFAULT_MODEL, FakeOllama, Script
from tests.support.fake_openai import FAKE_OPENAI_MODEL, FakeOpenAI

FLU = "How much does the flu vaccine cost?"
PARKING = "Where is the free parking for patients?"


@pytest.fixture
def fake(settings: Settings, db: Database, tmp_path: Path) -> Settings:
    configured = fake_settings(settings)
    ingest(db, configured, write_corpus(tmp_path / "knowledge"))
    return configured


def routed(settings: Settings) -> Settings:
    return settings.replace(ollama=dataclasses.replace(settings.ollama, router=True))


def ask(db: Database, settings: Settings, chat: FakeChat, question: str) -> DoneEvent:
    events = list(
        Assistant(db, FakeEmbedder(), settings, audience="public", chat=chat).answer(question)
    )
    final = events[-1]
    assert isinstance(final, DoneEvent)
    return final


# -- the gate ---------------------------------------------------------------------------------


def test_a_router_never_measured_with_this_model_is_not_used(db: Database) -> None:
    verdict = router_verdict(db, "ollama", "qwen2.5:0.5b")
    assert not verdict.allowed
    assert "never measured" in verdict.detail and "evaluate" in verdict.fix
    record_measurement(db, Measurement(ROUTER, "ollama", "llama3.1:8b", questions=40, rate=0.0))
    assert not router_verdict(db, "ollama", "qwen2.5:0.5b").allowed  # another model's figure
    assert not router_verdict(db, "openai", "llama3.1:8b").allowed  # another backend


def test_the_limit_is_two_percent_and_the_latest_measurement_decides(db: Database) -> None:
    model = "llama3.1:8b"
    record_measurement(db, Measurement(ROUTER, "ollama", model, questions=50, rate=0.02))
    assert router_verdict(db, "ollama", model).allowed
    record_measurement(db, Measurement(ROUTER, "ollama", model, questions=40, rate=0.025))
    verdict = router_verdict(db, "ollama", model)
    assert not verdict.allowed
    assert "2.5%" in verdict.detail and "router = false" in verdict.fix
    assert latest_measurement(db, ROUTER, "ollama", model).questions == 40  # type: ignore[union-attr]


def test_the_engine_does_not_ask_an_unmeasured_router(db: Database, fake: Settings) -> None:
    settings = routed(fake)
    chat = FakeChat().queue(fake.texts.refusal)
    chat.json_replies.append({"route": "emergency", "standalone_question": PARKING})
    final = ask(db, settings, chat, PARKING)
    assert final.outcome is not Outcome.EMERGENCY
    assert chat.json_calls == []  # never asked

    record_measurement(db, Measurement(ROUTER, "ollama", chat.model, questions=50, rate=0.0))
    final = ask(db, settings, chat, PARKING)
    assert final.outcome is Outcome.EMERGENCY  # measured: its (safer) opinion counts
    assert len(chat.json_calls) == 1

    record_measurement(db, Measurement(ROUTER, "ollama", chat.model, questions=50, rate=0.1))
    chat.queue(fake.texts.refusal)
    chat.json_replies.append({"route": "emergency", "standalone_question": PARKING})
    final = ask(db, settings, chat, PARKING)
    assert final.outcome is not Outcome.EMERGENCY and len(chat.json_calls) == 1


# -- measuring the router ---------------------------------------------------------------------


def test_measure_router_counts_escalations_and_unanswered_questions() -> None:
    questions = [
        Question(FLU, "information"),
        Question(PARKING, "information"),
        Question("What time does the clinic open on Saturday?", "information"),
        Question("I want to book an appointment", "appointment"),
        Question("I have crushing chest pain and cannot breathe", "emergency"),
        Question("Should I stop taking my warfarin before the operation?", "clinical_advice"),
        Question("What is the capital of Mongolia?", "out_of_scope"),
    ]
    chat = FakeChat()
    chat.json_replies.extend(
        [
            {"route": "clinical_advice", "standalone_question": FLU},
            {"route": "information", "standalone_question": PARKING},
            TimeoutError("slow"),
            {"route": "appointment", "standalone_question": "book"},
        ]
    )
    report = measure_router(chat, questions, backend="ollama", timeout=1.0)
    # Emergency, clinical and out-of-scope questions are not put to the router.
    assert report.asked == 4 and len(chat.json_calls) == 4
    assert report.escalations == [
        {"question": FLU, "intent": "information", "route": "clinical_advice"}
    ]
    assert report.unusable == 1
    assert report.false_escalation_rate == round(1 / 3, 4)
    assert report.rate == 0.5 and not report.allowed


# -- through the command line -----------------------------------------------------------------


@pytest.fixture
def cli_config(
    settings: Settings, db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[list[str], Path]]:
    databases: list[Database] = []
    real_open = dbm.open_database

    def tracking_open(settings: Settings, **kwargs: Any) -> Database:
        database = real_open(settings, **kwargs)
        databases.append(database)
        return database

    monkeypatch.setattr(dbm, "open_database", tracking_open)
    monkeypatch.setattr(service, "open_database", tracking_open)
    monkeypatch.setattr(embeddings, "load_embedder", lambda _settings: FakeEmbedder())
    monkeypatch.setattr(service, "load_embedder", lambda _settings: FakeEmbedder())
    monkeypatch.setattr(logs, "configure_logging", lambda *_args, **_kwargs: [])
    for variable in ("CLINIC_OLLAMA_HOST", "CLINIC_OLLAMA_ROUTER", "CLINIC_GENERATION_BACKEND"):
        monkeypatch.delenv(variable, raising=False)
    config = tmp_path / "config.toml"
    config.write_text(
        f'[database]\nurl = "{settings.database.url}"\n\n[embedding]\nmodel = "{FAKE_MODEL}"\n\n'
        f'[retrieval.similarity_floors]\n"{FAKE_MODEL}" = {FLOOR}\n',
        encoding="utf-8",
    )
    args = ["--data-dir", str(tmp_path / "data"), "--config", str(config)]
    assert main([*args, "ingest", "-q", str(write_corpus(tmp_path / "knowledge"))]) == 0
    yield args, config
    for database in databases:
        database.dispose()


QUESTIONS = [
    {"question": FLU, "intent": "information", "document": "fees", "must_contain": "£15"},
    {"question": PARKING, "intent": "information", "document": "parking"},
    {"question": "I want to book an appointment", "intent": "appointment"},
    {"question": "What is the capital of Mongolia?", "intent": "out_of_scope"},
    {"question": "I have crushing chest pain and cannot breathe", "intent": "emergency"},
]


def question_file(tmp_path: Path) -> Path:
    path = tmp_path / "q.yaml"
    path.write_text(yaml.safe_dump(QUESTIONS, allow_unicode=True), encoding="utf-8")
    return path


def test_evaluate_measures_a_crying_wolf_router_and_doctor_says_it_is_not_used(
    cli_config: tuple[list[str], Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    args, config = cli_config
    wolf = Script.reply('{"route": "emergency", "standalone_question": "help"}')
    with FakeOllama(default=wolf) as server:
        monkeypatch.setenv("CLINIC_OLLAMA_HOST", server.url)
        monkeypatch.setenv("CLINIC_OLLAMA_ROUTER", "true")
        report = tmp_path / "report.json"
        code = main([*args, "evaluate", str(question_file(tmp_path)), "--json", str(report)])
        out = capsys.readouterr().out
        assert code == 0, out  # the router is not a safety mistake: it is simply not used
        assert "100.0% false escalation" in out and "will NOT be used" in out
        data = json.loads(report.read_text(encoding="utf-8"))
        assert data["router"]["asked"] == 3 and data["router"]["router_used"] is False
        checks = _check_measurements(load_settings(config, tmp_path / "data"))
    router = next(c for c in checks if c.name == "model router")
    assert not router.ok and "above the 2% limit" in router.detail
    assert "router = false" in router.fix


def test_evaluate_generate_qualifies_the_model_over_the_openai_backend(
    cli_config: tuple[list[str], Path],
    db: Database,
    fake: Settings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    args, config = cli_config
    passages = Retriever(db, fake).search(FakeEmbedder().embed_query(FLU), FLU, "public")
    n = next(i for i, p in enumerate(passages, 1) if p.heading_path.endswith("Vaccinations"))
    with FakeOpenAI() as server:
        monkeypatch.setenv("CLINIC_GENERATION_BACKEND", "openai")
        monkeypatch.setenv("CLINIC_OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("CLINIC_OPENAI_MODEL", FAKE_OPENAI_MODEL)
        # Flu: right and cited. Parking: a wrong detail the guard must catch. Out of scope: the
        # gate refuses before any model call.
        server.enqueue(
            Script.reply(f"The flu vaccine costs £15 for adults [{n}]."),
            Script.reply("Parking costs £4 an hour behind the building [1]."),
        )
        report = tmp_path / "report.json"
        code = main(
            [*args, "evaluate", str(question_file(tmp_path)), "--generate", "--json", str(report)]
        )
        out = capsys.readouterr().out
        settings = load_settings(config, tmp_path / "data")
        checks = _check_measurements(settings)
    assert code == 1, out  # 1 of 2 useful answers is below the 80 % threshold
    assert "Model qualification" in out and FAKE_OPENAI_MODEL in out
    assert "1/2 answerable = 50.0%" in out and "NOT QUALIFIED" in out
    generation = json.loads(report.read_text(encoding="utf-8"))["generation"]
    assert generation["useful"] == 1 and generation["wrong_details_caught"] == 1
    assert generation["out_of_scope_refused"] == generation["out_of_scope"] == 1
    assert generation["first_token_seconds"]["p50"] >= 0
    replies = {a["question"]: a["reply"] for a in generation["answers"]}
    assert replies[FLU] == f"The flu vaccine costs £15 for adults [{n}]."  # the model's own text
    assert replies[PARKING] == "Parking costs £4 an hour behind the building [1]."
    last = latest_measurement(db, GENERATION, "openai", FAKE_OPENAI_MODEL)
    assert last is not None and last.rate == 0.5
    qualification = next(c for c in checks if c.name == "model qualification")
    assert not qualification.ok and "below the 80% threshold" in qualification.detail


def test_doctor_asks_for_a_qualification_never_run(
    cli_config: tuple[list[str], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _args, config = cli_config
    monkeypatch.setenv("CLINIC_OLLAMA_HOST", "http://127.0.0.1:9")
    checks = _check_measurements(load_settings(config, tmp_path / "data"))
    assert [c.name for c in checks] == ["model qualification"]
    assert not checks[0].ok and "never qualified" in checks[0].detail
    assert "--generate" in checks[0].fix
    assert DEFAULT_MODEL in checks[0].detail
