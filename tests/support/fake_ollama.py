"""A fake Ollama server that speaks the real wire protocol, for tests and benchmarks.

The real ``ollama`` client (and so :mod:`engine.answering.ollama_chat`) is exercised against it over
a real socket: NDJSON streaming with chunked encoding like Ollama itself, one JSON object for
``stream: false``, 404 for a model that is not pulled, and scripted failures (an error line, a
dropped connection, a close-delimited body cut short, an HTTP error, a hang past the client's read
timeout). It never touches the network beyond 127.0.0.1 and never sleeps unboundedly: every wait
ends when :meth:`FakeOllama.stop` is called.

Usage::

    with FakeOllama() as server:
        server.enqueue(Script(tokens=["Bring ", "your ", "letter [1]."]))
        chat = OllamaChat(server.url, DEFAULT_MODEL, ...)
        ...
        assert server.chat_bodies()[0]["options"]["num_ctx"] == 8192

Each ``POST /api/chat`` takes the next :class:`Script` from the queue (or ``default`` when the
queue is empty). ``request_event`` is set when the first chat request arrives and
``first_chat_at`` holds its ``time.perf_counter()`` (for the answer-overhead benchmark).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import socket
import threading
import time
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal
from urllib.parse import urlsplit

DEFAULT_MODEL = "llama3.1:8b-instruct-q4_K_M"
DEFAULT_EMBED_MODEL = "nomic-embed-text:latest"
VERSION = "0.12.6"

Failure = Literal["none", "error_line", "drop", "cut", "http_error", "hang"]

# Outcomes recorded per chat request (``FakeOllama.outcomes``).
COMPLETED = "completed"
CLIENT_DISCONNECTED = "client_disconnected"


@dataclass(frozen=True)
class Script:
    """What the fake server does for one ``POST /api/chat``.

    ``failure`` happens after ``fail_after`` tokens were streamed:

    - ``none``: stream every token, then the final ``done: true`` chunk with counts.
    - ``error_line``: a ``{"error": ...}`` line mid-stream (Ollama's way of failing late).
    - ``drop``: close the socket mid-way through a chunked body (client: RemoteProtocolError).
    - ``cut``: a close-delimited body that simply ends, never sending ``done: true``.
    - ``http_error``: answer ``status`` with ``{"error": error}`` before any token.
    - ``hang``: send nothing more for ``hang_seconds`` (ends early when the server stops).
    """

    tokens: Sequence[str] = ("Hello", " there", ".")
    delay: float = 0.0  # seconds before each token
    first_delay: float = 0.0  # extra seconds before the first token (prompt evaluation)
    failure: Failure = "none"
    fail_after: int = 1
    error: str = "an internal error occurred"
    status: int = 500
    hang_seconds: float = 5.0
    done_reason: str = "stop"
    prompt_eval_count: int | None = None  # default: the number of words in the prompt
    # Like Ollama, stop after ``options.num_predict`` tokens with done_reason "length".
    honours_num_predict: bool = True

    @classmethod
    def reply(cls, text: str, **kwargs: Any) -> Script:
        """A reply streamed word by word (each token keeps its leading space)."""
        return cls(tokens=split_tokens(text), **kwargs)

    @classmethod
    def paced(cls, text: str, tokens_per_second: float = 30.0, **kwargs: Any) -> Script:
        """A reply streamed at a realistic pace (a GPU box does 30-60 tokens/s)."""
        return cls(tokens=split_tokens(text), delay=1.0 / tokens_per_second, **kwargs)

    @property
    def text(self) -> str:
        return "".join(self.tokens)


def split_tokens(text: str) -> tuple[str, ...]:
    """Split text into word-sized tokens that join back to exactly ``text``."""
    tokens: list[str] = []
    current = ""
    for char in text:
        if char.isspace() and current and not current.isspace():
            tokens.append(current)
            current = ""
        current += char
    if current:
        tokens.append(current)
    return tuple(tokens)


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    body: dict[str, Any] | None


def _canonical(model: str) -> str:
    return model if ":" in model else f"{model}:latest"


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime())


class _ClientGone(Exception):
    """The client closed its end while the server was writing."""


class _Stopping(Exception):
    """The fake server is shutting down; abandon the request."""


class FakeOllama:
    """A local HTTP server on 127.0.0.1 (a free port) speaking Ollama's API."""

    def __init__(
        self,
        models: Iterable[str] = (DEFAULT_MODEL, DEFAULT_EMBED_MODEL),
        base_models: Iterable[str] = (),
        *,
        default: Script | None = None,
        embed_dimension: int = 8,
    ) -> None:
        self.models = [_canonical(m) for m in models]
        # Pulled models with no chat template (base models): /api/show gives an empty template.
        self.base_models = {_canonical(m) for m in base_models}
        self.default = default or Script()
        self.embed_dimension = embed_dimension
        self.request_event = threading.Event()
        self.client_disconnected = threading.Event()
        self.first_chat_at: float | None = None
        self._lock = threading.Lock()
        self._scripts: deque[Script] = deque()
        self._requests: list[RecordedRequest] = []
        self._outcomes: list[str] = []
        self._connections = 0
        self._stopping = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> FakeOllama:
        if self._server is not None:
            return self
        server = _Server(("127.0.0.1", 0), _Handler)
        server.fake = self
        self._server = server
        self._stopping.clear()
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
            self._thread = None

    def __enter__(self) -> FakeOllama:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("The fake Ollama server is not running.")
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # -- scripting and inspection ----------------------------------------------------------
    def enqueue(self, *scripts: Script) -> None:
        with self._lock:
            self._scripts.extend(scripts)

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far, oldest first (a copy)."""
        with self._lock:
            return list(self._requests)

    def chat_bodies(self) -> list[dict[str, Any]]:
        """The JSON bodies of every ``POST /api/chat`` so far."""
        return [r.body for r in self.requests if r.path == "/api/chat" and r.body is not None]

    @property
    def outcomes(self) -> list[str]:
        """How each chat request ended: ``completed``, ``client_disconnected`` or the failure."""
        with self._lock:
            return list(self._outcomes)

    # -- used by the handler ---------------------------------------------------------------
    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)
            if request.path == "/api/chat" and self.first_chat_at is None:
                self.first_chat_at = time.perf_counter()
                self.request_event.set()

    def _connected(self) -> None:
        with self._lock:
            self._connections += 1

    @property
    def connections(self) -> int:
        """How many TCP connections clients have opened so far."""
        with self._lock:
            return self._connections

    def _next_script(self) -> Script:
        with self._lock:
            return self._scripts.popleft() if self._scripts else self.default

    def _finish(self, outcome: str) -> None:
        with self._lock:
            self._outcomes.append(outcome)
        if outcome == CLIENT_DISCONNECTED:
            self.client_disconnected.set()

    def _wait(self, seconds: float) -> None:
        if seconds > 0 and self._stopping.wait(seconds):
            raise _Stopping

    def knows(self, model: str) -> bool:
        return _canonical(model) in self.models

    def embedding(self, text: str) -> list[float]:
        """A deterministic unit vector for ``text`` (same text, same vector)."""
        digest = hashlib.sha256(text.encode("utf-8")).digest()
        raw = [(digest[i % len(digest)] - 127.5) / 127.5 for i in range(self.embed_dimension)]
        norm = math.sqrt(sum(v * v for v in raw)) or 1.0
        return [v / norm for v in raw]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeOllama

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Client resets are part of the tests; never print tracebacks to stderr."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server
    timeout = 10  # idle keep-alive connections end instead of lingering

    def setup(self) -> None:
        super().setup()
        self.fake._connected()

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: tests fail on unexpected output, not on request logs."""

    @property
    def fake(self) -> FakeOllama:
        return self.server.fake

    # -- routing ---------------------------------------------------------------------------
    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        self.fake._record(RecordedRequest("GET", path, None))
        if path == "/api/tags":
            self._send_json(200, {"models": [self._model_entry(m) for m in self.fake.models]})
        elif path == "/api/version":
            self._send_json(200, {"version": VERSION})
        elif path == "/":
            self._send_bytes(200, b"Ollama is running", "text/plain; charset=utf-8")
        else:
            self._send_bytes(404, b"404 page not found", "text/plain")

    def do_HEAD(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:
        path = urlsplit(self.path).path
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            self.fake._record(RecordedRequest("POST", path, None))
            self._send_json(400, {"error": "invalid character in request body"})
            return
        self.fake._record(RecordedRequest("POST", path, body))
        if path == "/api/chat":
            self._chat(body)
        elif path == "/api/show":
            self._show(body)
        elif path == "/api/embed":
            self._embed(body)
        else:
            self._send_bytes(404, b"404 page not found", "text/plain")

    # -- endpoints -------------------------------------------------------------------------
    def _model_entry(self, name: str) -> dict[str, Any]:
        return {
            "name": name,
            "model": name,
            "modified_at": "2025-01-01T00:00:00Z",
            "size": 4_920_753_328,
            "digest": hashlib.sha256(name.encode()).hexdigest(),
            "details": {
                "format": "gguf",
                "family": "llama",
                "parameter_size": "8.0B",
                "quantization_level": "Q4_K_M",
            },
        }

    def _show(self, body: dict[str, Any]) -> None:
        model = str(body.get("model") or body.get("name") or "")
        if not self.fake.knows(model):
            self._not_found(model)
            return
        base = _canonical(model) in self.fake.base_models
        template = "" if base else "{{ .System }}<|user|>{{ .Prompt }}<|assistant|>"
        entry = self._model_entry(_canonical(model))
        self._send_json(
            200,
            {
                "modelfile": f"FROM {_canonical(model)}",
                "parameters": "",
                "template": template,
                "details": entry["details"],
                "model_info": {"general.architecture": "llama"},
                "modified_at": "2025-01-01T00:00:00Z",
            },
        )

    def _not_found(self, model: str) -> None:
        self._send_json(404, {"error": f'model "{model}" not found, try pulling it first'})

    def _embed(self, body: dict[str, Any]) -> None:
        model = str(body.get("model", ""))
        if not self.fake.knows(model):
            self._not_found(model)
            return
        inputs = body.get("input", "")
        texts = [inputs] if isinstance(inputs, str) else list(inputs)
        self._send_json(
            200,
            {
                "model": model,
                "embeddings": [self.fake.embedding(str(t)) for t in texts],
                "total_duration": 1_000_000,
                "load_duration": 100_000,
                "prompt_eval_count": sum(len(str(t).split()) for t in texts),
            },
        )

    def _chat(self, body: dict[str, Any]) -> None:
        model = str(body.get("model", ""))
        if not self.fake.knows(model):
            self.fake._finish("http_error")
            self._not_found(model)
            return
        script = self.fake._next_script()
        try:
            if script.failure == "http_error":
                self.fake._finish("http_error")
                self._send_json(script.status, {"error": script.error})
            elif body.get("stream", True):
                self._stream(model, body, script)
            else:
                self._single(model, body, script)
        except (_ClientGone, OSError):
            self.close_connection = True
            self.fake._finish(CLIENT_DISCONNECTED)
        except _Stopping:
            self.close_connection = True
            self.fake._finish("stopped")

    def _final(self, model: str, body: dict[str, Any], script: Script) -> dict[str, Any]:
        prompt_words = sum(len(str(m.get("content", "")).split()) for m in body["messages"])
        return {
            "model": model,
            "created_at": _now(),
            "message": {"role": "assistant", "content": ""},
            "done": True,
            "done_reason": script.done_reason,
            "total_duration": 1_234_567_890,
            "load_duration": 12_345_678,
            "prompt_eval_count": (
                script.prompt_eval_count if script.prompt_eval_count is not None else prompt_words
            ),
            "prompt_eval_duration": 123_456_789,
            "eval_count": len(script.tokens),
            "eval_duration": 987_654_321,
        }

    def _token(self, model: str, text: str) -> dict[str, Any]:
        return {
            "model": model,
            "created_at": _now(),
            "message": {"role": "assistant", "content": text},
            "done": False,
        }

    def _stream(self, model: str, body: dict[str, Any], script: Script) -> None:
        chunked = script.failure != "cut"
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Connection", "close")  # the body ends when the socket closes
            self.close_connection = True
        self.end_headers()
        self._flush()

        def line(obj: dict[str, Any]) -> None:
            data = json.dumps(obj).encode("utf-8") + b"\n"
            self._write(b"%x\r\n%s\r\n" % (len(data), data) if chunked else data)

        limit = (body.get("options") or {}).get("num_predict")
        if script.honours_num_predict and isinstance(limit, int) and 0 < limit < len(script.tokens):
            script = dataclasses.replace(script, tokens=script.tokens[:limit], done_reason="length")
        failing = script.failure != "none"
        self.fake._wait(script.first_delay)
        for index, token in enumerate(script.tokens):
            if failing and index == script.fail_after:
                break
            self.fake._wait(script.delay)
            line(self._token(model, token))
        if script.failure == "none":
            line(self._final(model, body, script))
            self.fake._finish(COMPLETED)  # before the end marker the client waits for
            self._write(b"0\r\n\r\n")
            return
        # Outcomes are recorded before the last write: the client may return as soon as it
        # sees that write, and a test may look at the outcome right then.
        self.fake._finish(script.failure)
        if script.failure == "error_line":
            line({"error": script.error})
            self._write(b"0\r\n\r\n")
        elif script.failure == "hang":
            self.fake._wait(script.hang_seconds)
            self.close_connection = True
        elif script.failure in ("drop", "cut"):
            self.close_connection = True
            self._shutdown_socket()

    def _single(self, model: str, body: dict[str, Any], script: Script) -> None:
        self.fake._wait(script.first_delay + script.delay * len(script.tokens))
        if script.failure == "hang":
            self.fake._finish("hang")
            self.fake._wait(script.hang_seconds)
            self.close_connection = True
            return
        if script.failure == "error_line":
            self.fake._finish("error_line")
            self._send_json(500, {"error": script.error})
            return
        reply = self._final(model, body, script)
        reply["message"]["content"] = script.text
        if script.failure in ("drop", "cut"):
            data = json.dumps(reply).encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            if script.failure == "drop":  # promise more than is sent: a protocol error
                self.send_header("Content-Length", str(len(data)))
            else:  # close-delimited and truncated: the client gets unparseable JSON
                self.send_header("Connection", "close")
            self.end_headers()
            self.fake._finish(script.failure)
            self._write(data[: len(data) // 2])
            self.close_connection = True
            self._shutdown_socket()
            return
        self.fake._finish(COMPLETED)
        self._send_json(200, reply)

    # -- low-level writing -----------------------------------------------------------------
    def _write(self, data: bytes) -> None:
        try:
            self.wfile.write(data)
            self.wfile.flush()
        except OSError as exc:  # BrokenPipe, ConnectionReset, ConnectionAborted
            raise _ClientGone from exc

    def _flush(self) -> None:
        self._write(b"")

    def _shutdown_socket(self) -> None:
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _send_bytes(self, status: int, data: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            self._write(data)
        except _ClientGone:
            self.close_connection = True

    def _send_json(self, status: int, obj: dict[str, Any]) -> None:
        self._send_bytes(status, json.dumps(obj).encode("utf-8"), "application/json; charset=utf-8")


__all__ = [
    "CLIENT_DISCONNECTED",
    "COMPLETED",
    "DEFAULT_EMBED_MODEL",
    "DEFAULT_MODEL",
    "Failure",
    "FakeOllama",
    "RecordedRequest",
    "Script",
    "split_tokens",
]
