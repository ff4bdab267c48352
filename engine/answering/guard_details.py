"""Exact details in a text, and whether the passages an answer cites state them.

What it decides: which parts of an answer are exact details a patient will act on (prices, phone
numbers, extensions, clock times, dates, weekday-date pairs, weekday-time pairs, and quantities
with a unit, also when a word stands between number and unit: "3 full working days"), and whether
each one appears in a cited passage. Details are compared by meaning of format, not spelling: a
phone number by its digits (``+44 (0)20 7946 0121`` == ``020 7946 0121``), a time by its minutes
(``8:30`` == ``08:30`` == ``8.30am``; a time without am/pm may be either half of the day, unless
its text uses the 24-hour clock elsewhere: ``18:30``), a price in pence (``£45`` == ``£45.00`` ==
``45 pounds`` == ``GBP 45``; ``30p`` == ``30 pence``), a quantity by number and unit (``12
hours`` == ``twelve hours``), a date by day, month and year (``21 December 2026`` ==
``21/12/2026``; an answer may leave out a year its passage gives, never add one).

A weekday given with a date must be the weekday the passage gives that date, or, when the
passage gives none, the calendar's. A time given with a weekday ("Saturday 9am to 1pm") must be
given with that weekday in the passage: the nearest weekday before the time in the same clause,
else the first after it (in a passage, else the last weekday named before the clause, as under a
table's or list's heading).

What it must never do: call a model, raise on any input, or accept a detail because it appears in
a passage the answer does not cite (callers pass only the cited passages).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import cast

# ----------------------------------------------------------------------------- patterns

# A price (``extractive`` reads the same prices as price evidence): "£25", "25 pounds",
# "25 GBP", "GBP 25", "25p", "25 pence".
PRICE = re.compile(
    r"(?:£|\bgbp\s?)\s?(?P<a>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<ap>\d{2}))?(?!\d)"
    r"|(?<![\d.])(?P<b>\d+)(?:\.(?P<bp>\d{2}))?\s*(?:pounds?|gbp)\b"
    r"|(?<![\d.£])(?P<c>\d{1,3})\s?(?:p|pence)\b",
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

_WEEKDAY_NAMES = {
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5,
    "sunday": 6,
}  # fmt: skip
# Abbreviations only with their capital (``Sat`` is a day, ``sat`` is a verb).
_WEEKDAY_SHORT = {"Mon": 0, "Tue": 1, "Tues": 1, "Wed": 2, "Thu": 3, "Thur": 3, "Thurs": 3,
                  "Fri": 4, "Sat": 5, "Sun": 6}  # fmt: skip
_WEEKDAY = (
    r"(?:\b(?i:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b"
    r"|\b(?:Mon|Tues|Tue|Wed|Thurs|Thur|Thu|Fri|Sat|Sun)\b\.?)"
)
_MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12, "jan": 1,
    "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10,
    "nov": 11, "dec": 12,
}  # fmt: skip
# Month names with their capital, or lower case when the word is nothing else ("may" is a verb).
_MONTH = (
    r"(?:(?:January|February|March|April|May|June|July|August|September|October|November"
    r"|December|Sept|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b\.?"
    r"|(?:january|february|april|june|july|august|september|october|november|december)\b)"
)
_ORD = r"(?i:st|nd|rd|th)?"
_DATE = re.compile(
    rf"(?:(?P<wd>{_WEEKDAY}),?\s+(?i:the\s+)?)?(?:"
    rf"(?<![\d.,:£])(?P<d1>[0-3]?\d){_ORD}(?i:\s+of)?\s+(?P<m1>{_MONTH})(?:,?\s+(?P<y1>(?:19|20)\d\d))?"
    rf"|(?P<m2>{_MONTH})\s+(?i:the\s+)?(?P<d2>[0-3]?\d){_ORD}(?:,?\s+(?P<y2>(?:19|20)\d\d))?"
    r"|(?<![\d.,:£])(?P<d3>[0-3]?\d)[/.](?P<m3>[01]?\d)[/.](?P<y3>(?:19|20)\d\d)"
    r"|(?<![\d.,:£])(?P<y4>(?:19|20)\d\d)-(?P<m4>[01]\d)-(?P<d4>[0-3]\d)"
    r")(?![\d/])",
)
_WEEKDAY_GROUP = re.compile(
    rf"(?P<a>{_WEEKDAY})(?:\s*(?P<sep>-|\u2013|\u2014|to|until|till|through|and|or|&|,)\s*"
    rf"(?P<b>{_WEEKDAY}))?"
    r"|(?P<span>\b(?i:weekdays?|weekends?)\b)",
)
_LIST_JOIN = re.compile(r"\s*(?:,|,?\s*and|,?\s*or|&)\s*$")
_CLAUSE_BREAK = re.compile(r"\n|;|[.!?](?=\s|$)")  # a line, or a sentence

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
# Words that may stand between a number and its unit ("3 full working days", "2 clear weeks"):
# up to two, none of them a small word that starts a new phrase ("2 tablets a day" is a rate).
_BETWEEN_STOP = (
    r"(?:a|an|the|of|per|each|every|in|on|at|to|or|and|for|by|from|with|than|before|after|"
    r"tablets?|doses?|times?)"
)
_BETWEEN = rf"(?:(?!{_BETWEEN_STOP}\b)[a-z]+[\s-]+){{0,2}}?"
_QUANTITY = re.compile(
    rf"\b(?:(?P<first>{_NUM})\s?(?:-|\u2013|to|or)\s?)?(?P<n>{_NUM})[\s-]?{_BETWEEN}"
    rf"(?P<unit>{_UNIT})\b",
    re.IGNORECASE,
)
_SEPARATORS = r"[\s\-.()]*"


@dataclass(frozen=True)
class Detail:
    """One exact detail: its kind, the text as written, a comparable key, and where it is."""

    kind: str
    shown: str
    key: object
    span: tuple[int, int] = (0, 0)


# ----------------------------------------------------------------------------- reading


def _mask(text: str, span: tuple[int, int]) -> str:
    return text[: span[0]] + " " * (span[1] - span[0]) + text[span[1] :]


def _national_digits(phone: str) -> str:
    t = re.sub(r"^(?:\+|00)44\s?(?:\(0\)\s?)?", "0", phone.strip())
    return re.sub(r"\D", "", t)


def _price_pence(match: re.Match[str]) -> int:
    if match.group("c") is not None:
        return int(match.group("c"))
    pounds = match.group("a") or match.group("b") or "0"
    pence = match.group("ap") or match.group("bp") or "0"
    return int(pounds.replace(",", "")) * 100 + int(pence)


def _uses_24_hour_clock(text: str) -> bool:
    """Whether ``text`` writes a time only a 24-hour clock has (``18:30``, ``08:00``)."""
    for match in _TIME.finditer(text):
        hour = match.group("h2")
        if hour is not None and (int(hour) >= 13 or (len(hour) == 2 and hour.startswith("0"))):
            return True
    return False


def _time_minutes(match: re.Match[str], twenty_four: bool) -> frozenset[int]:
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
    if 1 <= hour < 12 and not twenty_four:
        options.add((hour + 12) * 60 + minute)
    return frozenset(options)


def _weekday(text: str) -> int | None:
    word = text.rstrip(".").strip()
    if word in _WEEKDAY_SHORT:
        return _WEEKDAY_SHORT[word]
    word = word.lower()
    return _WEEKDAY_NAMES.get(word[:-1] if word.endswith("s") else word)


def _date_key(match: re.Match[str]) -> tuple[int, int, int | None, int | None] | None:
    """(day, month, year or None, weekday or None), or None for an impossible date."""
    for n in "1234":
        if match.group(f"d{n}"):
            day, month_text, year_text = (match.group(f"{g}{n}") for g in "dmy")
            break
    else:  # pragma: no cover - the pattern always fills one alternative
        return None
    month = int(month_text) if month_text.isdigit() else _MONTHS[month_text.lower().rstrip(".")]
    year = int(year_text) if year_text else None
    try:
        dt.date(year or 2000, month, int(day))  # 2000 is a leap year: 29 February is possible
    except ValueError:
        return None
    weekday = _weekday(match.group("wd")) if match.group("wd") else None
    return int(day), month, year, weekday


def _number(text: str) -> float:
    word = " ".join(text.lower().replace("-", " ").split())
    return float(_WORD_NUMBERS[word]) if word in _WORD_NUMBERS else float(text)


def _unit(text: str) -> str:
    t = text.lower()
    for suffix in ("es", "s", ""):
        if suffix and t.endswith(suffix) and t[: -len(suffix)] in _UNITS:
            return _UNITS[t[: -len(suffix)]]
    return _UNITS.get(t, t)


def _weekday_groups(text: str) -> list[tuple[int, int, frozenset[int]]]:
    """(start, end, days) of each weekday or weekday range ("Monday to Friday", "weekends")."""
    groups: list[tuple[int, int, frozenset[int]]] = []
    for match in _WEEKDAY_GROUP.finditer(text):
        if match.group("span"):
            days = (
                frozenset({5, 6}) if "end" in match.group("span").lower() else frozenset(range(5))
            )
        else:
            a = _weekday(match.group("a"))
            b = _weekday(match.group("b")) if match.group("b") else None
            if a is None:
                continue
            if b is None:
                days = frozenset({a})
            elif match.group("sep").lower() in {"and", "or", "&", ","}:
                days = frozenset({a, b})
            else:
                days = frozenset((a + i) % 7 for i in range((b - a) % 7 + 1))
        if groups and _LIST_JOIN.match(text, groups[-1][1], match.start()):
            start, _, before = groups.pop()
            groups.append((start, match.end(), before | days))  # "Monday, Wednesday and Friday"
        else:
            groups.append((match.start(), match.end(), days))
    return groups


def _clauses(text: str) -> list[tuple[int, int]]:
    bounds, start = [], 0
    for match in _CLAUSE_BREAK.finditer(text):
        bounds.append((start, match.start()))
        start = match.end()
    bounds.append((start, len(text)))
    return bounds


def _weekday_times(
    text: str, times: list[Detail], *, carry: bool
) -> Iterator[tuple[frozenset[int], Detail]]:
    """Each time that is said with a weekday, and the days. ``carry``: a clause with no weekday
    takes the last weekday named before it (passages: a table's or list's heading)."""
    groups = _weekday_groups(text)
    last: frozenset[int] | None = None
    for start, end in _clauses(text):
        inside = [g for g in groups if start <= g[0] < end]
        for time in times:
            if not start <= time.span[0] < end:
                continue
            before = [g for g in inside if g[1] <= time.span[0]]
            after = [g for g in inside if g[0] >= time.span[1]]
            days = before[-1][2] if before else after[0][2] if after else last if carry else None
            if days:
                yield days, time
        if inside:
            last = inside[-1][2]


def _read(text: str) -> tuple[list[Detail], str, list[Detail]]:
    """Details other than weekday-time pairs, the text with them masked, and the times."""
    found: list[Detail] = []
    for match in list(PRICE.finditer(text)):
        found.append(Detail("price", match.group(0).strip(), _price_pence(match), match.span()))
        text = _mask(text, match.span())
    for match in list(_DATE.finditer(text)):
        key = _date_key(match)
        if key is not None:
            found.append(Detail("date", match.group(0).strip(), key, match.span()))
            text = _mask(text, match.span())
    for match in list(_PHONE.finditer(text)):
        digits = _national_digits(match.group(0))
        found.append(Detail("phone", match.group(0).strip(), digits, match.span()))
        text = _mask(text, match.span())
    for match in list(_EXTENSION.finditer(text)):
        found.append(Detail("extension", match.group(0).strip(), match.group("n"), match.span()))
        text = _mask(text, match.span())
    times = []
    twenty_four = _uses_24_hour_clock(text)
    for match in list(_TIME.finditer(text)):
        minutes = _time_minutes(match, twenty_four)
        if minutes:
            times.append(Detail("time", match.group(0).strip(), minutes, match.span()))
            text = _mask(text, match.span())
    found.extend(times)
    for match in _QUANTITY.finditer(text):
        unit = _unit(match.group("unit"))
        for group in ("first", "n"):
            if match.group(group):
                amount = (_number(match.group(group)), unit)
                found.append(Detail("quantity", match.group(0).strip(), amount, match.span()))
    return found, text, times


def quantities(text: str) -> frozenset[tuple[float, str]]:
    """The (amount, unit) of every quantity ``text`` states ("3 weeks", "three weeks", "72
    hours'", "2 full working days"), read as the guard reads them; the sentence choice ranks a
    sentence that states the question's quantity first (``engine.answering.extractive``)."""
    found = _read(text)[0]
    return frozenset(cast(tuple[float, str], d.key) for d in found if d.kind == "quantity")


def _paired(text: str, times: list[Detail], *, carry: bool) -> list[Detail]:
    return [
        Detail("weekday_time", t.shown, (days, t.key), t.span)
        for days, t in _weekday_times(text, times, carry=carry)
    ]


def details(text: str) -> list[Detail]:
    """Exact details in an answer; each span is masked once read so it is not read twice. A time
    pairs with a weekday only in its own clause."""
    found, masked, times = _read(text)
    return found + _paired(masked, times, carry=False)


def passage_details(passage: str) -> list[Detail]:
    """Details of a passage: as :func:`details`, with weekdays carried into following clauses."""
    found, masked, times = _read(passage)
    return found + _paired(masked, times, carry=True)


# ----------------------------------------------------------------------------- checking


def _phone_in(digits: str, passage: str) -> bool:
    normalised = re.sub(r"(?:\+|\b00)44\s?(?:\(0\)\s?)?", "0", passage)
    pattern = r"(?<!\d)" + _SEPARATORS.join(digits) + r"(?!\d)"
    return re.search(pattern, normalised) is not None


def _date_ok(key: object, other: object) -> bool:
    assert isinstance(key, tuple) and isinstance(other, tuple)
    day, month, year, weekday = key
    o_day, o_month, o_year, o_weekday = other
    if (day, month) != (o_day, o_month):
        return False
    if year is not None and year != o_year:
        return False  # the answer named a year the passage does not give
    if weekday is None:
        return True
    if o_weekday is not None:
        return bool(weekday == o_weekday)
    known = year if year is not None else o_year
    return known is not None and dt.date(known, month, day).weekday() == weekday


def _same(detail: Detail, other: Detail) -> bool:
    if detail.kind == "time":
        assert isinstance(detail.key, frozenset) and isinstance(other.key, frozenset)
        return bool(detail.key & other.key)
    if detail.kind == "date":
        return _date_ok(detail.key, other.key)
    if detail.kind == "weekday_time":
        assert isinstance(detail.key, tuple) and isinstance(other.key, tuple)
        return bool(detail.key[1] & other.key[1])
    return bool(other.key == detail.key)


def verified(detail: Detail, passages: Sequence[str], found: Sequence[Sequence[Detail]]) -> bool:
    """Whether ``detail`` appears in one of ``passages`` (``found``: their details)."""
    if detail.kind == "phone":
        return any(_phone_in(str(detail.key), p) for p in passages)
    if detail.kind == "extension":
        return any(re.search(rf"(?<!\d){detail.key}(?!\d)", p) for p in passages)
    candidates = [o for f in found for o in f if o.kind == detail.kind and _same(detail, o)]
    if detail.kind != "weekday_time":
        return bool(candidates)
    # Every day the answer names with this time must be named with it in a passage.
    assert isinstance(detail.key, tuple)
    days: frozenset[int] = detail.key[0]
    return all(any(day in o.key[0] for o in candidates if isinstance(o.key, tuple)) for day in days)


def first_unverified(text: str, passages: Sequence[str]) -> Detail | None:
    """The first detail of ``text`` that no passage in ``passages`` states, or None."""
    found = [passage_details(p) for p in passages]
    for detail in details(text):
        if not verified(detail, passages, found):
            return detail
    return None
