"""The citation guard: decides, after streaming, whether the model's answer may be shown.

An answer is shown only if it is exactly the refusal sentence, or it cites at least one passage that
was actually offered (inline ``[n]``, ``[1, 2]``, ``[1][3]``, ``[1-2]``, or a ``Sources:`` list
anywhere, bold or not) and every exact detail in it (phone numbers, extensions, times, prices,
durations and quantities with units) appears in a passage it cites. Citation numbers that were
never offered are removed from the text and never count. Anything else is replaced by the refusal,
with a machine-readable reason for the review log.

Details are compared by meaning of format, not by spelling: a phone number by its digits
(``+44 (0)20 7946 0121`` == ``020 7946 0121``), a time by its minutes (``8:30`` == ``08:30`` ==
``8.30am``; a time without am/pm may be either half of the day), a price in pence (``£45`` ==
``£45.00`` == ``45 pounds``), a duration by number and unit (``12 hours`` == ``twelve hours``).
A model that "tidies" ``020 7946 0121`` into ``020 7946 0112`` fails.

This module must never call a model, trust text inside a passage as an instruction, or raise on
any input; it is a pure function of the answer, the offered passages and the refusal.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass


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


# ----------------------------------------------------------------------------- exact details

_PRICE = re.compile(
    r"£\s?(?P<a>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<ap>\d{2}))?(?!\d)"
    r"|(?<![\d.])(?P<b>\d+)(?:\.(?P<bp>\d{2}))?\s*(?:pounds?|gbp)\b"
    r"|(?<![\d.£])(?P<c>\d{1,3})\s?p\b",
    re.IGNORECASE,
)
# UK numbers: +44 / 0044 / 0 followed by 9-10 more digits, and the short service numbers.
_PHONE = re.compile(
    r"(?:\+|\b00)44\s?(?:\(0\)\s?)?\d(?:[\s\-.]?\d){8,10}(?!\d)"
    r"|(?<![\d£.])0\d(?:[\s\-.]?\d){8,10}(?!\d)"
    r"|(?<![\d£.,])(?:111|999|112|116\s?123|116\s?117|119|101|105)(?![\d.,])",
)
_EXTENSION = re.compile(r"\b(?:ext|extn|extension|x)\.?\s?(?P<n>\d{2,6})\b", re.IGNORECASE)
_TIME = re.compile(
    r"(?<![\d.:£])(?P<h>\d{1,2})(?:[:.](?P<m>[0-5]\d))?\s?(?P<ap>a\.?m\b\.?|p\.?m\b\.?)"
    r"|(?<![\d.:£])(?P<h2>[0-2]?\d)[:.](?P<m2>[0-5]\d)(?!\d|[.:]\d)",
    re.IGNORECASE,
)
_WORD_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
    "twenty four": 24, "thirty": 30, "forty": 40, "forty eight": 48, "sixty": 60,
    "seventy two": 72, "ninety": 90, "a hundred": 100,
}  # fmt: skip
_NUM = r"(?:\d+(?:\.\d+)?|" + "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True)) + ")"
_UNITS = {
    "working day": "working day", "business day": "working day", "day": "day", "hour": "hour",
    "hr": "hour", "minute": "minute", "min": "minute", "second": "second", "sec": "second",
    "week": "week", "month": "month", "year": "year", "ml": "ml", "millilitre": "ml",
    "milliliter": "ml", "mg": "mg", "milligram": "mg", "litre": "litre", "liter": "litre",
    "glass": "glass", "cup": "cup", "pint": "pint", "kg": "kg",
}  # fmt: skip
_UNIT = r"(?:" + "|".join(sorted(_UNITS, key=len, reverse=True)) + r")(?:e?s)?"
_QUANTITY = re.compile(
    rf"\b(?:(?P<first>{_NUM})\s?(?:-|\u2013|to|or)\s?)?(?P<n>{_NUM})[\s-]?(?P<unit>{_UNIT})\b",
    re.IGNORECASE,
)

_SEPARATORS = r"[\s\-.()]*"


def _mask(text: str, span: tuple[int, int]) -> str:
    return text[: span[0]] + " " * (span[1] - span[0]) + text[span[1] :]


def _national_digits(phone: str) -> str:
    t = re.sub(r"^(?:\+|00)44\s?(?:\(0\)\s?)?", "0", phone.strip())
    return re.sub(r"\D", "", t)


def _phone_in(digits: str, passage: str) -> bool:
    normalised = re.sub(r"(?:\+|\b00)44\s?(?:\(0\)\s?)?", "0", passage)
    pattern = r"(?<!\d)" + _SEPARATORS.join(digits) + r"(?!\d)"
    return re.search(pattern, normalised) is not None


def _price_pence(match: re.Match[str]) -> int:
    if match.group("c") is not None:
        return int(match.group("c"))
    pounds = match.group("a") or match.group("b") or "0"
    pence = match.group("ap") or match.group("bp") or "0"
    return int(pounds.replace(",", "")) * 100 + int(pence)


def _time_minutes(match: re.Match[str]) -> frozenset[int]:
    if match.group("h") is not None:
        hour, minute = int(match.group("h")), int(match.group("m") or 0)
        if not 1 <= hour <= 12:
            return frozenset()
        pm = match.group("ap").lower().startswith("p")
        hour = hour % 12 + (12 if pm else 0)
        return frozenset({hour * 60 + minute})
    hour, minute = int(match.group("h2")), int(match.group("m2"))
    if hour > 24:
        return frozenset()
    options = {hour * 60 + minute}
    if 1 <= hour < 12:
        options.add((hour + 12) * 60 + minute)
    return frozenset(options)


def _number(text: str) -> float:
    word = " ".join(text.lower().replace("-", " ").split())
    return float(_WORD_NUMBERS[word]) if word in _WORD_NUMBERS else float(text)


def _unit(text: str) -> str:
    t = text.lower()
    for suffix in ("es", "s", ""):
        if suffix and t.endswith(suffix) and t[: -len(suffix)] in _UNITS:
            return _UNITS[t[: -len(suffix)]]
    return _UNITS.get(t, t)


@dataclass(frozen=True)
class _Detail:
    kind: str
    shown: str
    key: object


def _details(text: str) -> Iterator[_Detail]:
    """Exact details in ``text``; each span is masked once read so it is not read twice."""
    for match in list(_PRICE.finditer(text)):
        yield _Detail("price", match.group(0).strip(), _price_pence(match))
        text = _mask(text, match.span())
    for match in list(_PHONE.finditer(text)):
        yield _Detail("phone", match.group(0).strip(), _national_digits(match.group(0)))
        text = _mask(text, match.span())
    for match in list(_EXTENSION.finditer(text)):
        yield _Detail("extension", match.group(0).strip(), match.group("n"))
        text = _mask(text, match.span())
    for match in list(_TIME.finditer(text)):
        minutes = _time_minutes(match)
        if minutes:
            yield _Detail("time", match.group(0).strip(), minutes)
            text = _mask(text, match.span())
    for match in _QUANTITY.finditer(text):
        unit = _unit(match.group("unit"))
        for group in ("first", "n"):
            if match.group(group):
                yield _Detail(
                    "quantity", match.group(0).strip(), (_number(match.group(group)), unit)
                )


def _verified(
    detail: _Detail, passages: Sequence[str], passage_details: list[list[_Detail]]
) -> bool:
    if detail.kind == "phone":
        return any(_phone_in(str(detail.key), p) for p in passages)
    if detail.kind == "extension":
        return any(re.search(rf"(?<!\d){detail.key}(?!\d)", p) for p in passages)
    for found in passage_details:
        for other in found:
            if other.kind != detail.kind:
                continue
            if detail.kind == "time":
                assert isinstance(detail.key, frozenset) and isinstance(other.key, frozenset)
                if detail.key & other.key:
                    return True
            elif other.key == detail.key:
                return True
    return False


# ----------------------------------------------------------------------------- the guard


def _refuse(refusal: str, reason: str) -> GuardResult:
    return GuardResult(ok=False, text=refusal, cited=(), reason=reason, is_refusal=False)


def check_answer(text: str, passages: Sequence[str], refusal: str) -> GuardResult:
    """Decide whether ``text`` (the model's finished answer) may be shown.

    ``passages[i]`` is the text (heading path and body) of passage ``i + 1`` as offered in the
    prompt. Returns the text to show: the answer with invalid citation numbers removed, or the
    refusal with the reason it was refused.
    """
    if is_exact_refusal(text, refusal):
        return GuardResult(ok=True, text=refusal, cited=(), reason=None, is_refusal=True)
    if not text.strip():
        return _refuse(refusal, "empty")
    citations = _extract_citations(text, len(passages))
    if not citations.valid:
        return _refuse(refusal, "only_invalid_citations" if citations.found_any else "no_citation")
    cited_passages = [passages[n - 1] for n in citations.valid]
    passage_details = [list(_details(p)) for p in cited_passages]
    for detail in _details(citations.body):
        if not _verified(detail, cited_passages, passage_details):
            return _refuse(refusal, f"unverified_detail:{detail.shown}")
    return GuardResult(
        ok=True, text=citations.text, cited=citations.valid, reason=None, is_refusal=False
    )
