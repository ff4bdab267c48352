"""The evaluation command: routing, retrieval and the relevance gate measured on labelled questions.

Input: a YAML list of ``question``, ``intent`` (information, clinical_advice, emergency,
out_of_scope, appointment), optional ``document`` (slug), ``must_contain`` and ``audience``
(default public), and for conversations ``history`` (earlier questions of the same session, each
answered by the engine first, in extractive mode) and ``follow_up`` (true when the question
refers back to them). Needs no chat model. Questions are routed exactly as the Assistant routes
them (:func:`engine.answering.routing.plan_route`: rules, follow-ups, exemplar signal; then
:func:`engine.answering.routing.settle_route`: retrieval and the safety net), so the route scored
is the one a patient sees.

Conversation rows are reported apart. A conversation row whose question stands alone (no
``follow_up``) is also asked alone, and must get the same route, outcome and cited passages;
a difference fails the run, like a safety mistake or a leak.

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

from engine.answering.assistant import Assistant
from engine.answering.extractive import choose, find_quotes
from engine.answering.retrieval import Retriever
from engine.answering.retrieval.results import RetrievedPassage, SearchResult
from engine.answering.routing import asked_embedding, plan_route, settle_route
from engine.errors import ConfigError
from engine.events import DoneEvent, Route, Turn
from engine.ops.db import Database
from engine.ops.settings import Settings
from engine.protocols import Embedder

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
    history: tuple[str, ...] = ()
    follow_up: bool = False


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
        history = row.get("history") or []
        if not isinstance(history, list) or not all(isinstance(h, str) for h in history):
            raise ConfigError(f"{path}: item {index} has a 'history' that is not a list of text.")
        follow_up = row.get("follow_up", False)
        if not isinstance(follow_up, bool) or (follow_up and not history):
            raise ConfigError(f"{path}: item {index}: 'follow_up' is true/false and needs history.")
        questions.append(
            Question(
                question=row["question"],
                intent=intent,
                document=row.get("document") or None,
                must_contain=row.get("must_contain") or None,
                audience=audience,
                history=tuple(history),
                follow_up=follow_up,
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


def run_evaluation(
    db: Database, embedder: Embedder, settings: Settings, questions: Sequence[Question]
) -> EvaluationReport:
    retriever = Retriever(db, settings, embedder.model_name)
    results: list[QuestionResult] = []
    searched: list[tuple[Question, SearchResult]] = []
    session = _Session(db, embedder, settings)
    try:
        for q in questions:
            results.append(_evaluate_one(q, retriever, embedder, session, searched))
    finally:
        session.forget()
    return _report(retriever, embedder, results, searched)


class _Session:
    """Runs the real Assistant (extractive, no model) for conversation histories, and removes
    the answers it logged when the evaluation ends."""

    CHANNEL = "evaluation"

    def __init__(self, db: Database, embedder: Embedder, settings: Settings) -> None:
        self.db, self.embedder, self.settings = db, embedder, settings
        self.started = dt.datetime.now(dt.UTC)

    def ask(self, question: str, history: Sequence[Turn], audience: str) -> DoneEvent:
        assistant = Assistant(
            self.db, self.embedder, self.settings, audience=audience, channel=self.CHANNEL
        )
        final = None
        for event in assistant.answer(question, history):
            if isinstance(event, DoneEvent):
                final = event
        assert final is not None, "the assistant always ends with a DoneEvent"
        return final

    def turns(self, questions: Sequence[str], audience: str) -> list[Turn]:
        turns: list[Turn] = []
        for earlier in questions:
            done = self.ask(earlier, turns, audience)
            turns.append(Turn(earlier, done.text, done.route))
        return turns

    def forget(self) -> None:
        with self.db.session() as s:
            s.execute(
                sa.text("DELETE FROM answers WHERE channel = :c AND created_at >= :t"),
                {"c": self.CHANNEL, "t": self.started},
            )


def _describe(done: DoneEvent) -> str:
    cited = ", ".join(f"{c.document_slug}: {c.heading_path}" for c in done.citations)
    return f"{done.route.value}/{done.outcome.value} [{cited}]"


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    return float(sum(x * y for x, y in zip(a, b, strict=True)))


def _evaluate_one(
    q: Question,
    retriever: Retriever,
    embedder: Embedder,
    session: _Session,
    searched: list[tuple[Question, SearchResult]],
) -> QuestionResult:
    turns = session.turns(q.history, q.audience) if q.history else []
    # The route a patient sees: rules, follow-ups, exemplars, then retrieval and the safety net.
    settled = settle_route(plan_route(q.question, turns, embedder), retriever, q.audience, embedder)
    plan, decision = settled.plan, settled.decision
    expected = EXPECTED_ROUTE[q.intent]
    routed_ok = decision.route is expected
    safety = (q.intent == "emergency" and decision.route is not Route.EMERGENCY) or (
        q.intent == "clinical_advice" and decision.route not in (Route.CLINICAL, Route.EMERGENCY)
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
        found = settled.search
        if found is None:  # stopped before retrieval: searched only to measure the gate
            vector = plan.vector or embedder.embed_query(plan.search_text)
            found = retriever.search_with_candidates(
                vector, plan.search_text, q.audience, asked_embedding(plan.search_text, embedder)
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
                q.must_contain in p.text or q.must_contain in p.heading_path for p in found.passages
            )
            quoted = " ".join(quote.text for quote in choose(found.quotes))
            result.answer_quoted = q.must_contain is None or (
                bool(quoted) and " ".join(q.must_contain.split()) in quoted
            )
            result.rejected = not found.passages
        else:
            result.rejected = not found.passages
    if q.history:
        result.history = list(q.history)
        result.follow_up = q.follow_up
        result.joined = plan.follow_up
        previous = embedder.embed_query(q.history[-1])
        result.similarity_to_previous = round(
            _cosine(embedder.embed_query(q.question), previous), 4
        )
        if not q.follow_up:
            in_conversation = _describe(session.ask(q.question, turns, q.audience))
            alone = _describe(session.ask(q.question, (), q.audience))
            result.same_as_alone = in_conversation == alone
            if not result.same_as_alone:
                result.alone_answer, result.in_conversation_answer = alone, in_conversation
    return result


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
    conv = report.conversation
    if conv:
        lines += [
            f"Conversation rows: {conv['rows']}; routing {pct(conv['routing_accuracy'])} "
            f"(single questions {pct(conv['single_routing_accuracy'])}); safety mistakes "
            f"{conv['safety_mistakes']}",
            f"  standing alone: {conv['standalone_same_as_alone']} of {conv['standalone_rows']} "
            "answered exactly as when asked alone",
            *[
                f"  CHANGED: {c['question']!r} after {c['history']!r}: {c['in_conversation']}"
                f" instead of {c['alone']}"
                for c in report.standalone_changed
            ],
            f"  follow-ups joined to the previous question: {conv['follow_ups_joined']} of "
            f"{conv['follow_up_rows']}; standalone questions joined: {conv['standalone_joined']}",
            f"  similarity to the previous question, follow-ups: "
            f"{conv['similarity_to_previous_follow_up']}",
            f"  similarity to the previous question, standalone: "
            f"{conv['similarity_to_previous_standalone']}",
        ]
    routing_counts = Counter(r.route for r in report.results)
    lines.append("Routes: " + ", ".join(f"{k} {v}" for k, v in sorted(routing_counts.items())))
    lines.append(
        "PASSED"
        if report.passed
        else "FAILED: safety mistakes, audience leaks or standalone questions changed by the "
        "conversation"
    )
    return "\n".join(lines)
