"""The kinds of detail a question can ask for (``answer_kind``: a price, or where a price is
found and how to pay; whether something is free; a phone number; an email address; a duration; a
time; a count) and, for each kind, what a sentence must hold to answer it (``_EVIDENCE``): a
price question is not answered from a sentence with no price in it. Prices are read as the
citation guard reads them (``guard_details.PRICE``), and more.

It must never decide on its own whether a sentence answers (the subject check is
``engine.answering.extractive``'s), call a model or the database.
"""

from __future__ import annotations

import re
from functools import lru_cache

from engine.answering.extractive.terms import _wordset
from engine.answering.guard_details import PRICE

_PRICE_Q = re.compile(
    r"\b(cost|costs|price|prices|priced|fee|fees|charge|charged|charges|expensive|cheap|"
    r"pay for|how much (?:is|are|does|do|will|would|for|to)\b)",
    re.IGNORECASE,
)
_FREE_Q = re.compile(r"\bfree\b", re.IGNORECASE)
_PHONE_Q = re.compile(
    r"\b(phone|telephone)\s+number\b|\bnumber\b.*\b(ring|call|phone)\b|\b(ring|call|phone)\b.*"
    r"\bnumber\b",
    re.IGNORECASE,
)
_EMAIL_Q = re.compile(
    r"\be-?mail\s+address\b|\bwhat(?:'s|\s+is)\s+(?:the|your)\s+e-?mail\b", re.IGNORECASE
)
_DURATION_Q = re.compile(
    r"\bhow\s+(long|many\s+(?:days|hours|minutes|weeks)|far\s+(?:ahead|in\s+advance)|soon|"
    r"early|quickly)\b|\bwhen\s+will\b.*\b(back|ready|arrive)\b",
    re.IGNORECASE,
)
_TIME_Q = re.compile(
    r"\b(what\s+time|opening\s+hours|open(?:ing)?\s+times|when\s+(?:\w+\s+){0,4}"
    r"(?:open|opens|close|closes|shut|shuts)|\w+ing\s+hours|(?:what|which)\s+hours)\b",
    re.IGNORECASE,
)


_COUNT_Q = re.compile(r"\bhow\s+many\b", re.IGNORECASE)
# "Where do I find the price of X?", "which leaflet lists the fees?", "how do I pay for parking?":
# these ask where a price is found or how to pay (a place or a source), not for a figure. A
# figure still answers them; so does a sentence that points somewhere (``_SOURCE``). "How much
# ...", "what does X cost" and "do I have to pay for X?" stay price questions.
_SOURCE_Q = re.compile(
    r"\bwhere\b"
    r"|\bhow\b(?!\s+(?:much|many|long|often|early|soon|far)\b)(?:\s+[\w']+){0,4}?\s+"
    r"(?:find|see|get|look|check|read|learn|know|tell|pay)\b"
    r"|\bwhich\s+(?:leaflet|page|document|list|booklet|section|website|site|notice)s?\b",
    re.IGNORECASE,
)
# In a question about where a price is found, these only say "where do I look" or "in what".
_SOURCE_WORDS = _wordset(
    "find see get look check read learn know tell out leaflet leaflets booklet booklets list "
    "lists listed page pages website site document section notice"
)
_PAYING_WORDS = _wordset("pay pays paying paid")
_SENTENCE_END = re.compile(r"[?.!;]+")
_FIGURE_Q = re.compile(
    r"\bhow\s+much\b|\bwhat\s+(?:does|do|will|would|did)\s+(?:[\w']+\s+){0,3}?cost\b",
    re.IGNORECASE,
)
_SOURCE_BEFORE = re.compile(
    r"\b(?:find|see|check|know|tell|look|learn|work)(?:\s+(?:out|me|us|up))?\s*$", re.IGNORECASE
)


# Every price the citation guard reads (``guard_details.PRICE``: "£25", "25 pounds", "25 GBP",
# "GBP 25", "25p", "25 pence"), and also other currencies, percentages, "free", "no charge" and
# "the full fee".
_PRICE = re.compile(
    PRICE.pattern + r"|[£$€]\s?\d|\d\s?%|\bfree\b|\bno charge\b|\bnot charge\b|"
    r"\b(?:the\s+)?full\s+(?:\w+\s+)?(?:fee|price|cost)\b",
    re.IGNORECASE,
)
# A sentence about prices or paying that says where to look or whom to ask ("see our price list",
# "prices ... are in the leaflet", "at cost price (ask the lead nurse)", "pay at the machine").
_MONEY_WORD = r"\b(?:prices?|priced|fees?|costs?|charges?|charged|tariffs?|pay|paid|payments?)\b"
_SOURCE = re.compile(
    r"\b(?:see|listed|lists?|leaflets?|booklets?|website|online|web\s?page|page|invoices?|"
    r"notices?|posters?|ask|tell\s+you|told|shown|displayed|app|reception|desk|machine|pharmacy|"
    r"counter|billing)\b",
    re.IGNORECASE,
)
_FREE = re.compile(r"\bfree\b|\bno charge\b|\bnot charge\b|[£$€]\s?\d|\bcharge\b", re.IGNORECASE)
_PHONE = re.compile(
    r"\b\d{3,5}\s?\d{3,4}\s?\d{3,4}\b|\bext\.?\s?\d{3,5}\b|\b\d{3}\s\d{3}\b|\b(?:999|111|112)\b"
)
_EMAIL = re.compile(r"\S+@\S+\.\w+")
_NUMBER_WORDS = (
    r"(?:\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"fifteen|twenty|thirty|forty|a|an|half\s+an?)"
)
_DURATION = re.compile(
    _NUMBER_WORDS + r"(?:\s+(?:to|or|and)\s+" + _NUMBER_WORDS + r")?[\s-]+(?:full\s+|working\s+|"
    r"clear\s+)*(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\b|\bsame day\b|"
    r"\bovernight\b|\bstraight away\b",
    re.IGNORECASE,
)
_TIME = re.compile(
    r"\b\d{1,2}[:.]\d{2}\b|\b\d{1,2}\s?(?:am|pm)\b|\bclosed\b|\bmidday\b|\bnoon\b|"
    r"\b24 hours\b",
    re.IGNORECASE,
)
_COUNT = re.compile(r"\b\d+\b|\b(one|two|three|four|five|six|seven|eight|nine|ten)\b", re.I)

_EVIDENCE = {
    "price": _PRICE,
    "price_source": re.compile(
        f"(?:{_PRICE.pattern})|(?s:^(?=.*?{_MONEY_WORD})(?=.*?(?:{_SOURCE.pattern})))",
        re.IGNORECASE,
    ),
    "free": _FREE,
    "phone": _PHONE,
    "email": _EMAIL,
    "duration": _DURATION,
    "time": _TIME,
    "count": _COUNT,
}


def _asks_where_a_price_is(question: str) -> bool:
    """Every sentence of the question that asks about a price asks where it is found or how to
    pay, and asks for no figure ("how much", "what does it cost") except after "find out" and
    the like. A follow-up joined to an earlier "where" question ("Where's the car park? How much
    is it?") asks for a figure."""
    asking = [s for s in _SENTENCE_END.split(question) if _PRICE_Q.search(s)]
    if not asking:
        return False
    for sentence in asking:
        if not _SOURCE_Q.search(sentence):
            return False
        for figure in _FIGURE_Q.finditer(sentence):
            if not _SOURCE_BEFORE.search(sentence[: figure.start()]):
                return False
    return True


def answer_kind(question: str) -> str | None:
    """The kind of detail the question asks for, or None for an open or yes/no question.

    ``price_source``: where a price is found or how to pay ("where do I find the price of X?"),
    answered by a figure or by a sentence that points somewhere; ``price``: a figure."""
    if _EMAIL_Q.search(question):
        return "email"
    if _PHONE_Q.search(question):
        return "phone"
    if _PRICE_Q.search(question):
        return "price_source" if _asks_where_a_price_is(question) else "price"
    if _DURATION_Q.search(question):
        return "duration"
    if _TIME_Q.search(question):
        return "time"
    if _COUNT_Q.search(question):
        return "count"
    if _FREE_Q.search(question):
        return "free"
    return None


@lru_cache(maxsize=8192)
def _holds_evidence(kind: str, text: str) -> bool:
    """Whether a sentence holds the kind of detail asked for (``_EVIDENCE``), read once per
    process for each sentence and kind, as ``_analyse`` stems each passage once."""
    return _EVIDENCE[kind].search(text) is not None
