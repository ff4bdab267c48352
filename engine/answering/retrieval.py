"""Hybrid retrieval: a vector arm (cosine, HNSW) and a full-text arm, fused by reciprocal rank,
then judged by a relevance gate built on absolute evidence.

Rules this module must keep:
- Audience is in the SQL WHERE clause of both arms. ``staff`` sees public and staff documents;
  anything else (including unknown values) sees public only. Nothing is filtered in memory.
- The query vector is a statement parameter, never a CTE column, so the planner can use HNSW.
- Fusion orders; it never judges. The gate uses cosine similarity and term evidence, is applied
  to every candidate before the cut to ``max_passages``, and when nothing passes, the caller says
  the fixed "I don't know" sentence without calling a model.
- A third arm, for short questions that score low against a longer passage: the top keyword
  match with the keyword arm's term share counts from a lower similarity only when one of its
  sentences holds every content word of the question by its own word (never by a synonym).
- The term share is taken over the question's subject: words that only frame a question ("how
  much", "I'm", "get", "cost"; ``extractive.terms.is_framing``) are left out of it, as the
  sentence-level evidence leaves them out; a question of framing words only keeps them all.
- Sentence-level evidence (``engine.answering.extractive``) is the gate's last step, in both answer
  modes: when no sentence of any kept passage carries the question's subject, nothing is kept.
- The question's words are read as the documents would write them (``engine.answering.query_words``:
  chat spellings rewritten, everyday-word synonyms and typo corrections counted as the word).
  This widens what a question word may match; a content word no passage holds still counts
  against every passage (its weight is never dropped), so a question about something the
  documents do not mention stays unanswered. Only words that frame a question (see above) are
  left out of the term share, never a word that names a thing.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import sqlalchemy as sa
from py_rust_stemmers import SnowballStemmer

from engine.answering.extractive import Quote, find_quotes
from engine.answering.extractive.passages import one_sentence_holds_question
from engine.answering.extractive.question_parts import situation_parts, without_email_address
from engine.answering.extractive.terms import is_framing
from engine.answering.query_words import (
    by_initial,
    closest_word,
    general_stems,
    may_be_typo,
    normalise,
    synonym_stems,
    typo_limit,
    word_part,
)
from engine.ops.db import Database, fetch_rows, vector_literal
from engine.ops.settings import Settings
from engine.safety.vocabulary import (
    BODY,
    CONDITIONS,
    MEASURES,
    MEDS,
    ORGANS,
    PREGNANCY,
    SYMPTOMS,
    TREATMENT,
)


@dataclass(frozen=True)
class RetrievedPassage:
    chunk_id: int
    document_slug: str
    document_title: str
    audience: str
    heading_path: str
    text: str
    similarity: float
    vector_rank: int | None
    keyword_rank: int | None
    reviewed_on: dt.date | None
    term_share: float = 0.0  # IDF-weighted share of the question's terms found in the passage
    fused_score: float = 0.0
    # For a question that says the asker's situation before or after what it asks
    # (``extractive.question_parts.situation_parts``): the similarity and term share of what is
    # asked alone.
    asked_similarity: float | None = None
    asked_share: float | None = None

    @property
    def label(self) -> str:
        return self.heading_path or self.document_title

    @property
    def prompt_text(self) -> str:
        """Heading path and body: what is offered to the model and checked by the guard."""
        return f"{self.label}\n{self.text}"


@dataclass(frozen=True)
class SearchResult:
    passages: tuple[RetrievedPassage, ...]  # passed the gate, fused order, at most max_passages
    candidates: tuple[RetrievedPassage, ...]  # everything both arms returned (for evaluation)
    term_weights: Mapping[str, float] = field(default_factory=dict)  # question lexeme -> IDF
    # The sentences of ``passages`` that answer, best first (``Quote.passage`` indexes passages).
    quotes: tuple[Quote, ...] = ()
    # The question as searched (chat spellings rewritten) and, per question lexeme, the document
    # lexemes that count as it: what ``Retriever.judge`` needs to judge the candidates again.
    question_text: str = ""
    alternatives: Mapping[str, frozenset[str]] = field(default_factory=dict)

    @property
    def best_similarity(self) -> float | None:
        return max((c.similarity for c in self.candidates), default=None)


def visible_audiences(audience: str) -> list[str]:
    """The audiences a reader may see. Fails closed: only exactly 'staff' sees staff rows."""
    return ["public", "staff"] if audience == "staff" else ["public"]


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[int]], k: int = 60
) -> list[tuple[int, float]]:
    """Fuse ranked id lists: score(id) = sum(1 / (k + rank)), rank starting at 1.

    Returns (id, score) sorted by score descending, ties broken by first appearance.
    """
    scores: dict[int, float] = {}
    order: dict[int, int] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
            order.setdefault(item, len(order))
    return sorted(scores.items(), key=lambda pair: (-pair[1], order[pair[0]]))


_VECTOR_SQL = sa.text(
    """
    SELECT c.id, 1 - (c.embedding <=> CAST(:q AS vector)) AS similarity
    FROM chunks c JOIN documents d ON d.id = c.document_id
    WHERE d.audience = ANY(CAST(:audiences AS varchar[]))
    ORDER BY c.embedding <=> CAST(:q AS vector)
    LIMIT :k
    """
)

# Both arms and the passages' details in one statement (one round trip). Each arm keeps the
# audience in its own WHERE clause and the query vector is a statement parameter, so the vector arm
# is the same HNSW index scan as ``_VECTOR_SQL`` (a test checks the plan). The vector arm is
# re-sorted by exact distance: an iterative (relaxed order) index scan may return near-ties out of
# order. Terms are OR-ed for recall (the gate judges matched-term evidence, not this query).
# ``:orquery`` is NULL when the question has no lexemes (then the keyword arm is empty). Of each
# passage's lexemes only those among ``:words`` (the question's and their alternatives: all the
# term share looks at) are sent back, not the whole tsvector: the passage's lexemes less those
# that are not among ``:words`` (two ``ts_delete`` in C: about 0.3 ms of a 3 ms statement at 10k
# chunks less than unnesting every lexeme of every passage to compare it). A vector-arm passage's
# similarity reuses the distance that arm computed (the same operator on the same values). The
# details join also names the arms' ids as one array: under row-level security (the kiosk) the
# planner otherwise hashed every public chunk to find the few dozen it needs (10k chunks: 13 ms
# of 18).
_SEARCH_TEMPLATE = """
    WITH v AS (
        SELECT s.id, s.distance, row_number() OVER (ORDER BY s.distance, s.id) AS rank
        FROM (
            SELECT c.id, c.embedding <=> CAST(:q AS vector) AS distance
            FROM chunks c JOIN documents d ON d.id = c.document_id
            WHERE d.audience = ANY(CAST(:audiences AS varchar[]))
            ORDER BY c.embedding <=> CAST(:q AS vector)
            LIMIT :k
        ) s
    ),
    kw AS (
        SELECT s.id, row_number() OVER (ORDER BY s.score DESC, s.id) AS rank
        FROM ({keyword_arm}) s
    )
    SELECT c.id, d.slug, d.title, d.audience, c.heading_path, c.text, d.reviewed_on,
           1 - coalesce(v.distance, c.embedding <=> CAST(:q AS vector)) AS similarity,
           tsvector_to_array(ts_delete(c.tsv, tsvector_to_array(
               ts_delete(c.tsv, CAST(:words AS text[]))))) AS lexemes,
           v.rank AS vector_rank, kw.rank AS keyword_rank,
           1 - (c.embedding <=> CAST(:asked AS vector)) AS asked_similarity
    FROM v FULL JOIN kw ON kw.id = v.id
    JOIN chunks c ON c.id = coalesce(v.id, kw.id)
        AND c.id = ANY(ARRAY(SELECT id FROM v UNION ALL SELECT id FROM kw))
    JOIN documents d ON d.id = c.document_id
    WHERE d.audience = ANY(CAST(:audiences AS varchar[]))
    """
# The keyword arm for a reader who may see staff documents: the table's own GIN index.
_KEYWORD_ARM = """
            SELECT c.id, ts_rank_cd(c.tsv, q.query) AS score
            FROM chunks c JOIN documents d ON d.id = c.document_id,
                 (SELECT to_tsquery('english', CAST(:orquery AS text)) AS query) q
            WHERE CAST(:orquery AS text) IS NOT NULL
              AND d.audience = ANY(CAST(:audiences AS varchar[])) AND c.tsv @@ q.query
            ORDER BY score DESC, c.id
            LIMIT :k"""
# The keyword arm of a public search (migration 0010): a SECURITY DEFINER function fixed to public
# documents in its own body, because row-level security keeps a kiosk's ``@@`` off the GIN index
# (it is not leakproof) and every question would read every public chunk's tsvector. It returns
# ids and scores only; the passages' text is read above, under the reader's own policies.
_PUBLIC_KEYWORD_ARM = """
            SELECT f.id, f.score
            FROM clinic_public_keyword_arm(to_tsquery('english', CAST(:orquery AS text)), :k) f"""


@functools.lru_cache(maxsize=8)
def search_statement(audiences: tuple[str, ...], k: int) -> sa.TextClause:
    """The one-statement search for readers of ``audiences`` (``visible_audiences``; public only
    takes the public keyword arm), with the audiences and ``k`` written into the text.

    Written in, not bound, because the search runs on a generic plan (``_PREPARE_SQL`` forces it:
    planning this statement for every question cost about 0.5 ms of its 3 ms at 10k chunks). With
    the audiences and the limit known, the planner costs the vector arm exactly as it does for a
    plan made for one question's values (the query vector's value does not enter any estimate),
    so it picks the same plan, and the HNSW scan for the same tables (a test checks the plan);
    bound, a generic plan guessed the limit and could pick an exact scan instead. The keyword
    arm and the details are ordered in full (ties by id), so their plan never changes a row."""
    if any(a not in ("public", "staff") for a in audiences) or not audiences:
        raise ValueError(f"unknown audiences {audiences!r}")
    arm = _PUBLIC_KEYWORD_ARM if audiences == ("public",) else _KEYWORD_ARM
    literal = "CAST(ARRAY[" + ", ".join(f"'{a}'" for a in audiences) + "] AS varchar[])"
    text = (
        _SEARCH_TEMPLATE.replace("{keyword_arm}", arm)
        .replace("CAST(:audiences AS varchar[])", literal)
        .replace(":k)", f"{int(k)})")
        .replace("LIMIT :k", f"LIMIT {int(k)}")
    )
    return sa.text(text)


# The search's settings, the question's lexemes and the documents' generation (for the IDF
# cache) in one round trip. The settings last to the end of the transaction: the HNSW scan's
# candidate list, and generic plans for the statements that follow (``search_statement``).
_PREPARE_SQL = sa.text(
    """
    SELECT set_config('hnsw.ef_search', '100', true),
           set_config('hnsw.iterative_scan', 'relaxed_order', true),
           set_config('plan_cache_mode', 'force_generic_plan', true),
           ARRAY(SELECT DISTINCT unnest(tsvector_to_array(to_tsvector('english', :text)))),
           (SELECT count(*) FROM documents), (SELECT max(ingested_at) FROM documents)
    """
)

_DOC_FREQ_SQL = sa.text(
    """
    SELECT lex, (SELECT count(*) FROM chunks WHERE tsv @@ to_tsquery('simple', quote_literal(lex)))
    FROM unnest(CAST(:lexemes AS text[])) AS lex
    """
)
_PUBLIC_DOC_FREQ_SQL = sa.text(
    "SELECT lex, chunks FROM clinic_public_term_counts(CAST(:lexemes AS text[]))"
)
_CHUNK_COUNT_SQL = sa.text("SELECT count(*) FROM chunks")
_PUBLIC_CHUNK_COUNT_SQL = sa.text("SELECT clinic_public_chunk_count()")


# At most this long for the once-per-generation vocabulary read (typo correction's word list).
VOCABULARY_TIMEOUT = "1000ms"
# Sets the statement timeout for the rest of the transaction; returns the one it replaced.
_TIMEOUT_SQL = sa.text(
    "SELECT current_setting('statement_timeout'), set_config('statement_timeout', :value, true)"
)
_VOCABULARY_SQL = sa.text("SELECT word, ndoc FROM ts_stat('SELECT tsv FROM chunks')")
_PUBLIC_VOCABULARY_SQL = sa.text("SELECT word, ndoc FROM clinic_public_vocabulary()")

_GENERATION_SQL = sa.text("SELECT count(*), max(ingested_at) FROM documents")


class _TermStats:
    """Per-process cache of lexeme document frequencies and the chunk count, for the IDF weights.

    Counts are kept per database and audience: a public search counts public chunks only
    (through the migration 0010 functions, whatever role asks), so a kiosk and the owner running
    ``evaluate`` weigh a public question's words alike. Only missing lexemes are counted. The cache
    is dropped whenever the visible documents change (their count or latest ingest time).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._generation: dict[str, object] = {}
        self._counts: dict[str, dict[str, int]] = {}
        self._totals: dict[str, int] = {}
        self._vocabularies: dict[str, dict[str, dict[str, int]]] = {}

    def lookup(
        self,
        session: sa.orm.Session | sa.Connection,
        key: str,
        lexemes: Sequence[str],
        generation: tuple[object, ...] | None = None,
        *,
        public: bool,
    ) -> tuple[dict[str, int], int]:
        """``generation`` is the documents' (count, latest ingest) when the caller read it;
        ``public``: count public chunks only (a public search), else every chunk."""
        if generation is None:
            generation = tuple(session.execute(_GENERATION_SQL).one())
        with self._lock:
            if self._generation.get(key) != generation:
                self._generation[key] = generation
                self._counts[key] = {}
                self._totals.pop(key, None)
                self._vocabularies.pop(key, None)
            counts = self._counts[key]
            missing = [lex for lex in lexemes if lex not in counts]
            total = self._totals.get(key)
        if missing:
            fresh = {
                str(r[0]): int(r[1])
                for r in fetch_rows(
                    session, _PUBLIC_DOC_FREQ_SQL if public else _DOC_FREQ_SQL, {"lexemes": missing}
                )
            }
        else:
            fresh = {}
        if total is None:
            counted = fetch_rows(
                session, _PUBLIC_CHUNK_COUNT_SQL if public else _CHUNK_COUNT_SQL, {}
            )
            total = max(1, int(counted[0][0]))
        with self._lock:
            if self._generation.get(key) == generation:
                self._counts[key].update(fresh)
                self._totals[key] = total
            known = {lex: self._counts[key].get(lex, fresh.get(lex, 0)) for lex in lexemes}
        return known, total

    def vocabulary(
        self, session: sa.orm.Session | sa.Connection, key: str, *, public: bool
    ) -> dict[str, dict[str, int]]:
        """Every lexeme of the chunks ``lookup`` counts, with its chunk count, by first letter
        (for typo correction; read once per generation, after ``lookup`` has checked it): a
        public question is never corrected towards a word only staff documents hold.

        Reading it scans every chunk's tsvector (measured 0.2 s at 1k chunks and 1.4 s at 10k
        on the loaded 2-core machine), so it runs under ``VOCABULARY_TIMEOUT``; past that,
        this generation gets no typo correction (empty vocabulary) rather than a slow answer."""
        with self._lock:
            known = self._vocabularies.get(key)
        if known is None:
            try:
                with session.begin_nested():  # a timeout rolls back to here, not the search
                    before = session.execute(_TIMEOUT_SQL, {"value": VOCABULARY_TIMEOUT}).scalar()
                    rows = session.execute(
                        _PUBLIC_VOCABULARY_SQL if public else _VOCABULARY_SQL
                    ).all()
                    session.execute(_TIMEOUT_SQL, {"value": before})
                known = by_initial((str(r[0]), int(r[1])) for r in rows)
            except sa.exc.OperationalError:
                known = {}
            with self._lock:
                self._vocabularies[key] = known
        return known


_TERM_STATS = _TermStats()
_LETTERS = re.compile(r"[a-z]+")
_WORDS = re.compile(r"[a-z0-9]+")
_PG_STEMMER = SnowballStemmer("english")  # PostgreSQL's english configuration stems with it


def _pg_stem(word: str) -> str:
    return str(_PG_STEMMER.stem_word(word))


def _idf(total: int, frequency: int) -> float:
    return math.log(1 + total / (1 + frequency))


# A question about health (a symptom, condition, body part, medicine, measure, treatment or
# pregnancy, as the safety rules name them) keeps the full weight of every word the documents
# never use, general words included: it is refused more often, and a refused question is what the
# safety net reads. Without this, one clinical question of a fresh set was answered from the
# documents instead of reaching the net (docs/evaluation.md, "General words").
_ABOUT_HEALTH = re.compile(
    rf"\b(?:{SYMPTOMS}|{CONDITIONS}|{BODY}|{MEDS}|{MEASURES}|{TREATMENT}|{PREGNANCY}|{ORGANS})\b",
    re.IGNORECASE,
)


class Retriever:
    """Searches one database's chunks for one embedding model's floor."""

    def __init__(self, db: Database, settings: Settings, model_name: str | None = None) -> None:
        """``model_name`` is the embedder's (its floor applies); default: the configured one."""
        self.db = db
        self.settings = settings
        self.config = settings.retrieval
        self.floor = settings.retrieval.similarity_floor(model_name or settings.embedding.model)

    def search(
        self, question_embedding: Sequence[float], question_text: str, audience: str
    ) -> list[RetrievedPassage]:
        return list(
            self.search_with_candidates(question_embedding, question_text, audience).passages
        )

    def search_with_candidates(
        self,
        question_embedding: Sequence[float],
        question_text: str,
        audience: str,
        asked_embedding: Sequence[float] | None = None,
    ) -> SearchResult:
        """``asked_embedding``: for a question that says the asker's situation as well as what
        it asks (``extractive.question_parts.situation_parts``), the embedding of what is asked
        alone: a passage also passes the gate on that, with the term share of what is asked, so
        the words of a situation ("since his stroke dad ...") do not sink the passage that
        answers. The sentence-level evidence still counts the situation's words (as a
        follow-up's)."""
        audiences = visible_audiences(audience)
        public = audiences == ["public"]
        # chat spellings -> words (engine.answering.query_words)
        question_text = normalise(question_text)
        q = vector_literal(question_embedding)
        asked = vector_literal(asked_embedding) if asked_embedding is not None else None
        k = self.config.candidates
        with self.db.connection() as connection:
            # Both statements straight through the driver (engine.ops.db.fetch_rows): the same
            # SQL and parameters as session.execute, without its per-statement overhead.
            # "email address" is weighed as "email", the word the documents write it with.
            said = without_email_address(question_text)
            prepared = fetch_rows(connection, _PREPARE_SQL, {"text": said})[0]
            lexemes = sorted(str(lex) for lex in (prepared[3] or ()))
            groups: dict[str, set[str]] = {}
            weights: dict[str, float] = {}
            if lexemes:
                typos = {
                    _pg_stem(w) for w in _LETTERS.findall(question_text.lower()) if may_be_typo(w)
                }
                groups, weights = self._term_groups(
                    connection,
                    lexemes,
                    typos,
                    (prepared[4], prepared[5]),
                    public=public,
                    question_text=question_text,
                )
            words = sorted(set().union(*groups.values())) if groups else []
            orquery = " | ".join(_quote_lexeme(lex) for lex in words) or None
            rows = fetch_rows(
                connection,
                search_statement(tuple(audiences), k),
                {"q": q, "orquery": orquery, "words": words, "asked": asked},
            )
        # Each row: id, slug, title, audience, heading_path, text, reviewed_on, similarity,
        # lexemes, vector_rank, keyword_rank, asked_similarity (the order of _SEARCH_TEMPLATE's
        # columns; the last is NULL unless the question says a situation).
        vector_ids = [int(r[0]) for r in sorted(rows, key=lambda r: r[9] or 0) if r[9]]
        keyword_ids = [int(r[0]) for r in sorted(rows, key=lambda r: r[10] or 0) if r[10]]
        share_weights = _subject_weights(weights)
        total_weight = sum(share_weights.values())
        # The groups of the subject's lexemes, in the order their weights are summed.
        share_groups = [(groups[lex], w) for lex, w in share_weights.items()]
        asked_groups: list[tuple[set[str], float]] = []
        if asked is not None:
            asked_text = situation_parts(question_text)[1].lower()
            asked_lexemes = {_pg_stem(w) for w in _WORDS.findall(asked_text)}
            asked_groups = [(groups[x], w) for x, w in share_weights.items() if x in asked_lexemes]
        asked_weight = sum(w for _, w in asked_groups)
        vector_rank = {cid: rank for rank, cid in enumerate(vector_ids, start=1)}
        keyword_rank = {cid: rank for rank, cid in enumerate(keyword_ids, start=1)}
        by_id = {int(row[0]): row for row in rows}
        fused = reciprocal_rank_fusion([vector_ids, keyword_ids], k=self.config.rrf_k)
        candidates: list[RetrievedPassage] = []
        for cid, score in fused:
            row = by_id.get(cid)
            if row is None:
                continue
            passage_lexemes = row[8] or ()
            share = (
                sum(w for group, w in share_groups if not group.isdisjoint(passage_lexemes))
                / total_weight
                if total_weight
                else 0.0
            )
            asked_share = (
                sum(w for group, w in asked_groups if not group.isdisjoint(passage_lexemes))
                / asked_weight
                if asked_weight
                else 0.0
            )
            candidates.append(
                RetrievedPassage(
                    chunk_id=cid,
                    document_slug=row[1],
                    document_title=row[2],
                    audience=row[3],
                    heading_path=row[4],
                    text=row[5],
                    similarity=float(row[7]),
                    vector_rank=vector_rank.get(cid),
                    keyword_rank=keyword_rank.get(cid),
                    reviewed_on=row[6],
                    term_share=share,
                    fused_score=score,
                    asked_similarity=None if row[11] is None else float(row[11]),
                    asked_share=asked_share if asked is not None else None,
                )
            )
        others = {lex: frozenset(group - {lex}) for lex, group in groups.items() if len(group) > 1}
        kept, quotes = self.judge(candidates, question_text, weights, others)
        return SearchResult(
            kept,
            tuple(candidates),
            weights,
            quotes,
            question_text=question_text,
            alternatives=others,
        )

    def judge(
        self,
        candidates: Sequence[RetrievedPassage],
        question_text: str,
        weights: Mapping[str, float],
        alternatives: Mapping[str, frozenset[str]],
    ) -> tuple[tuple[RetrievedPassage, ...], tuple[Quote, ...]]:
        """The whole gate on fused candidates: the vector, keyword and sentence arms, the cut to
        ``max_passages``, then the sentence-level evidence (nothing kept when no sentence of the
        kept passages carries the question's subject). Also what evaluation's floor
        recommendation judges each trial floor by."""
        kept = self.arms(candidates, question_text)
        quotes = tuple(
            find_quotes(question_text, [(p.label, p.text) for p in kept], weights, alternatives)
        )
        if not quotes:
            return (), ()  # no sentence carries the question's subject: the fixed refusal
        return kept, quotes

    def _term_groups(
        self,
        session: sa.orm.Session | sa.Connection,
        lexemes: Sequence[str],
        typos: set[str],
        generation: tuple[object, ...],
        *,
        public: bool,
        question_text: str = "",
    ) -> tuple[dict[str, set[str]], dict[str, float]]:
        """Each question lexeme -> the lexemes that count as it in a passage (itself, its
        everyday-word synonyms, and, for a word no chunk holds, the chunk word it is a typo of
        or, failing that, made of: ``query_words.word_part``),
        and its IDF weight (its own; for a word no chunk holds, that of its commonest match).
        ``question_text`` is read only when a general word no chunk holds is asked: whether the
        question is about health (``_ABOUT_HEALTH``) decides what that word weighs."""
        synonyms = synonym_stems(_pg_stem)
        groups = {lex: {lex, *synonyms.get(lex, ())} for lex in lexemes}
        every = sorted(set().union(*groups.values()))
        key = f"{self.db.url}#{'public' if public else 'all'}"
        doc_freq, total = _TERM_STATS.lookup(session, key, every, generation, public=public)
        unknown = [
            lex
            for lex in lexemes
            if lex in typos and typo_limit(lex) and not any(doc_freq.get(w, 0) for w in groups[lex])
        ]
        if unknown:
            vocabulary = _TERM_STATS.vocabulary(session, key, public=public)
            for lex in unknown:
                near = vocabulary.get(lex[:1], {})
                fixed = closest_word(lex, near)
                if fixed is not None:
                    groups[lex].add(fixed)
                    doc_freq[fixed] = near[fixed]
                    continue
                part, holding = word_part(lex, vocabulary)
                if part is not None:
                    groups[lex].add(part)
                    doc_freq[part] = holding[part]
        weights = {}
        light = general_stems(_pg_stem)
        about_health: bool | None = None  # the regex runs only when its answer is needed
        for lex, group in groups.items():
            seen = [doc_freq[w] for w in group if doc_freq.get(w, 0)]
            own = doc_freq.get(lex, 0)
            # A general word no chunk holds ("pull", "past") is hardly the subject: it weighs
            # what a word every chunk holds weighs, in the term share and the sentence evidence,
            # unless the question is about health (then it keeps its full weight).
            if lex in light and not seen:
                if about_health is None:
                    about_health = _ABOUT_HEALTH.search(question_text) is not None
                if not about_health:
                    weights[lex] = _idf(total, total)
                    continue
            weights[lex] = _idf(total, own if own else max(seen, default=0))
        return groups, weights

    def arms(
        self, candidates: Sequence[RetrievedPassage], question_text: str
    ) -> tuple[RetrievedPassage, ...]:
        """The candidates the vector, keyword or sentence arm lets through, cut to
        ``max_passages`` (fused order); the sentence-level evidence comes after."""
        return tuple(
            p
            for p in candidates
            if self.passes_gate(p) or self.passes_sentence_arm(p, question_text)
        )[: self.config.max_passages]

    def passes_gate(self, passage: RetrievedPassage) -> bool:
        """Absolute evidence only, never the fused score: similarity over the model's floor
        with some of the question's rare terms, or a strong keyword match (most of the rare
        terms) that is not semantically unrelated. For a question that also says the asker's
        situation, the same evidence from what is asked alone counts too."""
        if self._evidence(passage.similarity, passage.term_share, passage.keyword_rank):
            return True
        return (
            passage.asked_similarity is not None
            and passage.asked_share is not None
            and self._evidence(passage.asked_similarity, passage.asked_share, passage.keyword_rank)
        )

    def _evidence(self, similarity: float, share: float, keyword_rank: int | None) -> bool:
        if similarity >= self.floor and share >= self.config.vector_min_term_share:
            return True
        return (
            keyword_rank is not None
            and similarity >= self.config.keyword_min_similarity
            and share >= self.config.keyword_min_term_share
        )

    def passes_sentence_arm(self, passage: RetrievedPassage, question_text: str) -> bool:
        """The keyword arm with a lower similarity floor, for a short question against a longer
        passage: the top keyword match, with the keyword arm's term share, one of whose
        sentences holds every content word of the question (``one_sentence_holds_question``)."""
        return (
            passage.keyword_rank == 1
            and passage.similarity >= self.config.sentence_min_similarity
            and passage.term_share >= self.config.keyword_min_term_share
            and one_sentence_holds_question(question_text, passage.label, passage.text)
        )


def _subject_weights(weights: Mapping[str, float]) -> dict[str, float]:
    """The term weights the gate's term share is taken over: the question's subject, without the
    words that only frame it (``extractive.terms.is_framing``: "how much", "I'm", "get", "cost"),
    which the sentence-level evidence does not count either. A question made only of such words
    keeps them all (nothing is dropped to nothing)."""
    subject = {lex: w for lex, w in weights.items() if not is_framing(lex)}
    return subject if subject else dict(weights)


def _quote_lexeme(lexeme: str) -> str:
    return "'" + lexeme.replace("'", "''").replace("\\", "\\\\") + "'"
