"""The query normaliser: chat spellings rewritten, everyday words widened, typos matched to a
document word, and nothing a question says ever dropped."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from engine.answering.query_words import (
    WORDS_PATH,
    by_initial,
    closest_word,
    general_stems,
    may_be_typo,
    normalise,
    synonym_stems,
    within_edits,
    word_part,
)
from engine.safety import lexicon, vocabulary

EVALUATION = Path(__file__).resolve().parents[2] / "evaluation"


def test_chat_spellings_become_words() -> None:
    assert normalise("r u open on a sat") == "are you open on a Saturday"
    assert normalise("wat time shud i b there 4 my appt") == (
        "what time should i b there for my appointment"
    )
    assert normalise("whats ur phone no.") == "what is your phone number"


def test_normalise_keeps_every_other_character_and_word() -> None:
    question = "Do you offer Botox (on 4th May)? 4 × £20, ward 4!"
    assert normalise(question) == question
    assert normalise("") == ""


def test_contractions_are_written_out_with_either_apostrophe() -> None:
    assert normalise("I'm pregnant, isn't there a toilet?") == (
        "I am pregnant, is not there a toilet?"
    )
    assert normalise("I\u2019m deaf, we\u2019ve a badge, you're late, I'll wait") == (
        "I am deaf, we have a badge, you are late, I will wait"
    )
    assert normalise("I won't, can't or shan't") == "I will not, can not or shall not"
    # "'s" and "'d" are dropped ("would" is no stop word of PostgreSQL's english configuration)
    assert normalise("my dad's English, what's on, I'd like") == "my dad English, what on, I like"


def test_apostrophes_that_are_no_contraction_are_kept() -> None:
    question = "Is Mr O'Brien in at 9 o'clock? It's 'urgent'"
    assert normalise(question) == "Is Mr O'Brien in at 9 o'clock? It 'urgent'"


def test_four_is_for_only_between_words() -> None:
    assert normalise("how much 4 a blood test") == "how much for a blood test"
    assert normalise("room 4 a") == "room 4 a"  # a number after a number word stays


def test_a_typo_is_matched_to_the_closest_document_word_with_the_same_initial() -> None:
    vocabulary = {"prescript": 12, "park": 9, "parti": 1, "fasting": 4, "vaccin": 7, "hear": 3}
    assert closest_word("prescripton", vocabulary) == "prescript"
    assert closest_word("parkin", vocabulary) == "park"  # misspelt "parking"
    assert closest_word("vacin", vocabulary) == "vaccin"
    assert closest_word("botox", vocabulary) is None  # not a document word: stays unknown
    assert closest_word("fastnig", vocabulary) == "fasting"  # two letters swapped: one edit
    assert closest_word("rasting", vocabulary) is None  # another first letter is another word
    assert closest_word("haer", vocabulary) is None  # words under five letters are never respelt


def test_only_a_word_that_is_not_english_may_be_a_typo() -> None:
    assert may_be_typo("prescripton") and may_be_typo("parkng")
    assert not may_be_typo("chemist")  # a real word: never respelt into "chest"
    assert not may_be_typo("cafe") and not may_be_typo("shower")
    assert not may_be_typo("loo") and not may_be_typo("b12")


def test_everyday_idioms_are_searched_as_the_plain_word() -> None:
    assert normalise("what will the x-ray set me back") == "what will the x-ray cost"
    assert normalise("do I have to fork out for parking") == "do I have to pay for parking"
    assert normalise("who foots the bill if it is cancelled") == "who pay if it is cancelled"
    assert normalise("what if I turn up late") == "what if I arrive late"
    assert normalise("the courier never showed up") == "the courier never arrive"
    # Not those idioms: the words stay as they are.
    assert normalise("can you turn up the heating") == "can you turn up the heating"
    assert normalise("my scan was set back a week") == "my scan was set back a week"


def test_a_word_made_of_a_prefix_or_a_compound_is_matched_by_its_document_part() -> None:
    vocabulary = by_initial(
        [("book", 9), ("charg", 4), ("phone", 6), ("order", 3), ("stair", 1), ("per", 5)]
    )
    assert word_part("rebook", vocabulary)[0] == "book"
    assert word_part("prebook", vocabulary)[0] == "book"
    assert word_part("overcharg", vocabulary)[0] == "charg"
    assert word_part("reorder", vocabulary)[0] == "order"
    assert word_part("downstair", vocabulary)[0] == "stair"
    assert word_part("answerphon", vocabulary) == ("phone", vocabulary["p"])
    # The part must be four letters or more, and a compound's first part an English word.
    assert word_part("camper", vocabulary) == (None, {})
    assert word_part("xqzbook", vocabulary) == (None, {})
    assert word_part("botox", vocabulary) == (None, {})


def test_the_most_frequent_of_equally_close_words_wins() -> None:
    assert closest_word("parkx", {"parkz": 3, "parka": 20}) == "parka"
    assert closest_word("parkx", {"parkz": 30, "parka": 20}) == "parkz"


def test_by_initial_groups_a_vocabulary() -> None:
    assert by_initial([("park", 2), ("pay", 1), ("fast", 3)]) == {
        "p": {"park": 2, "pay": 1},
        "f": {"fast": 3},
    }


def test_within_edits_counts_a_swap_as_one() -> None:
    assert within_edits("lnog", "long", 1)
    assert not within_edits("lnog", "lung", 1)


def test_synonyms_are_stemmed_by_the_callers_stemmer() -> None:
    table = synonym_stems(str.lower)
    assert "toilet" in table["loo"]
    assert {"vaccine", "vaccination", "injection"} <= table["jab"]
    assert "jab" not in table["jab"]


def test_medical_is_not_read_as_medication() -> None:
    """Synonyms are keyed by stem, and "medication" and "medical" share one ("medic"): with
    "medication" listed, "a copy of my medical notes" counted a sentence under "Letters and
    prescriptions" as carrying "medical". Medicines are still reached by their everyday words."""
    from engine.answering.extractive.terms import _stem

    table = synonym_stems(_stem)
    assert _stem("medical") == _stem("medication")
    assert _stem("medical") not in table
    assert "medicin" in table[_stem("meds")] and "medicin" in table[_stem("pills")]


def test_the_word_lists_hold_words_never_questions() -> None:
    raw = yaml.safe_load(WORDS_PATH.read_text(encoding="utf-8"))
    assert set(raw) == {"chat", "synonyms", "general"}
    entries = [str(k) for k in raw["chat"]] + [str(k) for k in raw["synonyms"]]
    entries += [str(w) for w in raw["general"]]
    entries += [str(v) for v in raw["chat"].values()]
    entries += [str(w) for words in raw["synonyms"].values() for w in words]
    for entry in entries:
        assert len(entry.split()) <= 2 and "?" not in entry, entry
    questions = set()
    for path in EVALUATION.glob("*.yaml"):
        for row in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            questions.add(str(row["question"]).lower().strip())
    assert not questions & {e.lower() for e in entries}


def test_general_words_are_single_words_never_about_the_body_or_a_symptom() -> None:
    """The general list takes a word's weight away when no document uses it; a word that may be
    what a safety rule or a patient's question is about must never be on it."""
    raw = yaml.safe_load(WORDS_PATH.read_text(encoding="utf-8"))
    general = [str(w) for w in raw["general"]]
    assert len(general) == len(set(general)) >= 100
    about_the_body = re.compile(
        rf"(?:{vocabulary.SYMPTOMS}|{vocabulary.CONDITIONS}|{vocabulary.BODY}"
        rf"|{vocabulary.MEASURES})",
        re.IGNORECASE,
    )
    for word in general:
        assert re.fullmatch(r"[a-z]+", word), word
        assert not about_the_body.fullmatch(word), word
        assert word not in lexicon.FUZZY_KEYWORDS, word
        # not a chat spelling either: those are rewritten before any weighing
        assert word not in raw["chat"], word


def test_general_stems_follow_the_callers_stemmer() -> None:
    stems = general_stems(str.upper)
    assert {"PULL", "PAST", "SPEEDIEST"} <= stems
    assert "GYM" not in stems and "CAFE" not in stems
