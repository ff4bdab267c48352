"""The official openai client, through engine.answering.openai_chat, against a fake
OpenAI-compatible server.

Every failure a patient could meet at the kiosk (server down, stream dropped or cut, an error
event, a model the server does not serve, a hang, a reply cut at the token limit) must surface
as ModelUnavailable, so the answer falls back to quoting the documents.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.answering.openai_chat import OpenAIChat
from engine.errors import ConfigError, ModelUnavailable
from engine.ops.service import build_chat
from engine.ops.settings import load_settings
from engine.protocols import ChatModel
from engine.safety import MODEL_ROUTER_SCHEMA
from tests.support.fake_openai import FAKE_OPENAI_MODEL, FakeOpenAI, Script

MESSAGES = [
    {"role": "system", "content": "Answer only from the passages. SECRET-PROMPT-TEXT"},
    {"role": "user", "content": "What should I bring to my first appointment?"},
]


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


def make_chat(
    base_url: str, *, model: str = FAKE_OPENAI_MODEL, read_timeout: float = 2.0, **kw: object
) -> OpenAIChat:
    return OpenAIChat(
        base_url,
        model,
        connect_timeout=1.0,
        read_timeout=read_timeout,
        temperature=0.1,
        **kw,  # type: ignore[arg-type]
    )


@pytest.fixture
def chat(server: FakeOpenAI) -> Iterator[OpenAIChat]:
    with make_chat(server.base_url) as model:
        yield model


def unavailable(chat: OpenAIChat) -> str:
    with pytest.raises(ModelUnavailable) as caught:
        list(chat.stream(MESSAGES))
    return str(caught.value)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_stream_yields_tokens_in_order_then_the_counts(
    chat: OpenAIChat, server: FakeOpenAI
) -> None:
    model: ChatModel = chat
    server.enqueue(Script.reply("Bring your appointment letter [1].", prompt_eval_count=321))
    deltas = list(model.stream(MESSAGES))
    assert "".join(d.text for d in deltas) == "Bring your appointment letter [1]."
    assert [d.done for d in deltas].count(True) == 1 and deltas[-1].done
    assert deltas[-1].done_reason == "stop"
    assert deltas[-1].prompt_tokens == 321
    assert deltas[-1].completion_tokens == 5


def test_the_request_streams_with_usage_temperature_and_max_tokens(server: FakeOpenAI) -> None:
    server.enqueue(Script.reply("Yes [1]."))
    with make_chat(server.base_url, max_tokens=200) as chat:
        list(chat.stream(MESSAGES))
    body = server.chat_bodies()[0]
    assert body["model"] == FAKE_OPENAI_MODEL
    assert body["messages"] == MESSAGES
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    assert body["temperature"] == 0.1
    assert body["max_tokens"] == 200


def test_connection_refused_is_unavailable_and_says_where() -> None:
    with make_chat(f"http://127.0.0.1:{free_port()}/v1") as chat:
        message = unavailable(chat)
    assert "Cannot connect" in message and "127.0.0.1" in message


def test_server_drop_mid_stream(chat: OpenAIChat, server: FakeOpenAI) -> None:
    server.enqueue(Script.reply("Bring your letter and a list of", failure="drop", fail_after=3))
    assert "cut off" in unavailable(chat)


def test_stream_cut_without_a_finish_reason_is_not_an_answer(
    chat: OpenAIChat, server: FakeOpenAI
) -> None:
    server.enqueue(Script.reply("Bring your letter and", failure="cut", fail_after=2))
    tokens: list[str] = []
    with pytest.raises(ModelUnavailable, match="before the answer was complete"):
        for delta in chat.stream(MESSAGES):
            tokens.append(delta.text)
    assert "".join(tokens) == "Bring your"  # what arrived was streamed, then the failure


def test_error_event_mid_stream(chat: OpenAIChat, server: FakeOpenAI) -> None:
    server.enqueue(Script.reply("Bring it", failure="error_line", error="CUDA out of memory"))
    message = unavailable(chat)
    assert "reported an error" in message and "CUDA out of memory" in message


def test_unknown_model_is_unavailable_and_names_the_setting(server: FakeOpenAI) -> None:
    with make_chat(server.base_url, model="no-such-model") as chat:
        message = unavailable(chat)
    assert "no-such-model" in message and "404" in message and "openai_model" in message


def test_http_500(chat: OpenAIChat, server: FakeOpenAI) -> None:
    server.enqueue(Script(failure="http_error", status=500, error="engine dead"))
    assert "HTTP 500" in unavailable(chat)


def test_hang_past_the_read_timeout_fails_without_retrying(server: FakeOpenAI) -> None:
    server.enqueue(Script.reply("late", failure="hang", fail_after=0, hang_seconds=5))
    with make_chat(server.base_url, read_timeout=0.3) as chat:
        assert "given up" in unavailable(chat)
    assert len(server.chat_bodies()) == 1  # no silent retry doubling the patient's wait


def test_a_reply_cut_at_the_token_limit_is_a_failure_not_an_answer(
    chat: OpenAIChat, server: FakeOpenAI
) -> None:
    server.enqueue(Script.reply("Bring your letter and your", done_reason="length"))
    assert "cut off" in unavailable(chat)


def test_messages_never_contain_the_prompt_the_key_or_a_traceback(server: FakeOpenAI) -> None:
    server.enqueue(Script(failure="http_error", status=500, error="boom"))
    with make_chat(server.base_url, api_key="sk-SECRETKEY") as chat:
        message = unavailable(chat)
    assert "SECRET-PROMPT-TEXT" not in message
    assert "SECRETKEY" not in message
    assert "Traceback" not in message


def test_credentials_in_the_url_are_not_shown() -> None:
    with make_chat(f"http://user:hunter2@127.0.0.1:{free_port()}/v1") as chat:
        message = unavailable(chat)
    assert "hunter2" not in message and "127.0.0.1" in message


def test_closing_the_generator_early_releases_the_stream(
    chat: OpenAIChat, server: FakeOpenAI
) -> None:
    server.enqueue(Script.reply("one two three four five six seven", delay=0.05))
    stream = chat.stream(MESSAGES)
    first = next(stream)
    assert first.text
    stream.close()
    server.enqueue(Script.reply("again [1]."))
    assert "".join(d.text for d in chat.stream(MESSAGES)) == "again [1]."


def test_complete_json_sends_the_schema_and_returns_the_object(
    chat: OpenAIChat, server: FakeOpenAI
) -> None:
    server.enqueue(Script.reply('{"route": "information", "standalone_question": "parking"}'))
    data = chat.complete_json(MESSAGES, MODEL_ROUTER_SCHEMA, timeout=2.0)
    assert data == {"route": "information", "standalone_question": "parking"}
    body = server.chat_bodies()[0]
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"] == MODEL_ROUTER_SCHEMA
    assert body["temperature"] == 0.0 and not body.get("stream")


def test_complete_json_falls_back_to_json_object_once_for_servers_without_json_schema(
    chat: OpenAIChat, server: FakeOpenAI
) -> None:
    server.reject_json_schema = True
    server.enqueue(Script.reply('{"route": "appointment", "standalone_question": "book"}'))
    server.enqueue(Script.reply('{"route": "information", "standalone_question": "park"}'))
    assert chat.complete_json(MESSAGES, MODEL_ROUTER_SCHEMA, timeout=2.0)["route"] == "appointment"
    assert chat.complete_json(MESSAGES, MODEL_ROUTER_SCHEMA, timeout=2.0)["route"] == "information"
    kinds = [b["response_format"]["type"] for b in server.chat_bodies()]
    assert kinds == ["json_schema", "json_object", "json_object"]  # remembered after one refusal
    assert server.chat_bodies()[1]["response_format"]["schema"] == MODEL_ROUTER_SCHEMA


@pytest.mark.parametrize(
    "script",
    [
        Script.reply("not json at all"),
        Script.reply('["a list"]'),
        Script(failure="http_error", status=503),
        Script.reply("{}", failure="hang", hang_seconds=5),
    ],
    ids=["garbage", "not-an-object", "http-503", "hang"],
)
def test_complete_json_failures_are_unavailable(
    chat: OpenAIChat, server: FakeOpenAI, script: Script
) -> None:
    server.enqueue(script)
    with pytest.raises(ModelUnavailable):
        chat.complete_json(MESSAGES, MODEL_ROUTER_SCHEMA, timeout=0.3)


def test_available_models(chat: OpenAIChat) -> None:
    assert chat.has_model()
    assert chat.available_models() == [FAKE_OPENAI_MODEL]


def test_missing_url_or_model_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="openai_base_url"):
        make_chat("  ")
    with pytest.raises(ConfigError, match="openai_model"):
        make_chat("http://127.0.0.1:1/v1", model="")


def test_backend_is_chosen_in_config_and_by_environment(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        '[generation]\nbackend = "openai"\nopenai_base_url = "http://gpu:8000/v1"\n'
        'openai_model = "m"\n',
        encoding="utf-8",
    )
    settings = load_settings(config, tmp_path, environ={})
    chat = build_chat(settings)
    assert isinstance(chat, OpenAIChat) and chat.model == "m"
    chat.close()
    env = {
        "CLINIC_GENERATION_BACKEND": "ollama",
        "CLINIC_OLLAMA_HOST": "http://127.0.0.1:11434",
    }
    settings = load_settings(config, tmp_path, environ=env)
    assert type(build_chat(settings)).__name__ == "OllamaChat"
    env = {
        "CLINIC_GENERATION_BACKEND": "OpenAI",
        "CLINIC_OPENAI_BASE_URL": "http://other:8000/v1",
        "CLINIC_OPENAI_MODEL": "env-model",
    }
    chat = build_chat(load_settings(None, tmp_path, environ=env))
    assert isinstance(chat, OpenAIChat) and chat.base_url == "http://other:8000/v1"
    chat.close()
    # Without a server the answers are extractive, never an error.
    assert (
        build_chat(load_settings(None, tmp_path, environ={"CLINIC_GENERATION_BACKEND": "openai"}))
        is None
    )


def test_an_unknown_backend_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="backend"):
        load_settings(None, tmp_path, environ={"CLINIC_GENERATION_BACKEND": "llamafile"})
