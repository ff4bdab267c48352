"""Safety routing: emergency, clinical advice, appointment or information, decided without a model.

The public API is re-exported here; see :mod:`engine.safety.router` for the order and
:mod:`engine.safety.rules` for where each line is drawn and why. The second, independent signal
(:mod:`engine.safety.exemplars`, nearest labelled exemplars of the question's embedding) is not
re-exported: it needs an embedding, and :mod:`engine.answering.routing` applies it after the rules.
"""

from engine.safety.model_router import (
    MODEL_ROUTER_SCHEMA,
    model_router_messages,
    parse_model_router_reply,
)
from engine.safety.router import (
    SAFETY_ORDER,
    RoutingDecision,
    canonical_question,
    combine,
    route_question,
)
from engine.safety.text import normalise

__all__ = [
    "MODEL_ROUTER_SCHEMA",
    "SAFETY_ORDER",
    "RoutingDecision",
    "canonical_question",
    "combine",
    "model_router_messages",
    "normalise",
    "parse_model_router_reply",
    "route_question",
]
