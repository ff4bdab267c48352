"""The real ollama client, through engine.answering.ollama_chat, against the fake Ollama server."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.answering.ollama_chat import OllamaChat, OllamaEmbedder
from engine.errors import ConfigError, EmbeddingUnavailable, ModelUnavailable
from engine.ops.settings import OllamaSettings, Settings, load_settings
from engine.protocols import ChatDelta, ChatModel, Embedder
from tests.support.fake_ollama import (
    CLIENT_DISCONNECTED,
    COMPLETED,
    DEFAULT_EMBED_MODEL,
    DEFAULT_MODEL,
    FakeOllama,
    Script,
)

MESSAGES = [
    {"role": "system", "content": "Answer only from the passages."},
    {"role": "user", "content": "What should I bring to my first appointment?"},
]


@pytest.fixture
def server() -> Iterator[FakeOllama]:
    with FakeOllama() as fake:
        yield fake


def make_chat(host: str, *, model: str = DEFAULT_MODEL, read_timeout: float = 2.0) -> OllamaChat:
    return OllamaChat(
        host,
        model,
        num_ctx=8192,
        keep_alive="30m",
        connect_timeout=1.0,
        read_timeout=read_timeout,
        temperature=0.1,
    )


@pytest.fixture
def chat(server: FakeOllama) -> Iterator[OllamaChat]:
    with make_chat(server.url) as model:
        yield model


def unavailable(chat: OllamaChat) -> str:
    """Consume a stream that must fail; return the error message."""
    with pytest.raises(ModelUnavailable) as caught:
        list(chat.stream(MESSAGES))
    return str(caught.value)


def free_port() -> int:
    """A port nobody listens on: bind it, then let it go."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_implements_the_protocols(chat: OllamaChat, server: FakeOllama) -> None:
    model: ChatModel = chat
    with OllamaEmbedder(server.url, DEFAULT_EMBED_MODEL) as embedder:
        seam: Embedder = embedder
        assert seam.model_name == f"ollama/{DEFAULT_EMBED_MODEL}"
    assert model.model == DEFAULT_MODEL


# -- the normal path ---------------------------------------------------------------------------
def test_stream_yields_tokens_in_order_then_the_counts(
    chat: OllamaChat, server: FakeOllama
) -> None:
    server.enqueue(Script(tokens=["Bring ", "your ", "referral ", "letter [1]."]))

    deltas = list(chat.stream(MESSAGES))

    assert "".join(d.text for d in deltas) == "Bring your referral letter [1]."
    assert [d.done for d in deltas] == [False, False, False, False, True]
    final = deltas[-1]
    assert final == ChatDelta(
        text="", done=True, done_reason="stop", prompt_tokens=13, completion_tokens=4
    )
    assert server.outcomes == [COMPLETED]


def test_the_request_carries_model_messages_options_and_keep_alive(
    chat: OllamaChat, server: FakeOllama
) -> None:
    list(chat.stream(MESSAGES))

    (body,) = server.chat_bodies()
    assert body["model"] == DEFAULT_MODEL
    assert body["messages"] == MESSAGES
    assert body["stream"] is True
    assert body["options"] == {"num_ctx": 8192, "temperature": 0.1}
    assert body["keep_alive"] == "30m"
    assert "format" not in body


def test_consecutive_answers_reuse_one_connection(chat: OllamaChat, server: FakeOllama) -> None:
    server.enqueue(Script(tokens=["first"]), Script(tokens=["second"]))
    assert "".join(d.text for d in chat.stream(MESSAGES)) == "first"
    assert "".join(d.text for d in chat.stream(MESSAGES)) == "second"
    assert server.connections == 1  # no new TCP setup per question


def test_from_settings_uses_the_first_host_and_the_ollama_section(
    server: FakeOllama, tmp_path: Path
) -> None:
    settings = Settings(
        data_dir=tmp_path,
        ollama=OllamaSettings(
            hosts=(server.url, "http://127.0.0.1:9"),
            model=DEFAULT_MODEL,
            num_ctx=4096,
            keep_alive="5m",
            temperature=0.3,
            num_predict=120,
        ),
    )
    with OllamaChat.from_settings(settings) as chat:
        list(chat.stream(MESSAGES))

    (body,) = server.chat_bodies()
    assert body["options"] == {"num_ctx": 4096, "temperature": 0.3, "num_predict": 120}
    assert body["keep_alive"] == "5m"


def test_from_settings_without_a_host_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="hosts"):
        OllamaChat.from_settings(Settings(data_dir=tmp_path))


def test_slow_tokens_within_the_read_timeout_succeed(server: FakeOllama) -> None:
    server.enqueue(Script(tokens=["a", "b", "c", "d"], delay=0.15))
    with make_chat(server.url, read_timeout=0.6) as chat:
        deltas = list(chat.stream(MESSAGES))
    assert "".join(d.text for d in deltas) == "abcd"
    assert deltas[-1].done


# -- every failure becomes ModelUnavailable ------------------------------------------------------
def test_connection_refused_says_the_server_cannot_be_reached() -> None:
    port = free_port()
    with make_chat(f"http://127.0.0.1:{port}") as chat:
        message = unavailable(chat)
        assert "Cannot connect" in message
        assert f"127.0.0.1:{port}" in message
        with pytest.raises(ModelUnavailable, match="Cannot connect"):
            chat.complete_json(MESSAGES, {"type": "object"}, timeout=1.0)
        assert chat.is_reachable(timeout=0.5) is False
        with pytest.raises(ModelUnavailable, match="Cannot connect"):
            chat.has_model()


def test_server_drop_mid_stream(chat: OllamaChat, server: FakeOllama) -> None:
    server.enqueue(Script(tokens=["one ", "two ", "three"], failure="drop", fail_after=2))
    received: list[str] = []
    with pytest.raises(ModelUnavailable, match="cut off"):
        for delta in chat.stream(MESSAGES):
            received.append(delta.text)
    assert received == ["one ", "two "]


def test_stream_that_ends_without_done_is_not_an_answer(
    chat: OllamaChat, server: FakeOllama
) -> None:
    server.enqueue(Script(tokens=["Parking is ", "free"], failure="cut", fail_after=2))
    received: list[str] = []
    with pytest.raises(ModelUnavailable, match="stopped before the answer was complete"):
        for delta in chat.stream(MESSAGES):
            received.append(delta.text)
    assert received == ["Parking is ", "free"]


def test_error_line_mid_stream(chat: OllamaChat, server: FakeOllama) -> None:
    server.enqueue(Script(failure="error_line", error="llama runner process has terminated"))
    assert "reported an error while answering: llama runner process has terminated" in (
        unavailable(chat)
    )


def test_unknown_model_says_how_to_pull_it(server: FakeOllama) -> None:
    with make_chat(server.url, model="mistral:7b") as chat:
        message = unavailable(chat)
        assert message == (
            f"The model mistral:7b is not on the model server at {server.url}: "
            "run `ollama pull mistral:7b` on the GPU box."
        )
        with pytest.raises(ModelUnavailable, match="ollama pull mistral:7b"):
            chat.complete_json(MESSAGES, {"type": "object"}, timeout=1.0)


def test_http_500(chat: OllamaChat, server: FakeOllama) -> None:
    server.enqueue(Script(failure="http_error", status=500, error="out of memory"))
    assert unavailable(chat).endswith("answered with HTTP 500: out of memory")


def test_hang_past_the_read_timeout_fails_fast(server: FakeOllama) -> None:
    server.enqueue(Script(tokens=["Opening ", "hours"], failure="hang", fail_after=1))
    with make_chat(server.url, read_timeout=0.3) as chat:
        started = time.perf_counter()
        message = unavailable(chat)
        elapsed = time.perf_counter() - started
    assert "sent nothing for 0.3 s" in message
    assert elapsed < 1.5


def test_messages_never_contain_the_prompt_or_a_traceback(
    chat: OllamaChat, server: FakeOllama
) -> None:
    server.enqueue(
        Script(failure="drop", fail_after=1),
        Script(failure="cut", fail_after=1),
        Script(failure="error_line"),
        Script(failure="http_error"),
    )
    for _ in range(4):
        message = unavailable(chat)
        assert "appointment" not in message
        assert "Traceback" not in message
        assert "\n" not in message


def test_credentials_in_the_host_are_not_shown() -> None:
    port = free_port()
    with make_chat(f"http://admin:s3cret@127.0.0.1:{port}") as chat:
        message = unavailable(chat)
    assert "s3cret" not in message
    assert f"http://127.0.0.1:{port}" in message


# -- closing early releases the HTTP stream ------------------------------------------------------
def test_closing_the_generator_closes_the_http_stream(chat: OllamaChat, server: FakeOllama) -> None:
    server.enqueue(Script(tokens=["word "] * 400, delay=0.01))
    stream = chat.stream(MESSAGES)
    assert next(stream).text == "word "

    stream.close()

    # The server notices within a token or two; had the stream stayed open it would run ~4 s.
    assert server.client_disconnected.wait(timeout=1.5)
    assert server.outcomes == [CLIENT_DISCONNECTED]


def test_the_model_is_usable_again_after_an_early_close(
    chat: OllamaChat, server: FakeOllama
) -> None:
    server.enqueue(Script(tokens=["x"] * 100, delay=0.01), Script(tokens=["again"]))
    stream = chat.stream(MESSAGES)
    next(stream)
    stream.close()
    assert "".join(d.text for d in chat.stream(MESSAGES)) == "again"


# -- JSON completions ----------------------------------------------------------------------------
SCHEMA = {
    "type": "object",
    "properties": {"route": {"type": "string"}, "query": {"type": "string"}},
    "required": ["route", "query"],
}


def test_complete_json_sends_the_schema_and_returns_the_object(
    chat: OllamaChat, server: FakeOllama
) -> None:
    server.enqueue(Script(tokens=['{"route": "information", ', '"query": "parking"}']))

    assert chat.complete_json(MESSAGES, SCHEMA, timeout=1.0) == {
        "route": "information",
        "query": "parking",
    }
    (body,) = server.chat_bodies()
    assert body["format"] == SCHEMA
    assert body["stream"] is False
    assert body["options"] == {"num_ctx": 8192, "temperature": 0.0}


@pytest.mark.parametrize("reply", ['{"route": "inform', "Sure! Here is the JSON", '["a", "b"]'])
def test_complete_json_with_bad_json_is_unavailable(
    chat: OllamaChat, server: FakeOllama, reply: str
) -> None:
    server.enqueue(Script(tokens=[reply]))
    with pytest.raises(ModelUnavailable, match="did not reply with the JSON object"):
        chat.complete_json(MESSAGES, SCHEMA, timeout=1.0)


def test_complete_json_times_out_on_its_own_timeout(chat: OllamaChat, server: FakeOllama) -> None:
    server.enqueue(Script(failure="hang"))
    started = time.perf_counter()
    with pytest.raises(ModelUnavailable, match=r"sent nothing for 0\.2 s"):
        chat.complete_json(MESSAGES, SCHEMA, timeout=0.2)
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize("failure", ["drop", "cut", "error_line", "http_error"])
def test_complete_json_failures_are_unavailable(
    chat: OllamaChat, server: FakeOllama, failure: str
) -> None:
    server.enqueue(Script(tokens=['{"route": "information"}'], failure=failure))  # type: ignore[arg-type]
    with pytest.raises(ModelUnavailable):
        chat.complete_json(MESSAGES, SCHEMA, timeout=1.0)


# -- doctor checks -------------------------------------------------------------------------------
def test_is_reachable_and_has_model(server: FakeOllama) -> None:
    with make_chat(server.url) as chat:
        assert chat.is_reachable(timeout=1.0) is True
        assert chat.has_model() is True
        assert DEFAULT_MODEL in chat.available_models()
    with make_chat(server.url, model="llama3.1:70b") as missing:
        assert missing.has_model() is False
    with make_chat(server.url, model="nomic-embed-text") as untagged:
        assert untagged.has_model() is True  # "x" means "x:latest", as in Ollama


# -- embeddings through Ollama -------------------------------------------------------------------
def test_embedder_prefixes_normalises_and_probes_the_dimension(server: FakeOllama) -> None:
    with OllamaEmbedder(server.url, "nomic-embed-text") as embedder:
        assert embedder.dimension == 8
        passages = embedder.embed_passages(["Parking is free.", "Bring your letter."])
        query = embedder.embed_query("parking")

    inputs = [r.body["input"] for r in server.requests if r.path == "/api/embed" and r.body]
    assert inputs[1:] == [
        ["search_document: Parking is free.", "search_document: Bring your letter."],
        ["search_query: parking"],
    ]
    for vector in [*passages, query]:
        assert len(vector) == 8
        assert abs(sum(v * v for v in vector) - 1.0) < 1e-9
    assert passages[0] == server.embedding("search_document: Parking is free.")


def test_embedder_failures_are_embedding_unavailable(server: FakeOllama) -> None:
    with (
        OllamaEmbedder(server.url, "all-minilm") as embedder,
        pytest.raises(EmbeddingUnavailable, match="ollama pull all-minilm"),
    ):
        embedder.embed_query("hours")


def test_the_token_limit_is_sent_by_default_and_can_come_from_the_environment(
    server: FakeOllama, tmp_path: Path
) -> None:
    env = {"CLINIC_OLLAMA_HOST": server.url, "CLINIC_OLLAMA_MODEL": DEFAULT_MODEL}
    default = load_settings(data_dir=tmp_path, environ=env)
    assert default.ollama.num_predict == 300  # five short sentences, with room to spare
    override = load_settings(data_dir=tmp_path, environ={**env, "CLINIC_OLLAMA_NUM_PREDICT": "80"})
    for settings in (default, override):
        with OllamaChat.from_settings(settings) as chat:
            list(chat.stream(MESSAGES))
    first, second = server.chat_bodies()
    assert first["options"]["num_predict"] == 300
    assert second["options"]["num_predict"] == 80


def test_a_reply_that_reaches_the_token_limit_ends_as_cut_off(
    chat: OllamaChat, server: FakeOllama
) -> None:
    chat.num_predict = 5
    server.enqueue(Script(tokens=["word "] * 50))
    deltas = list(chat.stream(MESSAGES))
    assert "".join(d.text for d in deltas) == "word " * 5
    assert deltas[-1].done and deltas[-1].done_reason == "length"


def test_no_token_limit_is_sent_when_it_is_zero_or_for_json(
    chat: OllamaChat, server: FakeOllama
) -> None:
    chat.num_predict = 0
    list(chat.stream(MESSAGES))
    chat.num_predict = 300
    server.enqueue(Script(tokens=['{"route": "information"}']))
    chat.complete_json(MESSAGES, {"type": "object"}, 2.0)
    stream_body, json_body = server.chat_bodies()
    assert "num_predict" not in stream_body["options"]
    assert "num_predict" not in json_body["options"]
