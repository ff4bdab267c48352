"""Hybrid retrieval on the real PostgreSQL: audience in SQL, the keyword arm, the relevance gate
(applied before the cut), reciprocal-rank fusion and the HNSW plan."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from engine.answering.retrieval import Retriever, reciprocal_rank_fusion, sql, term_stats
from engine.answering.retrieval.results import RetrievedPassage, SearchResult
from engine.answering.retrieval.sql import visible_audiences
from engine.ops.db import Database
from engine.ops.roles import KIOSK_ROLE, init_roles
from engine.ops.settings import Settings
from tests.support.clinic_corpus import (
    COURIER_TEXT,
    FLOOR,
    AngleEmbedder,
    fake_settings,
    ingest,
    write_corpus,
)
from tests.support.fake_embedder import FakeEmbedder

UNKNOWN_AUDIENCES = ["", "admin", "STAFF", "Staff", " staff", "public' OR 1=1 --", "staff'--"]


@pytest.fixture
def fake(settings: Settings) -> Settings:
    return fake_settings(settings)


@pytest.fixture
def corpus(db: Database, fake: Settings, tmp_path: Path) -> Retriever:
    ingest(db, fake, write_corpus(tmp_path / "knowledge"))
    return Retriever(db, fake)


def search(
    retriever: Retriever, question: str, audience: str, embedder: FakeEmbedder | None = None
) -> SearchResult:
    embedder = embedder or FakeEmbedder()
    return retriever.search_with_candidates(embedder.embed_query(question), question, audience)


# -- audience ---------------------------------------------------------------------------------


def test_staff_text_asked_as_public_question_is_never_returned(corpus: Retriever) -> None:
    staff = search(corpus, COURIER_TEXT, "staff")
    assert staff.passages, "the staff reader must find the staff passage (else the test is void)"
    assert staff.passages[0].text == COURIER_TEXT
    assert staff.passages[0].audience == "staff"

    public = search(corpus, COURIER_TEXT, "public")
    assert COURIER_TEXT not in [p.text for p in public.candidates]
    assert {p.audience for p in public.candidates} == {"public"}
    assert all(p.audience == "public" for p in public.passages)


@pytest.mark.parametrize("audience", UNKNOWN_AUDIENCES)
def test_unknown_audience_fails_closed_to_public(corpus: Retriever, audience: str) -> None:
    result = search(corpus, COURIER_TEXT, audience)
    assert result.candidates, "public passages are still searched"
    assert {p.audience for p in result.candidates} == {"public"}
    public = search(corpus, COURIER_TEXT, "public")
    assert [p.chunk_id for p in result.candidates] == [p.chunk_id for p in public.candidates]


def test_visible_audiences_only_exact_staff_sees_staff() -> None:
    assert visible_audiences("staff") == ["public", "staff"]
    for audience in [*UNKNOWN_AUDIENCES, "public"]:
        assert visible_audiences(audience) == ["public"]


# -- the keyword arm and the gate --------------------------------------------------------------


@pytest.mark.parametrize("question", ["020 7946 0199", "What is the courier account PX-4471?"])
def test_exact_token_found_by_keyword_arm_despite_low_similarity(
    db: Database, fake: Settings, tmp_path: Path, question: str
) -> None:
    embedder = AngleEmbedder({"Supplier accounts": 0.25})
    ingest(db, fake, write_corpus(tmp_path / "k"), embedder)
    retriever = Retriever(db, fake)

    result = search(retriever, question, "staff", embedder)
    courier = [p for p in result.passages if p.text == COURIER_TEXT]
    assert courier, f"{question!r} must reach the courier passage through the keyword arm"
    assert courier[0].similarity < FLOOR  # the vector arm alone would not have admitted it
    assert courier[0].keyword_rank == 1
    assert result.passages[0].text == COURIER_TEXT


def test_a_near_miss_number_is_not_evidence(db: Database, fake: Settings, tmp_path: Path) -> None:
    embedder = AngleEmbedder({"Supplier accounts": 0.25})
    ingest(db, fake, write_corpus(tmp_path / "k"), embedder)
    result = search(Retriever(db, fake), "020 7946 0188", "staff", embedder)
    assert result.passages == ()
    assert any(p.text == COURIER_TEXT for p in result.candidates)  # found, but judged weak


def test_nothing_above_the_floor_returns_no_passages(corpus: Retriever) -> None:
    result = search(corpus, "xylophone quantum zebra", "staff")
    assert result.candidates, "the vector arm always returns its nearest rows"
    assert all(p.similarity < FLOOR for p in result.candidates)
    assert (
        corpus.search(FakeEmbedder().embed_query("xylophone zebra"), "xylophone zebra", "staff")
        == []
    )


def test_a_plain_question_finds_its_passage_first(corpus: Retriever) -> None:
    result = search(corpus, "Where is the free parking for patients?", "public")
    assert result.passages[0].document_slug == "parking"
    assert result.passages[0].heading_path == "Parking and access > Car park"
    assert result.passages[0].similarity >= FLOOR
    assert result.best_similarity == max(p.similarity for p in result.candidates)


WEAK_NOTES = "ABCDEFGHIJ"


def _weak_and_strong(root: Path) -> Path:
    documents = {}
    for index, letter in enumerate(WEAK_NOTES):
        repeats = " ".join(["clinic hours"] * (20 - index))
        documents[f"public/weak-{letter}.md"] = (
            f"---\ntitle: Weak note {letter}\naudience: public\n---\n# Weak note {letter}\n\n"
            f"## Clinic hours\n\n{repeats}.\n"
        )
    documents["public/strong.md"] = (
        "---\ntitle: Phlebotomy\naudience: public\n---\n# Phlebotomy\n\n## Service\n\n"
        "The phlebotomy service takes blood samples. Walk in without an appointment; the "
        "service runs in the clinic on weekday mornings, and the hours are posted at reception.\n"
    )
    return write_corpus(root, documents)


def test_gate_is_applied_before_the_cut(db: Database, settings: Settings, tmp_path: Path) -> None:
    """Ten weak passages that out-rank a strong one in fusion cannot crowd it out."""
    fake = fake_settings(settings, max_passages=3)
    angles = {f"Weak note {letter}": 0.29 - i * 0.01 for i, letter in enumerate(WEAK_NOTES)}
    embedder = AngleEmbedder({**angles, "Phlebotomy": 0.8})
    ingest(db, fake, _weak_and_strong(tmp_path / "k"), embedder)
    retriever = Retriever(db, fake)

    result = search(retriever, "phlebotomy clinic hours", "public", embedder)
    top = result.candidates[: fake.retrieval.max_passages]
    # The scenario is real: the fused top is made only of weak passages the gate refuses.
    assert all(p.document_slug.startswith("weak-") for p in top), [p.document_slug for p in top]
    assert not any(retriever.passes_gate(p) for p in top)
    assert [p.document_slug for p in result.passages] == ["strong"]


def test_passes_gate_uses_absolute_evidence_not_rank(fake: Settings, db: Database) -> None:
    retriever = Retriever(db, fake)
    base = RetrievedPassage(
        chunk_id=1,
        document_slug="d",
        document_title="D",
        audience="public",
        heading_path="D > S",
        text="t",
        similarity=FLOOR + 0.01,
        vector_rank=1,
        keyword_rank=None,
        reviewed_on=None,
        term_share=0.5,
        fused_score=1.0,
    )
    from dataclasses import replace

    assert retriever.passes_gate(base)
    assert not retriever.passes_gate(replace(base, similarity=FLOOR - 0.01))
    assert not retriever.passes_gate(replace(base, term_share=0.0))  # topic words alone
    keyword = replace(base, similarity=0.21, keyword_rank=5, term_share=0.9, fused_score=0.0)
    assert retriever.passes_gate(keyword)
    assert not retriever.passes_gate(replace(keyword, keyword_rank=None))
    assert not retriever.passes_gate(replace(keyword, similarity=0.05))  # unrelated text
    assert not retriever.passes_gate(replace(keyword, term_share=0.5))


def test_the_sentence_arm_needs_the_top_keyword_match_with_every_word_in_one_sentence(
    fake: Settings, db: Database
) -> None:
    """A short question scores low against a longer passage ("Do I have to sign a consent
    form?" 0.16 with MiniLM); the top keyword match counts from a lower similarity only when one
    of its sentences holds every content word of the question by its own word."""
    from dataclasses import replace

    retriever = Retriever(db, fake)
    consent = RetrievedPassage(
        chunk_id=1,
        document_slug="leaflet",
        document_title="Your day surgery",
        audience="public",
        heading_path="Your day surgery > Before your operation",
        text="Reception opens at 07:15. Bring your appointment letter. A member of staff will "
        "check you in and you will be required to sign a consent form before any procedure.",
        similarity=0.16,
        vector_rank=2,
        keyword_rank=1,
        reviewed_on=None,
        term_share=1.0,
    )
    question = "Do I have to sign a consent form?"
    assert not retriever.passes_gate(consent)  # below the keyword arm's similarity
    assert retriever.passes_sentence_arm(consent, question)
    assert not retriever.passes_sentence_arm(replace(consent, keyword_rank=2), question)
    assert not retriever.passes_sentence_arm(replace(consent, keyword_rank=None), question)
    assert not retriever.passes_sentence_arm(replace(consent, similarity=0.05), question)
    assert not retriever.passes_sentence_arm(replace(consent, term_share=0.6), question)
    # Words of the question the sentence does not hold, or only the heading holds.
    for other in (
        "Do I have to sign a consent form for the gym?",
        "Do I have to sign my appointment letter?",  # two sentences, not one
        "Do I have to sign a consent form before my operation?",  # "operation": heading only
        "Do I have to sign?",  # one word is a coincidence, not evidence
    ):
        assert not retriever.passes_sentence_arm(consent, other), other


# -- fusion (pure) ----------------------------------------------------------------------------


def test_fusion_rewards_agreement_between_arms() -> None:
    fused = reciprocal_rank_fusion([[1, 2, 3], [2, 4, 5]])
    assert [item for item, _ in fused] == [2, 1, 4, 3, 5]
    assert dict(fused)[2] == pytest.approx(1 / 62 + 1 / 61)
    assert dict(fused)[1] == pytest.approx(1 / 61)


def test_fusion_ties_keep_first_appearance() -> None:
    fused = reciprocal_rank_fusion([[7, 8], [8, 7]])
    assert [item for item, _ in fused] == [7, 8]
    assert fused[0][1] == pytest.approx(fused[1][1])
    assert [i for i, _ in reciprocal_rank_fusion([[5], [9]])] == [5, 9]


def test_fusion_k_controls_how_much_the_top_rank_dominates() -> None:
    rankings = [[1, 10, 11, 2], [20, 21, 22, 2]]  # 2 is fourth in both arms
    small, large = (
        reciprocal_rank_fusion(rankings, k=1)[0],
        reciprocal_rank_fusion(rankings, k=60)[0],
    )
    assert small[0] == 1 and small[1] == pytest.approx(1 / 2)
    assert large[0] == 2 and large[1] == pytest.approx(2 / 64)


def test_fusion_of_nothing_is_empty() -> None:
    assert reciprocal_rank_fusion([]) == []
    assert reciprocal_rank_fusion([[], []]) == []


# -- the plan ---------------------------------------------------------------------------------


def _plan(db: Database, explain: sa.TextClause, params: dict[str, object]) -> str:
    """The plan of an EXPLAIN statement, costed as for many rows (a handful of rows would be
    sorted in memory)."""
    with db.session() as session:
        for setting in ("enable_seqscan", "enable_sort", "enable_bitmapscan"):
            session.execute(sa.text(f"SET LOCAL {setting} = off"))
        return "\n".join(str(row[0]) for row in session.execute(explain, params))


@pytest.mark.parametrize(
    ("statement", "extra"),
    [
        (sql._VECTOR_SQL, {"audiences": ["public"], "k": 30}),  # the benchmarks' reference
        (
            sql.search_statement(("public", "staff"), 30),
            {"orquery": "'park'", "words": ["park"], "asked": None},
        ),  # both arms and details in one statement
        (
            sql.search_statement(("public",), 30),
            {"orquery": "'park'", "words": ["park"], "asked": None},
        ),  # the same with the public keyword arm (a kiosk's search)
    ],
    ids=["vector arm alone", "one-statement search", "one-statement public search"],
)
def test_the_vector_arm_uses_the_hnsw_index(
    corpus: Retriever, db: Database, statement: sa.TextClause, extra: dict[str, object]
) -> None:
    vector = "[" + ",".join(["0.05"] * 384) + "]"
    plan = _plan(db, sa.text("EXPLAIN " + str(statement.text)), {"q": vector, **extra})
    assert "chunks_embedding_hnsw" in plan, plan


@pytest.mark.parametrize("audiences", [("public", "staff"), ("public",)])
def test_the_generic_plan_of_the_search_uses_the_hnsw_index(
    corpus: Retriever, db: Database, audiences: tuple[str, ...]
) -> None:
    """Searches run on a generic plan (planned once per connection, not per question): it must
    be the same index scan a plan for one question's values is."""
    text = sql.search_statement(audiences, 30).text
    for number, name in enumerate(("q", "orquery", "words", "asked"), start=1):
        text = text.replace(f":{name}", f"${number}")
    plan = _plan(db, sa.text("EXPLAIN (GENERIC_PLAN) " + text.replace(":", "\\:")), {})
    assert "chunks_embedding_hnsw" in plan, plan


def test_search_statements_write_in_known_audiences_only() -> None:
    with pytest.raises(ValueError):
        sql.search_statement(("public", "x'); DROP TABLE chunks; --"), 30)
    text = sql.search_statement(("public",), 12).text
    assert "ARRAY['public']" in text and "LIMIT 12" in text and ":k" not in text


# -- the real embedding model ----------------------------------------------------------------


@pytest.mark.slow
def test_real_model_finds_a_paraphrase_and_rejects_the_unrelated(
    db: Database, settings: Settings, tmp_path: Path, model_cache_dir: Path
) -> None:
    from engine.knowledge.embeddings import FastEmbedder

    embedder = FastEmbedder("sentence-transformers/all-MiniLM-L6-v2", model_cache_dir)
    ingest(db, settings, write_corpus(tmp_path / "k"), embedder)
    retriever = Retriever(db, settings)
    question = "Can I eat before my MRI?"
    result = retriever.search_with_candidates(embedder.embed_query(question), question, "public")

    headings = [p.heading_path for p in result.passages]
    assert headings and headings[0] == "Test preparation > MRI scans", headings
    assert result.passages[0].similarity >= settings.similarity_floor
    assert "Parking and access > Car park" not in headings
    parking = next(p for p in result.candidates if p.document_slug == "parking")
    assert not retriever.passes_gate(parking)


def test_ingest_leaves_planner_statistics_for_the_audience_filter(
    db: Database, fake: Settings, tmp_path: Path
) -> None:
    """Without statistics for the (small) documents table the planner sorts every chunk instead
    of using HNSW; autovacuum never analyzes fewer than 50 rows, so ingest does it."""
    ingest(db, fake, write_corpus(tmp_path / "k"))
    with db.session() as session:
        analyzed = session.execute(
            sa.text(
                "SELECT relname FROM pg_stat_user_tables WHERE relname IN ('documents', 'chunks') "
                "AND last_analyze IS NOT NULL ORDER BY relname"
            )
        ).scalars()
        assert list(analyzed) == ["chunks", "documents"]
        estimate = session.execute(
            sa.text("SELECT reltuples FROM pg_class WHERE relname = 'documents'")
        ).scalar_one()
    assert estimate == 5


def test_ingest_moves_new_chunks_out_of_the_full_text_pending_list(
    db: Database, fake: Settings, tmp_path: Path
) -> None:
    """New chunks wait in the GIN index's pending list until a VACUUM; while they do, every
    keyword lookup scans the list and the planner reads every chunk's tsvector instead of the
    index (10k chunks: 45 ms instead of 1 ms). Ingest flushes it, so there is nothing left."""
    ingest(db, fake, write_corpus(tmp_path / "k"))
    with db.session() as session:
        left = session.execute(sa.text("SELECT gin_clean_pending_list('chunks_tsv_gin')"))
        assert left.scalar_one() == 0


# -- the query normaliser's word list ----------------------------------------------------------


def test_a_slow_vocabulary_read_costs_the_typo_correction_not_the_answer(
    corpus: Retriever, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        term_stats, "_PUBLIC_VOCABULARY_SQL", sa.text("SELECT 'x'::text, 1 FROM pg_sleep(2)")
    )
    monkeypatch.setattr(term_stats, "VOCABULARY_TIMEOUT", "50ms")
    term_stats._TERM_STATS._vocabularies.clear()
    try:
        typo = search(corpus, "where do I find the parkng machine", "public")
        assert typo.candidates, "the search went on after the word list timed out"
        assert term_stats._TERM_STATS._vocabularies[f"{corpus.db.url}#public"] == {}
    finally:
        term_stats._TERM_STATS._vocabularies.clear()  # later tests read the real word list
    # The timeout was the word list's only: the next searches run under the usual settings.
    plain = search(corpus, "where do I find the parking machine", "public")
    assert plain.candidates
    with corpus.db.session() as session:
        assert session.execute(sa.text("SHOW statement_timeout")).scalar() == "0"


# -- the kiosk role ---------------------------------------------------------------------------


def test_the_kiosk_role_finds_exactly_what_evaluate_measures(corpus: Retriever) -> None:
    """The kiosk reads under row-level security, through the public search functions (its own
    ``@@`` could not use the full-text index); the owner running ``evaluate`` for a public question
    reads the tables directly. Both must give the same candidates, weights and kept passages, or
    the evaluation would measure another search than the one patients get."""
    init_roles(corpus.db, kiosk_password="kiosk-pw", staff_password="staff-pw")
    url = sa.engine.make_url(corpus.db.url).set(username=KIOSK_ROLE, password="kiosk-pw")
    kiosk_db = Database(url.render_as_string(hide_password=False))
    try:
        kiosk = Retriever(kiosk_db, corpus.settings)
        questions = [
            "what time does the clinic open on saturday",
            "where do I find the parkng machine",  # a typo: the public word list corrects it
            COURIER_TEXT,  # staff words: never found, and weighed as absent by both
            "how much does a yellow fever vaccine cost",
            "is there a gym",
        ]
        for question in questions:
            as_owner = search(corpus, question, "public")
            as_kiosk = search(kiosk, question, "public")
            assert {p.audience for p in as_kiosk.candidates} <= {"public"}
            assert as_kiosk.term_weights == as_owner.term_weights, question
            assert [
                (p.chunk_id, round(p.similarity, 5), p.keyword_rank, round(p.term_share, 5))
                for p in as_kiosk.candidates
            ] == [
                (p.chunk_id, round(p.similarity, 5), p.keyword_rank, round(p.term_share, 5))
                for p in as_owner.candidates
            ], question
            assert [p.chunk_id for p in as_kiosk.passages] == [
                p.chunk_id for p in as_owner.passages
            ]
        assert any(search(kiosk, q, "public").passages for q in questions), "void test"
    finally:
        kiosk_db.dispose()


@pytest.mark.slow
def test_the_embedder_on_one_thread_gives_the_same_vectors(model_cache_dir: Path) -> None:
    """benchmarks/ingest.py --threads runs the embedder on fewer threads: the figures it prints
    are only comparable if the vectors are the ones the product stores."""
    from engine.knowledge.embeddings import FastEmbedder

    default = FastEmbedder("sentence-transformers/all-MiniLM-L6-v2", model_cache_dir)
    single = FastEmbedder("sentence-transformers/all-MiniLM-L6-v2", model_cache_dir, threads=1)
    texts = ["Car park\n\nThe car park opens at 7:00.", "Pay at the machine by card."]
    for a, b in zip(default.embed_passages(texts), single.embed_passages(texts), strict=True):
        assert max(abs(x - y) for x, y in zip(a, b, strict=True)) < 1e-5
    assert single._model.model.model.get_session_options().intra_op_num_threads == 1
