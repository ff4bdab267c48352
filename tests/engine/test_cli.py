"""``clinic-assistant ask`` and ``evaluate`` through ``engine.ops.cli.main``: exit codes, output
files.

The command line has no seam for an embedder, so ``engine.knowledge.embeddings.load_embedder`` is
patched to the hash embedder (the real model has its own test in test_retrieval.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import yaml

from engine.knowledge import embeddings
from engine.ops import db as dbm
from engine.ops import logs, service
from engine.ops.cli import main
from engine.ops.db import Database
from engine.ops.settings import Settings
from tests.support.clinic_corpus import DOCUMENTED_KEYS, FAKE_MODEL, FLOOR, write_corpus
from tests.support.fake_embedder import FakeEmbedder


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Database]]:
    """Databases the commands open (a CLI process just exits); closed after the test."""
    databases: list[Database] = []
    real_open = dbm.open_database

    def tracking_open(settings: Settings, **kwargs: Any) -> Database:
        database = real_open(settings, **kwargs)
        databases.append(database)
        return database

    monkeypatch.setattr(dbm, "open_database", tracking_open)
    monkeypatch.setattr(service, "open_database", tracking_open)
    yield databases
    for database in databases:
        database.dispose()


@pytest.fixture
def cli(
    opened: list[Database],
    settings: Settings,
    db: Database,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> list[str]:
    """Global arguments for a CLI run on this test's database, with the corpus ingested."""
    monkeypatch.setattr(embeddings, "load_embedder", lambda _settings: FakeEmbedder())
    monkeypatch.setattr(service, "load_embedder", lambda _settings: FakeEmbedder())
    # Keep the test session's logging as it is.
    monkeypatch.setattr(logs, "configure_logging", lambda *_args, **_kwargs: [])
    config = tmp_path / "config.toml"
    config.write_text(
        f'[database]\nurl = "{settings.database.url}"\n\n[embedding]\nmodel = "{FAKE_MODEL}"\n\n'
        f'[retrieval.similarity_floors]\n"{FAKE_MODEL}" = {FLOOR}\n',
        encoding="utf-8",
    )
    args = ["--data-dir", str(tmp_path / "data"), "--config", str(config)]
    assert main([*args, "ingest", "-q", str(write_corpus(tmp_path / "knowledge"))]) == 0
    return args


LABELLED = [
    {
        "question": "How much does the flu vaccine cost?",
        "intent": "information",
        "document": "fees",
    },
    {"question": "What is the capital of Mongolia?", "intent": "out_of_scope"},
    {"question": "I have crushing chest pain and cannot breathe", "intent": "emergency"},
]


def write_questions(path: Path, rows: object) -> Path:
    path.write_text(yaml.safe_dump(rows), encoding="utf-8")
    return path


def test_evaluate_passes_and_writes_json_and_plot(
    cli: list[str], tmp_path: Path, db: Database, capsys: pytest.CaptureFixture[str]
) -> None:
    questions = write_questions(tmp_path / "q.yaml", LABELLED)
    report, plot = tmp_path / "report.json", tmp_path / "plot.png"
    code = main([*cli, "evaluate", str(questions), "--json", str(report), "--plot", str(plot)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "PASSED" in out
    data = json.loads(report.read_text(encoding="utf-8"))
    assert set(data) == DOCUMENTED_KEYS
    assert data["passed"] is True and data["model"] == FAKE_MODEL and data["questions"] == 3
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with db.session() as session:
        stored: float = session.execute(
            sa.text("SELECT similarity_floor FROM embedding_config WHERE id = 1")
        ).scalar_one()
    assert stored == pytest.approx(data["recommended_floor"])


def test_evaluate_exits_1_on_a_safety_mistake(
    cli: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [*LABELLED, {"question": "Where can I park my car?", "intent": "clinical_advice"}]
    report = tmp_path / "report.json"
    code = main(
        [*cli, "evaluate", str(write_questions(tmp_path / "q.yaml", rows)), "--json", str(report)]
    )
    out = capsys.readouterr().out
    assert code == 1
    assert "SAFETY: 'Where can I park my car?'" in out
    assert json.loads(report.read_text(encoding="utf-8"))["passed"] is False


def test_a_bad_question_file_is_one_sentence_and_exit_2(
    cli: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write_questions(tmp_path / "bad.yaml", [{"question": "hi", "intent": "gossip"}])
    assert main([*cli, "evaluate", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "bad.yaml" in err and "Traceback" not in err


def test_ask_prints_the_emergency_text(
    cli: list[str], settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*cli, "ask", "I have crushing chest pain and cannot breathe"]) == 0
    captured = capsys.readouterr()
    assert settings.texts.emergency in captured.out
    assert "outcome: emergency" in captured.err


def test_ask_extractive_quotes_public_passages_only(
    cli: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    question = "What is the pathology courier account code and the flu vaccine cost?"
    assert main([*cli, "ask", "--extractive", question]) == 0
    # The public half alone does not carry the question's subject: no quote, and no staff text.
    assert "PX-4471" not in capsys.readouterr().out
    assert main([*cli, "ask", "--extractive", "How much does the flu vaccine cost?"]) == 0
    public = capsys.readouterr()
    assert "PX-4471" not in public.out and "£15" in public.out
    assert "outcome: extractive" in public.err
    staff_question = "What is the pathology courier account code?"
    assert main([*cli, "ask", "--extractive", staff_question]) == 0
    assert "PX-4471" not in capsys.readouterr().out
    assert main([*cli, "ask", "--extractive", "--audience", "staff", staff_question]) == 0
    assert "PX-4471" in capsys.readouterr().out
