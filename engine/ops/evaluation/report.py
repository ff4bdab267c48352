"""The evaluation's report: :class:`QuestionResult` (one row's scores), :class:`EvaluationReport`
(the run's figures, the pass/fail verdict and the JSON), and ``_report``, which sums the rows:
routing accuracy per intent, safety mistakes, audience leaks, the answer rates, out-of-scope
rejection, the similarity ranges and whether they overlap, the recommended floor, the failures,
the conversation rows apart and the standalone questions the conversation changed.

It must never ask, route or search again: it only counts what the rows measured (the floor is
recommended from the search results the rows kept). What fails a run is ``passed``'s one rule.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.answering.retrieval import Retriever
from engine.answering.retrieval.results import SearchResult
from engine.events import Route
from engine.ops.evaluation.floor import recommend_floor
from engine.ops.evaluation.questions import Question
from engine.protocols import Embedder


@dataclass
class QuestionResult:
    question: str
    intent: str
    audience: str
    route: str
    route_reason: str
    routed_ok: bool
    safety_mistake: bool = False
    best_similarity: float | None = None
    kept: list[str] = field(default_factory=list)  # slugs of passages that passed the gate
    right_document: bool | None = None
    answer_present: bool | None = None
    answer_quoted: bool | None = None  # must_contain in the sentences an extractive answer quotes
    rejected: bool | None = None
    leak: bool = False
    history: list[str] = field(default_factory=list)
    follow_up: bool = False
    joined: bool = False  # the engine joined it to the previous question
    same_as_alone: bool | None = None  # standalone conversation rows only
    alone_answer: str | None = None  # "route/outcome [cited]" asked alone, when different
    in_conversation_answer: str | None = None
    similarity_to_previous: float | None = None


@dataclass
class EvaluationReport:
    model: str
    floor_in_use: float
    questions: int
    routing_accuracy: dict[str, float]
    safety_mistakes: list[dict[str, str]]
    leaks: list[dict[str, str]]
    right_document_rate: float | None
    answer_present_rate: float | None
    answer_quoted_rate: float | None
    answerable_rejected: list[str]
    out_of_scope_rejection_rate: float | None
    out_of_scope_admitted: list[str]
    answerable_similarity: dict[str, float]
    unanswerable_similarity: dict[str, float]
    ranges_overlap: bool
    recommended_floor: float
    failures: list[dict[str, Any]]
    results: list[QuestionResult]
    conversation: dict[str, Any] = field(default_factory=dict)
    standalone_changed: list[dict[str, str]] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.safety_mistakes and not self.leaks and not self.standalone_changed

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["passed"] = self.passed
        data.pop("results")
        return data


def _summary(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)
    return {
        "count": len(ordered),
        "min": round(ordered[0], 4),
        "median": round(statistics.median(ordered), 4),
        "max": round(ordered[-1], 4),
    }


def _report(
    retriever: Retriever,
    embedder: Embedder,
    results: list[QuestionResult],
    searched: list[tuple[Question, SearchResult]],
) -> EvaluationReport:
    by_intent: dict[str, list[bool]] = {}
    for r in results:
        by_intent.setdefault(r.intent, []).append(r.routed_ok)
    routing = {k: round(sum(v) / len(v), 4) for k, v in sorted(by_intent.items())}
    routing["all"] = round(sum(r.routed_ok for r in results) / max(len(results), 1), 4)
    info = [r for r in results if r.intent == "information"]
    oos = [r for r in results if r.intent == "out_of_scope"]
    answerable = [r.best_similarity for r in info if r.best_similarity is not None]
    unanswerable = [r.best_similarity for r in oos if r.best_similarity is not None]
    failures: list[dict[str, Any]] = []
    for r in results:
        problems = []
        if not r.routed_ok:
            problems.append(f"routed {r.route} ({r.route_reason}), expected {r.intent}")
        if r.leak:
            problems.append("audience leak")
        if r.intent == "information" and r.route == Route.INFORMATION.value:
            if not r.right_document:
                problems.append(f"right document not kept (kept {r.kept})")
            elif not r.answer_present:
                problems.append("must_contain not in the kept passages")
        if r.intent == "out_of_scope" and r.kept:
            problems.append(f"not rejected (kept {r.kept})")
        if r.same_as_alone is False:
            problems.append(
                f"stands alone but answered differently after {r.history}: "
                f"{r.in_conversation_answer} instead of {r.alone_answer}"
            )
        if problems:
            failures.append(
                {
                    "question": r.question,
                    "intent": r.intent,
                    "audience": r.audience,
                    "problems": problems,
                    "best_similarity": r.best_similarity,
                }
            )
    return EvaluationReport(
        model=embedder.model_name,
        floor_in_use=retriever.floor,
        questions=len(results),
        routing_accuracy=routing,
        safety_mistakes=[
            {"question": r.question, "intent": r.intent, "route": r.route}
            for r in results
            if r.safety_mistake
        ],
        leaks=[{"question": r.question, "audience": r.audience} for r in results if r.leak],
        right_document_rate=_rate([r.right_document for r in info]),
        answer_present_rate=_rate([r.answer_present for r in info]),
        answer_quoted_rate=_rate([r.answer_quoted for r in info]),
        answerable_rejected=[r.question for r in info if r.rejected],
        out_of_scope_rejection_rate=_rate([r.rejected for r in oos]),
        out_of_scope_admitted=[r.question for r in oos if not r.rejected],
        answerable_similarity=_summary(answerable),
        unanswerable_similarity=_summary(unanswerable),
        ranges_overlap=bool(answerable and unanswerable and min(answerable) <= max(unanswerable)),
        recommended_floor=recommend_floor(retriever, searched),
        failures=failures,
        results=results,
        conversation=_conversation_summary(results),
        standalone_changed=[
            {
                "question": r.question,
                "history": " / ".join(r.history),
                "alone": r.alone_answer or "",
                "in_conversation": r.in_conversation_answer or "",
            }
            for r in results
            if r.same_as_alone is False
        ],
    )


def _conversation_summary(results: Sequence[QuestionResult]) -> dict[str, Any]:
    """Conversation rows apart: routing, safety, the standalone check, and how well the
    follow-up rule and the similarity to the previous question tell follow-ups apart."""
    rows = [r for r in results if r.history]
    if not rows:
        return {}
    singles = [r for r in results if not r.history]
    standalone = [r for r in rows if not r.follow_up]
    follow = [r for r in rows if r.follow_up]
    return {
        "rows": len(rows),
        "routing_accuracy": _rate([r.routed_ok for r in rows]),
        "single_routing_accuracy": _rate([r.routed_ok for r in singles]),
        "safety_mistakes": sum(r.safety_mistake for r in rows),
        "standalone_rows": len(standalone),
        "standalone_same_as_alone": sum(bool(r.same_as_alone) for r in standalone),
        "follow_up_rows": len(follow),
        "follow_ups_joined": sum(r.joined for r in follow),
        "standalone_joined": sum(r.joined for r in standalone),
        "similarity_to_previous_follow_up": _summary(
            [r.similarity_to_previous for r in follow if r.similarity_to_previous is not None]
        ),
        "similarity_to_previous_standalone": _summary(
            [r.similarity_to_previous for r in standalone if r.similarity_to_previous is not None]
        ),
    }


def _rate(values: Sequence[bool | None]) -> float | None:
    known = [v for v in values if v is not None]
    return round(sum(known) / len(known), 4) if known else None
