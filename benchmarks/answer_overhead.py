"""The engine's own overhead before generation: time from a question entering
``Assistant.answer`` to its chat request reaching the model server (routing, query embedding,
hybrid search, gate, prompt building, the HTTP request), p50/p95.

The sample knowledge/ is ingested with the real embedding model into an embedded PostgreSQL in a
temporary folder; the model server is tests/support/fake_ollama.FakeOllama (a fresh one per
question, so its ``first_chat_at`` marks that question's request) driven by the real OllamaChat.

Run: .venv/bin/python benchmarks/answer_overhead.py [--questions N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from benchmarks._clinic import percentile, start_sample_clinic  # noqa: E402
from engine.answering.assistant import Assistant  # noqa: E402
from engine.answering.ollama_chat import OllamaChat  # noqa: E402
from engine.events import DoneEvent  # noqa: E402
from tests.support.fake_ollama import DEFAULT_MODEL, FakeOllama, Script  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=60)
    args = parser.parse_args()
    rows = yaml.safe_load((ROOT / "evaluation" / "questions.yaml").read_text(encoding="utf-8"))
    questions = [
        r["question"]
        for r in rows
        if r.get("intent") == "information" and r.get("audience", "public") == "public"
    ]
    clinic = start_sample_clinic("clinic-bench-")
    try:
        settings, db, embedder = clinic.settings, clinic.db, clinic.embedder
        overheads: list[float] = []
        no_request = 0
        measured = 0
        for question in (questions * 3)[: args.questions + 5]:
            with FakeOllama() as server:
                server.default = Script.reply(settings.texts.refusal)
                chat = OllamaChat(
                    server.url,
                    DEFAULT_MODEL,
                    num_ctx=8192,
                    keep_alive="5m",
                    connect_timeout=2.0,
                    read_timeout=10.0,
                    temperature=0.1,
                )
                assistant = Assistant(db, embedder, settings, audience="public", chat=chat)
                start = time.perf_counter()
                events = list(assistant.answer(question))
                chat.close()
                assert isinstance(events[-1], DoneEvent)
                measured += 1
                if measured <= 5:
                    continue  # warm-up: connection pool, ONNX session, PostgreSQL caches
                if server.first_chat_at is None:
                    no_request += 1  # nothing passed the gate: the refusal needs no model
                    continue
                overheads.append((server.first_chat_at - start) * 1000)
        print(
            f"question -> first chat request at the server: p50 "
            f"{statistics.median(overheads):.1f} ms, p95 {percentile(overheads, 0.95):.1f} ms, "
            f"max {max(overheads):.1f} ms over {len(overheads)} questions "
            f"({no_request} more were refused before any model call)"
        )
    finally:
        clinic.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
