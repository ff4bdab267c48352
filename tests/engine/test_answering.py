"""The answer pipeline end to end on the real PostgreSQL: safety routes that never reach a model or
the embedder, the refusal path, the citation guard on streamed answers, extractive mode,
follow-ups, the answer log, and the real OllamaChat against a fake Ollama server."""

from __future__ import annotations

import dataclasses
import json
import re
import socket
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
import sqlalchemy as sa

from engine.answering.assistant import EXTRACTIVE_STATUS, SEARCHING, WRITING, Assistant
from engine.answering.ollama_chat import OllamaChat
from engine.answering.prompting import PROMPT_VERSION
from engine.answering.qualification import ROUTER, Measurement, record_measurement
from engine.answering.retrieval import Retriever
from engine.answering.retrieval.results import RetrievedPassage
from engine.errors import ModelUnavailable
from engine.events import (
    AnswerEvent,
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
from engine.protocols import ChatModel, Embedder
from engine.safety.exemplars import load_bank
from tests.support.clinic_corpus import (
    RecordingEmbedder,
    answer_rows,
    chunk_texts,
    fake_settings,
    ingest,
    write_corpus,
)
from tests.support.fake_chat import FakeChat, Reply
from tests.support.fake_embedder import FakeEmbedder, RaisingEmbedder
from tests.support.fake_ollama import DEFAULT_MODEL, FakeOllama, Script

FLU = "How much does the flu vaccine cost?"
PHONE = "What number do I call for test results?"
EMERGENCY = "I have crushing chest pain and cannot breathe"
TWO_TOPICS = "How much do the flu vaccine and a private sick note cost?"
CLINICAL = "Should I stop taking my warfarin before the operation?"


@pytest.fixture
def fake(settings: Settings, db: Database, tmp_path: Path) -> Settings:
    configured = fake_settings(settings)
    ingest(db, configured, write_corpus(tmp_path / "knowledge"))
    return configured


def ask(
    db: Database,
    settings: Settings,
    question: str,
    *,
    chat: ChatModel | None = None,
    embedder: Embedder | None = None,
    audience: str = "public",
    history: Sequence[Turn] = (),
) -> list[AnswerEvent]:
    assistant = Assistant(
        db, embedder or FakeEmbedder(), settings, audience=audience, chat=chat, channel="test"
    )
    return list(assistant.answer(question, history))


def done(events: list[AnswerEvent]) -> DoneEvent:
    assert isinstance(events[-1], DoneEvent), events
    assert sum(isinstance(e, DoneEvent) for e in events) == 1
    return events[-1]


def shown(events: list[AnswerEvent]) -> str:
    """What the bubble shows at the end: tokens, with a replace starting it over."""
    text = ""
    for event in events:
        if isinstance(event, TokenEvent):
            text += event.text
        elif isinstance(event, ReplaceEvent):
            text = event.text
    return text


def offered(db: Database, settings: Settings, question: str) -> list[RetrievedPassage]:
    embedder = FakeEmbedder()
    return Retriever(db, settings).search(embedder.embed_query(question), question, "public")


def number_of(passages: list[RetrievedPassage], heading: str) -> int:
    return next(n for n, p in enumerate(passages, start=1) if p.heading_path == heading)


# -- fixed routes: no model, no embedder -------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [EMERGENCY, "my husband has collapsed and is not breathing", "I want to kill myself"],
)
def test_emergency_is_the_constant_and_nothing_else(
    db: Database, fake: Settings, question: str
) -> None:
    events = ask(db, fake, question, chat=FakeChat.raising(), embedder=RaisingEmbedder())
    assert len(events) == 1, "no status, no token before the emergency text"
    final = done(events)
    assert final.text == fake.texts.emergency
    assert (final.route, final.outcome, final.citations) == (Route.EMERGENCY, Outcome.EMERGENCY, ())
    assert answer_rows(db)[-1].outcome == "emergency"


def test_clinical_question_gets_the_referral_without_retrieval(
    db: Database, fake: Settings
) -> None:
    events = ask(db, fake, CLINICAL, chat=FakeChat.raising(), embedder=RaisingEmbedder())
    assert events == [done(events)]
    assert done(events).text == fake.texts.clinical
    assert done(events).outcome is Outcome.CLINICAL


@pytest.mark.parametrize(
    ("audience", "attribute"), [("public", "booking"), ("staff", "staff_booking")]
)
def test_appointment_request_gets_the_booking_sentence(
    db: Database, fake: Settings, audience: str, attribute: str
) -> None:
    events = ask(
        db,
        fake,
        "I want to book an appointment",
        chat=FakeChat.raising(),
        embedder=RaisingEmbedder(),
        audience=audience,
    )
    assert done(events).text == getattr(fake.texts, attribute)
    assert done(events).outcome is Outcome.APPOINTMENT


def test_nothing_above_the_floor_is_the_refusal_without_a_model_call(
    db: Database, fake: Settings
) -> None:
    events = ask(db, fake, "What is the capital of Mongolia?", chat=FakeChat.raising())
    assert events[0] == StatusEvent(SEARCHING)
    final = done(events)
    assert final.text == fake.texts.refusal
    assert final.outcome is Outcome.NO_ANSWER
    assert not any(isinstance(e, TokenEvent) for e in events)
    row = answer_rows(db)[-1]
    assert (row.outcome, row.shown_text, row.citations) == ("no_answer", fake.texts.refusal, [])


def test_staff_get_their_own_i_dont_know_never_ask_at_reception(
    db: Database, fake: Settings
) -> None:
    final = done(ask(db, fake, "What is the capital of Mongolia?", audience="staff"))
    assert final.outcome is Outcome.NO_ANSWER
    assert final.text == fake.texts.staff_refusal
    assert "reception" not in final.text.lower()
    public = done(ask(db, fake, "What is the capital of Mongolia?"))
    assert public.text == fake.texts.refusal


def test_a_staff_model_reply_of_the_staff_refusal_is_no_answer(
    db: Database, fake: Settings
) -> None:
    chat = FakeChat().queue(fake.texts.staff_refusal)
    final = done(ask(db, fake, FLU, chat=chat, audience="staff"))
    assert final.outcome is Outcome.NO_ANSWER and final.text == fake.texts.staff_refusal
    assert fake.texts.staff_refusal in str(chat.calls[-1])  # the prompt states the staff sentence


# -- generated answers and the guard -----------------------------------------------------------


def test_cited_answer_streams_in_order_and_cites_only_what_it_cited(
    db: Database, fake: Settings
) -> None:
    passages = offered(db, fake, TWO_TOPICS)
    assert len(passages) >= 2, "the test needs an uncited passage on offer"
    n = number_of(passages, "Fees and payment > Vaccinations")
    reply = f"The flu vaccine costs £15 for adults [{n}]. It is free for children under 12 [{n}]."
    chat = FakeChat().queue(reply)

    events = ask(db, fake, TWO_TOPICS, chat=chat)

    assert events[:2] == [StatusEvent(SEARCHING), StatusEvent(WRITING)]
    tokens = [e.text for e in events if isinstance(e, TokenEvent)]
    assert len(tokens) > 5 and "".join(tokens) == reply
    assert not any(isinstance(e, ReplaceEvent) for e in events)
    final = done(events)
    assert (final.outcome, final.text, final.model) == (Outcome.ANSWERED, reply, chat.model)
    assert [(c.number, c.heading_path) for c in final.citations] == [
        (n, "Fees and payment > Vaccinations")
    ]
    assert final.prompt_tokens == 120 and final.completion_tokens == len(tokens)
    assert chat.closed_streams == 1

    row = answer_rows(db)[-1]
    assert row.outcome == "answered" and row.shown_text == reply
    assert row.prompt_version == PROMPT_VERSION
    assert [c["heading_path"] for c in row.citations] == ["Fees and payment > Vaccinations"]
    assert row.citations[0]["number"] == n
    assert "£15" in row.citations[0]["excerpt"]


def test_the_prompt_offers_numbered_passages_and_the_refusal(db: Database, fake: Settings) -> None:
    chat = FakeChat().queue(fake.texts.refusal)
    ask(db, fake, FLU, chat=chat)
    messages = chat.calls[0]
    user = messages[-1]["content"]
    assert messages[0]["role"] == "system" and fake.texts.refusal in messages[0]["content"]
    assert "CLINIC DOCUMENTS:" in user
    n = number_of(offered(db, fake, FLU), "Fees and payment > Vaccinations")
    assert f"\n[{n}] Fees and payment > Vaccinations (reviewed 2026-01-15)\n" in user
    assert re.search(r"^\[1\] [^\n]+ > [^\n]+$", user, re.MULTILINE), user
    assert user.rstrip().endswith(f"QUESTION: {FLU}")
    assert sum(m["content"].count(fake.texts.refusal) for m in messages) == 1
    assert "Front desk" not in user  # a public question is never offered staff text


def _assert_verbatim_quotes(db: Database, final: DoneEvent) -> None:
    """Every quote is a sentence of a stored passage, cited by a number whose passage holds it."""
    quotes = re.findall("\u201c(.*?)\u201d \\[(\\d+)\\]", final.text, re.DOTALL)
    assert quotes and len(quotes) <= 3, final.text
    by_number = {c.number: " ".join(c.text.split()) for c in final.citations}
    stored = [" ".join(t.split()) for t in chunk_texts(db)]
    for quote, number in quotes:
        assert quote in by_number[int(number)], (quote, number)
        assert any(quote in chunk for chunk in stored), quote
    assert "|" not in final.text


def test_uncited_answer_is_replaced_by_quoted_sentences_and_logged(
    db: Database, fake: Settings
) -> None:
    reply = "The flu vaccine costs £15 for adults."
    events = ask(db, fake, FLU, chat=FakeChat().queue(reply))
    final = done(events)
    replace = [e for e in events if isinstance(e, ReplaceEvent)]
    assert replace == [ReplaceEvent(final.text, "no_citation")]
    assert final.outcome is Outcome.GUARDED
    assert final.text != fake.texts.refusal and "\u201cThe flu vaccine costs £15" in final.text
    _assert_verbatim_quotes(db, final)
    assert shown(events) == final.text
    row = answer_rows(db)[-1]
    assert (row.outcome, row.shown_text) == ("guarded", final.text)
    assert (row.original_text, row.guard_reason) == (reply, "no_citation")
    assert [c["heading_path"] for c in row.citations] == [c.heading_path for c in final.citations]


def test_citation_never_offered_is_removed_from_the_shown_text(
    db: Database, fake: Settings
) -> None:
    passages = offered(db, fake, FLU)
    assert len(passages) < 7
    n = number_of(passages, "Fees and payment > Vaccinations")
    reply = f"The flu vaccine costs £15 for adults [{n}][7]."
    events = ask(db, fake, FLU, chat=FakeChat().queue(reply))
    final = done(events)
    assert final.outcome is Outcome.ANSWERED
    assert "[7]" not in final.text and f"[{n}]" in final.text
    assert [e for e in events if isinstance(e, ReplaceEvent)] == [
        ReplaceEvent(final.text, "invalid_citations_removed")
    ]
    assert [c.number for c in final.citations] == [n]
    assert answer_rows(db)[-1].original_text == reply


def test_only_invalid_citations_is_replaced_by_quotes(db: Database, fake: Settings) -> None:
    events = ask(db, fake, FLU, chat=FakeChat().queue("The flu vaccine costs £15 [7]."))
    assert done(events).outcome is Outcome.GUARDED
    assert "[7]" not in done(events).text
    _assert_verbatim_quotes(db, done(events))
    assert answer_rows(db)[-1].original_text == "The flu vaccine costs £15 [7]."


def test_a_tidied_phone_number_is_refused(db: Database, fake: Settings) -> None:
    passages = offered(db, fake, PHONE)
    n = number_of(passages, "Opening hours and contact > Telephone")
    events = ask(db, fake, PHONE, chat=FakeChat().queue(f"Call reception on 020 7946 0010 [{n}]."))
    assert done(events).outcome is Outcome.GUARDED
    # The model's wrong number is gone; the sentences shown instead are the documents' own.
    assert "0010" not in done(events).text
    _assert_verbatim_quotes(db, done(events))
    assert answer_rows(db)[-1].guard_reason.startswith("unverified_detail")
    # ...while the number exactly as written is shown.
    good = f"Call reception on 020 7946 0100 [{n}]."
    assert done(ask(db, fake, PHONE, chat=FakeChat().queue(good))).text == good


def test_model_replying_exactly_the_refusal_is_no_answer(db: Database, fake: Settings) -> None:
    events = ask(db, fake, FLU, chat=FakeChat().queue(fake.texts.refusal))
    assert not any(isinstance(e, ReplaceEvent) for e in events)
    assert (done(events).outcome, done(events).text) == (Outcome.NO_ANSWER, fake.texts.refusal)
    assert done(events).citations == ()


def test_refusal_with_other_quotes_is_replaced_by_the_exact_sentence(
    db: Database, fake: Settings
) -> None:
    quoted = "\u201c" + fake.texts.refusal.replace("'", "\u2019") + "\u201d  "
    events = ask(db, fake, FLU, chat=FakeChat().queue(quoted))
    assert [e for e in events if isinstance(e, ReplaceEvent)] == [
        ReplaceEvent(fake.texts.refusal, "refusal")
    ]
    assert done(events).outcome is Outcome.NO_ANSWER


def test_model_failure_mid_stream_never_leaves_the_partial_text(
    db: Database, fake: Settings
) -> None:
    failing = Reply(tokens=("Adults pay ", "nothing "), error=ModelUnavailable("cut off"))
    events = ask(db, fake, FLU, chat=FakeChat().queue(failing))
    final = done(events)
    assert final.outcome is Outcome.EXTRACTIVE
    assert shown(events) == final.text
    assert "Adults pay" not in final.text
    assert isinstance(events[-2], ReplaceEvent) and events[-2].reason == "model_failed"
    row = answer_rows(db)[-1]
    assert row.original_text == "Adults pay nothing " and row.guard_reason.startswith(
        "model_failed"
    )


# -- extractive mode ---------------------------------------------------------------------------


def _quotes(text: str) -> list[str]:
    return re.findall("\u201c(.*?)\u201d", text, re.DOTALL)


@pytest.mark.parametrize("mode", ["setting", "no_chat_model"])
def test_extractive_mode_quotes_passages_word_for_word(
    db: Database, fake: Settings, mode: str
) -> None:
    if mode == "setting":
        configured = fake.replace(ollama=dataclasses.replace(fake.ollama, generation="extractive"))
        chat: ChatModel | None = FakeChat.raising()
    else:
        configured, chat = fake, None
    events = ask(db, configured, FLU, chat=chat)
    assert StatusEvent(EXTRACTIVE_STATUS) in events
    final = done(events)
    assert final.outcome is Outcome.EXTRACTIVE
    _assert_verbatim_quotes(db, final)
    assert "\u201cThe flu vaccine costs £15 for adults.\u201d [1]" in final.text
    # The whole passage is one tap away: the citation holds it, not the bubble.
    assert "## Vaccinations" not in final.text and final.citations[0].text.startswith("The flu")
    assert shown(events) == final.text
    assert answer_rows(db)[-1].prompt_version is None  # no prompt was sent


# -- follow-ups --------------------------------------------------------------------------------


def test_follow_up_is_searched_with_the_previous_question(db: Database, fake: Settings) -> None:
    embedder = RecordingEmbedder()
    history = [Turn(FLU, "The flu vaccine costs £15 for adults [1].")]
    events = ask(db, fake, "and for children?", embedder=embedder, history=history)
    # The joined text (searched), then the question it follows (its emergency would carry).
    assert questions_embedded(embedder) == [f"{FLU}\nand for children?", FLU]
    final = done(events)
    assert final.outcome is Outcome.EXTRACTIVE
    assert final.citations[0].heading_path == "Fees and payment > Vaccinations"


def test_follow_up_to_a_clinical_question_is_refused(db: Database, fake: Settings) -> None:
    history = [Turn(CLINICAL, fake.texts.clinical)]
    events = ask(
        db,
        fake,
        "and for my son?",
        chat=FakeChat.raising(),
        embedder=RaisingEmbedder(),
        history=history,
    )
    assert events == [done(events)]
    assert (done(events).outcome, done(events).text) == (Outcome.CLINICAL, fake.texts.clinical)


BANK_TEXTS = {e.text for e in load_bank()}


def questions_embedded(embedder: RecordingEmbedder) -> list[str]:
    """What was embedded for the question (the exemplar bank is embedded once per model)."""
    return [q for q in embedder.queries if q not in BANK_TEXTS]


def _answer(events: list[AnswerEvent]) -> tuple[Route, Outcome, list[str]]:
    final = done(events)
    return final.route, final.outcome, [c.heading_path for c in final.citations]


@pytest.mark.parametrize(
    "earlier",
    [
        [CLINICAL],
        [EMERGENCY],
        ["Blood tests"],
        [EMERGENCY, "what should I do?"],  # the last patient's conversation, then the next one
    ],
)
def test_a_standalone_question_is_answered_exactly_as_alone(
    db: Database, fake: Settings, earlier: list[str]
) -> None:
    question = "Where is the free parking for patients?"
    alone = _answer(ask(db, fake, question))
    history = [Turn(q, "...") for q in earlier]
    embedder = RecordingEmbedder()
    assert _answer(ask(db, fake, question, history=history, embedder=embedder)) == alone
    assert alone[:2] == (Route.INFORMATION, Outcome.EXTRACTIVE)
    assert questions_embedded(embedder) == [question]  # searched as itself, embedded once


def test_what_should_i_do_after_chest_pain_is_still_an_emergency(
    db: Database, fake: Settings
) -> None:
    history = [Turn(EMERGENCY, fake.texts.emergency)]
    events = ask(db, fake, "what should I do?", history=history, embedder=RaisingEmbedder())
    assert (done(events).outcome, done(events).text) == (Outcome.EMERGENCY, fake.texts.emergency)
    alone = ask(db, fake, "what should I do?")
    assert done(alone).outcome is not Outcome.EMERGENCY


def test_a_clinical_question_close_to_an_emergency_phrasing_is_raised(
    db: Database, fake: Settings
) -> None:
    from engine.safety.exemplars import Exemplar, ExemplarBank

    question = "I took a few extra sleeping pills"  # the rules alone say clinical (a medicine)
    bank = ExemplarBank([Exemplar(Route.EMERGENCY, "overdose", "took a few extra sleeping pills")])
    assistant = Assistant(
        db, FakeEmbedder(), fake, audience="public", channel="test", exemplars=bank
    )
    final = done(list(assistant.answer(question)))
    assert (final.outcome, final.text) == (Outcome.EMERGENCY, fake.texts.emergency)
    with db.session() as session:
        reason = session.execute(sa.text("SELECT route_reason FROM answers ORDER BY id DESC"))
        assert str(reason.first()[0]).startswith("exemplar:emergency/overdose")


def measured_router(db: Database, model: str = "fake-chat:latest", rate: float = 0.0) -> None:
    """A router measurement at ``rate`` false escalation: the engine uses a router only then."""
    record_measurement(db, Measurement(ROUTER, "ollama", model, questions=50, rate=rate))


def test_model_router_can_only_make_it_safer(db: Database, fake: Settings) -> None:
    routed = fake.replace(ollama=dataclasses.replace(fake.ollama, router=True))
    measured_router(db)
    chat = FakeChat()
    chat.json_replies.append({"route": "clinical_advice", "standalone_question": FLU})
    events = ask(db, routed, FLU, chat=chat, embedder=RaisingEmbedder())
    assert done(events).outcome is Outcome.CLINICAL

    chat = FakeChat()
    chat.json_replies.append({"route": "information", "standalone_question": FLU})
    events = ask(db, routed, CLINICAL, chat=chat, embedder=RaisingEmbedder())
    assert done(events).outcome is Outcome.CLINICAL

    chat = FakeChat().queue(fake.texts.refusal)
    chat.json_replies.append(TimeoutError("router timed out"))
    events = ask(db, routed, FLU, chat=chat)
    assert done(events).outcome is Outcome.NO_ANSWER  # the normal path, no error


def test_a_model_rewrite_that_is_clinical_is_refused(db: Database, fake: Settings) -> None:
    # The model calls it information, but its stand-alone rewrite asks for personal advice: the
    # rewrite is routed too, and the safer outcome wins before any retrieval.
    routed = fake.replace(ollama=dataclasses.replace(fake.ollama, router=True))
    measured_router(db)
    chat = FakeChat()
    chat.json_replies.append(
        {"route": "information", "standalone_question": "Should I stop my warfarin before it?"}
    )
    events = ask(
        db,
        routed,
        "and before the colonoscopy?",
        chat=chat,
        embedder=RaisingEmbedder(),
        history=[Turn(FLU, "The clinic's documents say: ...")],
    )
    assert done(events).outcome is Outcome.CLINICAL
    assert chat.calls == []  # no generation was asked for


def test_every_answer_is_logged_with_its_channel_and_audience(db: Database, fake: Settings) -> None:
    ask(db, fake, EMERGENCY, audience="staff")
    ask(db, fake, FLU, audience="nonsense")
    rows = answer_rows(db)
    assert [(r.channel, r.audience, r.route) for r in rows] == [
        ("test", "staff", "emergency"),
        ("test", "public", "information"),
    ]
    numbers = [c["number"] for c in rows[1].citations]
    assert numbers and numbers == list(range(1, len(numbers) + 1))


# -- the real OllamaChat against a fake Ollama server ------------------------------------------


@pytest.fixture
def server() -> Iterator[FakeOllama]:
    with FakeOllama() as fake_server:
        yield fake_server


def ollama_chat(url: str, model: str = DEFAULT_MODEL, read_timeout: float = 10.0) -> OllamaChat:
    return OllamaChat(
        url,
        model,
        num_ctx=8192,
        keep_alive="5m",
        connect_timeout=2.0,
        read_timeout=read_timeout,
        temperature=0.1,
    )


def cited_flu(db: Database, settings: Settings) -> str:
    n = number_of(offered(db, settings, FLU), "Fees and payment > Vaccinations")
    return f"The flu vaccine costs £15 for adults [{n}]."


def test_real_client_streams_a_cited_answer(
    db: Database, fake: Settings, server: FakeOllama
) -> None:
    reply = cited_flu(db, fake)
    server.enqueue(Script.reply(reply))
    with ollama_chat(server.url) as chat:
        events = ask(db, fake, FLU, chat=chat)
    final = done(events)
    assert (final.outcome, final.text) == (Outcome.ANSWERED, reply)
    assert "".join(e.text for e in events if isinstance(e, TokenEvent)) == reply
    body = server.chat_bodies()[0]
    assert body["stream"] is True and body["options"]["num_ctx"] == 8192
    assert "CLINIC DOCUMENTS:" in body["messages"][-1]["content"]


def test_connection_refused_falls_back_to_extractive(db: Database, fake: Settings) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with ollama_chat(f"http://127.0.0.1:{port}") as chat:
        events = ask(db, fake, FLU, chat=chat)
    assert StatusEvent(EXTRACTIVE_STATUS) in events
    assert not any(isinstance(e, ReplaceEvent) for e in events)
    final = done(events)
    assert final.outcome is Outcome.EXTRACTIVE and _quotes(final.text)
    assert shown(events) == final.text
    assert "Cannot connect" in answer_rows(db)[-1].guard_reason


@pytest.mark.parametrize(
    "script",
    [
        Script(tokens=("Adults ", "pay ", "nothing ", "at ", "all "), failure="drop", fail_after=3),
        Script(tokens=("Adults ", "pay ", "nothing ", "at ", "all "), failure="cut", fail_after=3),
        Script(tokens=("Adults ", "pay ", "nothing ", "at"), failure="error_line", fail_after=2),
        Script(tokens=("Adults ", "pay ", "nothing ", "at ", "all [1]"), done_reason="length"),
    ],
    ids=["drop", "cut", "error_line", "length"],
)
def test_stream_failure_after_tokens_replaces_the_partial_text(
    db: Database, fake: Settings, server: FakeOllama, script: Script
) -> None:
    server.enqueue(script)
    with ollama_chat(server.url) as chat:
        events = ask(db, fake, FLU, chat=chat)
    tokens = [e for e in events if isinstance(e, TokenEvent)]
    assert tokens, "some tokens were shown before the failure"
    final = done(events)
    assert final.outcome is Outcome.EXTRACTIVE
    replace = events[-2]
    assert isinstance(replace, ReplaceEvent) and replace.reason == "model_failed"
    assert replace.text == final.text == shown(events)
    partial = "".join(t.text for t in tokens)
    assert partial not in final.text
    _assert_verbatim_quotes(db, final)


def limited(settings: Settings, url: str, num_predict: int, max_chars: int) -> Settings:
    ollama = dataclasses.replace(
        settings.ollama,
        hosts=(url,),
        model=DEFAULT_MODEL,
        num_predict=num_predict,
        max_answer_chars=max_chars,
    )
    return settings.replace(ollama=ollama)


RUNAWAY = ("The flu vaccine is given in the autumn and then again " * 80).split(" ")


def test_a_runaway_reply_stops_at_the_token_limit_and_falls_back(
    db: Database, fake: Settings, server: FakeOllama
) -> None:
    configured = limited(fake, server.url, num_predict=40, max_chars=2000)
    server.enqueue(Script(tokens=tuple(w + " " for w in RUNAWAY)))
    with OllamaChat.from_settings(configured) as chat:
        events = ask(db, configured, FLU, chat=chat)
    assert server.chat_bodies()[0]["options"]["num_predict"] == 40
    tokens = [e for e in events if isinstance(e, TokenEvent)]
    assert len(tokens) == 40  # the server stopped there, as Ollama does
    final = done(events)
    assert final.outcome is Outcome.EXTRACTIVE and _quotes(final.text)
    assert events[-2] == ReplaceEvent(final.text, "model_failed")
    assert "length limit" in answer_rows(db)[-1].guard_reason


def test_a_runaway_reply_from_a_server_ignoring_the_limit_is_cut_at_the_character_cap(
    db: Database, fake: Settings, server: FakeOllama
) -> None:
    configured = limited(fake, server.url, num_predict=40, max_chars=300)
    server.enqueue(
        Script(tokens=tuple(w + " " for w in RUNAWAY), delay=0.005, honours_num_predict=False)
    )
    with OllamaChat.from_settings(configured) as chat:
        events = ask(db, configured, FLU, chat=chat)
        # The HTTP stream is released at once, not read to the end of the runaway reply.
        assert server.client_disconnected.wait(timeout=2.0)
    streamed = "".join(e.text for e in events if isinstance(e, TokenEvent))
    assert 250 < len(streamed) <= 300
    final = done(events)
    assert final.outcome is Outcome.EXTRACTIVE and _quotes(final.text)
    assert events[-2] == ReplaceEvent(final.text, "model_failed")
    row = answer_rows(db)[-1]
    assert "300 characters" in row.guard_reason and row.original_text == streamed


def test_unknown_model_falls_back_to_extractive(
    db: Database, fake: Settings, server: FakeOllama
) -> None:
    with ollama_chat(server.url, model="not-pulled:7b") as chat:
        events = ask(db, fake, FLU, chat=chat)
    final = done(events)
    assert final.outcome is Outcome.EXTRACTIVE
    assert StatusEvent(EXTRACTIVE_STATUS) in events
    assert "ollama pull not-pulled:7b" in answer_rows(db)[-1].guard_reason


def test_slow_tokens_within_the_timeout_are_fine(
    db: Database, fake: Settings, server: FakeOllama
) -> None:
    reply = cited_flu(db, fake)
    server.enqueue(Script.reply(reply, delay=0.05, first_delay=0.2))
    with ollama_chat(server.url, read_timeout=5.0) as chat:
        events = ask(db, fake, FLU, chat=chat)
    assert (done(events).outcome, done(events).text) == (Outcome.ANSWERED, reply)
    assert done(events).timings["first_token"] >= 0.2


def test_the_answer_log_keeps_citation_snapshots_as_json(db: Database, fake: Settings) -> None:
    n = number_of(offered(db, fake, FLU), "Fees and payment > Vaccinations")
    ask(db, fake, FLU, chat=FakeChat().queue(f"Adults pay £15 [{n}]."))
    snapshot = answer_rows(db)[-1].citations[0]
    assert set(snapshot) == {
        "number",
        "document_slug",
        "document_title",
        "heading_path",
        "excerpt",
        "similarity",
    }
    assert snapshot["document_slug"] == "fees"
    json.dumps(snapshot)
