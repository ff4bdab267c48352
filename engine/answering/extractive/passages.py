"""The passages' side of the sentence evidence: each passage's sentences, list items and table
rows (``engine.answering.sentences``) stemmed once per process, whether a unit is a document's
sentence about itself ("This leaflet explains ..."), and the unit to quote for a list item that is
no sentence of its own (its whole list under its lead-in). Also ``one_sentence_holds_question``,
the relevance gate's evidence for a short question.

It must never change a word of a unit (a quote is a unit's own text), call a model or the
database.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from engine.answering.extractive.terms import _NUMBERISH, _TEXTSPEAK, stems
from engine.answering.sentences import Unit, split_units

# A document's sentence about itself ("This leaflet explains how to prepare for blood tests,
# colonoscopy, ultrasound scans and MRI scans", "This page explains our private fees, how to use
# health insurance, how to pay, ..."): it lists the document's topics, so it carries many of a
# question's words, but it answers none of them. It is never quoted, unless the question itself
# asks about a leaflet, a page or a document; the passage that holds it is still kept and shown.
_DOCUMENT_WORDS = (
    r"(?:page|pages|guide|leaflet|leaflets|document|documents|booklet|factsheet|fact sheet|sheet"
    r"|handout|section|notice|website)"
)
_ABOUT_ITSELF = re.compile(
    rf"^(?:this|these|the following) {_DOCUMENT_WORDS} (?:\w+ ){{0,2}}?(?:explains?|describes?"
    r"|covers?|tells? you|sets? out|lists?|is about|are about|gives?|contains?|summari[sz]es?"
    r"|is for|are for)\b",
    re.IGNORECASE,
)
_NAMES_A_DOCUMENT = re.compile(rf"\b{_DOCUMENT_WORDS}\b", re.IGNORECASE)


@dataclass(frozen=True)
class _Analysed:
    """A unit with the stems of its words, of its ``near`` words, and of its whole context."""

    unit: Unit
    text: frozenset[str]
    near: frozenset[str]  # text | near
    context: frozenset[str]  # text | near | context
    item: frozenset[str]  # near | the next sentence of its list item (one item names one thing)
    about_itself: bool  # "This leaflet explains ...": never a quote (``_ABOUT_ITSELF``)


@lru_cache(maxsize=1024)
def _analyse(headings: str, text: str) -> tuple[_Analysed, ...]:
    """A passage split and stemmed once per process (passages repeat across questions)."""
    analysed = []
    for unit in split_units(text, headings):
        own = frozenset(stems(unit.text))
        near = own | stems(unit.near)
        context = near | stems(unit.context)
        analysed.append(
            _Analysed(
                unit,
                own,
                near,
                context,
                near | stems(unit.follow),
                _ABOUT_ITSELF.match(unit.text) is not None,
            )
        )
    return tuple(analysed)


_WHOLE_SENTENCE = re.compile(r"[.!?][\"'\u201d)]*$")


def _shown_with_its_lead_in(unit: Unit, leads: Mapping[str, Unit]) -> Unit:
    """The unit to quote for ``unit``: a list item that is no sentence of its own ("Monday 28
    December 2026 (Boxing Day, substitute day)", "your medicine needs a medication review ...,
    or") is quoted as its whole list under the line that introduces it ("Over the coming months it
    will be closed on:"), which says what the item means; any other unit as it is."""
    for item, lead in leads.items():
        if unit.text in item and not _WHOLE_SENTENCE.search(item):
            return lead
    return unit


def one_sentence_holds_question(question: str, headings: str, text: str) -> bool:
    """Whether one sentence, list item or table row of the passage (its own words, not its
    headings) holds every content word of the question, at least two, each by its own stem: no
    synonym, typo repair or word start counts. The gate's evidence for a short question that
    MiniLM scores low against a longer passage ("Do I have to sign a consent form?")."""
    try:
        terms = {t for t in stems(question) if t not in _TEXTSPEAK and not _NUMBERISH.match(t)}
        if len(terms) < 2:
            return False
        return any(terms <= analysed.text for analysed in _analyse(headings, text))
    except Exception:  # pragma: no cover - never breaks an answer; no evidence instead
        return False
