"""One labelled row of the evaluation, asked as the Assistant asks it and scored.

:func:`_evaluate_one` routes the question with the Assistant's own functions (``plan_route``:
rules, follow-ups, exemplar signal; then ``settle_route``: retrieval and the safety net), searches
when routing stopped before retrieval (only to measure the gate), and scores the row: routed as
labelled, safety mistake, audience leak, right document, answer present in the kept passages and
in the quoted sentences, rejected; for a conversation row, joined to the previous question, its
similarity to it, and whether a standalone question got the same answer as when asked alone.
:class:`_Session` runs the real Assistant (extractive, no model) for conversation histories and
removes the answers it logged.

It must never route, search or answer any other way than the Assistant does (the route scored
must be the one a patient sees), never call a chat model, and never keep an answer it logged.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import sqlalchemy as sa

from engine.answering.assistant import Assistant
from engine.answering.extractive import choose
from engine.answering.retrieval import Retriever
from engine.answering.retrieval.results import SearchResult
from engine.answering.routing import asked_embedding, plan_route, settle_route
from engine.events import DoneEvent, Route, Turn
from engine.ops.db import Database
from engine.ops.evaluation.questions import Question
from engine.ops.evaluation.report import QuestionResult
from engine.ops.settings import Settings
from engine.protocols import Embedder

EXPECTED_ROUTE = {
    "information": Route.INFORMATION,
    "out_of_scope": Route.INFORMATION,
    "clinical_advice": Route.CLINICAL,
    "emergency": Route.EMERGENCY,
    "appointment": Route.APPOINTMENT,
}


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
