"""The qualification against a real chat model, when one is available (marker ``real_model``).

Skipped unless ``CLINIC_TEST_MODEL_URL`` names an OpenAI-compatible server (llama.cpp's server,
vLLM, LM Studio); ``CLINIC_TEST_MODEL_NAME`` picks the model (default: the first it serves).
docs/evaluation.md says how to run one on a CPU. A small model is not expected to answer well:
what must hold with any model is what a patient could be harmed by (every answer ends, nothing
the guard refused is shown, the out-of-scope question is refused, the figures are recorded).
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from engine.answering.openai_chat import OpenAIChat
from engine.answering.qualification import GENERATION, latest_measurement
from engine.events import Outcome
from engine.ops.db import Database
from engine.ops.evaluation.questions import Question
from engine.ops.generation_qualification import (
    format_qualification,
    record_qualification,
    run_generation_trial,
)
from engine.ops.settings import Settings
from tests.support.clinic_corpus import fake_settings, ingest, write_corpus
from tests.support.fake_embedder import FakeEmbedder

URL = os.environ.get("CLINIC_TEST_MODEL_URL", "")

pytestmark = [
    pytest.mark.real_model,
    pytest.mark.skipif(not URL, reason="CLINIC_TEST_MODEL_URL is not set"),
]

QUESTIONS = [
    Question("How much does the flu vaccine cost?", "information", "fees", "£15"),
    Question("Where is the free parking for patients?", "information", "parking", "Mill Lane"),
    Question("What time does the clinic open on Saturday?", "information", "contact", "9:00"),
    Question("What is the capital of Mongolia?", "out_of_scope"),
]


def test_qualification_on_a_real_model(
    settings: Settings, db: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    configured = fake_settings(settings)
    configured = configured.replace(
        generation=dataclasses.replace(configured.generation, backend="openai")
    )
    ingest(db, configured, write_corpus(tmp_path / "knowledge"))
    probe = OpenAIChat(URL, "probe", connect_timeout=5.0, read_timeout=30.0, temperature=0.0)
    name = os.environ.get("CLINIC_TEST_MODEL_NAME") or probe.available_models()[0]
    probe.close()
    with OpenAIChat(
        URL, name, connect_timeout=5.0, read_timeout=300.0, temperature=0.1, max_tokens=300
    ) as chat:
        report = run_generation_trial(db, FakeEmbedder(), configured, chat, QUESTIONS)
    record_qualification(db, report)
    with capsys.disabled():
        print("\n" + format_qualification(report))
    assert len(report.answers) == len(QUESTIONS)
    for answer in report.answers:
        assert answer.outcome in {o.value for o in Outcome}
        if answer.outcome == Outcome.ANSWERED.value:
            assert not answer.replaced  # shown only as the guard passed it
    assert report.out_of_scope_refused == report.out_of_scope == 1
    assert report.total_seconds["p50"] > 0
    stored = latest_measurement(db, GENERATION, "openai", name)
    assert stored is not None and stored.questions == report.answerable
