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


def _surname(name: str) -> str:
    parts = words(name)
    return parts[-1] if parts else ""


def slot_request(
    question: str, departments: list[str], clinicians: list[tuple[int, str, str]]
) -> str:
    """What a free-slot question asks for, as a query for ``BookingService.find_free_slots``:
    the clinician it names ("when is Dr Patel free?" -> "Dr Priya Patel"), else the department
    it names or an everyday word for one ("a free physio appointment" -> "Physiotherapy"),
    else "" (any clinician). Only whole words count, so "heartburn" names no department."""
    asked = set(words(question))
    for _id, name, _department in clinicians:
        surname = _surname(name)
        if surname and surname in asked:
            return name
    expanded = asked | {w for word in asked for w in words(ALIASES.get(word, ""))}
    for department in departments:
        parts = [w for w in words(department) if w not in STOP_WORDS]
        if parts and (
            all(p in expanded for p in parts)
            or any(len(w) >= 5 and p.startswith(w) for p in parts for w in asked)
        ):
            return department
    return ""
