"""The document-fidelity corpus (tests/data/fidelity, built by scripts/build_fidelity_corpus.py).

One document per real-world trap (two-column PDF with running header/footer, ligatures and a
hyphenated word; a price grid; a wiki export; a web page; a plain-text notice). Every planted
fact must sit whole in one chunk under its heading and be found by the full-text index with the
words a person would type (ligatures normalised); header, footer, markup and link-target text
must be in no chunk; every chunk is bounded.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
import yaml

from engine import db as dbm
from engine.chunking import max_chars
from engine.ingest import Ingester
from engine.retrieval import Retriever
from engine.settings import Settings
from tests.support.clinic_corpus import FAKE_MODEL, fake_settings
from tests.support.fake_embedder import FakeEmbedder

CORPUS = Path(__file__).resolve().parents[1] / "data" / "fidelity"
FACTS = yaml.safe_load((CORPUS / "facts.yaml").read_text(encoding="utf-8"))


@pytest.fixture
def ingested(db: dbm.Database, settings: Settings) -> list[tuple[str, str, str, int]]:
    report = Ingester(db, FakeEmbedder(), settings).ingest_folders([CORPUS / "public"])
    assert not report.failed, [(r.path, r.error) for r in report.failed]
    assert report.count("created") == len(FACTS)
    with db.engine.connect() as conn:
        rows = conn.execute(
            sa.text(
                "SELECT d.source_path, c.heading_path, c.text, c.id FROM chunks c "
                "JOIN documents d ON d.id = c.document_id"
            )
        ).all()
    return [(Path(r[0]).name, r[1], r[2], r[3]) for r in rows]


def test_every_planted_fact_is_whole_in_one_chunk_under_its_heading_and_searchable(
    db: dbm.Database, ingested: list[tuple[str, str, str, int]]
) -> None:
    missing = []
    for name, spec in FACTS.items():
        for heading, fact in spec["facts"]:
            holders = [
                (path, chunk_id)
                for doc, path, text, chunk_id in ingested
                if doc == name and (fact in text or fact in " ".join(text.split()))
            ]
            if not holders or not any(heading in path for path, _ in holders):
                missing.append((name, heading, fact))
                continue
            with db.engine.connect() as conn:
                found = (
                    conn.execute(
                        sa.text(
                            "SELECT id FROM chunks WHERE tsv @@ plainto_tsquery('english', :q)"
                        ),
                        {"q": fact.replace("|", " ")},
                    )
                    .scalars()
                    .all()
                )
            if not set(found) & {chunk_id for _, chunk_id in holders}:
                missing.append((name, heading, f"not found by full-text search: {fact}"))
    assert not missing


def test_no_header_footer_markup_or_link_target_text_in_any_chunk(
    ingested: list[tuple[str, str, str, int]],
) -> None:
    leaks = [
        (name, absent)
        for name, spec in FACTS.items()
        for absent in spec["absent"]
        for doc, path, text, _ in ingested
        if doc == name and (absent in text or absent in path)
    ]
    assert not leaks


def test_fidelity_chunks_are_bounded(
    settings: Settings, ingested: list[tuple[str, str, str, int]]
) -> None:
    assert all(len(text) <= max_chars(settings.chunking) for _, _, text, _ in ingested)
    assert all(len(text.split()) <= settings.chunking.max_words for _, _, text, _ in ingested)


def test_loader_warnings_are_stored_and_listed_for_the_knowledge_tab(
    db: dbm.Database, settings: Settings, ingested: list[tuple[str, str, str, int]]
) -> None:
    from engine.knowledge import list_documents

    warnings = {Path(d.source_path).name: d.warnings for d in list_documents(db, settings)}
    assert "set in two columns: read column by column" in warnings["leaflet.pdf"]
    assert any("running header/footer lines dropped" in w for w in warnings["leaflet.pdf"])
    assert any("text boxes" in w for w in warnings["dispensary.docx"])
    assert any("table rows rebuilt" in w for w in warnings["prices.pdf"])
    assert warnings["notice.txt"] == ()


QUESTIONS = yaml.safe_load((CORPUS / "questions.yaml").read_text(encoding="utf-8"))


def test_each_planted_fact_is_offered_by_retrieval_for_a_plain_question(
    db: dbm.Database, settings: Settings, ingested: list[tuple[str, str, str, int]]
) -> None:
    retriever = Retriever(db, fake_settings(settings), FAKE_MODEL)
    embedder = FakeEmbedder()
    missed = []
    for question, words in QUESTIONS:
        passages = retriever.search(embedder.embed_query(question), question, "public")
        if not any(words in " ".join(p.text.split()) for p in passages):
            missed.append((question, [p.heading_path for p in passages]))
    assert not missed
