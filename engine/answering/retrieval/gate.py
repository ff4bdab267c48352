"""The relevance gate: which fused candidates may be answered from, judged on absolute evidence.

A candidate passes the vector arm (similarity over the embedding model's floor with some of the
question's rare terms), the keyword arm (a strong keyword match, most of the rare terms, that is
not semantically unrelated) or the sentence arm (the top keyword match from a lower similarity,
one of whose sentences holds every content word of the question by its own word); the passing
candidates are cut to ``max_passages`` in fused order, then the sentence-level evidence
(``engine.answering.extractive``) keeps them only when some sentence carries the question's
subject. The term share is taken over the subject's weights (``_subject_weights``: framing words
left out).

It must never judge by the fused score or a rank alone, cut before judging, let a synonym or a
heading stand for a question word in the sentence arm, or query the database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.answering.extractive import Quote, find_quotes
from engine.answering.extractive.passages import one_sentence_holds_question
from engine.answering.extractive.terms import is_framing
from engine.answering.retrieval.results import RetrievedPassage
from engine.ops.settings import RetrievalSettings


class RelevanceGate:
    """The gate's arms and verdict, for ``Retriever`` (which sets ``config`` and ``floor``)."""

    config: RetrievalSettings
    floor: float  # the embedding model's similarity floor

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
