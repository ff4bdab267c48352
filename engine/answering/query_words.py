"""A question's words as the documents would write them, for search and for the evidence checks.

Decides these things, deterministically and without a model:
- **Contractions.** "I'm", "isn't", "we've" are written out ("I am", "is not", "we have"), so
  the pieces PostgreSQL's parser would keep ("m", "isn", "ve") never count as question words.
- **Chat spellings.** "r u open on a sat" is searched as "are you open on a Saturday": whole
  tokens found in the reviewed list (``everyday_words.yaml``, ``chat``) are rewritten.
- **Everyday words.** A word may also be matched by the words clinic documents use for it
  ("loo" by "toilet", "jab" by "vaccination"; ``everyday_words.yaml``, ``synonyms``). This only
  widens what a question word may match; it never removes a word from the question.
- **Typos.** A question word the documents never use, and that is not an English word (not a
  whole word of the embedding model's WordPiece vocabulary, which ships with the product), is
  matched by the document word it is one edit (two for words of eight letters or more) away
  from, with the same first letter: "prescripton" is "prescription", but "cafe" is never "care"
  and "chemist" never "chest".

- **Word parts.** A question word the documents never use, that is no English word either and
  no typo of a document word, is matched by the document word it is made of: a prefix before it
  ("rebook", "reorder", "overcharged", "prebook": book, order, charged) or an English word
  before it ("answerphone": phone). The part must be four letters or more ("camper" is never
  "per").
- **Idioms.** A few everyday idioms are searched as the plain word the documents write ("what
  would it set me back" -> cost, "fork out" / "foot the bill" -> pay, "turn up" / "show up" ->
  arrive). Never a word about the body or a symptom: this is the search's reading only, after
  routing.
- **General words.** A word of general English that never names the thing asked about ("pull",
  "past", "speediest"; ``everyday_words.yaml``, ``general``) hardly counts as the question's
  subject when no document uses it: "which buses pull up outside" is about buses, not about
  pulling. The retriever decides how little it weighs, and keeps its full weight in a question
  about health (``retrieval._ABOUT_HEALTH``), which is refused rather than answered.

It must never: drop any other question word (beyond an idiom's own words; a word the documents do
not use still counts against every passage, which is how "do you offer botox?" stays unanswered),
change a document's text, read the database, call a model, or raise on any input. Everything
here is a pure function; the word lists load once per process.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from engine.ops.paths import resources_dir

WORDS_PATH = Path(__file__).with_name("everyday_words.yaml")
# Whole English words (the MiniLM WordPiece vocabulary, shipped under resources/): such a word is
# meant as written and is never respelt. Missing file: no word is respelt at all.
ENGLISH_PATH = resources_dir() / "models" / "all-minilm-l6-v2" / "vocab.txt"

_TOKEN = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z]+)?")
# "phone no." / "phone no" -> "phone number"; "how much 4 a ..." -> "how much for a ...".
_NUMBER_ABBREVIATION = re.compile(r"\b(phone|telephone|tel|contact)\s+no\b\.?", re.IGNORECASE)
# (not after a word a number often follows: "room 4 the one upstairs" keeps its number)
_FOUR_FOR = re.compile(
    r"\b(?!(?:room|ward|floor|bay|level|route|bus|number|no|platform|door|gate|exit|stand|"
    r"building|block|zone|page|step|question|option|item|line)\b)([A-Za-z]+) 4 "
    r"(?=(?:a|an|the|my|me|you|u|it|him|her|them)\b)",
    re.IGNORECASE,
)


@cache
def _raw() -> dict[str, object]:
    return yaml.safe_load(WORDS_PATH.read_text(encoding="utf-8")) or {}


@cache
def _lists() -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    raw: dict[str, Any] = dict(_raw())
    chat = {str(k).lower(): str(v) for k, v in (raw.get("chat") or {}).items()}
    synonyms = {
        str(k).lower(): tuple(str(w).lower() for w in v)
        for k, v in (raw.get("synonyms") or {}).items()
    }
    return chat, synonyms


@cache
def general_stems(stemmer: Callable[[str], str]) -> frozenset[str]:
    """Stems (made with ``stemmer``) of the reviewed words of general English that never name
    what a question is about (``everyday_words.yaml``, ``general``): when no document uses one,
    it is not the question's subject."""
    raw: dict[str, Any] = dict(_raw())
    return frozenset(stemmer(str(w).lower()) for w in raw.get("general") or ())


# Contractions, with a straight or a curly apostrophe. PostgreSQL's english parser splits them at
# the apostrophe and keeps "m", "re", "ve", "ll", "d" and "isn" as words no document holds, each
# then weighing as the rarest word of all ("I'm pregnant, is there a toilet near the waiting
# room?" was refused for "m"). Written out, they are stop words. A possessive or "is" ("'s") is
# dropped ("my dad's English", "what's"), and so is "'d" ("would" and "could" are no stop words
# of PostgreSQL's english configuration; "had" is, but "I had like to pay" is no English).
_APOSTROPHE = "['\u2019]"
_WHOLE_CONTRACTIONS = {
    "won't": "will not",
    "can't": "can not",
    "shan't": "shall not",
    "ain't": "is not",
}
_WHOLE_CONTRACTION = re.compile(r"\b(won|can|shan|ain)" + _APOSTROPHE + r"t\b", re.IGNORECASE)
_NOT = re.compile(r"(?<=[A-Za-z])n" + _APOSTROPHE + r"t\b", re.IGNORECASE)
_SUFFIXES = {"m": " am", "re": " are", "ve": " have", "ll": " will", "d": "", "s": ""}
_SUFFIX = re.compile(r"(?<=[A-Za-z])" + _APOSTROPHE + r"(m|re|ve|ll|d|s)\b", re.IGNORECASE)


def expand_contractions(text: str) -> str:
    """``text`` with "I'm", "isn't", "we've", "you're", "I'll", "won't" written out and "'s"
    and "'d" dropped; every other character kept ("O'Brien", "o'clock" unchanged)."""
    text = _WHOLE_CONTRACTION.sub(lambda m: _WHOLE_CONTRACTIONS[m.group(1).lower() + "'t"], text)
    text = _NOT.sub(" not", text)
    return _SUFFIX.sub(lambda m: _SUFFIXES[m.group(1).lower()], text)


# Everyday idioms -> the plain word the documents write for them. Only idioms whose plain word
# is what they mean wherever they are said ("pick up" is left out: "can my aunt pick up my
# prescription?" asks who may collect, which "collect" alone would answer wrongly).
_IDIOMS = tuple(
    (re.compile(rf"\b{pattern}\b", re.IGNORECASE), words)
    for pattern, words in (
        (r"set(?:s|ting)? (?:me|you|us|him|her|them) back", "cost"),
        (r"(?:fork|forks|forking|shell|shells) out", "pay"),
        (r"foots? the bill", "pay"),
        # not "turn up the heating": only a person turning up
        (
            r"(?:turn|turns|turning|turned|show|shows|showing|showed) up"
            r"(?! (?:the|a|an|your|my|his|her|their|our|this|that|it|its)\b)",
            "arrive",
        ),
    )
)


def normalise(question: str) -> str:
    """The question with contractions written out and chat spellings and idioms rewritten as
    words; every other character kept."""
    chat, _ = _lists()
    text = expand_contractions(question)
    text = _NUMBER_ABBREVIATION.sub(lambda m: f"{m.group(1)} number", text)
    text = _FOUR_FOR.sub(lambda m: f"{m.group(1)} for ", text)
    for pattern, words in _IDIOMS:
        text = pattern.sub(words, text)

    def rewrite(match: re.Match[str]) -> str:
        word = match.group(0)
        return chat.get(word.lower(), word)

    return _TOKEN.sub(rewrite, text)


@cache
def synonym_stems(stemmer: Callable[[str], str]) -> Mapping[str, frozenset[str]]:
    """Stem of an everyday word -> stems of the document words that may stand for it, made with
    ``stemmer`` (the caller's, so both sides of a comparison are stemmed alike)."""
    _, synonyms = _lists()
    table: dict[str, set[str]] = {}
    for word, alternatives in synonyms.items():
        stems = {stemmer(w) for alt in alternatives for w in alt.split()}
        table.setdefault(stemmer(word), set()).update(stems)
    return {k: frozenset(v - {k}) for k, v in table.items()}


def within_edits(a: str, b: str, limit: int) -> bool:
    """Edit distance of a and b (a swap of two neighbouring letters counts one) <= ``limit``."""
    return edit_distance(a, b, limit) <= limit


def edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance, or ``limit + 1`` as soon as it must exceed ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, before[j - 2] + 1)
            current.append(cost)
        if min(current) > limit:
            return limit + 1
        before, previous = previous, current
    return min(previous[-1], limit + 1)


@cache
def _english() -> frozenset[str] | None:
    try:
        lines = ENGLISH_PATH.read_text(encoding="utf-8").split()
    except OSError:
        return None
    return frozenset(w for w in lines if w.isalpha() and w.islower() and len(w) > 1)


def may_be_typo(word: str) -> bool:
    """Whether a question word may be a misspelling: letters only, five or more of them, and not
    a whole English word. False for everything when the word list is missing."""
    english = _english()
    return english is not None and len(word) >= 5 and word.isalpha() and word.lower() not in english


def typo_limit(word: str) -> int:
    """How many edits a word of this length may be from the document word it stands for."""
    if len(word) < 5 or not word.isalpha():
        return 0
    return 2 if len(word) >= 8 else 1


def closest_word(word: str, vocabulary: Mapping[str, int]) -> str | None:
    """The document word ``word`` is a typo of: fewest edits, same first letter, then the most
    frequent (``vocabulary`` maps word -> how many chunks hold it). None when nothing is close."""
    limit = typo_limit(word)
    if not limit or word in vocabulary:
        return None
    best: tuple[int, int, str] | None = None
    for known, frequency in vocabulary.items():
        if known[:1] != word[:1] or known.isdigit():
            continue
        if len(known) >= 4 and 0 < len(word) - len(known) <= 2 and word.startswith(known):
            distance = limit  # the stem of a misspelt longer form: "parkin" (parking) -> "park"
        elif abs(len(known) - len(word)) > limit:
            continue
        else:
            distance = edit_distance(word, known, limit)
        if distance <= limit and (best is None or (distance, -frequency, known) < best):
            best = (distance, -frequency, known)
    return best[2] if best else None


def by_initial(words: Iterable[tuple[str, int]]) -> dict[str, dict[str, int]]:
    """A vocabulary grouped by first letter (what ``closest_word`` is given for one word)."""
    grouped: dict[str, dict[str, int]] = {}
    for word, frequency in words:
        grouped.setdefault(word[:1], {})[word] = frequency
    return grouped


# Prefixes a word the documents never use may carry before a document word ("rebook",
# "reorder", "overcharged", "prebook", "upstairs"); the part after one must be this long.
_PREFIXES = ("over", "under", "pre", "re", "out", "up", "down")
PART_LETTERS = 4


def word_part(
    stem: str, vocabulary: Mapping[str, Mapping[str, int]]
) -> tuple[str | None, Mapping[str, int]]:
    """The document stem that ``stem`` is made of, with the vocabulary group (``by_initial``)
    it is in, or ``(None, {})``. ``stem`` is a question word's that no chunk holds and that is
    no English word (the caller checks both, as for a typo): a prefix and a document word
    ("overcharg" -> "charg"), else an English word and a document word ("answerphon" ->
    "phone"; the longest such first part wins). Document stems ending in "e" count without it,
    as the stemmer drops it at the end of a longer word."""

    def known(part: str) -> tuple[str | None, Mapping[str, int]]:
        group = vocabulary.get(part[:1], {})
        for candidate in (part, part + "e"):
            if candidate in group:
                return candidate, group
        return None, {}

    for prefix in _PREFIXES:
        if stem.startswith(prefix) and len(stem) - len(prefix) >= PART_LETTERS:
            found = known(stem[len(prefix) :])
            if found[0] is not None:
                return found
    english = _english() or frozenset()
    for cut in range(len(stem) - PART_LETTERS, 2, -1):
        if stem[:cut] in english:
            found = known(stem[cut:])
            if found[0] is not None:
                return found
    return None, {}
