"""The question's words as the sentence evidence reads them: content stems (Snowball, as
PostgreSQL's english configuration makes them, near enough; a few words keep a stem of their
own), the words that only frame a question (stop words, chat spellings, pieces of contractions,
words that only say which kind of detail is asked for; ``is_framing``, which the retriever's term
share reads too), misspelt question words respelt, typos repaired against the passages' words,
synonyms (``engine/answering/everyday_words.yaml``), the question's weighted terms
(``question_terms``) and the passage words each of them counts as.

It must never decide whether a sentence answers (``engine.answering.extractive`` does), stem
one side of a comparison differently from the other (question and passages both go through
``_stem``), call a model or the database.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

from py_rust_stemmers import SnowballStemmer

from engine.answering.query_words import synonym_stems, within_edits
from engine.safety.vocabulary import MEDS

_STEMMER = SnowballStemmer("english")


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


# PostgreSQL's english stop words (the Snowball list), so both sides drop the same words, plus
# words that only frame a question.
_STOP = _wordset(
    """i me my myself we our ours ourselves you your yours yourself yourselves he him his himself
    she her hers herself it its itself they them their theirs themselves what which who whom this
    that these those am is are was were be been being have has had having do does did doing a an
    the and but if or because as until while of at by for with about against between into through
    during before after above below to from up down in out on off over under again further then
    once here there when where why how all any both each few more most other some such no nor not
    only own same so than too very s t can will just don should now
    hi hiya hello hey please thanks thank cheers ok okay could would might may must shall
    anyone someone somebody anybody tell know wondering wonder need want like im ive id dont
    get got go going clinic clinics come back take use make happen let anything nothing something
    everything nobody everybody ago told say said
    still really quite actually maybe perhaps also somewhere anywhere every yes yeah
    today tonight tomorrow yesterday
    another either neither several enough whatever whichever whoever whenever wherever however
    whether although though unless since"""
)

# Chat spellings of question words: never the subject ("wat time dose it open").
_TEXTSPEAK = _wordset("wat wot wht pls plz u ur r y ya yr abt cn wen whn hw thx ty im ive")

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")

# What PostgreSQL's parser leaves of a contraction ("I'm" -> "m", "hasn't" -> "hasn").
_CONTRACTION_PIECES = _wordset(
    "m s t d ll ve re isn aren wasn weren hasn haven hadn doesn didn won wouldn couldn shouldn "
    "mustn shan needn"
)


# Words that only say which kind of detail is asked for; the detail itself is checked instead.
_CUE_WORDS = _wordset(
    "cost costs price prices priced fee fees charge charged charges much long many time times "
    "number phone telephone ring call email mail open opens opening close closes shut shuts "
    "hours expensive cheap far ahead advance soon early quickly day days week "
    "weeks minute minutes hour month months year years"
)


@lru_cache(maxsize=1)
def _framing_lexemes() -> frozenset[str]:
    words = _STOP | _CUE_WORDS | _TEXTSPEAK
    return frozenset({str(_STEMMER.stem_word(w)) for w in words} | _CONTRACTION_PIECES)


@lru_cache(maxsize=1)
def _medicine_stems() -> frozenset[str]:
    """Stems of the one-word medicine names the safety rules know (``safety.vocabulary.MEDS``),
    but not the generic words themselves ("medicine", "tablet")."""
    names = MEDS.removeprefix("(?:").removesuffix(")").split("|")
    generic = {_stem(w) for w in ("medicine", "medicines", "medication", "medications")}
    return frozenset(_stem(n) for n in names if n.isalpha()) - generic


def is_framing(lexeme: str) -> bool:
    """Whether a question lexeme (stemmed as PostgreSQL's english configuration does) only frames
    the question: a function word, a word that only says which kind of detail is asked for
    ("cost", "long", "open"), a chat spelling or a piece of a contraction. The sentence-level
    evidence never counts these as the subject; the relevance gate's term share leaves them out
    too (``engine.answering.retrieval.gate``), so one rare framing word ("much", "I'm") cannot
    sink a passage that carries the question's subject."""
    return lexeme in _framing_lexemes()


_NUMBERISH = re.compile(
    r"^(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|first|"
    r"second|third|half)$"
)


# Words that keep a stem of their own. "Allowed" asks permission, and documents say "allow" of
# time ("please allow 2 to 3 hours for the whole visit"): stemmed alike, "what am I allowed to eat
# before a colonoscopy?" was answered with that sentence. The participle still matches a
# document's "allowed" or "permitted"; it is never repaired to "allow" as a typo.
_OWN_STEMS = {"allowed": "allowed", "permitted": "allowed"}


@lru_cache(maxsize=8192)
def _stem(word: str) -> str:
    if word in _OWN_STEMS:
        return _OWN_STEMS[word]
    stem = str(_STEMMER.stem_word(word))
    # "buses" -> "buse" but "bus" -> "bus": a final e is dropped on both sides.
    return stem[:-1] if len(stem) >= 4 and stem.endswith("e") else stem


def _synonyms() -> Mapping[str, frozenset[str]]:
    """Everyday word -> document words (engine/answering/everyday_words.yaml), stemmed as here."""
    return synonym_stems(_stem)


def stems(text: str) -> set[str]:
    """Content-word stems as PostgreSQL's english configuration makes them (near enough)."""
    words = _WORD.findall(text.lower().replace("\u2019", "'"))
    return {_stem(w.split("'")[0]) for w in words if w.split("'")[0] not in _STOP}


# The framing words a typo is respelt to (a short list: "near" must not become "year").
_QUESTION_WORDS = sorted(
    _wordset(
        "long much many before after what when where which does have cost price open close hours "
        "phone number email"
    )
)


def _respell(question: str, vocabulary: set[str]) -> str:
    """Misspelt question words ("lnog", "befor", "hwo") -> the question word they are one edit
    from, unless the passages use them. Only question and cue words are respelt here."""

    def fix(match: re.Match[str]) -> str:
        word = match.group(0)
        lower = word.lower()
        if len(lower) < 4 or lower in _STOP or lower in _CUE_WORDS or _stem(lower) in vocabulary:
            return word
        for known in _QUESTION_WORDS:
            if known[0] == lower[0] and within_edits(lower, known, 1):
                return known
        return word

    return re.sub(r"[A-Za-z]+", fix, question)


def _repair(term: str, vocabulary: set[str]) -> str:
    """A misspelt question term -> the passage word it is one (or, if long, two) letters from."""
    if term in vocabulary or len(term) < 4 or term.isdigit() or term in _synonyms():
        return term
    if term in _OWN_STEMS.values():
        return term
    limit = 2 if len(term) >= 7 else 1
    for word in sorted(vocabulary):
        if word[:1] == term[:1] and within_edits(term, word, limit):
            return word
    return term


def question_terms(
    question: str, weights: Mapping[str, float], vocabulary: set[str]
) -> dict[str, float]:
    """The question's content stems (typos repaired against ``vocabulary``) and their weights.

    Weights are the retriever's IDF weights by lexeme; a stem it did not weigh counts as rare.
    Numbers and the words that only say which kind of detail is asked for are left out."""
    heaviest = max(weights.values(), default=1.0)
    terms: dict[str, float] = {}
    for word in _WORD.findall(question.lower().replace("\u2019", "'")):
        word = word.split("'")[0]
        if word in _STOP or word in _CUE_WORDS or _NUMBERISH.match(word) or len(word) < 2:
            continue
        raw = str(_STEMMER.stem_word(word))
        if word in _TEXTSPEAK or raw in _framing_lexemes():  # "coming", "gets": framing too
            continue
        stem = _stem(word)
        weight = weights.get(raw, weights.get(word, heaviest))
        terms[_repair(stem, vocabulary)] = max(weight, 0.05)
    return terms


def _hits(term: str, vocabulary: set[str]) -> frozenset[str]:
    """The passage words a question term counts as: the term, a synonym of it, or a longer word
    it is the start of ("prep" -> "prepar")."""
    found = {term, *_synonyms().get(term, ())} & vocabulary
    if len(term) >= 4:
        found.update(w for w in vocabulary if w.startswith(term))
    return frozenset(found)


def _alternative_hits(
    question: str, vocabulary: set[str], alternatives: Mapping[str, Iterable[str]]
) -> dict[str, frozenset[str]]:
    """Question term -> passage words its retriever-given alternatives count as."""
    extra: dict[str, frozenset[str]] = {}
    if not alternatives:
        return extra
    for word in _WORD.findall(question.lower().replace("\u2019", "'")):
        word = word.split("'")[0]
        others = alternatives.get(str(_STEMMER.stem_word(word)))
        if not others:
            continue
        term = _repair(_stem(word), vocabulary)
        found: set[str] = set()
        for other in others:
            found |= _hits(
                other[:-1] if len(other) >= 4 and other.endswith("e") else other, vocabulary
            )
        extra[term] = extra.get(term, frozenset()) | found
    return extra
