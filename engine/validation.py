"""Text a person typed, checked once at the engine's doors: questions, booking fields, arguments.

What it decides: a value holding a NUL, a lone UTF-16 surrogate (which is also how Python shows a
non-UTF-8 byte in a command-line argument or a file name) or another control character other
than tab and line breaks is refused with one sentence that names the field (``BadText``, a
``ValidationError``). PostgreSQL cannot store a NUL in text and psycopg cannot encode a lone
surrogate, so without this check such input ends in a DataError or UnicodeEncodeError traceback.

One exception, on purpose: a question that is an emergency once the bad characters are removed is
NOT refused. :func:`checked_question` returns the cleaned text, so the emergency redirect is still
shown and the question is still logged (the log stores the cleaned text, never the raw bytes).

This module must never drop a character silently from anything but that emergency question (and
:func:`loggable`, which is for logs only), and never import Qt or the database.
"""

from __future__ import annotations

import re

from engine.errors import ValidationError
from engine.events import Route
from engine.safety import route_question

# NUL and C0/C1 controls except tab, LF, CR; lone surrogates; non-characters U+FFFE/U+FFFF.
_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
REPLACEMENT = "\ufffd"


class BadText(ValidationError):
    """A value holds a character that cannot be stored or shown (NUL, broken encoding)."""

    public_message = "That text has a character the assistant cannot read. Please type it again."


def has_bad_characters(text: str) -> bool:
    return _BAD.search(text) is not None


def loggable(text: str) -> str:
    """``text`` with every bad character replaced by U+FFFD: safe to store and to print."""
    return _BAD.sub(REPLACEMENT, text)


def clean_text(text: str, field: str) -> str:
    """``text`` unchanged, or BadText naming ``field`` ("Patient name", "The question", ...)."""
    if not isinstance(text, str):
        raise ValidationError(f"{field} must be text.")
    if has_bad_characters(text):
        raise BadText(
            f"{field} contains a character that cannot be stored (a NUL byte, a control "
            "character or text that is not valid UTF-8); please type it again."
        )
    return text


def checked_question(question: str) -> str:
    """The question to answer: unchanged when clean; cleaned when it is an emergency (so the
    redirect is shown and logged); otherwise BadText."""
    if not isinstance(question, str) or not has_bad_characters(question):
        return clean_text(question, "The question")
    cleaned = _BAD.sub(" ", question)
    if route_question(cleaned).route is Route.EMERGENCY:
        return cleaned
    return clean_text(question, "The question")
