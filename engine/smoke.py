"""The ``--smoke-test`` mode both apps share (and the frozen builds are checked with).

Start (or join) the database, ingest the sample knowledge, answer one question extractively and
report it. Succeeds only when the answer is cited: a smoke test that "passes" with "I don't know"
proves nothing.
"""

from __future__ import annotations

from dataclasses import replace

from engine.db import open_database
from engine.embeddings import load_embedder
from engine.events import DoneEvent, Outcome
from engine.ingest import Ingester
from engine.paths import knowledge_dir
from engine.service import ServiceBackend
from engine.settings import Settings

SMOKE_QUESTION = "What are the clinic's opening hours?"


def run_smoke_test(settings: Settings, *, channel: str, question: str = SMOKE_QUESTION) -> int:
    settings = settings.replace(ollama=replace(settings.ollama, generation="extractive"))
    db = open_database(settings)
    embedder = load_embedder(settings)
    report = Ingester(db, embedder, settings, user="smoke-test").ingest_folders(
        [knowledge_dir()], remove_missing=False
    )
    print(f"Ingested {len(report.results)} documents ({len(report.failed)} failed).")
    backend = ServiceBackend(settings, audience="public", channel=channel, embedder=embedder, db=db)
    final: DoneEvent | None = None
    for event in backend.answer(question):
        if isinstance(event, DoneEvent):
            final = event
    if final is None:
        print("smoke test failed: no final answer")
        return 1
    print(
        f"Q: {question}\nA: {final.text}\nroute={final.route.value} outcome={final.outcome.value}"
    )
    for citation in final.citations:
        print(f"  {citation.label}")
    ok = final.outcome is Outcome.EXTRACTIVE and bool(final.citations) and not report.failed
    print("SMOKE TEST PASSED" if ok else "SMOKE TEST FAILED")
    return 0 if ok else 1
