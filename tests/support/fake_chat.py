"""A scripted chat model implementing ``engine.protocols.ChatModel``, for answer-pipeline tests.

Replies are queued: each ``stream`` call takes the next one (a string streamed word by word, a
list of :class:`ChatDelta`, or an exception raised after the deltas before it). Every call's
messages are recorded in ``calls`` (and ``json_calls`` for ``complete_json``).
``FakeChat.raising()`` builds one that fails the test if it is called at all: proof that a path
never reaches a model.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.protocols import ChatDelta
from tests.support.fake_ollama import split_tokens


@dataclass(frozen=True)
class Reply:
    """One scripted reply: ``tokens`` streamed, then ``error`` raised or the final delta sent."""

    tokens: Sequence[str] = ()
    error: BaseException | None = None
    done_reason: str = "stop"
    prompt_tokens: int | None = 120
    completion_tokens: int | None = None

    @classmethod
    def text(cls, text: str, **kwargs: Any) -> Reply:
        return cls(tokens=split_tokens(text), **kwargs)


@dataclass
class FakeChat:
    model: str = "fake-chat:latest"
    replies: deque[Reply] = field(default_factory=deque)
    json_replies: deque[dict[str, Any] | BaseException] = field(default_factory=deque)
    fail_if_called: bool = False
    calls: list[list[dict[str, str]]] = field(default_factory=list)
    json_calls: list[list[dict[str, str]]] = field(default_factory=list)
    closed_streams: int = 0

    @classmethod
    def raising(cls) -> FakeChat:
        """A chat model that fails the test if anything asks it for a reply."""
        return cls(fail_if_called=True)

    def queue(self, *replies: Reply | str) -> FakeChat:
        for reply in replies:
            self.replies.append(Reply.text(reply) if isinstance(reply, str) else reply)
        return self

    def stream(self, messages: Sequence[Mapping[str, str]]) -> Iterator[ChatDelta]:
        if self.fail_if_called:
            raise AssertionError("the chat model must not be called on this path")
        self.calls.append([dict(m) for m in messages])
        if not self.replies:
            raise AssertionError("FakeChat has no reply queued for this call")
        return self._deltas(self.replies.popleft())

    def _deltas(self, reply: Reply) -> Iterator[ChatDelta]:
        try:
            for token in reply.tokens:
                yield ChatDelta(text=token)
            if reply.error is not None:
                raise reply.error
            yield ChatDelta(
                text="",
                done=True,
                done_reason=reply.done_reason,
                prompt_tokens=reply.prompt_tokens,
                completion_tokens=(
                    len(reply.tokens)
                    if reply.completion_tokens is None
                    else reply.completion_tokens
                ),
            )
        finally:
            self.closed_streams += 1

    def complete_json(
        self, messages: Sequence[Mapping[str, str]], schema: Mapping[str, Any], timeout: float
    ) -> dict[str, Any]:
        if self.fail_if_called:
            raise AssertionError("the chat model must not be called on this path")
        self.json_calls.append([dict(m) for m in messages])
        if not self.json_replies:
            raise AssertionError("FakeChat has no JSON reply queued for this call")
        reply = self.json_replies.popleft()
        if isinstance(reply, BaseException):
            raise reply
        return reply
