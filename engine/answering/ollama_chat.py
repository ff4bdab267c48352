"""Talks to an Ollama server: the streaming chat model, JSON completions and Ollama embeddings.

What it is for: one place that knows the official ``ollama`` client (0.6.3) and every way it
fails. Each failure (connection refused, a stream dropped or cut short, an error line, a missing
model, a timeout, an unreadable reply) becomes :class:`engine.errors.ModelUnavailable` (or
:class:`engine.errors.EmbeddingUnavailable` for embeddings) with a sentence staff can act on.

What it must never do: put prompt text, document text or a traceback into an error message;
treat a stream that ended without Ollama's final ``done: true`` chunk as a finished answer; leave
an HTTP stream open after the caller stops iterating (closing the generator releases it).
"""

from __future__ import annotations

import contextlib
import json
import math
import threading
from collections.abc import Generator, Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

import httpx
import ollama

from engine.errors import ClinicError, ConfigError, EmbeddingUnavailable, ModelUnavailable
from engine.ops.settings import Settings
from engine.protocols import ChatDelta

_E = TypeVar("_E", bound=ClinicError)

_MAX_SERVER_TEXT = 200  # characters of a server's own error message kept in ours


def _display_host(host: str) -> str:
    """The host as staff know it, without any user:password part."""
    parts = urlsplit(host if "://" in host else f"http://{host}")
    netloc = parts.netloc.rpartition("@")[2]
    return f"{parts.scheme}://{netloc}" if netloc else host


def _server_text(error: str) -> str:
    text = " ".join(str(error).split())
    return text if len(text) <= _MAX_SERVER_TEXT else text[: _MAX_SERVER_TEXT - 3] + "..."


def _pull_hint(model: str) -> str:
    return f"run `ollama pull {model}` on the GPU box"


def explain_failure(
    exc: BaseException,
    *,
    host: str,
    model: str,
    read_timeout: float,
    connect_timeout: float,
    error_type: type[_E],
) -> _E:
    """Turn anything the ollama client or httpx raised into a staff-readable error."""
    where = f"the model server at {_display_host(host)}"
    message: str
    if isinstance(exc, ollama.ResponseError):
        server = _server_text(exc.error)
        if exc.status_code == 404 and "not found" in server.lower():
            message = f"The model {model} is not on {where}: {_pull_hint(model)}."
        elif exc.status_code == -1:
            message = f"{where.capitalize()} reported an error while answering: {server}"
        else:
            message = f"{where.capitalize()} answered with HTTP {exc.status_code}: {server}"
    elif isinstance(exc, ollama.RequestError):
        message = "No Ollama model name is configured ([ollama] model in the config file)."
    elif isinstance(exc, httpx.ConnectTimeout):
        message = (
            f"Cannot connect to {where}: no answer within {connect_timeout:g} s. Check that the "
            "GPU box is on and reachable from this machine."
        )
    elif isinstance(exc, (httpx.ConnectError, ConnectionError)):
        message = (
            f"Cannot connect to {where}: check that Ollama is running there and that this "
            "machine can reach it."
        )
    elif isinstance(exc, httpx.ReadTimeout):
        message = (
            f"{where.capitalize()} sent nothing for {read_timeout:g} s and was given up on; "
            "it may be overloaded or still loading the model."
        )
    elif isinstance(exc, httpx.TimeoutException):
        message = f"{where.capitalize()} timed out ({type(exc).__name__})."
    elif isinstance(exc, httpx.RemoteProtocolError):
        message = f"The connection to {where} was cut off before the answer was complete."
    elif isinstance(exc, httpx.HTTPError):
        message = f"Talking to {where} failed ({type(exc).__name__})."
    elif isinstance(exc, ValueError):  # bad NDJSON line, JSON body or response shape
        message = f"{where.capitalize()} sent a reply this app could not read."
    elif isinstance(exc, OSError):
        message = f"The network connection to {where} failed ({type(exc).__name__})."
    else:
        message = f"Talking to {where} failed unexpectedly ({type(exc).__name__})."
    return error_type(message)


# Everything the ollama client and httpx raise for I/O, protocol or parsing trouble.
_CLIENT_FAILURES: tuple[type[Exception], ...] = (
    ollama.ResponseError,
    ollama.RequestError,
    httpx.HTTPError,
    httpx.StreamError,
    OSError,
    ValueError,
)


class _OllamaConnection:
    """The shared part: a host, an ``ollama.Client`` and turning failures into errors."""

    def __init__(self, host: str, model: str, *, connect_timeout: float, read_timeout: float):
        if not host.strip():
            raise ConfigError("No Ollama host is configured ([ollama] hosts in the config file).")
        self.host = host
        self.model = model
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout
        self._client = self._new_client(read_timeout)

    def _new_client(self, read_timeout: float) -> ollama.Client:
        timeout = httpx.Timeout(read_timeout, connect=min(self.connect_timeout, read_timeout))
        return ollama.Client(host=self.host, timeout=timeout)

    def _explain(
        self, exc: BaseException, error_type: type[_E], read_timeout: float | None = None
    ) -> _E:
        return explain_failure(
            exc,
            host=self.host,
            model=self.model,
            read_timeout=self.read_timeout if read_timeout is None else read_timeout,
            connect_timeout=self.connect_timeout,
            error_type=error_type,
        )

    def available_models(self) -> list[str]:
        """Names of the models pulled on the server. Raises ModelUnavailable."""
        try:
            listing = self._client.list()
        except _CLIENT_FAILURES as exc:
            raise self._explain(exc, ModelUnavailable) from None
        return [m.model for m in listing.models if m.model]

    def has_model(self) -> bool:
        """Whether this object's model is pulled on the server (``x`` means ``x:latest``).

        Raises ModelUnavailable when the server cannot be asked at all."""
        wanted = _canonical(self.model)
        return any(_canonical(name) == wanted for name in self.available_models())

    def has_chat_template(self) -> bool | None:
        """Whether the model has a chat template (an instruct model); False for a base model,
        which only continues the prompt and never follows it; None when the server won't say."""
        try:
            shown = self._client.show(self.model)
        except Exception:  # an old or odd server: say nothing rather than break doctor
            return None
        template = getattr(shown, "template", None)
        return bool(template and template.strip())

    def is_reachable(self, timeout: float = 3.0) -> bool:
        """Whether an Ollama server answers at the host within ``timeout`` seconds."""
        try:
            with ollama.Client(
                host=self.host, timeout=httpx.Timeout(timeout, connect=timeout)
            ) as client:
                client.list()
        except _CLIENT_FAILURES:
            return False
        return True

    def close(self) -> None:
        self._client.close()  # type: ignore[no-untyped-call]


def _canonical(model: str) -> str:
    return model if ":" in model else f"{model}:latest"


class OllamaChat(_OllamaConnection):
    """The streaming chat model on an Ollama server (implements ``engine.protocols.ChatModel``)."""

    def __init__(
        self,
        host: str,
        model: str,
        *,
        num_ctx: int,
        keep_alive: str,
        connect_timeout: float,
        read_timeout: float,
        temperature: float,
        num_predict: int = 0,
    ) -> None:
        super().__init__(host, model, connect_timeout=connect_timeout, read_timeout=read_timeout)
        self.num_ctx = num_ctx
        self.num_predict = num_predict  # tokens per streamed answer; 0: no limit sent
        self.keep_alive = keep_alive
        self.temperature = temperature
        self._json_clients: dict[float, ollama.Client] = {}
        self._json_lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings, host: str | None = None) -> OllamaChat:
        """The chat model for ``host``, else the first of ``[ollama] hosts``."""
        chosen = host or next(iter(settings.ollama.hosts), "")
        if not chosen:
            raise ConfigError("No Ollama host is configured ([ollama] hosts in the config file).")
        o = settings.ollama
        return cls(
            chosen,
            o.model,
            num_ctx=o.num_ctx,
            keep_alive=o.keep_alive,
            connect_timeout=o.connect_timeout,
            read_timeout=o.read_timeout,
            temperature=o.temperature,
            num_predict=o.num_predict,
        )

    def _options(self, temperature: float, *, limit: bool = False) -> dict[str, Any]:
        options: dict[str, Any] = {"num_ctx": self.num_ctx, "temperature": temperature}
        if limit and self.num_predict > 0:
            # Ollama's default is no limit: a runaway reply would stream for a minute or more.
            # Reaching it ends the stream with done_reason "length", which callers treat as a
            # failure (a cut-off answer is never shown).
            options["num_predict"] = self.num_predict
        return options

    def stream(self, messages: Sequence[Mapping[str, str]]) -> Generator[ChatDelta, None, None]:
        """Yield the reply piece by piece; the last delta has ``done=True`` and the counts.

        Raises ModelUnavailable for every failure, including a stream that ends without
        Ollama's final chunk. Closing this generator early closes the HTTP stream."""
        try:
            chunks = self._client.chat(
                model=self.model,
                messages=[dict(m) for m in messages],
                stream=True,
                options=self._options(self.temperature, limit=True),
                keep_alive=self.keep_alive,
            )
        except _CLIENT_FAILURES as exc:
            raise self._explain(exc, ModelUnavailable) from None
        try:
            while True:
                try:
                    chunk = next(chunks)
                except StopIteration:
                    break
                except _CLIENT_FAILURES as exc:
                    raise self._explain(exc, ModelUnavailable) from None
                text = chunk.message.content or ""
                if chunk.done:
                    final = ChatDelta(
                        text=text,
                        done=True,
                        done_reason=chunk.done_reason,
                        prompt_tokens=chunk.prompt_eval_count,
                        completion_tokens=chunk.eval_count,
                    )
                    # Read the body to its end so the connection goes back to the pool for the
                    # next question; the answer is complete, so trouble after it is ignored.
                    with contextlib.suppress(*_CLIENT_FAILURES):
                        for _ in chunks:
                            pass
                    yield final
                    return
                if text:
                    yield ChatDelta(text=text)
        finally:
            # A GeneratorExit here (the caller closed us) must reach the client's generator too:
            # closing it exits its `with httpx.Client.stream(...)` block, which closes the
            # response, and httpcore drops a connection whose body was not read to the end.
            if isinstance(chunks, Generator):
                chunks.close()
        raise ModelUnavailable(
            f"The model server at {_display_host(self.host)} stopped before the answer was "
            "complete (no final chunk)."
        )

    def _json_client(self, timeout: float) -> ollama.Client:
        with self._json_lock:
            client = self._json_clients.get(timeout)
            if client is None:
                client = self._json_clients[timeout] = self._new_client(timeout)
            return client

    def complete_json(
        self, messages: Sequence[Mapping[str, str]], schema: Mapping[str, Any], timeout: float
    ) -> dict[str, Any]:
        """Ask for one JSON object shaped by ``schema`` (Ollama's structured outputs).

        ``timeout`` bounds the wait for the reply (non-streaming: nothing arrives until the
        whole object is ready). Temperature is 0: this is for classification, not prose.
        The parsed object is not validated against ``schema`` here; callers check the fields
        they use. Raises ModelUnavailable on any failure, including a reply that is not a
        JSON object."""
        try:
            response = self._json_client(timeout).chat(
                model=self.model,
                messages=[dict(m) for m in messages],
                stream=False,
                format=dict(schema),
                options=self._options(0.0),
                keep_alive=self.keep_alive,
            )
        except _CLIENT_FAILURES as exc:
            raise self._explain(exc, ModelUnavailable, read_timeout=timeout) from None
        content = response.message.content or ""
        try:
            data = json.loads(content)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            raise ModelUnavailable(
                f"The model {self.model} did not reply with the JSON object that was asked for."
            )
        return data

    def close(self) -> None:
        super().close()
        with self._json_lock:
            clients, self._json_clients = list(self._json_clients.values()), {}
        for client in clients:
            client.close()  # type: ignore[no-untyped-call]

    def __enter__(self) -> OllamaChat:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


_NOMIC_PREFIXES = ("search_query: ", "search_document: ")


class OllamaEmbedder(_OllamaConnection):
    """Embeddings from ``/api/embed`` (implements ``engine.protocols.Embedder``).

    For clinics with a GPU box. nomic-embed-text gets its task prefixes (``search_query: `` and
    ``search_document: ``) automatically; other models get none unless given. The dimension is
    probed once, on first use. Failures raise EmbeddingUnavailable."""

    def __init__(
        self,
        host: str,
        model: str,
        *,
        query_prefix: str | None = None,
        passage_prefix: str | None = None,
        batch_size: int = 16,
        keep_alive: str = "30m",
        connect_timeout: float = 3.0,
        read_timeout: float = 60.0,
    ) -> None:
        super().__init__(host, model, connect_timeout=connect_timeout, read_timeout=read_timeout)
        nomic = "nomic-embed-text" in model
        default_query, default_passage = _NOMIC_PREFIXES if nomic else ("", "")
        self.query_prefix = default_query if query_prefix is None else query_prefix
        self.passage_prefix = default_passage if passage_prefix is None else passage_prefix
        self.batch_size = max(1, batch_size)
        self.keep_alive = keep_alive
        self.model_name = f"ollama/{model}"
        self._dimension: int | None = None

    @classmethod
    def from_settings(cls, settings: Settings, host: str | None = None) -> OllamaEmbedder:
        chosen = host or next(iter(settings.ollama.hosts), "")
        if not chosen or not settings.embedding.ollama_model:
            raise ConfigError(
                "Embedding through Ollama needs [ollama] hosts and [embedding] ollama_model."
            )
        return cls(
            chosen,
            settings.embedding.ollama_model,
            batch_size=settings.embedding.batch_size,
            keep_alive=settings.ollama.keep_alive,
            connect_timeout=settings.ollama.connect_timeout,
            read_timeout=settings.ollama.read_timeout,
        )

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            self._dimension = len(self.embed_query("dimension probe"))
        return self._dimension

    @dimension.setter
    def dimension(self, value: int) -> None:
        self._dimension = value

    def _embed(self, texts: Sequence[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start : start + self.batch_size])
            try:
                response = self._client.embed(
                    model=self.model, input=batch, keep_alive=self.keep_alive
                )
            except _CLIENT_FAILURES as exc:
                raise self._explain(exc, EmbeddingUnavailable) from None
            if len(response.embeddings) != len(batch):
                raise EmbeddingUnavailable(
                    f"The model server at {_display_host(self.host)} returned "
                    f"{len(response.embeddings)} embeddings for {len(batch)} texts."
                )
            vectors.extend(_unit(v) for v in response.embeddings)
        if vectors and self._dimension is None:
            self._dimension = len(vectors[0])
        if self._dimension is not None and any(len(v) != self._dimension for v in vectors):
            raise EmbeddingUnavailable(
                f"The embedding model {self.model} changed dimension; re-embed the documents."
            )
        return vectors

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        return self._embed([self.passage_prefix + t for t in texts])

    def embed_query(self, text: str) -> list[float]:
        return self._embed([self.query_prefix + text])[0]

    def __enter__(self) -> OllamaEmbedder:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _unit(vector: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(v * v for v in vector))
    return [float(v) / norm for v in vector] if norm else [float(v) for v in vector]
