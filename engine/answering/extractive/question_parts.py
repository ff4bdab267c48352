"""What a question asks about, read from its wording: the thing it asks to exist or to be given
("do you have a gym?", "can I get a copy of my medical records?"), a named place that is not the
clinic ("at Thameside General"), "email address" said as the documents say it, and the parts of a
question that says two things: a follow-up joined to the question it refers back to (the earlier
questions and the follow-up; a follow-up that is only a fragment, "and on Sunday?") and a
question that says the asker's situation as well as what it asks (``situation_parts``, which
routing and the retriever read too).

It must never decide whether a sentence answers (``engine.answering.extractive`` does), call a
model or the database.
"""

from __future__ import annotations

import re
from functools import lru_cache

from engine.answering.extractive.terms import (
    _CUE_WORDS,
    _NUMBERISH,
    _framing_lexemes,
    _stem,
    _wordset,
    stems,
)

# "Do you have a gym (in the car park)?": the thing asked about must be in the sentence itself.
_EXISTENCE_Q = re.compile(
    r"\b(?:do\s+(?:you|your\s+\w+|the\s+\w+)\s+(?:have|do|offer|sell|provide|run|make)|is\s+there|"
    r"are\s+there|have\s+you\s+got)"
    r"\s+(?:an?\s+|any\s+|some\s+)?(?P<thing>[\w'&-]+(?:\s+[\w'&-]+){0,3}?)"
    r"(?=\s+(?:in|at|on|for|with|near|inside|outside|here|there|while|when|if|to|that|which|"
    # ...or where a clause about the asker begins: "a prayer room (I could use)"
    r"i|i'm|we|you|he|she|they|my|your|our|his|her|their|can|could|would|might|so|because|"
    r"where|who|whom|before|after)\b"
    r"|\s*[?.!,]|\s*$)",
    re.IGNORECASE,
)
# "Can I get a copy of my medical records?", "could I have a hearing test?", "how do I get a
# parking permit?": a request for a thing is answered only by a sentence that names the thing (a
# printed copy of test results does not answer a request for medical records).
_REQUEST_Q = re.compile(
    r"\b(?:(?:can|could|may)\s+(?:i|we|you|my\s+\w+|he|she|they)\s+(?:please\s+)?"
    r"(?:get|have|borrow|order|request|obtain)|how\s+(?:do|can|could|would|should)\s+(?:i|we)\s+"
    r"(?:get\s+hold\s+of|get|obtain))"  # "how do I order ...?" asks for steps, not a thing
    # not "get to the clinic", "get there", "get hold of", "have to pay", "have a look"
    r"\s+(?!(?:to|there|here|in|into|on|at|through|back|home|it|them|this|that|one|a\s+look|"
    r"a\s+go|a\s+word|a\s+chat|a\s+think|a\s+try|been|had|got)\b)"
    r"(?:(?:an?|any|some|the|my|our|his|her|their|your)\s+)?"
    r"(?P<thing>[\w'&-]+(?:\s+[\w'&-]+){0,4}?)"
    r"(?=\s+(?:in|at|on|for|with|near|inside|outside|here|there|while|when|if|to|that|which|"
    r"i|i'm|we|you|he|she|they|can|could|would|might|so|because|where|who|before|after|from|"
    r"by|through|about|via|over|today|tomorrow|tonight|this|next|please|sent|emailed|posted|"
    r"printed|done|signed|checked|looked|changed|back)\b|\s*[?.!,]|\s*$)",
    re.IGNORECASE,
)
# Words written before a hyphen ("anti-malaria", "non-urgent"), which documents often join or
# leave out: never required of a sentence.
_AFFIXES = frozenset({"anti", "non", "pre", "post", "semi"})
# In "a copy of my records", "a cup of tea", "a list of the fees" the thing is what follows "of".
_OF_THING = re.compile(r"^.*?\bof\s+(?:(?:an?|the|my|our|his|her|their|your)\s+)?", re.I)
# Generic head nouns of the thing asked about: "an interpreter service", "a baby changing
# facility", "a hearing loop system" ask for the interpreter, the changing table, the loop.
_GENERIC_THINGS = _wordset(
    "service services facility facilities system systems provision option options scheme "
    "schemes arrangement arrangements help advice information info details support anything "
    "something someone somebody person people"
)


@lru_cache(maxsize=1)
def _generic_things() -> frozenset[str]:
    return frozenset(_stem(w) for w in _GENERIC_THINGS)


# "What's your email address?": the address is the email; "address" alone (a postal address,
# where the clinic is) is a subject of its own.
_EMAIL_ADDRESS = re.compile(r"\be-?mail(?:\s+address(?:es)?)?\b", re.IGNORECASE)


def without_email_address(text: str) -> str:
    """``text`` with "email address" and "e-mail" said as "email", the word the documents use
    ("Email (not for urgent matters): enquiries@..."). Only the subject's words are read from
    it; the kind of detail asked for is read from the question as asked."""
    return _EMAIL_ADDRESS.sub("email", text)


# A place that is not where the passage's sentence is: "at Thameside General", "to guys
# hospital", "at the Dock Street car park". Its name must be in the quoted sentence itself (or its
# section title): the clinic's car park does not answer a question about another car park.
_PLACE_Q = re.compile(
    r"\b(?:at|in|to|from|near|outside|inside|by)\s+(?:the\s+)?"
    r"(?P<name>(?:[a-z][\w'&-]*\s+){1,3}(?:hospital|general|infirmary|street|road|lane|avenue|"
    r"station|airport)s?)\b",
    re.IGNORECASE,
)


_QUESTIONS = re.compile(r"[^?]*\?")


def _last_question(text: str) -> str:
    """The last of two or more questions in ``text`` ("Do you do private scans? how much is
    one?": a follow-up joined to the question it refers back to), else all of it. What the
    earlier question asked to exist is not what the last one asks for; its words still count in
    the evidence."""
    asked: list[str] = _QUESTIONS.findall(text)
    if len(asked) >= 2 and not text[sum(map(len, asked)) :].strip():
        return asked[-1]
    return text


# A follow-up that is only a fragment of a question ("and on Sunday?", "what about for a nurse?",
# "for my son?"), not one with its own verb ("and can I pay by card?").
_FRAGMENT = re.compile(
    r"^\s*(?:and|or|also|plus|but|what about|how about|same for|same with|for|with|on|at|in|over)"
    r"\b(?!\s+(?:can|could|do|does|did|is|are|was|were|will|would|should|shall|may|must|how|what"
    r"|when|where|who|which|why|i|you|we|they|he|she|it)\b)",
    re.IGNORECASE,
)


def _asked_thing(question: str) -> tuple[str, bool] | None:
    """The thing whose existence or supply the question asks about ("a gym" in "do you have a
    gym?", "medical records" in "can I get a copy of my medical records?"), and whether it was a
    request for it; None when the question asks neither."""
    found = _EXISTENCE_Q.search(question)
    if found:
        return found.group("thing"), False
    found = _REQUEST_Q.search(question)
    if found is None:
        return None
    thing = _OF_THING.sub("", found.group("thing"))
    if thing.lower().split()[-1] in ("one", "ones"):  # "can I get a new one?": said before
        return None
    return thing, True


def _follow_up_parts(question: str) -> tuple[str, str]:
    """(the earlier questions, the follow-up) of a follow-up joined to what it refers back to
    (engine.answering.follow_up joins them with a line break), else ("", the question)."""
    earlier, _, last = question.rpartition("\n")
    if not earlier.strip() or not last.strip():
        return "", question
    return earlier, last


# The asker's own situation, said before or after what they ask ("since his stroke dad is in a
# wheelchair, is your entrance step-free?", "can I borrow a wheelchair, my knees are bad?"): a
# clause about a person (I, my, we, since, ...) set off by a comma from a question. When no
# sentence carries the whole question, its words are read as a follow-up's earlier question's
# are: they count, at most half as much as what is asked (``_find_quotes``).
_PERSON = (
    r"(?:i|i'm|im|i've|ive|i'd|id|i'll|we|we're|we've|my|our|his|her|their|me|he|she|he's|she's"
    r"|since|after|because|as|being)"
)
_OPENER = (
    r"(?:is|are|am|can|could|do|does|did|will|would|should|shall|may|might|where|where's|wheres"
    r"|what|what's|whats|when|how|who|which|have|has|any)"
)
_SITUATION_FIRST = re.compile(
    rf"^\s*(?P<situation>{_PERSON}\b[^?]*)[,;]\s*(?:(?:and|so|but)\s+)?(?P<asked>{_OPENER}\b.*)$",
    re.IGNORECASE | re.DOTALL,
)
_SITUATION_LAST = re.compile(
    rf"^\s*(?P<asked>{_OPENER}\b[^?]*?)[,;]\s*(?:(?:as|because|since|cos|coz)\s+)?"
    rf"(?P<situation>{_PERSON}\b[^,;?]*)\?*\s*$",
    re.IGNORECASE | re.DOTALL,
)


# What is asked names its thing only by pointing back into the situation.
_REFERS_BACK = re.compile(r"\b(?:one|ones|it|its|them|that|this|these|those)\b", re.IGNORECASE)


def situation_parts(question: str) -> tuple[str, str]:
    """(the asker's situation, what they ask) of a question that says both, else ("", it).
    A follow-up joined to an earlier question (a line break) is never split."""
    if "\n" in question.strip():
        return "", question
    found = _SITUATION_FIRST.match(question) or _SITUATION_LAST.match(question)
    if found is None or not found.group("situation").strip() or not found.group("asked").strip():
        return "", question
    asked = found.group("asked")
    if _REFERS_BACK.search(asked):
        return "", question  # "I lost my certificate, can I get a new one?": one is the subject
    own = {
        stem
        for stem in stems(asked)
        if stem not in _framing_lexemes()
        and stem not in _generic_things()
        and stem not in _CUE_WORDS
        and not _NUMBERISH.match(stem)
    }
    if not own:
        return "", question  # "..., can someone help her?": the situation holds the subject
    return found.group("situation"), asked
