"""The evaluation's recommended similarity floor: each trial floor from 0.30 to 0.75 re-applies
the whole gate (the arms, then the sentence-level evidence) to the search results the run kept,
and the floor that keeps the most answers while admitting the fewest unanswerable questions wins.

It must never search the database again, never leave the retriever's floor changed (each trial
restores it), and never store the floor: ``record_calibration`` in the package does that.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.answering.extractive import find_quotes
from engine.answering.retrieval import Retriever
from engine.answering.retrieval.results import RetrievedPassage, SearchResult
from engine.ops.evaluation.questions import Question

# Only this many answerable questions lost for each unanswerable one admitted tips the floor down.
ADMIT_COST = 2.0


def _gate_outcome(
    retriever: Retriever,
    result: SearchResult,
    floor: float,
    answered: dict[tuple[int, ...], bool] | None = None,
) -> list[RetrievedPassage]:
    """What the gate keeps at a trial floor: the whole gate (the arms, then the sentence-level
    evidence) when the result carries its question, else the passage arms alone. ``answered``
    remembers the sentence evidence per kept set (many floors keep the same passages)."""
    original = retriever.floor
    retriever.floor = floor
    try:
        text = result.question_text
        if text:
            kept = list(retriever.arms(result.candidates, text))
        else:
            kept = [p for p in result.candidates if retriever.passes_gate(p)]
            kept = kept[: retriever.config.max_passages]
    finally:
        retriever.floor = original
    if not text or not kept:
        return kept
    memo = {} if answered is None else answered
    key = tuple(p.chunk_id for p in kept)
    if key not in memo:
        passages = [(p.label, p.text) for p in kept]
        memo[key] = bool(find_quotes(text, passages, result.term_weights, result.alternatives))
    return kept if memo[key] else []


def recommend_floor(
    retriever: Retriever,
    searched: Sequence[tuple[Question, SearchResult]],
) -> float:
    """The floor that keeps the most answers while admitting the fewest unanswerable questions
    (each admission costs ADMIT_COST lost answers); ties go to the higher floor."""
    best_floor, best_score = retriever.floor, float("-inf")
    answered: list[dict[tuple[int, ...], bool]] = [{} for _ in searched]
    for step in range(30, 76):
        floor = step / 100
        score = 0.0
        for (question, result), memo in zip(searched, answered, strict=True):
            kept = _gate_outcome(retriever, result, floor, memo)
            if question.intent == "information":
                score += 1.0 if any(p.document_slug == question.document for p in kept) else 0.0
            elif question.intent == "out_of_scope" and kept:
                score -= ADMIT_COST
        if score >= best_score:
            best_floor, best_score = floor, score
    return best_floor
