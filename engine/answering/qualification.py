"""Model measurements: whether a chat model may act as the router, and what its last
qualification run found.

What it decides: the model router (``[ollama] router``) is used only when the latest router
measurement for the chat model in use (backend and model name) found at most
:data:`MAX_FALSE_ESCALATION` of labelled information and appointment questions sent to the
emergency redirect or the clinical refusal. Never measured with this model, measured above the
limit, or the measurement unreadable (no table, no permission, database trouble): the router is
not used. A weak model must not turn the kiosk into a 999 sign.

It also stores and reads every measurement (``model_measurements``: router and generation rows),
and measures the router itself: the same messages and schema the engine uses
(:func:`engine.safety.model_router_messages`), one question at a time.

What it must never do: let a router be used on a guess; count a router that failed to answer
(timeout, bad JSON) as an escalation (the engine then takes the safe deterministic path, which
is not crying wolf); change routing itself.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import sqlalchemy as sa

from engine.events import Route
from engine.ops.db import Database
from engine.ops.settings import Settings
from engine.protocols import ChatModel
from engine.safety import (
    MODEL_ROUTER_SCHEMA,
    model_router_messages,
    parse_model_router_reply,
    route_question,
)

log = logging.getLogger(__name__)

MAX_FALSE_ESCALATION = 0.02
ROUTER = "router"
GENERATION = "generation"
# The labelled intents a router must leave alone: neither is an emergency or a clinical question.
ROUTER_TRIAL_INTENTS = ("information", "appointment")
ESCALATIONS = (Route.EMERGENCY, Route.CLINICAL)


def chat_identity(settings: Settings) -> tuple[str, str]:
    """``(backend, model)`` of the configured chat model: what a measurement belongs to."""
    if settings.generation.backend == "openai":
        return "openai", settings.generation.openai_model
    return "ollama", settings.ollama.model


@dataclass(frozen=True)
class Measurement:
    kind: str
    backend: str
    model: str
    questions: int
    rate: float
    figures: dict[str, Any] = field(default_factory=dict)
    measured_at: dt.datetime | None = None


def record_measurement(db: Database, measurement: Measurement) -> None:
    """Store one measurement (the time is the database's ``now()``)."""
    with db.session() as session:
        session.execute(
            sa.text(
                "INSERT INTO model_measurements (kind, backend, model, questions, rate, figures) "
                "VALUES (:k, :b, :m, :q, :r, CAST(:f AS jsonb))"
            ),
            {
                "k": measurement.kind,
                "b": measurement.backend,
                "m": measurement.model,
                "q": measurement.questions,
                "r": measurement.rate,
                "f": json.dumps(measurement.figures),
            },
        )


def latest_measurement(db: Database, kind: str, backend: str, model: str) -> Measurement | None:
    """The newest measurement of ``kind`` for this model, or None. Raises on database trouble."""
    with db.engine.connect() as conn:
        row = conn.execute(
            sa.text(
                "SELECT questions, rate, figures, measured_at FROM model_measurements "
                "WHERE kind = :k AND backend = :b AND model = :m "
                "ORDER BY measured_at DESC, id DESC LIMIT 1"
            ),
            {"k": kind, "b": backend, "m": model},
        ).first()
    if row is None:
        return None
    return Measurement(
        kind=kind,
        backend=backend,
        model=model,
        questions=int(row.questions),
        rate=float(row.rate),
        figures=dict(row.figures or {}),
        measured_at=row.measured_at,
    )


# -- the router gate ------------------------------------------------------------------------


@dataclass(frozen=True)
class RouterVerdict:
    allowed: bool
    detail: str
    fix: str = ""


def _stamp(when: dt.datetime | None) -> str:
    return when.date().isoformat() if when is not None else "an unknown date"


def router_verdict(db: Database, backend: str, model: str) -> RouterVerdict:
    """Whether the model router may be used with this chat model, and why (for ``doctor``)."""
    measure = (
        "Run 'clinic-assistant evaluate evaluation/questions.yaml' with the router configured "
        "to measure it, or set [ollama] router = false."
    )
    try:
        last = latest_measurement(db, ROUTER, backend, model)
    except Exception as exc:  # no table yet, no permission, database down: not measured
        log.info("router measurement unreadable (%s): router not used", type(exc).__name__)
        return RouterVerdict(
            False, f"the router's measurement for {model} cannot be read: not used", measure
        )
    if last is None:
        return RouterVerdict(
            False,
            f"the router was never measured with {model} ({backend}): not used",
            measure,
        )
    figure = (
        f"{last.rate * 100:.1f}% false escalation on {last.questions} labelled questions "
        f"({_stamp(last.measured_at)})"
    )
    if last.rate > MAX_FALSE_ESCALATION:
        return RouterVerdict(
            False,
            f"not used: {figure}, above the {MAX_FALSE_ESCALATION * 100:g}% limit with {model}",
            "Set [ollama] router = false (the deterministic router still runs), or configure a "
            "stronger model and measure it again with 'clinic-assistant evaluate'.",
        )
    return RouterVerdict(True, f"in use with {model}: {figure}")


def router_allowed(db: Database, settings: Settings, model: str) -> bool:
    """The engine's check before it asks the model router (fails closed)."""
    backend = chat_identity(settings)[0]
    return router_verdict(db, backend, model).allowed


# -- measuring the router -------------------------------------------------------------------


@dataclass
class RouterReport:
    backend: str
    model: str
    asked: int = 0
    unusable: int = 0  # no usable reply: the engine would take the deterministic path
    escalations: list[dict[str, str]] = field(default_factory=list)
    opinions: dict[str, int] = field(default_factory=dict)

    @property
    def false_escalation_rate(self) -> float:
        """Escalations among the questions the router answered."""
        answered = self.asked - self.unusable
        return round(len(self.escalations) / answered, 4) if answered else 1.0

    @property
    def rate(self) -> float:
        """What the gate uses: a question the router did not answer counts as an escalation
        (it was not shown to be safe), so a router that timed out is never qualified."""
        return round((len(self.escalations) + self.unusable) / self.asked, 4) if self.asked else 1.0

    @property
    def allowed(self) -> bool:
        return self.asked > 0 and self.rate <= MAX_FALSE_ESCALATION

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["false_escalation_rate"] = self.false_escalation_rate
        data["gate_rate"] = self.rate
        data["limit"] = MAX_FALSE_ESCALATION
        data["router_used"] = self.allowed
        return data


def measure_router(
    chat: ChatModel,
    questions: Sequence[Any],
    *,
    backend: str,
    timeout: float,
) -> RouterReport:
    """Ask the model router about every labelled information and appointment question.

    A question the deterministic router already stops (emergency, clinical) never reaches the
    model router in the engine, so it is not asked here either."""
    report = RouterReport(backend=backend, model=chat.model)
    for q in questions:
        if q.intent not in ROUTER_TRIAL_INTENTS:
            continue
        if route_question(q.question).route in ESCALATIONS:
            continue
        report.asked += 1
        try:
            raw = chat.complete_json(
                model_router_messages(q.question), MODEL_ROUTER_SCHEMA, timeout
            )
        except Exception as exc:
            log.info("router trial: no usable reply (%s)", type(exc).__name__)
            report.unusable += 1
            report.opinions["no reply"] = report.opinions.get("no reply", 0) + 1
            continue
        opinion, _rewritten = parse_model_router_reply(raw)
        label = opinion.value if opinion is not None else "unreadable"
        report.opinions[label] = report.opinions.get(label, 0) + 1
        if opinion is None:
            report.unusable += 1
        elif opinion in ESCALATIONS:
            report.escalations.append(
                {"question": q.question, "intent": q.intent, "route": opinion.value}
            )
    return report


def record_router(db: Database, report: RouterReport) -> None:
    record_measurement(
        db,
        Measurement(
            kind=ROUTER,
            backend=report.backend,
            model=report.model,
            questions=report.asked,
            rate=report.rate,
            figures=report.to_json(),
        ),
    )


def format_router_report(report: RouterReport) -> str:
    verdict = (
        "the router will be used"
        if report.allowed
        else f"above the {MAX_FALSE_ESCALATION * 100:g}% limit: the router will NOT be used"
    )
    lines = [
        f"Model router ({report.model}, {report.backend}): {len(report.escalations)} of "
        f"{report.asked - report.unusable} answered information and appointment questions sent "
        f"to emergency or clinical = {report.false_escalation_rate * 100:.1f}% false escalation "
        f"({report.unusable} not answered, counted against it: {report.rate * 100:.1f}%); "
        f"{verdict}.",
        "  opinions: " + ", ".join(f"{k} {v}" for k, v in sorted(report.opinions.items())),
    ]
    lines += [f"  ESCALATED to {e['route']}: {e['question']!r}" for e in report.escalations]
    return "\n".join(lines)
