"""Model qualification: ``clinic-assistant evaluate FILE --generate``.

What it decides: how fit the configured chat model is for the kiosk on this clinic's own
documents. Every labelled information and out-of-scope question goes through the real answer
pipeline (retrieval, the relevance gate, the prompt, the model's stream, the citation guard),
exactly as a kiosk would run it, and the run reports:

- useful answers: the guard passed the model's answer and the expected detail (``must_contain``)
  is in the text shown, out of the answerable questions (those whose kept passages hold it);
- false refusals: the model said the refusal sentence although the kept passages held the answer;
- guard replacements by reason, and among them the wrong details caught;
- out-of-scope questions refused (the refusal shown, by the gate or the model);
- first-token and total time (p50, p95) and the generation speed in tokens per second.

The useful-answer rate is stored (``engine.answering.qualification``) for ``doctor``, which warns
below ``[generation] min_useful_rate``. The answers are logged like any other (channel
``evaluation``), so staff can read what the model wrote in the review queue.

What it must never do: judge an answer by anything but what the patient would have seen; run
the model router (it is measured on its own); hide a question that failed.
"""

from __future__ import annotations

import dataclasses
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.answering.assistant import WRITING, Assistant
from engine.answering.qualification import (
    GENERATION,
    Measurement,
    chat_identity,
    record_measurement,
)
from engine.answering.retrieval import Retriever
from engine.events import DoneEvent, Outcome, ReplaceEvent, StatusEvent, TokenEvent
from engine.ops.db import Database
from engine.ops.settings import Settings
from engine.protocols import ChatModel, Embedder

CHANNEL = "evaluation"
TRIAL_INTENTS = ("information", "out_of_scope")
WRONG_DETAIL = "unverified_detail"


@dataclass
class GeneratedAnswer:
    question: str
    intent: str
    outcome: str
    shown: str
    answerable: bool  # information question whose kept passages hold must_contain
    useful: bool = False
    false_refusal: bool = False
    replaced: list[str] = field(default_factory=list)
    first_token: float | None = None
    total: float = 0.0
    tokens: int | None = None
    generate_seconds: float | None = None
    reply: str | None = None  # what the model wrote (None: the model was not reached)


@dataclass
class QualificationReport:
    backend: str
    model: str
    information: int
    answerable: int
    useful: int
    false_refusals: int
    guard_replacements: dict[str, int]
    wrong_details_caught: int
    model_failures: int
    out_of_scope: int
    out_of_scope_refused: int
    first_token_seconds: dict[str, float]
    total_seconds: dict[str, float]
    tokens_per_second: float | None
    min_useful_rate: float
    answers: list[GeneratedAnswer]

    @property
    def useful_rate(self) -> float:
        return round(self.useful / self.answerable, 4) if self.answerable else 0.0

    @property
    def qualified(self) -> bool:
        return self.answerable > 0 and self.useful_rate >= self.min_useful_rate

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["useful_rate"] = self.useful_rate
        data["qualified"] = self.qualified
        return data


def _percentiles(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered) + 0.5) - 1))]
    return {"p50": round(statistics.median(ordered), 3), "p95": round(p95, 3)}


def _answerable(retriever: Retriever, embedder: Embedder, question: Any) -> bool:
    if question.intent != "information":
        return False
    vector = embedder.embed_query(question.question)
    passages = retriever.search(vector, question.question, question.audience)
    if not passages:
        return False
    if not question.must_contain:
        return True
    return any(
        question.must_contain in p.text or question.must_contain in p.heading_path for p in passages
    )


@dataclass
class _Asked:
    done: DoneEvent
    reasons: list[str]
    streamed: int  # token events from the model (its token count when the server gives none)
    reply: str | None  # the model's own text, as streamed before any replacement


def _ask(assistant: Assistant, question: str) -> _Asked:
    done: DoneEvent | None = None
    reasons: list[str] = []
    pieces: list[str] = []
    writing = False
    for event in assistant.answer(question):
        if isinstance(event, StatusEvent):
            writing = event.text == WRITING
        elif isinstance(event, TokenEvent):
            if writing and not reasons:
                pieces.append(event.text)
        elif isinstance(event, ReplaceEvent):
            reasons.append(event.reason)
        elif isinstance(event, DoneEvent):
            done = event
    assert done is not None, "every answer ends with a DoneEvent"
    reply = "".join(pieces) if pieces or done.model else None
    return _Asked(done, reasons, len(pieces), reply)


def run_generation_trial(
    db: Database,
    embedder: Embedder,
    settings: Settings,
    chat: ChatModel,
    questions: Sequence[Any],
) -> QualificationReport:
    """Every information and out-of-scope question through the model; the figures above."""
    # The router is measured on its own; here the model only writes answers.
    settings = settings.replace(ollama=dataclasses.replace(settings.ollama, router=False))
    retriever = Retriever(db, settings, embedder.model_name)
    refusal = settings.texts.refusal
    answers: list[GeneratedAnswer] = []
    for q in questions:
        if q.intent not in TRIAL_INTENTS:
            continue
        assistant = Assistant(
            db, embedder, settings, audience=q.audience, chat=chat, channel=CHANNEL
        )
        asked = _ask(assistant, q.question)
        done, reasons, streamed = asked.done, asked.reasons, asked.streamed
        answer = GeneratedAnswer(
            question=q.question,
            intent=q.intent,
            outcome=done.outcome.value,
            shown=done.text,
            answerable=_answerable(retriever, embedder, q),
            replaced=reasons,
            first_token=done.timings.get("first_token"),
            total=done.timings.get("total", 0.0),
            tokens=done.completion_tokens if done.completion_tokens is not None else streamed,
            generate_seconds=done.timings.get("generate"),
            reply=asked.reply,
        )
        if answer.answerable:
            answer.useful = done.outcome is Outcome.ANSWERED and (
                not q.must_contain or q.must_contain in done.text
            )
            answer.false_refusal = done.outcome is Outcome.NO_ANSWER and done.text == refusal
        answers.append(answer)

    info = [a for a in answers if a.intent == "information"]
    oos = [a for a in answers if a.intent == "out_of_scope"]
    by_reason = Counter(
        r.split(":", 1)[0] for a in answers for r in a.replaced if r != "model_failed"
    )
    speeds = [
        (a.tokens, a.generate_seconds - (a.first_token or 0.0))
        for a in answers
        if a.tokens and a.generate_seconds and a.generate_seconds > (a.first_token or 0.0)
    ]
    tokens_per_second = (
        round(sum(t for t, _ in speeds) / sum(s for _, s in speeds), 1) if speeds else None
    )
    backend, _configured = chat_identity(settings)
    return QualificationReport(
        backend=backend,
        model=chat.model,
        information=len(info),
        answerable=sum(a.answerable for a in info),
        useful=sum(a.useful for a in info),
        false_refusals=sum(a.false_refusal for a in info),
        guard_replacements=dict(sorted(by_reason.items())),
        wrong_details_caught=sum(r.startswith(WRONG_DETAIL) for a in answers for r in a.replaced),
        model_failures=sum("model_failed" in a.replaced for a in answers)
        + sum(a.outcome == Outcome.EXTRACTIVE.value and not a.replaced for a in answers),
        out_of_scope=len(oos),
        out_of_scope_refused=sum(a.shown == refusal for a in oos),
        first_token_seconds=_percentiles([a.first_token for a in answers if a.first_token]),
        total_seconds=_percentiles([a.total for a in answers]),
        tokens_per_second=tokens_per_second,
        min_useful_rate=settings.generation.min_useful_rate,
        answers=answers,
    )


def record_qualification(db: Database, report: QualificationReport) -> None:
    figures = report.to_json()
    figures.pop("answers")
    record_measurement(
        db,
        Measurement(
            kind=GENERATION,
            backend=report.backend,
            model=report.model,
            questions=report.answerable,
            rate=report.useful_rate,
            figures=figures,
        ),
    )


def format_qualification(report: QualificationReport) -> str:
    def seconds(values: dict[str, float]) -> str:
        return f"p50 {values['p50']:.2f} s, p95 {values['p95']:.2f} s" if values else "n/a"

    verdict = (
        "QUALIFIED"
        if report.qualified
        else f"NOT QUALIFIED (below {report.min_useful_rate * 100:.0f}% useful answers)"
    )
    rows = [
        ("model", f"{report.model} ({report.backend})"),
        (
            "useful answers",
            f"{report.useful}/{report.answerable} answerable = {report.useful_rate * 100:.1f}%",
        ),
        ("false refusals (refusal sentence, answer in passages)", str(report.false_refusals)),
        (
            "guard replacements",
            ", ".join(f"{k} {v}" for k, v in report.guard_replacements.items()) or "none",
        ),
        ("wrong details caught", str(report.wrong_details_caught)),
        ("model failures (quotes shown instead)", str(report.model_failures)),
        ("out-of-scope refused", f"{report.out_of_scope_refused}/{report.out_of_scope}"),
        ("first token", seconds(report.first_token_seconds)),
        ("total per answer", seconds(report.total_seconds)),
        (
            "generation speed",
            "n/a" if report.tokens_per_second is None else f"{report.tokens_per_second} tokens/s",
        ),
    ]
    width = max(len(k) for k, _ in rows)
    lines = [f"Model qualification on {report.information} information questions:"]
    lines += [f"  {k.ljust(width)}  {v}" for k, v in rows]
    lines.append(verdict)
    return "\n".join(lines)


def evaluate_models(
    db: Database,
    embedder: Embedder,
    settings: Settings,
    questions: Sequence[Any],
    *,
    generate: bool,
) -> tuple[list[str], dict[str, Any], bool]:
    """The model part of ``clinic-assistant evaluate``: the router measurement (when
    ``[ollama] router`` is on) and, with ``--generate``, the qualification. Both are stored.

    Returns the printed lines, the JSON figures and whether the model qualified (True when
    no qualification was asked for)."""
    from engine.answering.qualification import format_router_report, measure_router, record_router
    from engine.errors import ConfigError
    from engine.ops.service import build_chat

    lines: list[str] = []
    figures: dict[str, Any] = {}
    qualified = True
    if not (settings.ollama.router or generate):
        return lines, figures, qualified
    chat = build_chat(settings)
    if chat is None:
        if generate:
            raise ConfigError(
                "--generate needs a chat model: configure [ollama] hosts, or [generation] "
                'backend = "openai" with openai_base_url (generation must not be extractive).'
            )
        lines.append("Model router: configured, but no chat model is configured; not measured.")
        return lines, figures, qualified
    try:
        if settings.ollama.router:
            router = measure_router(
                chat,
                questions,
                backend=chat_identity(settings)[0],
                timeout=settings.ollama.read_timeout,
            )
            record_router(db, router)
            lines.append(format_router_report(router))
            figures["router"] = router.to_json()
        if generate:
            report = run_generation_trial(db, embedder, settings, chat, questions)
            record_qualification(db, report)
            lines.append(format_qualification(report))
            figures["generation"] = report.to_json()
            qualified = report.qualified
    finally:
        close = getattr(chat, "close", None)
        if close is not None:
            close()
    return lines, figures, qualified
