"""The document-fidelity corpus (tests/data/fidelity, built by scripts/build_fidelity_corpus.py).

One document per real-world trap (two-column PDF with running header/footer, ligatures and a
hyphenated word; a price grid; a Word file with a text box, footnote, footer, numbered list and
table of contents; a wiki export; a web page; a plain-text notice).

The corpus is ingested once for the module with the real MiniLM embedder, and every planted fact
is asked for as the CLI's ``ask --extractive`` does (the Assistant with no chat model): the
answer must quote it with a citation to the chunk of its own document that holds it. Header,
footer, table-of-contents, markup and link-target text must be in no chunk; every chunk is
bounded.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import sqlalchemy as sa
import yaml

from engine.answering.assistant import EXTRACTIVE_INTRO, Assistant
from engine.events import DoneEvent, Outcome
from engine.knowledge.chunking import max_chars
from engine.knowledge.embeddings import load_embedder
from engine.knowledge.ingest import Ingester
from engine.ops import db as dbm
from engine.ops.settings import DatabaseSettings, Settings
from engine.protocols import Embedder
from tests.conftest import TEMPLATE_DB, _with_db

CORPUS = Path(__file__).resolve().parents[1] / "data" / "fidelity"
FACTS = yaml.safe_load((CORPUS / "facts.yaml").read_text(encoding="utf-8"))
QUESTIONS = yaml.safe_load((CORPUS / "questions.yaml").read_text(encoding="utf-8"))
QUOTE = re.compile("\u201c(.*?)\u201d \\[(\\d+)\\]", re.DOTALL)

# The right answer to this fact is the emergency referral, never a quote from a leaflet.
EMERGENCY = {"Who do I call if I have chest pain after going home?"}


@dataclass
class Corpus:
    db: dbm.Database
    settings: Settings
    embedder: Embedder
    chunks: list[tuple[str, str, str, int]]  # file name, heading path, text, chunk id

    def ask(self, question: str) -> DoneEvent:
        assistant = Assistant(
            self.db, self.embedder, self.settings, audience="public", channel="test"
        )
        events = list(assistant.answer(question))
        assert isinstance(events[-1], DoneEvent)
        return events[-1]


@pytest.fixture(scope="module")
def corpus(pg_admin_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    name = f"t_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(pg_admin_url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE_DB}"'))
    settings = Settings(
        data_dir=tmp_path_factory.mktemp("fidelity") / "data",
        database=DatabaseSettings(url=_with_db(pg_admin_url, name)),
    )
    database = dbm.open_database(settings)
    embedder = load_embedder(settings)
    report = Ingester(database, embedder, settings, user="test").ingest_folders([CORPUS / "public"])
    assert not report.failed, [(r.path, r.error) for r in report.failed]
    assert report.count("created") == len(FACTS)
    with database.engine.connect() as conn:
        rows = conn.execute(
            sa.text(
                "SELECT d.source_path, c.heading_path, c.text, c.id FROM chunks c "
                "JOIN documents d ON d.id = c.document_id"
            )
        ).all()
    chunks = [(Path(r[0]).name, r[1], r[2], r[3]) for r in rows]
    yield Corpus(database, settings, embedder, chunks)
    database.dispose()
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def flat(text: str) -> str:
    return " ".join(text.split())


def test_every_planted_fact_has_one_question() -> None:
    planted = {(name, fact) for name, spec in FACTS.items() for _, fact in spec["facts"]}
    asked = [(doc, fact) for doc, fact, _, _ in QUESTIONS]
    assert sorted(asked) == sorted(planted)


@pytest.mark.parametrize(
    ("document", "fact", "question", "words"),
    [pytest.param(*entry, id=entry[2]) for entry in QUESTIONS],
)
def test_ask_quotes_each_planted_fact_citing_its_own_chunk(
    corpus: Corpus, document: str, fact: str, question: str, words: str
) -> None:
    done = corpus.ask(question)
    if question in EMERGENCY:
        assert done.outcome is Outcome.EMERGENCY and not done.citations, done.text
        return
    assert done.outcome is Outcome.EXTRACTIVE, done.text
    assert done.text.startswith(EXTRACTIVE_INTRO)
    citations = {c.number: c for c in done.citations}
    holders = [
        citations[int(number)] for quote, number in QUOTE.findall(done.text) if words in flat(quote)
    ]
    assert holders, (words, done.text)
    own = [
        c for c in holders if c.document_slug == Path(document).stem and flat(fact) in flat(c.text)
    ]
    assert own, [(c.document_slug, c.heading_path) for c in holders]


def test_every_planted_fact_is_whole_in_one_chunk_under_its_heading_and_searchable(
    corpus: Corpus,
) -> None:
    missing = []
    for name, spec in FACTS.items():
        for heading, fact in spec["facts"]:
            holders = [
                (path, chunk_id)
                for doc, path, text, chunk_id in corpus.chunks
                if doc == name and (fact in text or fact in flat(text))
            ]
            if not holders or not any(heading in path for path, _ in holders):
                missing.append((name, heading, fact))
                continue
            with corpus.db.engine.connect() as conn:
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


def test_no_header_footer_toc_markup_or_link_target_text_in_any_chunk(corpus: Corpus) -> None:
    leaks = [
        (name, absent)
        for name, spec in FACTS.items()
        for absent in spec["absent"]
        for doc, path, text, _ in corpus.chunks
        if doc == name and (absent in text or absent in path)
    ]
    assert not leaks


def test_fidelity_chunks_are_bounded(corpus: Corpus) -> None:
    limit = corpus.settings.chunking
    assert all(len(text) <= max_chars(limit) for _, _, text, _ in corpus.chunks)
    assert all(len(text.split()) <= limit.max_words for _, _, text, _ in corpus.chunks)


def test_loader_warnings_are_stored_and_listed_for_the_knowledge_tab(corpus: Corpus) -> None:
    from engine.knowledge.catalog import list_documents

    documents = list_documents(corpus.db, corpus.settings)
    warnings = {Path(d.source_path).name: d.warnings for d in documents}
    assert "set in two columns: read column by column" in warnings["leaflet.pdf"]
    assert any("running header/footer lines dropped" in w for w in warnings["leaflet.pdf"])
    assert any("text boxes" in w for w in warnings["dispensary.docx"])
    assert any("table rows rebuilt" in w for w in warnings["prices.pdf"])
    assert warnings["notice.txt"] == ()
