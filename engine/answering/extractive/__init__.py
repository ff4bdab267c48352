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

The package, by role (names with a leading underscore are the package's own: its modules read one
another's, nothing outside it does, tests aside):

* :mod:`~engine.answering.extractive.terms`: the question's content stems and their weights
  (``question_terms``), the words that only frame a question (``is_framing``), respelling,
  typo repair and synonyms, and the passage words each term counts as;
* :mod:`~engine.answering.extractive.detail_kinds`: the kind of detail a question asks for
  (``answer_kind``) and what a sentence must hold for each kind;
* :mod:`~engine.answering.extractive.question_parts`: the thing asked about, a named place, the
  email address, a joined follow-up's parts and the asker's situation (``situation_parts``);
* :mod:`~engine.answering.extractive.passages`: each passage's units stemmed once, a document's
  sentence about itself, the unit to quote for a list item, and ``one_sentence_holds_question``;
* this module, the entry point: ``find_quotes`` (every passage's answering sentences, scored),
  ``choose`` (the quotes to show), ``Quote`` and the thresholds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from engine.answering.extractive.detail_kinds import (
    _EVIDENCE,
    _PAYING_WORDS,
    _SOURCE_WORDS,
    _holds_evidence,
    answer_kind,
)
from engine.answering.extractive.passages import (
    _NAMES_A_DOCUMENT,
    _analyse,
    _shown_with_its_lead_in,
)
from engine.answering.extractive.question_parts import (
    _AFFIXES,
    _FRAGMENT,
    _PLACE_Q,
    _asked_thing,
    _follow_up_parts,
    _generic_things,
    _last_question,
    situation_parts,
    without_email_address,
)
from engine.answering.extractive.terms import (
    _NUMBERISH,
    _STOP,
    _WORD,
    _alternative_hits,
    _hits,
    _medicine_stems,
    _repair,
    _respell,
    _stem,
    question_terms,
)
from engine.answering.guard_details import quantities
from engine.answering.sentences import Unit

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
