"""A fake OpenAI-compatible server (as vLLM and llama.cpp's server speak it), for tests.

The official ``openai`` client (and so :mod:`engine.answering.openai_chat`) is exercised against it
over a real socket: ``POST /v1/chat/completions`` streamed as Server-Sent Events (``data: {chunk}``
lines, a last chunk with ``finish_reason``, a usage chunk when ``stream_options.include_usage`` is
asked for, then ``data: [DONE]``), one JSON object without ``stream``, ``GET /v1/models``, 404 for a
model it does not serve, and the scripted failures of
:class:`tests.support.fake_ollama.Script` (an error event mid-stream, a dropped connection, a
close-delimited body cut short, an HTTP error, a hang past the client's read timeout).
A script's ``done_reason`` is sent as the ``finish_reason`` (``"length"`` for a reply cut at
``max_tokens``).

Usage::

    with FakeOpenAI() as server:
        server.enqueue(Script.reply("Bring your letter [1]."))
        chat = OpenAIChat(server.base_url, FAKE_OPENAI_MODEL, ...)
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from tests.support.fake_ollama import COMPLETED, Script

FAKE_OPENAI_MODEL = "Qwen/Qwen2.5-7B-Instruct"


class _Stopping(Exception):
    pass


class _ClientGone(Exception):
    pass


class FakeOpenAI:
    """A local HTTP server on 127.0.0.1 (a free port) speaking the OpenAI chat API."""

    def __init__(
        self, models: Iterable[str] = (FAKE_OPENAI_MODEL,), *, default: Script | None = None
    ):
        self.models = list(models)
        self.default = default or Script()
        # Answer a json_schema response_format with HTTP 500, as llama-cpp-python's server does.
        self.reject_json_schema = False
        self._lock = threading.Lock()
        self._scripts: deque[Script] = deque()
        self._bodies: list[dict[str, Any]] = []
        self._last_script = self.default
        self._outcomes: list[str] = []
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> FakeOpenAI:
        server = _Server(("127.0.0.1", 0), _Handler)
        server.fake = self
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        self._stopping.set()
        server.shutdown()
        server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def enqueue(self, *scripts: Script) -> None:
        with self._lock:
            self._scripts.extend(scripts)

    def chat_bodies(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._bodies)

    @property
    def outcomes(self) -> list[str]:
        with self._lock:
            return list(self._outcomes)

    def _next(self, body: dict[str, Any]) -> Script:
        with self._lock:
            self._bodies.append(body)
            self._last_script = self._scripts.popleft() if self._scripts else self.default
            return self._last_script

    def _finish(self, outcome: str) -> None:
        with self._lock:
            self._outcomes.append(outcome)

    def _wait(self, seconds: float) -> None:
        if seconds > 0 and self._stopping.wait(seconds):
            raise _Stopping


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeOpenAI

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Client resets are part of the tests; never print tracebacks."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server
    timeout = 10

    def log_message(self, format: str, *args: Any) -> None:
        """Silent."""

    @property
    def fake(self) -> FakeOpenAI:
        return self.server.fake

    def do_GET(self) -> None:
        if urlsplit(self.path).path == "/v1/models":
            data = [{"id": m, "object": "model", "owned_by": "fake"} for m in self.fake.models]
            self._send_json(200, {"object": "list", "data": data})
        else:
            self._send_json(404, {"error": {"message": "Not Found", "code": 404}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        if urlsplit(self.path).path != "/v1/chat/completions":
            self._send_json(404, {"error": {"message": "Not Found", "code": 404}})
            return
        model = str(body.get("model", ""))
        if model not in self.fake.models:
            self.fake._finish("http_error")
            self._send_json(
                404,
                {
                    "error": {
                        "message": f"The model `{model}` does not exist.",
                        "type": "NotFoundError",
                        "code": 404,
                    }
                },
            )
            return
        response_format = body.get("response_format") or {}
        if self.fake.reject_json_schema and response_format.get("type") == "json_schema":
            self.fake._next(body)  # recorded, and the script stays for the retry
            with self.fake._lock:
                self.fake._scripts.appendleft(self.fake._last_script)
            message = "response_format.type: Input should be 'text' or 'json_object'"
            self._send_json(500, {"error": {"message": message, "code": 500}})
            return
        script = self.fake._next(body)
        try:
            if script.failure == "http_error":
                self.fake._finish("http_error")
                self._send_json(script.status, {"error": {"message": script.error}})
            elif body.get("stream"):
                self._stream(model, body, script)
            else:
                self._single(model, body, script)
        except (_ClientGone, OSError):
            self.close_connection = True
            self.fake._finish("client_disconnected")
        except _Stopping:
            self.close_connection = True
            self.fake._finish("stopped")

    def _chunk(self, model: str, delta: dict[str, Any], finish: str | None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    def _usage(self, body: dict[str, Any], script: Script) -> dict[str, int]:
        prompt = sum(len(str(m.get("content", "")).split()) for m in body.get("messages", []))
        if script.prompt_eval_count is not None:
            prompt = script.prompt_eval_count
        completion = len(script.tokens)
        return {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }

    def _stream(self, model: str, body: dict[str, Any], script: Script) -> None:
        chunked = script.failure != "cut"
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()

        def event(payload: str) -> None:
            data = f"data: {payload}\n\n".encode()
            self._write(b"%x\r\n%s\r\n" % (len(data), data) if chunked else data)

        failing = script.failure != "none"
        self.fake._wait(script.first_delay)
        event(json.dumps(self._chunk(model, {"role": "assistant", "content": ""}, None)))
        for index, token in enumerate(script.tokens):
            if failing and index == script.fail_after:
                break
            self.fake._wait(script.delay)
            event(json.dumps(self._chunk(model, {"content": token}, None)))
        if not failing:
            event(json.dumps(self._chunk(model, {}, script.done_reason)))
            if (body.get("stream_options") or {}).get("include_usage"):
                usage = {
                    **self._chunk(model, {}, None),
                    "choices": [],
                    "usage": self._usage(body, script),
                }
                event(json.dumps(usage))
            self.fake._finish(COMPLETED)
            event("[DONE]")
            self._write(b"0\r\n\r\n")
            return
        self.fake._finish(script.failure)
        if script.failure == "error_line":
            event(json.dumps({"error": {"message": script.error, "code": 500}}))
            self._write(b"0\r\n\r\n")
        elif script.failure == "hang":
            self.fake._wait(script.hang_seconds)
            self.close_connection = True
        else:  # drop, cut
            self.close_connection = True
            self.wfile.flush()
            self.connection.shutdown(2)

    def _single(self, model: str, body: dict[str, Any], script: Script) -> None:
        self.fake._wait(script.first_delay + script.delay * len(script.tokens))
        if script.failure == "hang":
            self.fake._finish("hang")
            self.fake._wait(script.hang_seconds)
            self.close_connection = True
            return
        self.fake._finish(COMPLETED)
        self._send_json(
            200,
            {
                "id": "chatcmpl-fake",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": script.text},
                        "finish_reason": script.done_reason,
                    }
                ],
                "usage": self._usage(body, script),
            },
        )

    def _write(self, data: bytes) -> None:
        try:
            self.wfile.write(data)
            self.wfile.flush()
        except OSError as exc:
            raise _ClientGone from exc

    def _send_json(self, status: int, obj: dict[str, Any]) -> None:
        data = json.dumps(obj).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            self._write(data)
        except _ClientGone:
            self.close_connection = True


__all__ = ["FAKE_OPENAI_MODEL", "FakeOpenAI", "Script"]
