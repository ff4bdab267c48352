"""The route of one question in a conversation: the rules, follow-ups, and the exemplar signal.

Order (each step can only make the outcome safer):

1. The deterministic rules on the question alone (:func:`engine.safety.route_question`). An
   emergency stops here: no embedding, no retrieval, no model. A clinical verdict never
   reaches retrieval or a model either; only step 3 may still raise it to an emergency.
2. Follow-ups (:mod:`engine.follow_up`): only a question that refers back is joined to the
   previous one; the joined text is routed by the rules too, so a real follow-up of an emergency
   or clinical question stays there. A question that stands alone is routed and searched exactly
   as if asked alone, whatever came before.
3. Unless the rules said appointment (a fixed booking sentence, nothing retrieved), the query
   embedding of the search text, computed once here and reused by retrieval, is
   compared with the exemplar bank (:mod:`engine.safety.exemplars`): a stop route from either
   signal wins; information needs both.

The Assistant and the evaluation command both call :func:`plan_route`, so what is measured is
what runs. It must never lower a route, call a chat model, or embed a question the rules have
already stopped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.events import Route, Turn
from engine.follow_up import refers_back, standalone_query
from engine.protocols import Embedder
from engine.safety import SAFETY_ORDER, RoutingDecision, route_question
from engine.safety.exemplars import ExemplarBank, default_bank

STOP_ROUTES = (Route.EMERGENCY, Route.CLINICAL)


@dataclass(frozen=True)
class RoutePlan:
    """Where a question goes, the text it is searched by, and that text's embedding (None when
    the rules stopped it before any embedding)."""

    decision: RoutingDecision
    search_text: str
    vector: list[float] | None
    follow_up: bool


def _raise(decision: RoutingDecision, route: Route, reason: str) -> RoutingDecision:
    if SAFETY_ORDER[route] > SAFETY_ORDER[decision.route]:
        return RoutingDecision(route, f"{reason} (rules said {decision.reason})")
    return decision


def route_by_rules(question: str, history: Sequence[Turn]) -> RoutePlan:
    """Steps 1 and 2: the rules on the question and, for a real follow-up, on the joined text."""
    decision = route_question(question)
    follow = bool(history) and refers_back(question)
    search_text = standalone_query(question, history) if follow else question
    if follow and decision.route is not Route.EMERGENCY:
        # "is it serious?" after chest pain: the joined text is an emergency even though the
        # question alone is only clinical. The safer of the two wins.
        joined = route_question(search_text)
        if joined.route in STOP_ROUTES:
            decision = _raise(decision, joined.route, f"follow-up:{joined.reason}")
    return RoutePlan(decision, search_text, None, follow)


def add_exemplar_signal(
    plan: RoutePlan, embedder: Embedder, bank: ExemplarBank | None = None
) -> RoutePlan:
    """Step 3: embed the search text (once) and let the exemplar bank raise the route.

    A plan already on emergency, or on appointment (a fixed booking sentence, nothing
    retrieved), is returned as it is, without embedding anything. A clinical plan is still
    checked: the exemplars may raise it to an emergency ("I took all of my sleeping pills")."""
    if plan.decision.route in (Route.EMERGENCY, Route.APPOINTMENT):
        return plan
    vector = plan.vector or embedder.embed_query(plan.search_text)
    verdict = (bank or default_bank()).classify(vector, embedder)
    decision = plan.decision
    if verdict.route is not None:
        decision = _raise(decision, verdict.route, f"exemplar:{verdict.label}")
    return replace(plan, decision=decision, vector=vector)


def plan_route(
    question: str,
    history: Sequence[Turn],
    embedder: Embedder,
    bank: ExemplarBank | None = None,
) -> RoutePlan:
    """Route ``question`` asked after ``history`` (earlier turns of the same session)."""
    return add_exemplar_signal(route_by_rules(question, history), embedder, bank)
