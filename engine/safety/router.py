"""Deterministic safety routing: which of four paths a question takes, decided without a model.

Order: emergency first (a single sign, :mod:`engine.safety.emergency`, then two ordinary
signs that together are a red flag, :mod:`engine.safety.danger_signs`), then clinical advice,
then appointment (:mod:`engine.safety.clinical`, :mod:`engine.safety.appointment`), else
information. The reasons for where each line is drawn are in :mod:`engine.safety.rules`; this
module normalises the question, runs the rules in that order and records which rule fired.
:func:`combine` folds in an optional model second opinion, which can only make the outcome safer.

It must never: call a model, the network or the database; raise on any input; be slow (the rules
are linear; a 10,000-character question routes in milliseconds); downgrade an emergency.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import Route
from engine.safety import appointment, clinical, danger_signs, emergency, near_misses, rules
from engine.safety.text import canonical_tokens, normalise

# Higher is safer: a second opinion may move a question up this order, never down.
SAFETY_ORDER: dict[Route, int] = {
    Route.INFORMATION: 0,
    Route.APPOINTMENT: 1,
    Route.CLINICAL: 2,
    Route.EMERGENCY: 3,
}


@dataclass(frozen=True)
class RoutingDecision:
    """Where a question goes, and which rule sent it there (for the review log)."""

    route: Route
    reason: str


def canonical_question(question: str) -> str:
    """The form the rules see: normalised, emergency typos repaired, slang expanded."""
    return " ".join(canonical_tokens(normalise(question)))


def route_question(question: str) -> RoutingDecision:
    """Route ``question`` by the deterministic rules. Empty input is information (the caller
    decides what to do with an empty question)."""
    text = canonical_question(question)
    if not text:
        return RoutingDecision(Route.INFORMATION, "information:empty")
    # Benign near-misses ("dying for a cuppa", a face that looks odd in a photo, a stroke years
    # ago) are rewritten for the emergency rules only (engine.safety.near_misses).
    neutral = near_misses.neutralise(text)
    name = rules.first_match(emergency.EMERGENCY_RULES, neutral)
    if name is not None:
        return RoutingDecision(Route.EMERGENCY, f"emergency:{name}")
    # Two ordinary signs that together are a red flag ("drowsy and panting, he has type 1").
    name = danger_signs.danger_combination(neutral)
    if name is not None:
        return RoutingDecision(Route.EMERGENCY, f"emergency:danger_signs:{name}")
    # "can I have a flu jab" asks for a vaccine: the clinical rules read it without "flu".
    name = rules.first_match(
        clinical.CLINICAL_RULES, clinical.without_illness_names_of_vaccines(text)
    )
    if name is not None:
        return RoutingDecision(Route.CLINICAL, f"clinical:{name}")
    name = rules.first_match(appointment.APPOINTMENT_RULES, text)
    if name is not None:
        process = rules.first_match((appointment.APPOINTMENT_PROCESS,), text)
        if process is not None:
            return RoutingDecision(Route.INFORMATION, f"information:{process}")
        return RoutingDecision(Route.APPOINTMENT, f"appointment:{name}")
    return RoutingDecision(Route.INFORMATION, "information:default")


def combine(deterministic: RoutingDecision, model_opinion: Route | None) -> RoutingDecision:
    """Fold a model's second opinion into the deterministic decision.

    The safer of the two wins (emergency > clinical > appointment > information), so the model can
    raise a question to a safer route but never lower one. ``None`` (the model failed, timed out
    or replied nonsense) leaves the deterministic decision unchanged.
    """
    if model_opinion is None:
        return deterministic
    if SAFETY_ORDER[model_opinion] > SAFETY_ORDER[deterministic.route]:
        return RoutingDecision(
            model_opinion, f"model:{model_opinion.value} (rules said {deterministic.reason})"
        )
    return deterministic
