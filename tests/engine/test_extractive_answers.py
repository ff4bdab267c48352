"""What a patient sees on the sample knowledge with the real embedder: short cited quotes,
tables as lines, refusals where no sentence carries the question's subject, and the guard's
refusal of a model reply turned into quotes (while a model's own refusal stays a refusal).

One database, ingested once for the module (the real MiniLM embedder takes a while)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import sqlalchemy as sa

from engine.answering.assistant import EXTRACTIVE_INTRO, Assistant
from engine.answering.retrieval import Retriever
from engine.events import AnswerEvent, DoneEvent, Outcome, ReplaceEvent, Route, TokenEvent, Turn
from engine.knowledge.embeddings import load_embedder
from engine.knowledge.ingest import Ingester
from engine.ops import db as dbm
from engine.ops.paths import knowledge_dir
from engine.ops.settings import DatabaseSettings, Settings
from engine.protocols import ChatModel, Embedder
from tests.conftest import TEMPLATE_DB, _with_db
from tests.support.clinic_corpus import answer_rows
from tests.support.fake_chat import FakeChat

FASTING = "How long do I need to fast before a blood test?"
QUOTE = re.compile("\u201c(.*?)\u201d \\[(\\d+)\\]", re.DOTALL)


@dataclass
class Clinic:
    db: dbm.Database
    settings: Settings
    embedder: Embedder

    def ask(
        self, question: str, chat: ChatModel | None = None, audience: str = "public"
    ) -> list[AnswerEvent]:
        assistant = Assistant(
            self.db, self.embedder, self.settings, audience=audience, chat=chat, channel="test"
        )
        return list(assistant.answer(question))

    def converse(self, *questions: str) -> list[DoneEvent]:
        """Each question asked after the ones before it, in one session, as the kiosk does."""
        turns: list[Turn] = []
        answers = []
        for question in questions:
            assistant = Assistant(
                self.db, self.embedder, self.settings, audience="public", channel="test"
            )
            done = final(list(assistant.answer(question, turns)))
            turns.append(Turn(question, done.text, done.route))
            answers.append(done)
        return answers


@pytest.fixture(scope="module")
def clinic(pg_admin_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Clinic]:
    name = f"t_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(pg_admin_url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE_DB}"'))
    settings = Settings(
        data_dir=tmp_path_factory.mktemp("sample") / "data",
        database=DatabaseSettings(url=_with_db(pg_admin_url, name)),
    )
    database = dbm.open_database(settings)
    embedder = load_embedder(settings)
    report = Ingester(database, embedder, settings, user="test").ingest_folders([knowledge_dir()])
    assert not report.failed, report.failed
    yield Clinic(database, settings, embedder)
    database.dispose()
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def final(events: list[AnswerEvent]) -> DoneEvent:
    assert isinstance(events[-1], DoneEvent)
    return events[-1]


def shown(events: list[AnswerEvent]) -> str:
    text = ""
    for event in events:
        if isinstance(event, TokenEvent):
            text += event.text
        elif isinstance(event, ReplaceEvent):
            text = event.text
    return text


def assert_quoted_from_cited_passages(done: DoneEvent) -> list[str]:
    """At most three quotes, each a sentence of the passage its [n] cites, no raw pipes."""
    quotes = QUOTE.findall(done.text)
    sentences = [s for q, _ in quotes for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", q)]
    assert 1 <= len(sentences) <= 3, done.text
    assert done.text.startswith(EXTRACTIVE_INTRO)
    passages = {c.number: c.text.replace("**", "") for c in done.citations}
    for quote, number in quotes:
        passage = passages[int(number)]
        if " ".join(quote.split()) not in " ".join(passage.split()):  # a list: its lines
            # A table row, shown as "Header: value, ...": every value is in one row of it.
            values = [piece.split(": ", 1)[-1] for piece in quote.split(", ")]
            rows = [line for line in passage.splitlines() if "|" in line]
            assert any(all(v in row for v in values) for row in rows), (quote, number)
    assert "|" not in done.text
    # Nothing is shown outside the intro and the quotes.
    assert QUOTE.sub("", done.text.removeprefix(EXTRACTIVE_INTRO)).strip() == ""
    return [q for q, _ in quotes]


def assert_answered_with(clinic: Clinic, question: str, expected: str) -> None:
    """An extractive answer whose quoted sentences (cited, at most three) include ``expected``."""
    done = final(clinic.ask(question))
    assert done.outcome is Outcome.EXTRACTIVE, done.text
    assert any(expected in q for q in assert_quoted_from_cited_passages(done)), done.text


def assert_refused_without_a_model(clinic: Clinic, question: str) -> None:
    """The fixed refusal, no citation, and no model call (the fake chat raises if called)."""
    chat = FakeChat.raising()
    done = final(clinic.ask(question, chat=chat))
    assert (done.outcome, done.text) == (Outcome.NO_ANSWER, clinic.settings.texts.refusal)
    assert done.citations == ()


def test_the_fasting_answer_is_at_most_three_cited_sentences(clinic: Clinic) -> None:
    events = clinic.ask(FASTING)
    done = final(events)
    assert done.outcome is Outcome.EXTRACTIVE
    quotes = assert_quoted_from_cited_passages(done)
    assert any("10 to 12 hours" in q for q in quotes)
    assert shown(events) == done.text
    # The whole passage is one tap away: the citation carries all of it.
    cited = done.citations[0]
    assert "Fasting blood tests are only booked in the morning" in cited.text
    assert len(cited.text) > len(" ".join(quotes))


def test_opening_hours_are_table_lines_never_pipes(clinic: Clinic) -> None:
    done = final(clinic.ask("What time does the clinic open on Saturday?"))
    quotes = assert_quoted_from_cited_passages(done)
    assert "Day: Saturday, Building open: 9:00 to 12:30, Phone lines: closed" in quotes


@pytest.mark.parametrize(
    ("question", "lead_in", "item"),
    [
        (
            "Are you closed on the Christmas bank holiday?",
            "Over the coming months it will be closed on:",
            "- Friday 25 December 2026 (Christmas Day)",
        ),
        ("Can I pay by Google Pay?", "We accept:", "- Contactless payment, including Apple Pay"),
    ],
)
def test_a_list_item_that_is_no_sentence_is_quoted_under_its_lead_in(
    clinic: Clinic, question: str, lead_in: str, item: str
) -> None:
    """ "Friday 25 December 2026 (Christmas Day)" alone does not say whether the clinic is open."""
    quotes = assert_quoted_from_cited_passages(final(clinic.ask(question)))
    assert any(q.startswith(lead_in) and item in q for q in quotes), quotes


@pytest.mark.parametrize(
    "question",
    [
        "Do you have a gym?",
        "Do you have a gym in the car park?",
        "How much does an allergy test cost?",
        "Do you offer acupuncture?",
        # a generic head noun is not required, the thing itself still is
        "Do you have a massage service?",
        "Is there a hydrotherapy facility?",
    ],
)
def test_no_sentence_carries_the_subject_so_the_refusal_without_a_model_call(
    clinic: Clinic, question: str
) -> None:
    assert_refused_without_a_model(clinic, question)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("wat time r u open on sat", "Day: Saturday, Building open: 9:00 to 12:30"),
        ("wat r the parkng charges", "£1.50 per hour"),
        ("do u have a hearin loop", "A hearing loop is fitted"),
        ("how long do i have to starve b4 a blood test", "10 to 12 hours"),
        ("is there a loo on the 1st floor", "on the first floor"),
    ],
)
def test_chat_spellings_typos_and_everyday_words_are_answered(
    clinic: Clinic, question: str, expected: str
) -> None:
    assert_answered_with(clinic, question, expected)


@pytest.mark.parametrize(
    "question",
    [
        "do u do botox",
        "how much is a physio appt",
        "is there a cafe 4 patients",
        "do u have wifi",
        "do ur doctors do home visits",
    ],
)
def test_clinic_adjacent_questions_in_chat_spelling_still_get_the_refusal(
    clinic: Clinic, question: str
) -> None:
    assert_refused_without_a_model(clinic, question)


@pytest.mark.parametrize("question", ["What's your email address?", "what is the e-mail address"])
def test_the_email_address_is_quoted_however_it_is_asked_for(clinic: Clinic, question: str) -> None:
    """ "email address" is one thing: the documents write "Email (...): enquiries@..."."""
    assert_answered_with(clinic, question, "enquiries@riversidefamilyclinic.example")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Do you have an interpreter service?", "If you would like an interpreter"),
        ("Is there a chaperone service?", "You can ask for a chaperone"),
    ],
)
def test_a_generic_head_noun_need_not_be_in_the_sentence(
    clinic: Clinic, question: str, expected: str
) -> None:
    assert_answered_with(clinic, question, expected)


@pytest.mark.parametrize(
    "question",
    [
        # the fees list has "Copy of test results printed for you: free": not medical records
        "Can I get a copy of my medical records?",
        # the car park section is about blue badge holders parking, not replacing a badge
        "Could I order a replacement blue badge here?",
        # "medical" is not "medication": the free copy of test results is not medical history
        "What do you charge for copies of my medical history?",
        "Is there a fee for a copy of my medical file?",
    ],
)
def test_a_request_for_a_thing_no_sentence_names_gets_the_refusal(
    clinic: Clinic, question: str
) -> None:
    assert_refused_without_a_model(clinic, question)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # "NHS App or online: the quickest way." is one list item with the repeat list after it
        ("Can I get my repeat prescription online?", "NHS App or online"),
        ("could I have a chaperone during my examination?", "You can ask for a chaperone"),
        # "a cup of tea" asks about the tea
        ("Can I have a cup of tea before my blood test?", "Do not drink tea, coffee"),
        # the documents write "Malaria tablets", never "anti-malaria"
        ("Could I get anti-malaria tablets from you?", "Malaria tablets are not available"),
        # "someone" names no thing of its own: the chaperone is what is asked for
        ("Can I have someone with me when I'm examined?", "You can ask for a chaperone"),
    ],
)
def test_a_request_for_a_thing_a_sentence_names_is_answered(
    clinic: Clinic, question: str, expected: str
) -> None:
    assert_answered_with(clinic, question, expected)


def test_staff_asking_for_the_defib_by_its_short_name_are_told_where_it_is(clinic: Clinic) -> None:
    """The everyday "defib" is the defibrillator (AED) the staff procedures name."""
    done = final(clinic.ask("Where is the defib?", audience="staff"))
    assert "in the green cabinet behind the reception desk" in quoted(done)


def quoted(done: DoneEvent) -> str:
    assert done.outcome is Outcome.EXTRACTIVE, done.text
    return " ".join(assert_quoted_from_cited_passages(done))


def test_a_follow_up_is_answered_by_what_it_asks_not_by_the_question_before(
    clinic: Clinic,
) -> None:
    _, took, by_text = clinic.converse(
        "How do I get my blood test results?", "How long do they take?", "Can I get them by text?"
    )
    assert "3 to 5 working days" in quoted(took)
    # A yes/no question of its own: neither the earlier "how long" nor its durations.
    assert "we send you a text message" in quoted(by_text)
    assert "3 to 5 working days" not in quoted(by_text)
    _, collect = clinic.converse("How do I order a repeat prescription?", "When can I collect it?")
    assert "You can order a repeat prescription in any of these ways" not in quoted(collect)
    assert "collect" in quoted(collect)


def test_a_fragment_follow_up_asks_what_the_question_before_asked(clinic: Clinic) -> None:
    _, sunday, holidays = clinic.converse(
        "When are you open on Saturday?", "What about Sunday?", "And bank holidays?"
    )
    assert "Day: Sunday, Building open: closed" in quoted(sunday)
    assert "The clinic is closed on all bank holidays in England." in quoted(holidays)
    _, nurse = clinic.converse("How much is a private GP appointment?", "And for a nurse?")
    assert "Private nurse appointment (20 minutes): £45" in quoted(nurse)
    _, free = clinic.converse("Do you have an interpreter service?", "Do I have to pay for that?")
    assert "Interpreting is free for all patients" in quoted(free)


def test_a_follow_up_the_documents_do_not_answer_is_refused(clinic: Clinic) -> None:
    """Its own words are not in any sentence: the earlier question's passages do not answer it."""
    for conversation in (
        ("How much is a private GP appointment?", "What about a chiropodist?"),
        ("How do I order a repeat prescription?", "Can my husband pick it up for me?"),
        ("How do I get my blood test results?", "Can they fax them to my work?"),
    ):
        first, then = clinic.converse(*conversation)
        assert first.outcome is Outcome.EXTRACTIVE
        assert (then.outcome, then.text) == (Outcome.NO_ANSWER, clinic.settings.texts.refusal)


def test_a_guard_refused_model_reply_becomes_quotes_and_the_original_is_logged(
    clinic: Clinic,
) -> None:
    reply = "You must fast for 24 hours before any blood test."  # uncited and wrong
    events = clinic.ask(FASTING, chat=FakeChat().queue(reply))
    done = final(events)
    assert done.outcome is Outcome.GUARDED
    quotes = assert_quoted_from_cited_passages(done)
    assert any("10 to 12 hours" in q for q in quotes)
    assert "24 hours before any" not in done.text and shown(events) == done.text
    row = answer_rows(clinic.db)[-1]
    assert (row.original_text, row.shown_text) == (reply, done.text)
    assert row.guard_reason


def test_the_models_own_refusal_stays_the_refusal(clinic: Clinic) -> None:
    refusal = clinic.settings.texts.refusal
    done = final(clinic.ask(FASTING, chat=FakeChat().queue(refusal)))
    assert (done.outcome, done.text, done.citations) == (Outcome.NO_ANSWER, refusal, ())


@pytest.mark.parametrize(
    "question",
    [
        # Where a price is found, for something the documents never price or point to.
        "where can I look up the price of a hearing test",
        "where is the price list for the hospital pharmacy",
        # Short yes/no questions sharing words with clinic passages, answered by none.
        "Do I have to sign a form to use the car park?",
        "Do I need to bring my own pillow?",
        "Do I have to show my passport at the train station?",
    ],
)
def test_where_to_find_a_price_and_short_yes_no_questions_nobody_answers_are_refused(
    clinic: Clinic, question: str
) -> None:
    assert_refused_without_a_model(clinic, question)


def test_where_to_find_a_price_may_be_answered_by_the_figure_itself(clinic: Clinic) -> None:
    done = final(clinic.ask("where are the prices for private sick notes written"))
    assert done.outcome is Outcome.EXTRACTIVE, done.text
    assert any("£25" in q for q in assert_quoted_from_cited_passages(done)), done.text


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # Words that only frame a question ("I'm", "wondering", "how much", "would") no longer
        # sink the passage that carries its subject.
        ("I'm wondering how much I'd pay for a private nurse appointment", "£45"),
        # A medicine the safety rules name is "the medicine" of the documents.
        ("what would a private prescription for my amlodipine cost", "£20"),
        ("how much would my citalopram cost on a private prescription", "£20"),
        # A place the documents name is answered from the sentence that names it.
        ("does a bus go from outside your door to Thameside General Hospital", "Route 188"),
    ],
)
def test_answerable_questions_in_other_words_are_answered(
    clinic: Clinic, question: str, expected: str
) -> None:
    assert_answered_with(clinic, question, expected)


@pytest.mark.parametrize(
    "question",
    [
        # Another place than the clinic: its name is in no sentence that would be quoted.
        "are the parking bays at Riverside Quay station free",
        "is there a cash machine at Thameside General Hospital",
        "how much is parking at the Thameside General car park",
        # Asked whether the clinic has a medicine: the name itself must be in the sentence.
        "do you sell ozempic pens",
    ],
)
def test_questions_about_another_place_or_an_unnamed_medicine_are_refused(
    clinic: Clinic, question: str
) -> None:
    assert_refused_without_a_model(clinic, question)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # "go past", "lock up", "sort", "meant": general words no document uses are not the
        # subject (engine/answering/everyday_words.yaml, general); a question about health keeps
        # their weight (test_a_question_about_health_keeps_the_weight_of_general_words)
        ("what buses go past the clinic", "47, 188 and 381"),
        ("what time do you lock up on fridays", "Day: Friday"),
        ("what sort of ID do I need on my very first visit", "Photo identification"),
        ("how early am I meant to get there before my appointment time", "10 minutes"),
    ],
)
def test_general_words_the_documents_never_use_do_not_sink_an_answer(
    clinic: Clinic, question: str, expected: str
) -> None:
    assert_answered_with(clinic, question, expected)


@pytest.mark.parametrize(
    "question",
    [
        # The same general words around a thing no document mentions: still the refusal.
        "can I grab a sandwich from your canteen before I go past reception",
        "is there a creche I could quickly drop my toddler at",
        "where can I lock up my scooter battery to charge it",
        "do you have a gym I could pop into afterwards",
    ],
)
def test_general_words_around_an_unknown_thing_still_get_the_refusal(
    clinic: Clinic, question: str
) -> None:
    assert_refused_without_a_model(clinic, question)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # A word no document uses, made of a prefix or an English word and a document word
        # (query_words.word_part), and idioms said as the plain word (query_words.normalise).
        ("I have been undercharged, who should I call", "020 7946 0140"),
        ("what number is the results answerphone on", "020 7946 0123"),
        ("can I rebook my blood test on the app", "NHS App"),
        ("who foots the bill for the interpreter", "Interpreting is free"),
    ],
)
def test_word_parts_and_idioms_are_answered(clinic: Clinic, question: str, expected: str) -> None:
    assert_answered_with(clinic, question, expected)


@pytest.mark.parametrize(
    "question",
    [
        # The same word parts and idioms around things no document mentions: still the refusal.
        "what will a cashpoint withdrawal set me back round here",
        "who foots the bill for a taxi home",
        "can I prebook a wheelchair taxi through you",
        "can you turn up the heating in the waiting room?",
    ],
)
def test_word_parts_and_idioms_around_an_unknown_thing_still_get_the_refusal(
    clinic: Clinic, question: str
) -> None:
    assert_refused_without_a_model(clinic, question)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # A relative is what the documents call "family" or "a relative"; a language name is a
        # "language" an "interpreter" works in (everyday_words.yaml synonyms).
        ("my auntie only speaks Somali, can somebody translate for her", "interpret"),
        ("can my son translate from Punjabi for me at the appointment", "interpret"),
        ("can my stepmum come in with me as well as a chaperone", "relative"),
    ],
)
def test_relatives_and_languages_are_answered(clinic: Clinic, question: str, expected: str) -> None:
    assert_answered_with(clinic, question, expected)


@pytest.mark.parametrize(
    "question",
    [
        # The clinic's name holds "Family": a relative never answers from that alone.
        "can my grandma get a pensioner discount on parking fines",
        "do you sell Turkish delight in reception",
        "does my nephew's school nurse work here",
    ],
)
def test_relatives_and_languages_around_an_unknown_thing_still_get_the_refusal(
    clinic: Clinic, question: str
) -> None:
    assert_refused_without_a_model(clinic, question)


def test_a_question_about_health_keeps_the_weight_of_general_words(clinic: Clinic) -> None:
    """General words the documents never use weigh little, except in a question about health:
    there they keep their full weight, so the question is refused (and reaches the safety net)
    rather than answered from a passage that shares its other words."""
    retriever = Retriever(clinic.db, clinic.settings)

    def weight_of_pull(question: str) -> float:
        vector = clinic.embedder.embed_query(question)
        weights = retriever.search_with_candidates(vector, question, "public").term_weights
        return weights["pull"]

    practical = weight_of_pull("which buses pull up outside the clinic")
    health = weight_of_pull("which buses pull up outside the clinic, my knee is swollen")
    assert practical < health


def test_the_pieces_of_a_contraction_are_no_question_words(clinic: Clinic) -> None:
    """PostgreSQL's parser splits "I'm" and "isn't" at the apostrophe; the pieces ("m", "isn")
    would weigh as the rarest words of all, and sink the passage that answers."""
    retriever = Retriever(clinic.db, clinic.settings)
    question = "I\u2019m pregnant, isn't there a toilet near the waiting area? We've a badge"
    vector = clinic.embedder.embed_query(question)
    weights = retriever.search_with_candidates(vector, question, "public").term_weights
    assert {"toilet", "pregnant"} <= set(weights)
    assert not {"m", "isn", "ve", "re", "ll", "d"} & set(weights)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # The asker's situation said first or last; what is asked is answered as if asked alone,
        # the situation's words counting as a follow-up's earlier question.
        (
            "can you arrange a British Sign Language interpreter, my sister was born deaf?",
            "British Sign Language interpreters can be booked",
        ),
        (
            "my knees are shot these days, have you got a lift up to the first floor?",
            "A lift goes to the first floor",
        ),
    ],
)
def test_a_question_that_also_says_the_askers_situation_is_answered(
    clinic: Clinic, question: str, expected: str
) -> None:
    assert_answered_with(clinic, question, expected)


@pytest.mark.parametrize(
    "question",
    [
        # What is asked, the documents never mention: the situation changes nothing.
        "I'm diabetic, is there a vending machine in the waiting area?",
        "my dad has Parkinson's, do you have a hydrotherapy pool?",
        "my wife has MS, does the clinic run a support group?",
        # What is asked names nothing of its own; the situation holds the subject.
        "my mum is confused by the check-in screen, can someone help her?",
    ],
)
def test_a_situation_around_something_the_documents_never_mention_is_refused(
    clinic: Clinic, question: str
) -> None:
    assert_refused_without_a_model(clinic, question)


@pytest.mark.parametrize(
    "question",
    [
        "my husband has crushing chest pain, where do I park?",
        "my face has dropped on one side and my speech is slurred, can I borrow a wheelchair?",
        "I took a whole packet of paracetamol, where is the nearest hospital?",
    ],
)
def test_an_emergency_said_as_the_situation_is_still_an_emergency(
    clinic: Clinic, question: str
) -> None:
    done = final(clinic.ask(question))
    assert (done.route, done.outcome) == (Route.EMERGENCY, Outcome.EMERGENCY)


@pytest.mark.parametrize("question", ["anywhere I can change a nappy?"])
def test_changing_something_else_is_no_nappy(clinic: Clinic, question: str) -> None:
    """ "Changing" alone never stands for a nappy: this used to quote "You can choose or change
    your nominated pharmacy ..."; the baby changing table's passage scores too low to keep, so
    the answer is the refusal, never a sentence about changing something else."""
    assert_refused_without_a_model(clinic, question)
