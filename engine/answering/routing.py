"""The route of one question in a conversation: the rules, follow-ups, and the exemplar signal.

Order (each step can only make the outcome safer):

1. The deterministic rules on the question alone (:func:`engine.safety.route_question`). An
   emergency stops here: no embedding, no retrieval, no model. A clinical verdict never
   reaches retrieval or a model either; only step 3 may still raise it to an emergency.
2. Follow-ups (:mod:`engine.answering.follow_up`): only a question that refers back is joined to the
   previous one; the joined text is routed by the rules too, so a real follow-up of an emergency
   or clinical question stays there, and a follow-up whose joined text is a booking request
   ("and dermatology?" after a free-slot question) stays an appointment. A question that stands
   alone is routed and searched exactly as if asked alone, whatever came before.
3. Unless the rules said emergency, the query embedding of the search text, computed once here
   and reused by retrieval, is compared with the exemplar bank (:mod:`engine.safety.exemplars`):
   a stop route from either signal wins; information needs both. For a follow-up, the question
   it refers back to is compared too, and its emergency route carries. Where the rules found
   nothing and the exemplars say clinical, the nearer of the two stop classes decides: a
   question at least as near an emergency phrasing as a clinical one is an emergency
   (:func:`engine.safety.exemplars.nearer_emergency`; never where the rules said clinical).

4. After retrieval (:func:`settle_route`): an information question for which retrieval kept
   nothing (the answer would be the fixed "I don't know") and that reads like someone unwell now
   goes to the emergency route instead (:mod:`engine.safety.safety_net`). It reads only the
   exemplar similarities of step 3 and the question's text: no second embedding.

The Assistant and the evaluation command both call :func:`plan_route` (or its two steps) and
:func:`settle_route`, so what is measured is what a patient sees. It must never lower a route,
call a chat model, embed a question the rules have already stopped, or let the safety net touch
a clinical or appointment route or a question retrieval found passages for.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from engine.answering.extractive.question_parts import situation_parts
from engine.answering.follow_up import joined_query, standalone_query
from engine.answering.retrieval import Retriever
from engine.answering.retrieval.results import SearchResult
from engine.events import Route, Turn
from engine.protocols import Embedder
from engine.safety import SAFETY_ORDER, RoutingDecision, normalise, route_question
from engine.safety.exemplars import ExemplarBank, default_bank, nearer_emergency
from engine.safety.safety_net import net_reason

STOP_ROUTES = (Route.EMERGENCY, Route.CLINICAL)
# A follow-up that asks about the booking itself ("and dermatology?", "cancel that", "how about
# Thursday?") keeps the appointment route of the joined text; one that asks for information
# ("how much is it?", "do I need to fast?", "where do I go?") does not.
_ASKS_INFORMATION = re.compile(
    r"\b(?:how(?! about\b)|where|why|what (?:should|do|does|is|are|time|if)|whats|do (?:i|we)"
    r" need|need to|bring|cost|costs|price|fee|fees|free|pay|paid|fast|fasting|eat|drink|park"
    r"|parking|wear)\b"
)


@dataclass(frozen=True)
class RoutePlan:
    """Where a question goes, the text it is searched by, and that text's embedding (None when
    the rules stopped it before any embedding)."""

    decision: RoutingDecision
    search_text: str
    vector: list[float] | None
    follow_up: bool
    # The stand-alone form of the question a follow-up refers back to (None when it stands
    # alone): its own stop route, by either signal, carries into the follow-up.
    previous: str | None = None
    # The similarity of the search text's nearest exemplar of each route (empty until step 3),
    # and of the question a follow-up refers back to (read by the safety net).
    nearest: Mapping[Route, float] = field(default_factory=dict)
    previous_nearest: Mapping[Route, float] = field(default_factory=dict)


@dataclass(frozen=True)
class SettledRoute:
    """The route a patient sees, after retrieval: the plan with its final decision, and what
    retrieval found (None when the route stopped before retrieval)."""

    plan: RoutePlan
    search: SearchResult | None

    @property
    def decision(self) -> RoutingDecision:
        return self.plan.decision


def _raise(decision: RoutingDecision, route: Route, reason: str) -> RoutingDecision:
    if SAFETY_ORDER[route] > SAFETY_ORDER[decision.route]:
        return RoutingDecision(route, f"{reason} (rules said {decision.reason})")
    return decision


def _stopped_by_rules(text: str) -> bool:
    """Whether the rules send ``text`` to a stop route (emergency or clinical): after such a
    question, the follow-up test is looser (``follow_up.refers_back_after_stop``)."""
    return route_question(text).route in STOP_ROUTES


def route_by_rules(question: str, history: Sequence[Turn]) -> RoutePlan:
    """Steps 1 and 2: the rules on the question and, for a real follow-up, on the joined text."""
    decision = route_question(question)
    joined_text = joined_query(question, history, _stopped_by_rules)
    follow = joined_text is not None
    previous = (
        standalone_query(history[-1].question, history[:-1], _stopped_by_rules) if follow else None
    )
    search_text = joined_text or question
    if joined_text is not None and decision.route is not Route.EMERGENCY:
        # "is it serious?" after chest pain: the joined text is an emergency even though the
        # question alone is only clinical. The safer of the two wins. An appointment route of
        # the joined text carries only into a question the rules call information alone ("and
        # dermatology?" after a free-slot question; "cancel that" after booking talk): it never
        # lowers a stop route, and a question that stands alone is never joined at all.
        joined = route_question(joined_text)
        if joined.route in STOP_ROUTES or (
            joined.route is Route.APPOINTMENT
            and decision.route is Route.INFORMATION
            and not _ASKS_INFORMATION.search(normalise(question))
        ):
            decision = _raise(decision, joined.route, f"follow-up:{joined.reason}")
        # An emergency the previous answer was (found by the exemplar signal, or the safety
        # net's) carries into a real follow-up of it, whatever the joined text says. Only an
        # emergency: a clinical answer also follows service questions the exemplars misread
        # ("do you do travel jabs?"), and would carry into "how much are they?".
        if history[-1].route is Route.EMERGENCY:
            decision = _raise(decision, Route.EMERGENCY, "follow-up:previous answer")
    return RoutePlan(decision, search_text, None, follow, previous)


def add_exemplar_signal(
    plan: RoutePlan, embedder: Embedder, bank: ExemplarBank | None = None
) -> RoutePlan:
    """Step 3: embed the search text (once) and let the exemplar bank raise the route.

    A plan already on emergency is returned as it is, without embedding anything. A clinical
    plan is still checked (the exemplars may raise it to an emergency: "I took all of my
    sleeping pills"), and so is an appointment plan ("I'm on blood thinners, can I still have a
    flu jab?" reads as a booking to the rules). For a follow-up, the question it refers back to
    is checked too (one more embedding): a follow-up of a question that is an emergency by the
    exemplars alone stays an emergency even when the joined text is less clear-cut. Only an
    emergency carries this way: a clinical verdict of the earlier question alone also fired on
    service questions ("do you do travel jabs?") and would carry into "how much are they?";
    clinical follow-ups are caught by both signals on the joined text."""
    if plan.decision.route is Route.EMERGENCY:
        return plan
    bank = bank or default_bank()
    vector = plan.vector or embedder.embed_query(plan.search_text)
    decision = plan.decision
    verdicts = [("exemplar", bank.classify(vector, embedder))]
    nearest, previous_nearest = verdicts[0][1].nearest, plan.previous_nearest
    if plan.previous is not None:
        earlier = bank.classify(embedder.embed_query(plan.previous), embedder)
        previous_nearest = earlier.nearest
        if earlier.route is Route.EMERGENCY:
            verdicts.append(("follow-up:exemplar", earlier))
    by_rules = decision.route
    for source, verdict in verdicts:
        if verdict.route is Route.APPOINTMENT and decision.route is not Route.INFORMATION:
            continue
        if verdict.route is not None:
            decision = _raise(decision, verdict.route, f"{source}:{verdict.label}")
    if by_rules is Route.INFORMATION and nearer_emergency(verdicts[0][1], plan.search_text):
        # Where the rules found nothing, a clinical verdict of the exemplars that is nearer an
        # emergency phrasing than a clinical one is an emergency (docs/evaluation.md, "Fourth
        # safety round").
        label = verdicts[0][1].label
        decision = _raise(decision, Route.EMERGENCY, f"exemplar:emergency nearer than {label}")
    return replace(
        plan, decision=decision, vector=vector, nearest=nearest, previous_nearest=previous_nearest
    )


def plan_route(
    question: str,
    history: Sequence[Turn],
    embedder: Embedder,
    bank: ExemplarBank | None = None,
) -> RoutePlan:
    """Route ``question`` asked after ``history`` (earlier turns of the same session)."""
    return add_exemplar_signal(route_by_rules(question, history), embedder, bank)


def asked_embedding(search_text: str, embedder: Embedder) -> list[float] | None:
    """The embedding of what a question asks, when it also says the asker's situation
    (``extractive.question_parts.situation_parts``: "I've got a bad hip, are there automatic
    doors?"); None for any other question (no second embedding)."""
    situation, asked = situation_parts(search_text)
    return embedder.embed_query(asked) if situation else None


def settle_route(
    plan: RoutePlan, retriever: Retriever, audience: str, embedder: Embedder
) -> SettledRoute:
    """Step 4: search for an information plan, and apply the safety net when nothing was kept.

    Any other route is returned as it is, unsearched. The net (engine.safety.safety_net) runs only
    when retrieval kept no passage or no sentence that answers (the fixed "I don't know" would be
    said), reads the similarities step 3 already computed and the question's text, and can only
    raise the route to an emergency; a follow-up is also netted by the question it refers back
    to. The Assistant and the evaluation command both call this, so
    the evaluation scores the route a patient sees."""
    if plan.decision.route is not Route.INFORMATION:
        return SettledRoute(plan, None)
    vector = plan.vector or embedder.embed_query(plan.search_text)
    plan = replace(plan, vector=vector)
    result = retriever.search_with_candidates(
        vector, plan.search_text, audience, asked_embedding(plan.search_text, embedder)
    )
    if result.passages and result.quotes:
        return SettledRoute(plan, result)
    reason = net_reason(plan.search_text, plan.nearest)
    if reason is None and plan.previous is not None:
        # A real follow-up ("what should we do?") of a question the net would have sent to the
        # emergency route, itself unanswered, stays there.
        earlier = net_reason(plan.previous, plan.previous_nearest)
        reason = f"follow-up:{earlier}" if earlier else None
    if reason is None:
        return SettledRoute(plan, result)
    raised = _raise(plan.decision, Route.EMERGENCY, reason)
    return SettledRoute(replace(plan, decision=raised), result)
