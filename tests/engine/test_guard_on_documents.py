"""The guard against the sample clinic's own words: a sentence copied from a passage and cited to
it states no detail the passage lacks, so the guard must never refuse it as an unverified detail
(a guard that refuses the documents' own sentences would push every answer to the fallback)."""

from __future__ import annotations

import re
from pathlib import Path

from engine.answering.citation_guard import check_answer
from engine.knowledge.chunking import ChunkingSettings, chunk_document
from engine.knowledge.loaders import load_document
from engine.ops.settings import DEFAULT_REFUSAL_TEXT

KNOWLEDGE = Path(__file__).resolve().parents[2] / "knowledge"


def document_sentences() -> list[tuple[str, str]]:
    """(passage as offered, one sentence of it) for every sentence of the sample documents."""
    pairs = []
    for path in sorted(KNOWLEDGE.rglob("*")):
        if path.suffix not in {".md", ".pdf", ".docx"} or path.name == "README.md":
            continue
        document = load_document(path)
        for chunk in chunk_document(document.title, document.blocks, ChunkingSettings()):
            passage = " > ".join(chunk.heading_path) + "\n" + chunk.text
            for line in chunk.text.split("\n"):
                for sentence in re.split(r"(?<=[.!?])\s+", line):
                    if sentence.strip(" -"):
                        pairs.append((passage, sentence.strip(" -")))
    return pairs


def test_no_sentence_of_the_documents_is_refused_as_an_unverified_detail() -> None:
    pairs = document_sentences()
    assert len(pairs) > 400
    reasons = {}
    for passage, sentence in pairs:
        result = check_answer(f"{sentence} [1]", [passage], DEFAULT_REFUSAL_TEXT)
        reasons[sentence] = result.reason
    refused = {s: r for s, r in reasons.items() if r not in (None, "empty_answer")}
    assert refused == {}
    # Only fragments ("1.", "We accept:", an extension alone, a table header) say too little.
    empty = [s for s, r in reasons.items() if r == "empty_answer"]
    assert all(len(re.findall(r"\w+", s)) <= 5 for s in empty), empty
    assert len(empty) < len(reasons) / 10
