"""Forgiving matching of what staff type when looking for a slot: "cardio", "dr patel", typos.

Pure functions over small in-memory lists (departments and clinicians number in the dozens), so
the matching is the same on any PostgreSQL without extensions. It only decides which clinicians a
query means; it must never decide whether a slot is free (that is the database's job).
"""

from __future__ import annotations

import difflib
import re

_STOP_TEXT = (
    "a an the with for to in on at of and or dr doctor mr mrs ms miss appointment appointments "
    "appt slot slots book booking free next available see clinic please any"
)
# Words that say nothing about who or what: "an appointment with dr patel" -> "patel".
STOP_WORDS = frozenset(_STOP_TEXT.split())

# Everyday words for departments.
ALIASES = {
    "gp": "general practice",
    "heart": "cardiology",
    "cardiac": "cardiology",
    "skin": "dermatology",
    "derm": "dermatology",
    "physio": "physiotherapy",
    "child": "paediatrics",
    "children": "paediatrics",
    "kids": "paediatrics",
    "pediatrics": "paediatrics",
    "womens": "women's health",
    "women": "women's health",
    "gynaecology": "women's health",
}

_PARTS = {"morning": "morning", "am": "morning", "afternoon": "afternoon", "pm": "afternoon"}
_SIMILAR = 0.8


def words(text: str) -> list[str]:
    """Lower-case words with apostrophes dropped ("O'Brien" -> "obrien", "Women's" -> "womens")."""
    return re.findall(r"[a-z0-9]+", re.sub(r"['’]", "", text.lower()))


def query_tokens(query: str) -> list[str]:
    """The meaningful words of a query, with everyday aliases expanded."""
    tokens: list[str] = []
    for word in words(query):
        if word in STOP_WORDS:
            continue
        tokens.extend(words(ALIASES.get(word, word)))
    return tokens


def token_matches(token: str, word: str) -> bool:
    """Exact, a prefix of 3+ letters, or a small typo (whole word or prefix)."""
    if token == word:
        return True
    if len(token) < 3:
        return False
    if word.startswith(token):
        return True
    if difflib.SequenceMatcher(None, token, word).ratio() >= _SIMILAR:
        return True
    return (
        len(token) >= 5
        and difflib.SequenceMatcher(None, token, word[: len(token)]).ratio() >= _SIMILAR
    )


def matches(tokens: list[str], text: str) -> bool:
    """Every token matches some word of ``text`` (a clinician's name plus department)."""
    candidates = words(text)
    return all(any(token_matches(t, w) for w in candidates) for t in tokens)


def split_part_of_day(query: str, part_of_day: str) -> tuple[str, str]:
    """Let "cardiology morning" mean what it says; an explicit part of day wins."""
    kept = [w for w in query.split() if w.lower() not in _PARTS]
    if part_of_day == "any":
        for w in query.split():
            part_of_day = _PARTS.get(w.lower(), part_of_day)
    return " ".join(kept), part_of_day
