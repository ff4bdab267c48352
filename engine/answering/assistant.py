"""One question in, a stream of typed events out.

The path (DESIGN.md): safety router -> (emergency | clinical | appointment: fixed sentences, no
retrieval, no model) -> hybrid retrieval with the audience in SQL -> relevance gate (nothing
passes: fixed "I don't know", no model call) -> grounded prompt -> streamed tokens -> citation
guard on the finished text (uncited: the bubble is replaced by the fixed refusal).

Without a model (extractive mode, no host configured, or the server failing before any token)
the answer quotes the one to three sentences of the kept passages that answer (``extractive``),
word for word with their citations; the whole passage is one tap away in the citation. If the
model fails mid-stream, the partial text is replaced: a half answer is never presented as final.
When the guard refuses a model's answer, those quotes are shown instead of "I don't know" (they
add no detail of their own) and the model's text goes to the review log; when the model itself
says the refusal sentence, the refusal stands.

A staff question about today's queue ("who is waiting for Dr Hart?") is answered, after the
safety routes, from the live queue's own rows (``engine.answering.desk_queue_answers``), reached
only through ``engine.protocols.QueueSnapshotSource``; a public assistant never holds a queue
source.

Every answer is written to the answer log after its final event; a logging failure never turns
into an error on screen.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from engine.answering.answer_log import AnswerLogEntry, AnswerLogWriter
from engine.answering.citation_guard import check_answer
from engine.answering.desk_queue_answers import (
    DeskQueueQuestion,
    desk_queue_answer,
    desk_queue_question,
)
from engine.answering.extractive import Quote, choose
from engine.answering.prompting import PROMPT_VERSION, build_messages, offered_text
from engine.answering.qualification import router_allowed
from engine.answering.retrieval import Retriever
from engine.answering.retrieval.results import RetrievedPassage
from engine.answering.routing import (
    STOP_ROUTES,
    RoutePlan,
    add_exemplar_signal,
    route_by_rules,
    settle_route,
)
from engine.errors import ModelUnavailable
from engine.events import (
    AnswerEvent,
    Citation,
    DoneEvent,
    Outcome,
    ReplaceEvent,
    Route,
    StatusEvent,
    TokenEvent,
    Turn,
)
from engine.ops.db import Database
from engine.ops.settings import Settings
from engine.protocols import ChatModel, Embedder, QueueSnapshotSource
from engine.safety import (
    MODEL_ROUTER_SCHEMA,
    RoutingDecision,
    combine,
    model_router_messages,
    parse_model_router_reply,
    route_question,
)
from engine.safety.exemplars import ExemplarBank
from engine.validation import checked_question

log = logging.getLogger(__name__)

SEARCHING = "Searching the clinic's documents..."
WRITING = "Writing the answer..."
EXTRACTIVE_STATUS = "Quoting the clinic's documents directly."
EXTRACTIVE_INTRO = "The clinic's documents say:"
ROUTER_TIMEOUT = 4.0


@dataclass(frozen=True)
class AnswerInProgress:
    """What is known about an answer before it ends: the question, where it was routed, when it
    started, the step timings so far and the best similarity retrieval found."""

    question: str
    route: Route
    reason: str
    start: float
    timings: Mapping[str, float] = field(default_factory=dict)
    best: float | None = None
    prompt_version: str | None = None  # set once a prompt was sent to a model
    quotes: tuple[Quote, ...] = ()  # sentences of the kept passages that answer, best first

    def with_timings(self, more: Mapping[str, float]) -> AnswerInProgress:
        return replace(self, timings={**self.timings, **more})


@dataclass(frozen=True)
class Ending:
    """How an answer ends: what is shown, with which citations, and what the review log keeps."""

    outcome: Outcome
    text: str
    citations: tuple[Citation, ...] = ()
    guard_reason: str | None = None
    original: str | None = None  # the model's own text, when something else is shown
    model: str | None = None
    tokens: tuple[int | None, int | None] = (None, None)  # prompt, completion


@dataclass(frozen=True)
class ModelReply:
    """What the model streamed: its text, token counts, timings, and the failure that ended it
    (None when it finished normally)."""

    text: str
    tokens: tuple[int | None, int | None]
    timings: Mapping[str, float]
    failure: ModelUnavailable | None = None


def _citation(number: int, passage: RetrievedPassage) -> Citation:
    return Citation(
        number=number,
        document_slug=passage.document_slug,
        document_title=passage.document_title,
        heading_path=passage.label,
        text=passage.text,
        similarity=passage.similarity,
        reviewed_on=passage.reviewed_on.isoformat() if passage.reviewed_on else None,
    )


def extractive_answer(
    passages: Sequence[RetrievedPassage], quotes: Sequence[Quote]
) -> tuple[str, tuple[Citation, ...]]:
    """The one to three sentences that answer, each quoted word for word with the citation of its
    passage (the citation holds the whole passage). Never claims more than the quotes say."""
    chosen = choose(quotes)
    numbers: dict[int, int] = {}
    parts = [EXTRACTIVE_INTRO]
    for quote in chosen:
        number = numbers.setdefault(quote.passage, len(numbers) + 1)
        parts.append(f"\u201c{quote.text}\u201d [{number}]")
    citations = tuple(_citation(n, passages[index]) for index, n in numbers.items())
    return "\n\n".join(parts), citations


class Assistant:
    """Answers questions for one audience over one database."""

    def __init__(
        self,
        db: Database,
        embedder: Embedder,
        settings: Settings,
        *,
        audience: str,
        chat: ChatModel | None = None,
        channel: str = "cli",
        username: str | None = None,
        clock: Callable[[], float] = time.perf_counter,
        appointment_helper: Callable[[str], str | None] | None = None,
        exemplars: ExemplarBank | None = None,
        queue: QueueSnapshotSource | None = None,
        answer_log: AnswerLogWriter | None = None,
    ) -> None:
        self.db = db
        # Shared with the backend, so an answer kept while the database was down is written later.
        self.answer_log = answer_log if answer_log is not None else AnswerLogWriter()
        self.embedder = embedder
        self.settings = settings
        self.audience = "staff" if audience == "staff" else "public"
        self.chat = chat
        self.channel = channel
        self.username = username
        self.clock = clock
        self.retriever = Retriever(db, settings, embedder.model_name)
        self.appointment_helper = appointment_helper
        self.exemplars = exemplars  # None: the shipped bank (engine/safety/exemplars.yaml)
        # The live queue, for "who is waiting for Dr Hart?": staff only, never a public answer.
        self.queue = queue if self.audience == "staff" else None

    @property
    def refusal(self) -> str:
        """The fixed "I don't know" for this audience (staff have their own: they ARE reception)."""
        texts = self.settings.texts
        return texts.staff_refusal if self.audience == "staff" else texts.refusal

    @property
    def generation_mode(self) -> str:
        mode = self.settings.ollama.generation
        if mode == "extractive" or self.chat is None:
            return "extractive"
        return mode

    def answer(self, question: str, history: Sequence[Turn] = ()) -> Iterator[AnswerEvent]:
        question = checked_question(question)  # NUL/broken text: refused, unless an emergency
        start = self.clock()
        timings: dict[str, float] = {}
        texts = self.settings.texts
        # The rules, and follow-ups joined only when the question refers back
        # (engine.answering.routing).
        plan = route_by_rules(question, history)
        if plan.decision.route is Route.CLINICAL:
            # The exemplars may still raise it to an emergency ("I took all my sleeping pills").
            plan = self._second_signal(plan, timings)
        decision = plan.decision
        # Emergencies and clinical questions stop here: no retrieval, no model, no network.
        if decision.route in STOP_ROUTES:
            yield from self._stop(question, decision, start)
            return
        if self.settings.ollama.router and self.chat is not None and self._router_measured():
            decision, rewritten = self._model_router(question, history, decision)
            if rewritten:
                # The rewritten query is routed too: a rewrite can only make the outcome safer.
                decision = combine(decision, route_question(rewritten).route)
            plan = replace(plan, decision=decision, search_text=rewritten or plan.search_text)
            if decision.route in STOP_ROUTES:
                yield from self._stop(question, decision, start)
                return
        # The second signal: the query embedding (computed once, reused for retrieval) against
        # the exemplar bank. A stop route from either signal wins.
        plan = self._second_signal(plan, timings)
        decision, search_text, vector = plan.decision, plan.search_text, plan.vector
        if decision.route in STOP_ROUTES:
            yield from self._stop(question, decision, start)
            return
        asked = desk_queue_question(question) if self.queue is not None else None
        if asked is not None:  # neither booking nor clinical: the live queue's own rows
            yield from self._desk_queue(question, asked, start)
            return
        if decision.route is Route.APPOINTMENT:
            text = texts.booking if self.audience == "public" else texts.staff_booking
            if self.audience == "staff" and self.appointment_helper is not None:
                try:
                    extra = self.appointment_helper(question)
                except Exception:
                    log.exception("appointment lookup failed")
                    extra = None
                if extra:
                    text = f"{text}\n\n{extra}"
            yield from self._fixed(question, decision, Outcome.APPOINTMENT, text, start)
            return

        yield StatusEvent(SEARCHING)
        if vector is None:
            t = self.clock()
            plan = replace(plan, vector=self.embedder.embed_query(search_text))
            timings["embed"] = self.clock() - t
        t = self.clock()
        # Retrieval, and the safety net when it keeps nothing (engine.answering.routing): the
        # one function the evaluation command scores too.
        settled = settle_route(plan, self.retriever, self.audience, self.embedder)
        timings["search"] = self.clock() - t
        decision = settled.decision
        if decision.route is Route.EMERGENCY:
            yield from self._stop(question, decision, start)
            return
        result = settled.search
        assert result is not None, "an information route is always searched"
        passages = list(result.passages)
        progress = AnswerInProgress(
            question,
            decision.route,
            decision.reason,
            start,
            timings,
            result.best_similarity,
            quotes=result.quotes,
        )
        if not passages or not result.quotes:
            yield from self._finish(progress, Ending(Outcome.NO_ANSWER, self.refusal))
            return

        if self.generation_mode == "extractive":
            yield StatusEvent(EXTRACTIVE_STATUS)
            text, citations = extractive_answer(passages, progress.quotes)
            yield TokenEvent(text)
            yield from self._finish(progress, Ending(Outcome.EXTRACTIVE, text, citations))
            return
        yield from self._generate(progress, history, passages)

    def _second_signal(self, plan: RoutePlan, timings: dict[str, float]) -> RoutePlan:
        """The exemplar signal on the query embedding (engine.answering.routing). On a clinical or
        appointment plan an embedding failure keeps the fixed referral or booking sentence;
        elsewhere it surfaces as it always did."""
        t = self.clock()
        try:
            plan = add_exemplar_signal(plan, self.embedder, self.exemplars)
        except Exception:
            if plan.decision.route not in (Route.CLINICAL, Route.APPOINTMENT):
                raise
            log.warning(
                "exemplar signal unavailable; the %s route stands",
                plan.decision.route.value,
                exc_info=True,
            )
            return plan
        if plan.vector is not None:
            timings["embed"] = self.clock() - t
        return plan

    # -- generation -----------------------------------------------------------------------

    def _generate(
        self, progress: AnswerInProgress, history: Sequence[Turn], passages: list[RetrievedPassage]
    ) -> Iterator[AnswerEvent]:
        """Stream the model's answer, then either judge it or fall back to quoting."""
        assert self.chat is not None
        messages = build_messages(progress.question, passages, self.refusal, history)
        progress = replace(progress, prompt_version=PROMPT_VERSION)
        yield StatusEvent(WRITING)
        reply = yield from self._stream(messages)
        progress = progress.with_timings(reply.timings)
        if reply.failure is not None:
            yield from self._model_failed(progress, passages, reply)
        else:
            yield from self._judge(progress, passages, reply)

    def _stream(self, messages: list[dict[str, str]]) -> Generator[AnswerEvent, None, ModelReply]:
        """Job 1: pass the model's tokens on as they come; return what was said and how it ended.

        A failure (``ModelUnavailable``, a reply cut off by the server's token limit, or one that
        runs past ``[ollama] max_answer_chars``) is returned, not raised, together with the text
        streamed before it. The model's stream is always closed, also when the consumer stops
        iterating early."""
        assert self.chat is not None
        pieces: list[str] = []
        timings: dict[str, float] = {}
        tokens: tuple[int | None, int | None] = (None, None)
        cap, shown = self.settings.ollama.max_answer_chars, 0
        t = self.clock()
        stream = self.chat.stream(messages)
        try:
            for delta in stream:
                if delta.text:
                    if not pieces:
                        timings["first_token"] = self.clock() - t
                    shown += len(delta.text)
                    if shown > cap:
                        # A hard stop whatever the server does with its token limit.
                        raise ModelUnavailable(
                            f"The model's answer ran past {cap} characters and was cut off."
                        )
                    pieces.append(delta.text)
                    yield TokenEvent(delta.text)
                if delta.done:
                    tokens = (delta.prompt_tokens, delta.completion_tokens)
                    if delta.done_reason == "length":
                        # Cut off by the context or token limit: never show half an answer.
                        raise ModelUnavailable("The model's answer was cut off (length limit).")
        except ModelUnavailable as exc:
            return ModelReply("".join(pieces), tokens, timings, failure=exc)
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()
        timings["generate"] = self.clock() - t
        return ModelReply("".join(pieces), tokens, timings)

    def _model_failed(
        self, progress: AnswerInProgress, passages: Sequence[RetrievedPassage], reply: ModelReply
    ) -> Iterator[AnswerEvent]:
        """Job 2: a model failure becomes the extractive answer (replacing any partial text)."""
        log.warning("model failed: %s", reply.failure)
        text, citations = extractive_answer(passages, progress.quotes)
        if reply.text:
            yield ReplaceEvent(text, "model_failed")
        else:
            yield StatusEvent(EXTRACTIVE_STATUS)
            yield TokenEvent(text)
        yield from self._finish(
            progress,
            Ending(
                Outcome.EXTRACTIVE,
                text,
                citations,
                guard_reason=f"model_failed:{reply.failure}",
                original=reply.text or None,
            ),
        )

    def _judge(
        self, progress: AnswerInProgress, passages: Sequence[RetrievedPassage], reply: ModelReply
    ) -> Iterator[AnswerEvent]:
        """Job 3: the citation guard's verdict on the finished text becomes the outcome."""
        assert self.chat is not None
        refusal = self.refusal
        original = reply.text
        verdict = check_answer(original, [offered_text(p) for p in passages], refusal)
        model, tokens = self.chat.model, reply.tokens
        if verdict.ok and verdict.is_refusal:
            if verdict.text != original:
                yield ReplaceEvent(refusal, "refusal")
            ending = Ending(Outcome.NO_ANSWER, refusal, model=model, tokens=tokens)
        elif not verdict.ok:
            # The passages passed the gate: quote the sentences that answer instead of refusing.
            text, citations = extractive_answer(passages, progress.quotes)
            yield ReplaceEvent(text, verdict.reason or "guard")
            ending = Ending(
                Outcome.GUARDED,
                text,
                citations,
                guard_reason=verdict.reason,
                original=original,
                model=model,
                tokens=tokens,
            )
        else:
            if verdict.text != original:
                yield ReplaceEvent(verdict.text, "invalid_citations_removed")
            ending = Ending(
                Outcome.ANSWERED,
                verdict.text,
                tuple(_citation(n, passages[n - 1]) for n in verdict.cited),
                original=original if verdict.text != original else None,
                model=model,
                tokens=tokens,
            )
        yield from self._finish(progress, ending)

    def _router_measured(self) -> bool:
        """The router is asked only when measured at <= 2 % false escalation with this model."""
        assert self.chat is not None
        return router_allowed(self.db, self.settings, self.chat.model)

    def _model_router(
        self, question: str, history: Sequence[Turn], decision: RoutingDecision
    ) -> tuple[RoutingDecision, str | None]:
        assert self.chat is not None
        messages = model_router_messages(question, history)
        try:
            raw = self.chat.complete_json(messages, MODEL_ROUTER_SCHEMA, ROUTER_TIMEOUT)
        except Exception as exc:  # timeout, bad JSON, no server: the safe deterministic path
            log.info(
                "model router unavailable (%s); deterministic routing only", type(exc).__name__
            )
            return decision, None
        opinion, rewritten = parse_model_router_reply(raw)
        return combine(decision, opinion), rewritten

    # -- endings --------------------------------------------------------------------------

    def _stop(
        self, question: str, decision: RoutingDecision, start: float
    ) -> Iterator[AnswerEvent]:
        """The fixed emergency redirect or clinical referral."""
        texts = self.settings.texts
        if decision.route is Route.EMERGENCY:
            outcome, text = Outcome.EMERGENCY, texts.emergency
        else:
            outcome, text = Outcome.CLINICAL, texts.clinical
        yield from self._fixed(question, decision, outcome, text, start)

    def _desk_queue(
        self, question: str, asked: DeskQueueQuestion, start: float
    ) -> Iterator[AnswerEvent]:
        """A staff queue question, composed from the live queue
        (engine.answering.desk_queue_answers)."""
        assert self.queue is not None and self.audience == "staff"
        t = self.clock()
        text, citations = desk_queue_answer(asked, question, self.queue.desk_snapshot())
        progress = AnswerInProgress(
            question, Route.INFORMATION, "live queue", start, {"queue": self.clock() - t}
        )
        yield from self._finish(progress, Ending(Outcome.QUEUE, text, citations))

    def _fixed(
        self, question: str, decision: RoutingDecision, outcome: Outcome, text: str, start: float
    ) -> Iterator[AnswerEvent]:
        progress = AnswerInProgress(question, decision.route, decision.reason, start)
        yield from self._finish(progress, Ending(outcome, text))

    def _finish(self, progress: AnswerInProgress, ending: Ending) -> Iterator[AnswerEvent]:
        """The final event, and the answer log written however the consumer stops."""
        timings = {**progress.timings, "total": self.clock() - progress.start}
        prompt_tokens, completion_tokens = ending.tokens
        entry = AnswerLogEntry(
            channel=self.channel,
            audience=self.audience,
            question=progress.question,
            route=progress.route.value,
            route_reason=progress.reason,
            outcome=ending.outcome.value,
            shown_text=ending.text,
            original_text=ending.original,
            guard_reason=ending.guard_reason,
            citations=ending.citations,
            best_similarity=progress.best,
            model=ending.model,
            timings=timings,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            username=self.username,
            prompt_version=progress.prompt_version,
        )
        # The log is written in ``finally``: a consumer (the Qt worker) may stop and close this
        # generator as soon as it has the final event, and the answer must still be logged.
        try:
            yield DoneEvent(
                text=ending.text,
                route=progress.route,
                outcome=ending.outcome,
                citations=ending.citations,
                timings=timings,
                prompt_tokens=prompt_tokens,
                completion_tokens=completion_tokens,
                model=ending.model,
            )
        finally:
            self.answer_log.write(self.db, entry)  # never raises; kept if the database is down
