"""The citation guard: decides, after streaming, whether the model's answer may be shown.

An answer is shown only if it is the refusal sentence, or it says something, cites at least one
passage that was actually offered, and every exact detail in it appears in a passage it cites:

- The refusal sentence counts give or take quotes, spaces, the final full stop, the case of its
  first letter, and any citation markers or ``Sources:`` line around it (it is then shown as the
  constant, without them).
- Saying something: after removing citation markers, ``Sources:`` lists, the offered passages'
  headings (``Preparing for your test > Colonoscopy``), review dates, function words and words
  about documents ("see the clinic's documents"), at least two words must remain. Otherwise the
  reason is ``empty_answer`` (a reply of only ``Sources: [1]``, or only a heading).
- Citations: inline ``[n]``, ``[1, 2]``, ``[1][3]``, ``[1-2]``, ``[Passage 2]``, or a
  ``Sources:`` list anywhere, bold or not. Numbers that were never offered are removed from the
  text and never count.
- Exact details (phone numbers, extensions, clock times, prices, dates, weekday-date and
  weekday-time pairs, quantities with a unit even with a word between: "3 full working days"):
  :mod:`engine.answering.guard_details` decides what they are and how they compare. A model that
  "tidies" ``020 7946 0121`` into ``020 7946 0112`` fails.

Anything else is replaced by the refusal, with a machine-readable reason for the review log:
``empty``, ``empty_answer``, ``no_citation``, ``only_invalid_citations``,
``unverified_detail:<the detail as written>``.

This module must never call a model, trust text inside a passage as an instruction, or raise on
any input; it is a pure function of the answer, the offered passages and the refusal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.answering.guard_details import first_unverified


@dataclass(frozen=True)
class GuardResult:
    """What to show, and why."""

    ok: bool
    text: str
    cited: tuple[int, ...]
    reason: str | None
    is_refusal: bool


# ----------------------------------------------------------------------------- refusal matching

_QUOTE_CHARS = "\"'`\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u00ab\u00bb\u2039\u203a"
_STRAIGHTEN = str.maketrans(
    {"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u02bc": "'", "\u2032": "'",
     "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"', "\u00bb": '"'}
)  # fmt: skip


def _refusal_key(text: str) -> str:
    t = " ".join(text.translate(_STRAIGHTEN).split())
    previous = None
    while previous != t:
        previous = t
        t = t.strip().strip(_QUOTE_CHARS).strip().rstrip(".").rstrip()
    return t[:1].lower() + t[1:]


def is_exact_refusal(text: str, refusal: str) -> bool:
    """True when ``text`` is the refusal sentence, give or take quotes, spaces, the final full
    stop and the case of the first letter."""
    key = _refusal_key(text)
    return bool(key) and key == _refusal_key(refusal)


# ----------------------------------------------------------------------------- citations

_MARKER = re.compile(
    r"\[\s*(?:(?:passages?|sources?|refs?|references?|documents?|docs?)\s*)?#?"
    r"(\d{1,6}(?:\s*(?:,|;|-|\u2013|\u2014|and|&)\s*#?\d{1,6})*)\s*\]",
    re.IGNORECASE,
)
_SOURCES = re.compile(
    r"(?:\*\*|__|\*|_)?\b(?:sources?|references?|citations?)\b(?:\*\*|__|\*|_)?\s*:\s*"
    r"(?:\*\*|__|\*|_)?(?P<list>[^\n]*)",
    re.IGNORECASE,
)
_SOURCES_LINE = re.compile(
    r"(?:\*\*|__|\*|_)?\b(?:sources?|references?|citations?)\b(?:\*\*|__|\*|_)?[ \t]*:[^\n]*",
    re.IGNORECASE,
)
_PURE_LIST = re.compile(
    r"^[\s\[\]\d,;&*_#.\-\u2013\u2014]*(?:(?:and|passages?)[\s\[\]\d,;&*_#.\-\u2013\u2014]*)*$",
    re.IGNORECASE,
)
_NUMBER_OR_RANGE = re.compile(r"(\d{1,6})(?:\s*[-\u2013\u2014]\s*(\d{1,6}))?")
_MAX_RANGE = 50


def _numbers(spec: str) -> list[int]:
    """Numbers in "1, 2", "1-3", "2 and 4"; a range wider than 50 counts as its two ends."""
    out: list[int] = []
    for match in _NUMBER_OR_RANGE.finditer(spec):
        start = int(match.group(1))
        end = int(match.group(2)) if match.group(2) else start
        if start <= end <= start + _MAX_RANGE:
            out.extend(range(start, end + 1))
        else:
            out.extend((start, end))
    return out


def _drop_pure_list(match: re.Match[str]) -> str:
    """Blank a Sources list of numbers; keep prose after "Sources:" so its details are checked."""
    return " " if _PURE_LIST.match(match.group("list")) else match.group(0)


def _render(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)


@dataclass(frozen=True)
class _Citations:
    text: str  # answer with invalid numbers removed
    body: str  # the same without markers and Sources lists: where details are looked for
    valid: tuple[int, ...]
    found_any: bool


def _extract_citations(text: str, count: int) -> _Citations:
    valid: set[int] = set()
    found_any = False

    def keep(numbers: list[int]) -> list[int]:
        nonlocal found_any
        found_any = found_any or bool(numbers)
        good = sorted({n for n in numbers if 1 <= n <= count})
        valid.update(good)
        return good

    def fix_sources(match: re.Match[str]) -> str:
        listed = match.group("list")
        if not _PURE_LIST.match(listed) or not re.search(r"\d", listed):
            return match.group(0)  # prose after "Sources:"; bracketed markers are handled below
        good = keep(_numbers(listed))
        if not good:
            return ""
        label = match.group(0)[: match.start("list") - match.start(0)].rstrip()
        return f"{label} [{_render(good)}]" if "[" in listed else f"{label} {_render(good)}"

    def fix_marker(match: re.Match[str]) -> str:
        numbers = _numbers(match.group(1))
        good = keep(numbers)
        if not good:
            return ""
        if len(good) == len(set(numbers)):
            return match.group(0)
        return f"[{_render(good)}]"

    cleaned = _SOURCES.sub(fix_sources, text)
    cleaned = _MARKER.sub(fix_marker, cleaned)
    cleaned = re.sub(r"[ \t]+([.,;:!?])", r"\1", cleaned)
    cleaned = re.sub(r"[ \t]{2,}", " ", cleaned).strip()
    body = _MARKER.sub(" ", _SOURCES.sub(_drop_pure_list, cleaned))
    return _Citations(cleaned, body, tuple(sorted(valid)), found_any)


# ----------------------------------------------------------------------------- substance

# Words that say nothing about the clinic by themselves: function words, and words about the
# documents rather than from them ("see the clinic's documents [1]").
_EMPTY_WORDS = frozenset(
    """a an the this that these those it its is are was were be been being am has have had do
    does did will would can could shall should may might must of in on at to for with by from as
    about into onto over per via and or but nor so if then than here there where which what who
    whom whose how when why i me my we us our you your he she they them their his her
    clinic clinics clinic's document documents document's documents' doc docs passage passages
    source sources reference references citation citations cited cite information info detail
    details answer answers question questions according see refer referred referring described
    explained covered listed found find provided mentioned stated states state says say said text
    section sections heading headings title titles page pages quoted based following below above
    relevant available note reviewed please follows given contain contains containing
    """.split()  # noqa: SIM905
)
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_REVIEWED = re.compile(r"\(\s*reviewed[^)]*\)", re.IGNORECASE)
MIN_SUBSTANTIVE_WORDS = 2


def _label_phrases(passages: Sequence[str]) -> list[str]:
    """Each offered passage's heading path (its first line) and the parts of it, longest first."""
    phrases: set[str] = set()
    for passage in passages:
        label = " ".join(_REVIEWED.sub(" ", passage.split("\n", 1)[0]).split())
        if label:
            phrases.add(label)
            phrases.update(part.strip() for part in re.split(r"\s*>\s*", label) if part.strip())
    return sorted(phrases, key=len, reverse=True)


def substantive_words(body: str, passages: Sequence[str]) -> list[str]:
    """The words of ``body`` (citations already removed) that say something: what is left after
    removing the passages' headings, review dates, function words and words about documents."""
    text = _REVIEWED.sub(" ", body.translate(_STRAIGHTEN))
    for phrase in _label_phrases(passages):
        pattern = r"\s+".join(re.escape(w) for w in phrase.translate(_STRAIGHTEN).split())
        text = re.sub(rf"(?<!\w){pattern}(?!\w)", " ", text, flags=re.IGNORECASE)
    words = (w.lower().replace("’", "'") for w in _WORD.findall(text))
    return [w for w in words if w not in _EMPTY_WORDS]


# ----------------------------------------------------------------------------- the guard


def _refuse(refusal: str, reason: str) -> GuardResult:
    return GuardResult(ok=False, text=refusal, cited=(), reason=reason, is_refusal=False)


def _without_citations(text: str) -> str:
    """``text`` without citation markers and without any Sources line (label to end of line)."""
    return _MARKER.sub(" ", _SOURCES_LINE.sub(" ", text))


def check_answer(text: str, passages: Sequence[str], refusal: str) -> GuardResult:
    """Decide whether ``text`` (the model's finished answer) may be shown.

    ``passages[i]`` is passage ``i + 1`` exactly as offered in the prompt (heading path and any
    ``(reviewed <date>)`` on the first line, then the body: ``prompting.offered_text``).
    Returns the text to show: the answer with invalid citation numbers removed, or the refusal
    with the reason it was refused.
    """
    if is_exact_refusal(text, refusal) or is_exact_refusal(_without_citations(text), refusal):
        return GuardResult(ok=True, text=refusal, cited=(), reason=None, is_refusal=True)
    if not text.strip():
        return _refuse(refusal, "empty")
    citations = _extract_citations(text, len(passages))
    if len(substantive_words(citations.body, passages)) < MIN_SUBSTANTIVE_WORDS:
        return _refuse(refusal, "empty_answer")
    if not citations.valid:
        return _refuse(refusal, "only_invalid_citations" if citations.found_any else "no_citation")
    detail = first_unverified(citations.body, [passages[n - 1] for n in citations.valid])
    if detail is not None:
        return _refuse(refusal, f"unverified_detail:{detail.shown}")
    return GuardResult(
        ok=True, text=citations.text, cited=citations.valid, reason=None, is_refusal=False
    )
