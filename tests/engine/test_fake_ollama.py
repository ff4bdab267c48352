"""The fake Ollama server makes the real client fail exactly as a real server does.

These pin the fake to the measured behaviour of ollama 0.6.3 + httpx 0.28 (see FACTS.md), so the
engine tests that rely on it test something real.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import httpx
import ollama
import pytest

from tests.support.fake_ollama import DEFAULT_MODEL, FakeOllama, Script, split_tokens

MESSAGES = [{"role": "user", "content": "When is the clinic open?"}]


@pytest.fixture
def server() -> Iterator[FakeOllama]:
    with FakeOllama() as fake:
        yield fake


@pytest.fixture
def client(server: FakeOllama) -> Iterator[ollama.Client]:
    with ollama.Client(host=server.url, timeout=httpx.Timeout(0.5, connect=0.5)) as raw:
        yield raw


def stream(client: ollama.Client, model: str = DEFAULT_MODEL) -> list[ollama.ChatResponse]:
    return list(client.chat(model=model, messages=MESSAGES, stream=True))


def test_a_normal_stream_ends_with_done_and_counts(
    client: ollama.Client, server: FakeOllama
) -> None:
    server.enqueue(Script(tokens=["Open ", "8 to 6."]))
    parts = stream(client)
    assert [p.message.content for p in parts] == ["Open ", "8 to 6.", ""]
    final = parts[-1]
    assert final.done and final.done_reason == "stop"
    assert final.eval_count == 2
    assert final.prompt_eval_count == 5
    assert final.total_duration


def test_non_streaming_reply_is_one_object(client: ollama.Client, server: FakeOllama) -> None:
    server.enqueue(Script(tokens=['{"a": ', "1}"]))
    reply = client.chat(model=DEFAULT_MODEL, messages=MESSAGES, stream=False, format="json")
    assert reply.message.content == '{"a": 1}'
    assert reply.done


def test_drop_is_a_remote_protocol_error(client: ollama.Client, server: FakeOllama) -> None:
    server.enqueue(Script(failure="drop"))
    with pytest.raises(httpx.RemoteProtocolError):
        stream(client)


def test_cut_ends_quietly_without_done(client: ollama.Client, server: FakeOllama) -> None:
    server.enqueue(Script(tokens=["a", "b", "c"], failure="cut", fail_after=2))
    parts = stream(client)
    assert [p.message.content for p in parts] == ["a", "b"]
    assert not any(p.done for p in parts)


def test_error_line_is_a_response_error(client: ollama.Client, server: FakeOllama) -> None:
    server.enqueue(Script(failure="error_line", error="boom"))
    with pytest.raises(ollama.ResponseError) as caught:
        stream(client)
    assert (caught.value.error, caught.value.status_code) == ("boom", -1)


def test_unknown_model_is_a_404(client: ollama.Client) -> None:
    with pytest.raises(ollama.ResponseError) as caught:
        stream(client, model="nope")
    assert caught.value.status_code == 404
    assert caught.value.error == 'model "nope" not found, try pulling it first'


def test_hang_is_a_read_timeout_and_the_server_still_stops(
    client: ollama.Client, server: FakeOllama
) -> None:
    server.enqueue(Script(failure="hang", hang_seconds=30))
    with pytest.raises(httpx.ReadTimeout):
        stream(client)
    done = threading.Event()

    def stop() -> None:
        server.stop()
        done.set()

    stopper = threading.Thread(target=stop)
    stopper.start()
    assert done.wait(timeout=2.0), "stop() must interrupt a hang"
    stopper.join()


def test_requests_are_recorded_and_the_first_chat_is_signalled(
    client: ollama.Client, server: FakeOllama
) -> None:
    assert not server.request_event.is_set()
    client.list()
    assert not server.request_event.is_set()  # only a chat counts as "the model was asked"
    stream(client)
    assert server.request_event.wait(timeout=1.0)
    assert server.first_chat_at is not None
    assert [(r.method, r.path) for r in server.requests] == [
        ("GET", "/api/tags"),
        ("POST", "/api/chat"),
    ]


def test_empty_queue_uses_the_default_reply() -> None:
    with (
        FakeOllama(default=Script(tokens=["same"])) as server,
        ollama.Client(host=server.url) as client,
    ):
        assert stream(client)[0].message.content == "same"
        assert stream(client)[0].message.content == "same"


def test_concurrent_chats_each_get_a_whole_reply(server: FakeOllama) -> None:
    server.enqueue(*[Script(tokens=["t"] * 20, delay=0.002) for _ in range(6)])
    results: list[int] = []
    lock = threading.Lock()

    def ask() -> None:
        with ollama.Client(host=server.url, timeout=2.0) as own:
            parts = stream(own)
        with lock:
            results.append(len(parts))

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=5)
    assert results == [21] * 6
    assert len(server.chat_bodies()) == 6


def test_paced_script_keeps_the_text_and_sets_the_rate() -> None:
    text = "Bring your letter,  a list of medicines\nand your glasses."
    assert "".join(split_tokens(text)) == text
    script = Script.paced(text, tokens_per_second=30)
    assert script.text == text
    assert script.delay == pytest.approx(1 / 30)
