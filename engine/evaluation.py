"""The evaluation command: routing, retrieval and the relevance gate measured on labelled questions.

Input: a YAML list of ``question``, ``intent`` (information, clinical_advice, emergency,
out_of_scope, appointment), optional ``document`` (slug), ``must_contain`` and ``audience``
(default public). Needs no chat model.

Safety mistakes (an emergency not redirected; a clinical question neither refused nor redirected)
and audience leaks (a public question that retrieved a staff chunk, even below the gate) make the
run fail. The similarity floor is recommended from the data; when the answerable and unanswerable
ranges overlap, the report says that no floor alone separates them.
"""

from __future__ import annotations

import datetime as dt
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
import yaml

from engine.db import Database
from engine.errors import ConfigError
from engine.events import Route
from engine.extractive import choose
from engine.protocols import Embedder
from engine.retrieval import RetrievedPassage, Retriever, SearchResult
from engine.safety import route_question
from engine.settings import Settings

INTENTS = ("information", "clinical_advice", "emergency", "out_of_scope", "appointment")
EXPECTED_ROUTE = {
    "information": Route.INFORMATION,
    "out_of_scope": Route.INFORMATION,
    "clinical_advice": Route.CLINICAL,
    "emergency": Route.EMERGENCY,
    "appointment": Route.APPOINTMENT,
}
# Only this many answerable questions lost for each unanswerable one admitted tips the floor down.
ADMIT_COST = 2.0


@dataclass(frozen=True)
class Question:
    question: str
    intent: str
    document: str | None = None
    must_contain: str | None = None
    audience: str = "public"


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

    @property
    def passed(self) -> bool:
        return not self.safety_mistakes and not self.leaks

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["passed"] = self.passed
        data.pop("results")
        return data


def load_questions(path: Path) -> list[Question]:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"{path}: cannot read the question file: {exc}") from None
    if not isinstance(raw, list):
        raise ConfigError(f"{path}: expected a YAML list of questions.")
    questions = []
    for index, row in enumerate(raw, start=1):
        if not isinstance(row, dict) or not isinstance(row.get("question"), str):
            raise ConfigError(f"{path}: item {index} has no 'question' text.")
        intent = str(row.get("intent", "")).strip()
        if intent not in INTENTS:
            raise ConfigError(
                f"{path}: item {index} has intent {intent!r}; use one of {', '.join(INTENTS)}."
            )
        audience = str(row.get("audience") or "public")
        if audience not in ("public", "staff"):
            raise ConfigError(f"{path}: item {index} has audience {audience!r}.")
        questions.append(
            Question(
                question=row["question"],
                intent=intent,
                document=row.get("document") or None,
                must_contain=row.get("must_contain") or None,
                audience=audience,
            )
        )
    return questions


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


def _gate_outcome(
    retriever: Retriever, candidates: Sequence[RetrievedPassage], floor: float
) -> list[RetrievedPassage]:
    original = retriever.floor
    retriever.floor = floor
    try:
        kept = [p for p in candidates if retriever.passes_gate(p)]
    finally:
        retriever.floor = original
    return kept[: retriever.config.max_passages]


def recommend_floor(
    retriever: Retriever,
    searched: Sequence[tuple[Question, SearchResult]],
) -> float:
    """The floor that keeps the most answers while admitting the fewest unanswerable questions
    (each admission costs ADMIT_COST lost answers); ties go to the higher floor."""
    best_floor, best_score = retriever.floor, float("-inf")
    for step in range(30, 76):
        floor = step / 100
        score = 0.0
        for question, result in searched:
            kept = _gate_outcome(retriever, result.candidates, floor)
            if question.intent == "information":
                score += 1.0 if any(p.document_slug == question.document for p in kept) else 0.0
            elif question.intent == "out_of_scope" and kept:
                score -= ADMIT_COST
        if score >= best_score:
            best_floor, best_score = floor, score
    return best_floor


def run_evaluation(
    db: Database, embedder: Embedder, settings: Settings, questions: Sequence[Question]
) -> EvaluationReport:
    retriever = Retriever(db, settings, embedder.model_name)
    results: list[QuestionResult] = []
    searched: list[tuple[Question, SearchResult]] = []
    for q in questions:
        decision = route_question(q.question)
        expected = EXPECTED_ROUTE[q.intent]
        routed_ok = decision.route is expected
        safety = (q.intent == "emergency" and decision.route is not Route.EMERGENCY) or (
            q.intent == "clinical_advice"
            and decision.route not in (Route.CLINICAL, Route.EMERGENCY)
        )
        result = QuestionResult(
            question=q.question,
            intent=q.intent,
            audience=q.audience,
            route=decision.route.value,
            route_reason=decision.reason,
            routed_ok=routed_ok,
            safety_mistake=safety,
        )
        if q.intent in ("information", "out_of_scope"):
            found = retriever.search_with_candidates(
                embedder.embed_query(q.question), q.question, q.audience
            )
            searched.append((q, found))
            result.best_similarity = found.best_similarity
            result.kept = [p.document_slug for p in found.passages]
            result.leak = q.audience != "staff" and any(
                c.audience != "public" for c in found.candidates
            )
            if q.intent == "information":
                result.right_document = q.document in result.kept
                result.answer_present = q.must_contain is None or any(
                    q.must_contain in p.text or q.must_contain in p.heading_path
                    for p in found.passages
                )
                quoted = " ".join(q.text for q in choose(found.quotes))
                result.answer_quoted = q.must_contain is None or (
                    bool(quoted) and " ".join(q.must_contain.split()) in quoted
                )
                result.rejected = not found.passages
            else:
                result.rejected = not found.passages
        results.append(result)

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
    )


def _rate(values: Sequence[bool | None]) -> float | None:
    known = [v for v in values if v is not None]
    return round(sum(known) / len(known), 4) if known else None


def record_calibration(db: Database, report: EvaluationReport) -> None:
    """Store the measured floor beside the model, for the doctor command."""
    with db.session() as session:
        session.execute(
            sa.text(
                "UPDATE embedding_config SET similarity_floor = :f, floor_calibrated_at = :t "
                "WHERE id = 1 AND model_name = :m"
            ),
            {"f": report.recommended_floor, "t": dt.datetime.now(dt.UTC), "m": report.model},
        )


def write_plot(report: EvaluationReport, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    answerable = [
        r.best_similarity
        for r in report.results
        if r.intent == "information" and r.best_similarity is not None
    ]
    unanswerable = [
        r.best_similarity
        for r in report.results
        if r.intent == "out_of_scope" and r.best_similarity is not None
    ]
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=110)
    bins = [i / 50 for i in range(0, 51)]
    ax.hist(answerable, bins=bins, alpha=0.65, label=f"answerable ({len(answerable)})")
    ax.hist(
        unanswerable,
        bins=bins,
        alpha=0.65,
        label=f"not answerable ({len(unanswerable)})",
        hatch="//",
    )
    ax.axvline(
        report.floor_in_use,
        color="black",
        linestyle="-",
        label=f"floor in use {report.floor_in_use:.2f}",
    )
    ax.axvline(
        report.recommended_floor,
        color="red",
        linestyle="--",
        label=f"recommended {report.recommended_floor:.2f}",
    )
    ax.set_xlabel("best cosine similarity of the question's candidates")
    ax.set_ylabel("questions")
    ax.set_title(f"Similarity of answerable vs unanswerable questions ({report.model})")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def format_report(report: EvaluationReport) -> str:
    def pct(value: float | None) -> str:
        return "n/a" if value is None else f"{value * 100:.1f}%"

    lines = [
        f"Evaluated {report.questions} questions with {report.model} (floor in use "
        f"{report.floor_in_use:.2f}).",
        "",
        "Routing accuracy: "
        + ", ".join(f"{k} {pct(v)}" for k, v in report.routing_accuracy.items()),
        f"Safety mistakes: {len(report.safety_mistakes)}",
    ]
    lines += [
        f"  SAFETY: {m['question']!r} ({m['intent']}) routed {m['route']}"
        for m in report.safety_mistakes
    ]
    lines += [
        f"Audience leaks: {len(report.leaks)}",
        *[f"  LEAK: {m['question']!r}" for m in report.leaks],
        f"Right document kept: {pct(report.right_document_rate)}",
        f"Answer present in kept passages: {pct(report.answer_present_rate)}",
        f"Answer in the quoted sentences (extractive answer): {pct(report.answer_quoted_rate)}",
        f"Answerable questions refused: {len(report.answerable_rejected)}",
        f"Out-of-scope rejected: {pct(report.out_of_scope_rejection_rate)}",
        *[f"  admitted: {q!r}" for q in report.out_of_scope_admitted],
        f"Best similarity, answerable: {report.answerable_similarity}",
        f"Best similarity, not answerable: {report.unanswerable_similarity}",
    ]
    if report.ranges_overlap:
        lines.append(
            "The ranges overlap: no similarity floor alone separates them; the gate's keyword "
            "evidence and the refusal path carry the rest."
        )
    lines.append(f"Recommended floor: {report.recommended_floor:.2f}")
    routing_counts = Counter(r.route for r in report.results)
    lines.append("Routes: " + ", ".join(f"{k} {v}" for k, v in sorted(routing_counts.items())))
    lines.append("PASSED" if report.passed else "FAILED: safety mistakes or audience leaks")
    return "\n".join(lines)
