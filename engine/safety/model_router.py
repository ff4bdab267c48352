"""The optional model second opinion: the JSON schema we ask Ollama for, and a parser that
never trusts the reply.

The model is asked (with Ollama's structured output, ``format=MODEL_ROUTER_SCHEMA``) for a route
and a stand-alone rewrite of a follow-up question for retrieval. Its route only feeds
:func:`engine.safety.router.combine`, which can make the outcome safer but never less safe.

It must never: raise on any reply (garbage, wrong types, unknown routes, huge strings all give
``(None, None)`` or drop the bad field); call the model itself; decide a route on its own.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from engine.events import Route, Turn

MAX_STANDALONE_CHARS = 1000

MODEL_ROUTER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "route": {"type": "string", "enum": [route.value for route in Route]},
        "standalone_question": {"type": "string"},
    },
    "required": ["route", "standalone_question"],
    "additionalProperties": False,
}

_INSTRUCTIONS = (
    "Classify the patient's latest question for a clinic information kiosk. "
    "route: emergency (someone may be in danger now), clinical_advice (the answer "
    "depends on this person's health, medicines or results), appointment (book, "
    "change or cancel), information (published practical guidance). Also rewrite "
    "the question as a stand-alone search query using the conversation."
)


def model_router_messages(question: str, history: Sequence[Turn] = ()) -> list[dict[str, str]]:
    """The messages the model router is asked with: the same in the engine and when
    ``clinic-assistant evaluate`` measures the router (engine.answering.qualification)."""
    context = "\n".join(f"Q: {t.question}\nA: {t.answer}" for t in list(history)[-3:])
    return [
        {"role": "system", "content": _INSTRUCTIONS},
        {"role": "user", "content": f"{context}\nLatest question: {question}"},
    ]


_BY_LABEL: dict[str, Route] = {}
for _route in Route:
    _BY_LABEL[_route.value] = _route
    _BY_LABEL[_route.name.lower()] = _route


def _parse_route(value: object) -> Route | None:
    if not isinstance(value, str):
        return None
    return _BY_LABEL.get(value.strip().lower())


def _parse_question(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    text = " ".join(value.split())
    if not text or len(text) > MAX_STANDALONE_CHARS:
        return None
    return text


def parse_model_router_reply(raw: object) -> tuple[Route | None, str | None]:
    """``(route, standalone_question)`` from a model reply; ``(None, None)`` when unusable.

    ``raw`` may be the JSON text (str or bytes) or an already decoded mapping. The route must be
    one of :class:`Route`'s values (or names, case-insensitively); an unknown or missing route
    makes the whole reply untrusted. A missing, empty or oversized question gives ``None`` for
    that field only.
    """
    data: object = raw
    try:
        if isinstance(raw, bytes | bytearray):
            data = json.loads(raw.decode("utf-8"))
        elif isinstance(raw, str):
            data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None, None
    if not isinstance(data, Mapping):
        return None, None
    route = _parse_route(data.get("route"))
    if route is None:
        return None, None
    return route, _parse_question(data.get("standalone_question"))
