"""Sentence-level evidence: which sentences of the kept passages answer a question, if any.

Decides two things, for both answer modes:
- **Answerability.** A question is answerable only if some sentence, list item or table row of a
  kept passage carries its *subject*: enough of the question's rare terms (IDF-weighted, stemmed,
  typos within one or two letters of a passage word forgiven) in the sentence and its headings,
  some of them in the sentence itself, and, when the question asks for a kind of detail (a price,
  a time, a duration, a phone number, an email address, a count), that kind of detail in the
  sentence. No such sentence: the caller says the fixed "I don't know" sentence (a gym is not
  answered from the car park passage; a price is not answered from a passage on how a test is done).
  Words that only frame a question ("how much", "coming", "gets", "tomorrow") are never the
  subject; a medicine the safety rules name ("my sertraline") is carried by a sentence about
  "the medicine" (never in "do you have / sell X?", where X itself must be in the sentence); a
  named place asked about ("at Thameside General", "to guys hospital") must be in the sentence
  itself or its section title. "Do you have an interpreter service?" asks for an interpreter: a
  generic head noun ("service", "facility", "system") need not be in the sentence too.
- **Follow-ups.** A follow-up joined to the question it refers back to (engine.answering.
  follow_up joins them with a line break) asks what its own words ask: the sentence must carry
  them ("can I get them by text?" after a results question, never a sentence about how long
  results take), the earlier questions' words weigh at most half as much and together no more
  than the follow-up's own, and the kind of detail is the follow-up's own unless it is only a
  fragment ("and on Sunday?" after an opening-times question still asks for a time).
- **The extractive answer.** The one to three best such sentences (a chosen list item's next
  sentence may go with it, three sentences in all at most), each quoted word for word with the
  citation number of its passage. Markdown tables become "Header: value, Header: value" lines.

It must never: change a word of what it quotes (only line wraps are joined and Markdown emphasis
markers dropped), show raw table pipes, quote a sentence that failed the subject check, call a
model or the database, or raise on any input. It is a pure function of the question, the
passages and the retriever's term weights.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from py_rust_stemmers import SnowballStemmer

from engine.answering.guard_details import PRICE, quantities
from engine.answering.query_words import synonym_stems, within_edits
from engine.answering.sentences import Unit, split_units
from engine.safety.vocabulary import MEDS

MAX_QUOTES = 3
# Share of the question's term weight that a sentence plus its headings must carry...
MIN_COVER = 0.5
# ...of which the sentence itself carries at least this much.
MIN_OWN_COVER = 0.2
# Further quotes must score at least this fraction of the best one.
SECONDARY_RATIO = 0.75
# In a joined follow-up: what the earlier questions' words weigh (the follow-up's weigh 1), and
# together never more than the follow-up's own words...
EARLIER_WEIGHT = 0.5
# ...and the share of the follow-up's own term weight the sentence and its section title carry.
MIN_FOLLOW_UP_COVER = 0.5

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
    too (``engine.answering.retrieval``), so one rare framing word ("much", "I'm") cannot sink
    a passage that carries the question's subject."""
    return lexeme in _framing_lexemes()


# --------------------------------------------------------------------------- what a question asks

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
# Words that only say which kind of detail is asked for; the detail itself is checked instead.
_CUE_WORDS = _wordset(
    "cost costs price prices priced fee fees charge charged charges much long many time times "
    "number phone telephone ring call email mail open opens opening close closes shut shuts "
    "hours expensive cheap far ahead advance soon early quickly day days week "
    "weeks minute minutes hour month months year years"
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


# --------------------------------------------------------------------------- scoring


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


def _matches(term: str, words: set[str]) -> bool:
    """The term, a synonym of it, or a longer word it is the start of ("prep" -> "prepar")."""
    if term in words:
        return True
    if any(alt in words for alt in _synonyms().get(term, ())):
        return True
    return len(term) >= 4 and any(w.startswith(term) for w in words)


@dataclass(frozen=True)
class Quote:
    """A sentence that answers, with the index of its passage and how well it matched."""

    passage: int
    unit: Unit
    score: float
    follow: str = ""  # the next sentence of its list item, when chosen to go with it

    @property
    def text(self) -> str:
        if self.unit.items:  # a list's lead-in is shown with its whole list, never alone
            return "\n".join([self.unit.text, *(f"- {item}" for item in self.unit.items)])
        return f"{self.unit.text} {self.follow}" if self.follow else self.unit.text


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


def find_quotes(
    question: str,
    passages: Sequence[tuple[str, str]],
    weights: Mapping[str, float],
    alternatives: Mapping[str, Iterable[str]] | None = None,
) -> list[Quote]:
    """Every sentence of the passages (``(headings, text)`` pairs) that answers the question,
    best first. Empty when none carries the question's subject: the question is unanswerable.

    ``alternatives``: question lexeme -> document lexemes that count as it (the retriever's
    synonyms and typo corrections, ``engine.answering.query_words``)."""
    try:
        return _find_quotes(question, passages, weights, alternatives or {})
    except Exception:  # pragma: no cover - a pure function never breaks an answer; refuse instead
        return []


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


@lru_cache(maxsize=8192)
def _holds_evidence(kind: str, text: str) -> bool:
    """Whether a sentence holds the kind of detail asked for (``_EVIDENCE``), read once per
    process for each sentence and kind, as ``_analyse`` stems each passage once."""
    return _EVIDENCE[kind].search(text) is not None


def _hits(term: str, vocabulary: set[str]) -> frozenset[str]:
    """The passage words a question term counts as (see ``_matches``)."""
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


def _find_quotes(
    question: str,
    passages: Sequence[tuple[str, str]],
    weights: Mapping[str, float],
    alternatives: Mapping[str, Iterable[str]],
) -> list[Quote]:
    """The whole question's words first; only when no sentence carries them, and the question
    says the asker's situation as well as what it asks, what it asks with the situation's words
    counted as a follow-up's earlier question ("I use a wheelchair, can I get in without
    steps?": the wheelchair is the subject, and the first reading keeps it)."""
    quotes = _quotes_for(question, passages, weights, alternatives, situation=False)
    if not quotes and situation_parts(question)[0]:
        quotes = _quotes_for(question, passages, weights, alternatives, situation=True)
    return quotes


def _quotes_for(
    question: str,
    passages: Sequence[tuple[str, str]],
    weights: Mapping[str, float],
    alternatives: Mapping[str, Iterable[str]],
    *,
    situation: bool,
) -> list[Quote]:
    split = [_analyse(headings, text) for headings, text in passages]
    vocabulary: set[str] = set()
    for units in split:
        for analysed in units:
            vocabulary |= analysed.context
    question = _respell(question, vocabulary)
    earlier, focus = _follow_up_parts(question)
    if situation and not earlier:
        earlier, focus = situation_parts(question)
    kind = answer_kind(focus)
    if kind is None and earlier and _FRAGMENT.match(focus):
        kind = answer_kind(earlier)  # "and on Sunday?" asks what the question before it asked
    said = without_email_address(question)
    terms = question_terms(said, weights, vocabulary)
    own = set(question_terms(without_email_address(focus), weights, vocabulary) if earlier else ())
    if kind == "price_source":
        framing = {_stem(w) for w in _SOURCE_WORDS}
        terms = {t: w for t, w in terms.items() if t not in framing}
        own -= framing
    elif kind == "price":
        # "do I have to pay for that?" asks a price with "pay" (in "how do I pay for parking?",
        # a price_source question, paying is the subject); "do I have to pay?" keeps it
        paying = {_stem(w) for w in _PAYING_WORDS}
        if any(t not in paying for t in terms):
            terms = {t: w for t, w in terms.items() if t not in paying}
            own -= paying
    extra = _alternative_hits(said, vocabulary, alternatives)
    asked = _asked_thing(_last_question(without_email_address(focus)))
    required = question_terms(asked[0], weights, vocabulary) if asked else {}
    if asked and asked[1]:
        # "anti malaria pills": the documents say "Malaria tablets"; "another person", "some
        # help" name no thing of their own
        required = {t: w for t, w in required.items() if t not in _AFFIXES}
        if all(t in _generic_things() for t in required):
            required = {}
    heads = {t for t in required if t in _generic_things()}
    if len(heads) < len(required):  # "an interpreter service": the interpreter is asked for
        required = {t: w for t, w in required.items() if t not in heads}
        terms = {t: w for t, w in terms.items() if t not in heads}
        own -= heads
    if own:  # a follow-up: the earlier questions' words weigh less, together at most as much
        before = sum(w for t, w in terms.items() if t not in own)
        after = sum(w for t, w in terms.items() if t in own)
        scale = min(EARLIER_WEIGHT, after / before) if before else 1.0
        terms = {t: (w if t in own else scale * w) for t, w in terms.items()}
    total = sum(terms.values())
    own_total = sum(terms[t] for t in own if t in terms)
    hits = {t: _hits(t, vocabulary) | extra.get(t, frozenset()) for t in terms}
    generic = _hits("medicin", vocabulary)
    for term in terms:
        if term in _medicine_stems():  # "my sertraline": a medicine, as the documents say
            hits[term] = hits[term] | generic
    required_hits = [_hits(t, vocabulary) | extra.get(t, frozenset()) for t in required]
    for place in _PLACE_Q.finditer(question):  # "at Thameside General", "to guys hospital"
        for word in _WORD.findall(place.group("name").lower()):
            if word not in _STOP and not _NUMBERISH.match(word):
                required_hits.append(_hits(_repair(_stem(word), vocabulary), vocabulary))
    evidence = kind if kind in _EVIDENCE else None
    about_documents = _NAMES_A_DOCUMENT.search(question) is not None
    asked_quantities = _quantities(said)
    quotes: list[Quote] = []
    for index, units in enumerate(split):
        leads = {item: a.unit for a in units for item in a.unit.items}
        for analysed in units:
            unit = analysed.unit
            if evidence is not None and not _holds_evidence(evidence, unit.text):
                continue
            if analysed.about_itself and not about_documents:
                continue  # "This leaflet explains how to prepare for ...": it answers nothing
            if total:
                text_cover = sum(w for t, w in terms.items() if hits[t] & analysed.text) / total
                own_cover = sum(w for t, w in terms.items() if hits[t] & analysed.near) / total
                cover = sum(w for t, w in terms.items() if hits[t] & analysed.context) / total
            elif evidence is not None:
                text_cover = own_cover = cover = 1.0  # only a kind of detail was asked
            else:
                continue
            if cover < MIN_COVER or own_cover < MIN_OWN_COVER:
                continue
            if own_total and (
                sum(terms[t] for t in own if t in terms and hits[t] & analysed.near) / own_total
                < MIN_FOLLOW_UP_COVER
            ):
                continue  # the earlier question's words, not what the follow-up asks
            if not all(h & analysed.item for h in required_hits):
                continue
            score = cover + own_cover + 0.1 * text_cover - 0.02 * index
            if asked_quantities and asked_quantities & _quantities(unit.text):
                score += QUANTITY_BONUS
            quotes.append(Quote(index, _shown_with_its_lead_in(unit, leads), score))
    quotes.sort(key=lambda q: (-q.score, q.passage, q.unit.position))
    return quotes


_WHOLE_SENTENCE = re.compile(r"[.!?][\"'\u201d)]*$")

# A quantity with its unit ("3 weeks", "15 minutes", "72 hours'", "two full working days"). A
# sentence that states the quantity the question states ranks above one that only shares its
# words: "I had a scan 3 weeks ago and nobody has told me anything" is answered by "... or 3
# weeks after a scan or biopsy, call the test results line", not by "The scan takes 20 to 45
# minutes". Only the order of sentences that already answer changes; no sentence is admitted.
QUANTITY_BONUS = 0.1


@lru_cache(maxsize=8192)
def _quantities(text: str) -> frozenset[tuple[float, str]]:
    """The (amount, unit) pairs ``text`` states, as the citation guard reads them."""
    return quantities(text)


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


def choose(quotes: Sequence[Quote]) -> list[Quote]:
    """At most MAX_QUOTES quotes close to the best one, in passage then reading order."""
    if not quotes:
        return []
    best = quotes[0].score
    close = [q for q in quotes if q.score >= SECONDARY_RATIO * best]
    # Two items of one list both quote the list under its lead-in: show it once.
    once: dict[tuple[int, int], Quote] = {}
    for quote in close:
        once.setdefault((quote.passage, quote.unit.position), quote)
    close = list(once.values())
    # A sentence already shown in the list under its quoted lead-in is not quoted again.
    listed = [(q.passage, item) for q in close for item in q.unit.items]
    chosen = [
        q
        for q in close
        if q.unit.items or not any(p == q.passage and q.unit.text in i for p, i in listed)
    ][:MAX_QUOTES]
    # Room left: a chosen list item's next sentence goes with it ("... for 10 to 12 hours before
    # the test. For most people, this means nothing after 21:00 ..."), never past three sentences.
    sentences = len(chosen)
    texts = {q.unit.text for q in chosen}
    for index, quote in enumerate(chosen):
        follow = quote.unit.follow
        if follow and follow not in texts and sentences < MAX_QUOTES:
            chosen[index] = replace(quote, follow=follow)
            sentences += 1
    first = quotes[0].passage
    return sorted(chosen, key=lambda q: (q.passage != first, q.passage, q.unit.position))
