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

The package, by role (names with a leading underscore are the package's own: its modules read one
another's, nothing outside it does, tests and benchmarks aside):

* :mod:`~engine.answering.retrieval.results`: what a search returns (``RetrievedPassage``,
  ``SearchResult``);
* :mod:`~engine.answering.retrieval.sql`: the audiences a reader may see (``visible_audiences``)
  and the statements one search runs: the settings and the question's lexemes
  (``_PREPARE_SQL``), the one-statement hybrid search (``search_statement``) and the vector arm
  alone (``_VECTOR_SQL``, the benchmarks' reference);
* :mod:`~engine.answering.retrieval.term_stats`: the per-process cache of lexeme document
  frequencies, chunk counts and the typo-correction vocabulary (``_TERM_STATS``), and the IDF
  weight;
* :mod:`~engine.answering.retrieval.gate`: the relevance gate (``RelevanceGate``: the vector,
  keyword and sentence arms, the cut to ``max_passages`` and the sentence-level evidence) and
  the subject's term weights the term share is taken over;
* this module, the entry point: ``Retriever`` (one search: the question's words and their term
  groups, typos and synonyms, the statement, fusion, the term shares, then the gate) and
  ``reciprocal_rank_fusion``. The question's words are read through ``normalise``,
  ``may_be_typo`` and ``synonym_stems`` as this module names them (a benchmark switches them off
  here).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import sqlalchemy as sa
from py_rust_stemmers import SnowballStemmer

from engine.answering.extractive.question_parts import situation_parts, without_email_address
from engine.answering.query_words import (
    closest_word,
    general_stems,
    may_be_typo,
    normalise,
    synonym_stems,
    typo_limit,
    word_part,
)
from engine.answering.retrieval.gate import RelevanceGate, _subject_weights
from engine.answering.retrieval.results import RetrievedPassage, SearchResult
from engine.answering.retrieval.sql import (
    _PREPARE_SQL,
    _quote_lexeme,
    search_statement,
    visible_audiences,
)
from engine.answering.retrieval.term_stats import _TERM_STATS, _idf
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


_LETTERS = re.compile(r"[a-z]+")
_WORDS = re.compile(r"[a-z0-9]+")
_PG_STEMMER = SnowballStemmer("english")  # PostgreSQL's english configuration stems with it


def _pg_stem(word: str) -> str:
    return str(_PG_STEMMER.stem_word(word))


# A question about health (a symptom, condition, body part, medicine, measure, treatment or
# pregnancy, as the safety rules name them) keeps the full weight of every word the documents
# never use, general words included: it is refused more often, and a refused question is what the
# safety net reads. Without this, one clinical question of a fresh set was answered from the
# documents instead of reaching the net (docs/evaluation.md, "General words").
_ABOUT_HEALTH = re.compile(
    rf"\b(?:{SYMPTOMS}|{CONDITIONS}|{BODY}|{MEDS}|{MEASURES}|{TREATMENT}|{PREGNANCY}|{ORGANS})\b",
    re.IGNORECASE,
)


class Retriever(RelevanceGate):
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
