"""Talks to any OpenAI-compatible chat server (vLLM, llama.cpp's server, LM Studio).

What it is for: the second generation backend, for clinic groups whose kiosks share GPUs behind
vLLM. It implements :class:`engine.protocols.ChatModel` with the official ``openai`` client
(Server-Sent Events ``chat.completions`` streaming), so the answering pipeline, the guard and
the Qt worker are the same as with Ollama. Each failure (connection refused, a stream dropped or
cut short, an error event, a missing model (404), a timeout, a reply cut at the token limit
(``finish_reason = "length"``), an unreadable reply) becomes
:class:`engine.errors.ModelUnavailable` with a sentence staff can act on.

What it must never do: put prompt text, document text, the API key or a traceback into an error
message; treat a stream that ended without a ``finish_reason`` as a finished answer; retry on
its own (a retry doubles the wait of a patient at the kiosk; the extractive fallback is the
retry); leave an HTTP stream open after the caller stops iterating.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

import openai

from engine.errors import ConfigError, ModelUnavailable
from engine.ops.settings import Settings
from engine.protocols import ChatDelta

_MAX_SERVER_TEXT = 200
# vLLM and llama.cpp's server accept any key when none is configured; the client insists on one.
_NO_KEY = "not-needed"
_JSON_MAX_TOKENS = 256


def _display_url(url: str) -> str:
    """The server as staff know it, without any user:password part or query."""
    parts = urlsplit(url)
    netloc = parts.netloc.rpartition("@")[2]
    return f"{parts.scheme}://{netloc}{parts.path}".rstrip("/") if netloc else url


def _server_text(exc: openai.APIError) -> str:
    body = exc.body
    message: object = exc.message
    if isinstance(body, Mapping):
        inner = body.get("error", body)
        message = inner.get("message", message) if isinstance(inner, Mapping) else inner
    text = " ".join(str(message).split())
    return text if len(text) <= _MAX_SERVER_TEXT else text[: _MAX_SERVER_TEXT - 3] + "..."


class OpenAIChat:
    """A streaming chat model on an OpenAI-compatible server (implements ``ChatModel``)."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str = "",
        connect_timeout: float,
        read_timeout: float,
        temperature: float,
        max_tokens: int | None = None,
    ) -> None:
        if not base_url.strip():
            raise ConfigError(
                "No OpenAI-compatible server is configured ([generation] openai_base_url)."
            )
        if not model.strip():
            raise ConfigError("No model name is configured ([generation] openai_model).")
        self.base_url = base_url
        self.model = model
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout
        self.temperature = temperature
        self.max_tokens = max_tokens
        self._api_key = api_key or _NO_KEY
        self._json_object_only = False  # the server rejected json_schema once
        self._client = self._new_client(read_timeout)

    @classmethod
    def from_settings(cls, settings: Settings) -> OpenAIChat:
        g, o = settings.generation, settings.ollama
        return cls(
            g.openai_base_url,
            g.openai_model,
            api_key=g.openai_api_key,
            connect_timeout=o.connect_timeout,
            read_timeout=o.read_timeout,
            temperature=o.temperature,
            max_tokens=o.num_predict or None,  # the same limit as Ollama's num_predict
        )

    def _new_client(self, read_timeout: float) -> openai.OpenAI:
        return openai.OpenAI(
            base_url=self.base_url,
            api_key=self._api_key,
            max_retries=0,
            timeout=openai.Timeout(read_timeout, connect=min(self.connect_timeout, read_timeout)),
        )

    @property
    def where(self) -> str:
        return f"the model server at {_display_url(self.base_url)}"

    def explain(self, exc: BaseException, read_timeout: float | None = None) -> ModelUnavailable:
        """Turn anything the openai client raised into a staff-readable error."""
        where = self.where
        waited = self.read_timeout if read_timeout is None else read_timeout
        if isinstance(exc, openai.APITimeoutError):
            message = (
                f"{where.capitalize()} sent nothing for {waited:g} s (or could not be reached "
                f"within {self.connect_timeout:g} s) and was given up on; it may be overloaded "
                "or still loading the model."
            )
        elif isinstance(exc, openai.APIConnectionError):
            message = (
                f"Cannot connect to {where}, or the connection was cut off: check that the "
                "server is running there and that this machine can reach it."
            )
        elif isinstance(exc, openai.NotFoundError):
            message = (
                f"The model {self.model} is not served by {where} (HTTP 404: "
                f"{_server_text(exc)}): correct [generation] openai_model or start the server "
                "with that model."
            )
        elif isinstance(exc, openai.AuthenticationError):
            message = f"{where.capitalize()} refused the API key ([generation] openai_api_key)."
        elif isinstance(exc, openai.APIStatusError):
            message = (
                f"{where.capitalize()} answered with HTTP {exc.status_code}: {_server_text(exc)}"
            )
        elif isinstance(exc, openai.APIError):
            message = f"{where.capitalize()} reported an error while answering: {_server_text(exc)}"
        elif isinstance(exc, ValueError):
            message = f"{where.capitalize()} sent a reply this app could not read."
        else:
            message = f"Talking to {where} failed unexpectedly ({type(exc).__name__})."
        return ModelUnavailable(message)

    def stream(self, messages: Sequence[Mapping[str, str]]) -> Generator[ChatDelta, None, None]:
        """Yield the reply piece by piece; the last delta has ``done=True`` and the counts.

        Raises ModelUnavailable for every failure, including a stream that ends without a
        ``finish_reason`` and one that stopped at the token limit. Closing this generator
        early closes the HTTP stream."""
        wire: Any = [dict(m) for m in messages]
        try:
            chunks = self._client.chat.completions.create(
                model=self.model,
                messages=wire,
                stream=True,
                stream_options={"include_usage": True},
                temperature=self.temperature,
                max_tokens=self.max_tokens or openai.omit,
            )
        except (openai.OpenAIError, ValueError, OSError) as exc:
            raise self.explain(exc) from None
        finish: str | None = None
        usage: Any = None
        try:
            iterator = iter(chunks)
            while True:
                try:
                    chunk = next(iterator)
                except StopIteration:
                    break
                except (openai.OpenAIError, ValueError, OSError) as exc:
                    raise self.explain(exc) from None
                if chunk.usage is not None:
                    usage = chunk.usage
                for choice in chunk.choices or ():
                    text = choice.delta.content if choice.delta is not None else None
                    if text and finish is None:
                        yield ChatDelta(text=text)
                    if choice.finish_reason:
                        finish = choice.finish_reason
        finally:
            chunks.close()
        if finish is None:
            raise ModelUnavailable(
                f"{self.where.capitalize()} stopped before the answer was complete "
                "(no finish reason)."
            )
        if finish == "length":
            raise ModelUnavailable("The model's answer was cut off (length limit).")
        yield ChatDelta(
            text="",
            done=True,
            done_reason=finish,
            prompt_tokens=getattr(usage, "prompt_tokens", None),
            completion_tokens=getattr(usage, "completion_tokens", None),
        )

    def complete_json(
        self, messages: Sequence[Mapping[str, str]], schema: Mapping[str, Any], timeout: float
    ) -> dict[str, Any]:
        """Ask for one JSON object shaped by ``schema`` (``response_format`` json_schema; a
        server that rejects that, as llama-cpp-python's does, is asked with json_object and the
        schema from then on).

        Temperature 0; ``timeout`` bounds the whole wait. Raises ModelUnavailable on any
        failure, including a reply that is not a JSON object."""
        wire: Any = [dict(m) for m in messages]
        formats: list[Any] = [
            {
                "type": "json_schema",
                "json_schema": {"name": "reply", "schema": dict(schema), "strict": True},
            },
            # llama-cpp-python's server knows only json_object, with the schema beside it.
            {"type": "json_object", "schema": dict(schema)},
        ]
        if self._json_object_only:
            formats = formats[1:]
        client = self._client.with_options(
            timeout=openai.Timeout(timeout, connect=min(self.connect_timeout, timeout))
        )
        for index, response_format in enumerate(formats):
            try:
                response = client.chat.completions.create(
                    model=self.model,
                    messages=wire,
                    temperature=0.0,
                    max_tokens=_JSON_MAX_TOKENS,  # a route and one question; never a ramble
                    response_format=response_format,
                )
                break
            except openai.APIStatusError as exc:
                rejected = "response_format" in str(exc.body) + exc.message
                if index + 1 < len(formats) and exc.status_code != 404 and rejected:
                    self._json_object_only = True
                    continue
                raise self.explain(exc, read_timeout=timeout) from None
            except (openai.OpenAIError, ValueError, OSError) as exc:
                raise self.explain(exc, read_timeout=timeout) from None
        content = response.choices[0].message.content if response.choices else None
        try:
            data = json.loads(content or "")
        except ValueError:
            data = None
        if not isinstance(data, dict):
            raise ModelUnavailable(
                f"The model {self.model} did not reply with the JSON object that was asked for."
            )
        return data

    def available_models(self) -> list[str]:
        """Names of the models the server serves. Raises ModelUnavailable."""
        try:
            listing = self._client.with_options(timeout=self.connect_timeout).models.list()
            return [m.id for m in listing]
        except (openai.OpenAIError, ValueError, OSError) as exc:
            raise self.explain(exc, read_timeout=self.connect_timeout) from None

    def has_model(self) -> bool:
        return self.model in self.available_models()

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> OpenAIChat:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
