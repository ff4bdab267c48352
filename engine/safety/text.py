"""Question normalisation for the safety router: one canonical lower-case form of what was typed.

What it does: Unicode NFKC (fullwidth letters become ASCII), drops invisible format characters
(zero-width spaces and joiners, soft hyphens, bidi marks) and accents, maps common Cyrillic and
Greek look-alike letters to Latin, lower-cases, straightens quotes, writes "'ll" out ("I'll" ->
"i will", not "ill"), removes apostrophes ("can't" -> "cant"), turns "A&E" into "ae", strips
punctuation and collapses whitespace. Then
:func:`canonical_tokens` repairs typos of the emergency vocabulary only (a listed misspelling,
or a small edit distance to an emergency keyword), so "chest pian", "cant breath", "unconcious"
and "stroak" reach the same rules as the correct spelling.

It must never: use the network, a model or embeddings; raise on any input; take more than
linear time in the length of the question (a 10,000-character paste must be instant).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from engine.safety.lexicon import (
    FUZZY_KEYWORDS,
    FUZZY_KEYWORDS_SHORT,
    MISSPELLINGS,
    PROTECTED_WORDS,
)

# Latin look-alikes that survive NFKC (Cyrillic and Greek letters typed or pasted to evade rules).
_CONFUSABLES = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
        "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
        "ɡ": "g", "ӏ": "l", "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v",
        "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x",
        "А": "a", "В": "b", "Е": "e", "К": "k", "М": "m", "Н": "h", "О": "o", "Р": "p", "С": "c",
        "Т": "t", "У": "y", "Х": "x", "І": "i",
    }
)  # fmt: skip
_QUOTES = str.maketrans(
    {
        "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "`": "'",
        "\u00b4": "'", "\u02bc": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"',
    }
)  # fmt: skip
_A_AND_E = re.compile(r"\ba\s*(?:&|\+|\band\b|\bn\b)\s*e\b")
_NON_WORD = re.compile(r"[\W_]+")
_WILL = re.compile(r"(?<=[a-z])'ll\b")
_MAX_FUZZY_TOKEN = 30


def normalise(text: str) -> str:
    """Return the canonical form of ``text``: lower case, no punctuation, single spaces."""
    t = unicodedata.normalize("NFKC", text)
    t = "".join(ch for ch in t if unicodedata.category(ch) != "Cf")
    t = unicodedata.normalize("NFKD", t)
    t = "".join(ch for ch in t if not unicodedata.combining(ch))
    t = t.translate(_CONFUSABLES).casefold().translate(_QUOTES)
    t = _A_AND_E.sub(" ae ", t)
    t = _WILL.sub(" will", t)  # "I'll" is "i will", never "ill"; "he'll" never "hell"
    t = t.replace("'", "")
    t = _NON_WORD.sub(" ", t)
    return " ".join(t.split())


def _osa_distance(a: str, b: str) -> int:
    """Optimal string alignment distance (Levenshtein plus adjacent transpositions)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


def _deletions(word: str, depth: int) -> set[str]:
    out = {word}
    frontier = {word}
    for _ in range(depth):
        frontier = {w[:i] + w[i + 1 :] for w in frontier for i in range(len(w))}
        out |= frontier
    return out


def _allowed_distance(token: str, keyword: str) -> int:
    shortest = min(len(token), len(keyword))
    if shortest >= 8:
        return 2
    if shortest >= 5:
        return 1
    return 0


def _build_index() -> dict[str, frozenset[str]]:
    index: dict[str, set[str]] = {}
    for keyword in FUZZY_KEYWORDS | FUZZY_KEYWORDS_SHORT:
        depth = 2 if len(keyword) >= 8 else 1
        for variant in _deletions(keyword, depth):
            index.setdefault(variant, set()).add(keyword)
    return {k: frozenset(v) for k, v in index.items()}


_INDEX = _build_index()


@functools.lru_cache(maxsize=4096)
def fuzzy_keyword(token: str) -> str | None:
    """The emergency keyword ``token`` is a typo of, or None.

    Words of 5+ letters may be one edit away (8+ letters: two); 4-letter words only a swap of
    two letters ("pian"). Real words listed in ``PROTECTED_WORDS`` ("breast", "sitting") never
    match, so ordinary questions are not turned into emergencies by the typo layer.
    """
    if token in FUZZY_KEYWORDS or token in FUZZY_KEYWORDS_SHORT:
        return token
    if token in PROTECTED_WORDS or not token.isalpha() or len(token) > _MAX_FUZZY_TOKEN:
        return None
    depth = 2 if len(token) >= 8 else 1
    candidates: set[str] = set()
    for variant in _deletions(token, depth):
        candidates |= _INDEX.get(variant, frozenset())
    best: tuple[int, str] | None = None
    for keyword in sorted(candidates):
        if keyword in FUZZY_KEYWORDS_SHORT or len(token) == 4:
            ok = len(token) == len(keyword) == 4 and sorted(token) == sorted(keyword)
            distance = 1 if ok else 99
        else:
            distance = _osa_distance(token, keyword)
            ok = distance <= _allowed_distance(token, keyword)
        if ok and (best is None or distance < best[0]):
            best = (distance, keyword)
    return best[1] if best else None


def canonical_tokens(normalised: str) -> list[str]:
    """Tokens of a normalised question with emergency-vocabulary typos repaired."""
    out: list[str] = []
    for token in normalised.split():
        fixed = MISSPELLINGS.get(token)
        if fixed is not None:
            out.extend(fixed.split())
            continue
        keyword = fuzzy_keyword(token)
        out.append(keyword if keyword is not None else token)
    return out
