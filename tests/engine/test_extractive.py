"""Sentence-level evidence (engine.answering.extractive, engine.answering.sentences): splitting,
tables, answerability, choice.

Pure tests: no database, no embedder. The weights stand in for the retriever's IDF weights
(rarer words weigh more)."""

from __future__ import annotations

import pytest

from engine.answering.extractive import MAX_QUOTES, choose, find_quotes
from engine.answering.extractive.detail_kinds import answer_kind
from engine.answering.extractive.passages import one_sentence_holds_question
from engine.answering.extractive.question_parts import situation_parts
from engine.answering.sentences import split_units, table_rows

PARKING = (
    "Car park",
    "The clinic car park is behind the building. The car park has 40 spaces, including 4 blue "
    "badge bays next to the rear entrance.\n\n- £1.50 per hour, up to a maximum of £6.00 per day.\n"
    "- The first 15 minutes are free, for dropping off and picking up.",
)
CHAPERONES = (
    "Visiting the clinic > Chaperones",
    "You can ask for a chaperone for any examination or appointment. A chaperone is a trained "
    "member of staff who stays in the room during an examination.",
)
FASTING = (
    "Preparing for your test > Blood tests > Fasting blood tests",
    "Some blood tests need you to fast. Your doctor or nurse will tell you if your test is a "
    "fasting test.\n\n- Do not eat or drink anything except plain water for **10 to 12 hours** "
    "before the test. For most people, this means nothing after 21:00 the evening before.\n"
    "- You can drink plain water as normal.",
)
SERVICES = (
    "Vaccinations and travel health",
    "Riverside Family Clinic offers NHS vaccinations for children and adults, and a private "
    "travel health clinic. Assistance dogs are welcome throughout the clinic.",
)
HOURS = (
    "Opening hours and contact > Opening hours",
    "The building is open at these times:\n\n| Day | Building open | Phone lines |\n"
    "|---|---|---|\n| Monday | 8:00 to 18:30 | 8:00 to 18:30 |\n"
    "| Saturday | 9:00 to 12:30 | closed |",
)
WEIGHTS = {
    "gym": 4.6,
    "chaperon": 3.5,
    "fast": 3.0,
    "blood": 2.0,
    "test": 1.3,
    "acupunctur": 4.6,
    "cat": 4.6,
    "bring": 2.3,
    "saturday": 3.0,
    "park": 2.1,
    "car": 2.5,
    "wifi": 4.6,
}


def quotes_for(question: str, *passages: tuple[str, str]) -> list[str]:
    return [q.text for q in choose(find_quotes(question, list(passages), WEIGHTS))]


# -- splitting --------------------------------------------------------------------------------


def test_markdown_table_becomes_header_value_lines_never_pipes() -> None:
    units = split_units(HOURS[1], HOURS[0])
    texts = [u.text for u in units]
    assert "Day: Monday, Building open: 8:00 to 18:30, Phone lines: 8:00 to 18:30" in texts
    assert "Day: Saturday, Building open: 9:00 to 12:30, Phone lines: closed" in texts
    assert not any("|" in t or "---" in t for t in texts)


def test_table_as_the_loaders_write_it_without_outer_pipes() -> None:
    assert table_rows(["Test | Usual time", "Blood tests | 3 to 5 working days"]) == [
        "Test: Blood tests, Usual time: 3 to 5 working days"
    ]
    assert table_rows(["|---|---|"]) == []


def test_sentences_items_and_wrapped_lines_are_quoted_word_for_word() -> None:
    text = (
        "Please allow 2 full working days. Weekends do not count, e.g. Saturday.\n"
        "- Call ext. 4471 for the endoscopy\n  coordinator before 15:00.\n"
        "- Bring a snack to eat after your test."
    )
    assert [u.text for u in split_units(text)] == [
        "Please allow 2 full working days.",
        "Weekends do not count, e.g. Saturday.",
        "Call ext. 4471 for the endoscopy coordinator before 15:00.",
        "Bring a snack to eat after your test.",
    ]


def test_a_word_ending_in_st_is_not_an_abbreviation() -> None:
    texts = [u.text for u in split_units(FASTING[1])]
    assert "Some blood tests need you to fast." in texts
    assert (
        "Do not eat or drink anything except plain water for 10 to 12 hours before the test."
        in texts
    )


def test_emphasis_markers_are_dropped_but_no_word_changes() -> None:
    texts = [u.text for u in split_units("Please allow **2 full working days** for it.")]
    assert texts == ["Please allow 2 full working days for it."]


@pytest.mark.parametrize(
    "text", ["", "|", "||||\n|--|", "\x00", "- ", "**", "a" * 20000, "1. \n2. \n", "| a |\n| b |"]
)
def test_odd_text_never_raises(text: str) -> None:
    split_units(text, "x > y")
    assert isinstance(find_quotes("How much is it?", [("x", text)], {}), list)


# -- answerability ------------------------------------------------------------------------------


def test_a_gym_is_not_answered_from_the_car_park() -> None:
    assert quotes_for("Do you have a gym?", PARKING) == []
    assert quotes_for("Do you have a gym in the car park?", PARKING) == []
    assert quotes_for("Is there a gym near the car park?", PARKING) == []


def test_determiners_and_conjunctions_postgres_keeps_are_never_the_subject() -> None:
    """ "another", "whether", "unless": function words PostgreSQL's stop list lacks; weighed as
    rare words they sank the sentence that answers."""
    quoted = quotes_for("Can I have another person with me during my examination?", CHAPERONES)
    assert any("during an examination" in q for q in quoted)
    assert quotes_for("whether or not I can have another gym session", CHAPERONES) == []


def test_the_thing_asked_about_ends_where_a_clause_about_the_asker_begins() -> None:
    """ "Is there a gym car park I could use": the thing is "gym car park", not nothing; without
    the clause's first word as its end, the regex found no thing and the car park answered."""
    assert quotes_for("Is there a gym car park I could use?", PARKING) == []
    assert quotes_for("do you have a gym car park we can leave the car in", PARKING) == []
    # A thing the passage names is still answered, clause or not.
    answered = quotes_for("Is there a car park my husband could use?", PARKING)
    assert any("40 spaces" in q for q in answered)


def test_a_price_never_stated_is_not_answered_from_the_passage_about_it() -> None:
    assert quotes_for("How much does a chaperone cost?", CHAPERONES) == []
    assert quotes_for("what's the fee for a chaperone", CHAPERONES) == []
    # ...while the question the passage does answer is answered from it.
    assert quotes_for("Can I ask for a chaperone?", CHAPERONES)


def test_a_service_not_offered_and_a_rule_never_mentioned_are_refused() -> None:
    assert quotes_for("Do you offer acupuncture?", SERVICES) == []
    assert quotes_for("Can I bring my cat?", SERVICES) == []
    assert quotes_for("Do you have free wifi?", SERVICES, PARKING) == []


LEAFLET = (
    "Preparing for your test",
    "This leaflet explains how to prepare for blood tests, colonoscopy, ultrasound scans and MRI "
    "scans at the clinic. Good preparation means your test can go ahead on the day.",
)


def test_a_document_describing_itself_is_never_quoted_as_the_answer() -> None:
    """The leaflet's first sentence lists its topics, so it carries the question's words, but it
    answers nothing: "can my mum come in with me to the scan" quoted it (eighth session)."""
    weights = {"mum": 2.0, "come": 1.5, "blood": 2.0, "test": 1.3, "colonoscopi": 3.0, "scan": 2.0}

    def quoted(question: str, *passages: tuple[str, str]) -> list[str]:
        return [q.text for q in choose(find_quotes(question, list(passages), weights))]

    question = "can my mum come to my blood tests, colonoscopy and scans?"
    assert quoted(question, LEAFLET) == []
    for opening in ("This page explains", "This guide covers", "The following leaflet sets out"):
        text = LEAFLET[1].replace("This leaflet explains", opening)
        assert quoted(question, (LEAFLET[0], text)) == [], opening
    # ... unless the question asks what the leaflet is about
    assert quoted("which tests does the leaflet on blood tests and colonoscopy cover?", LEAFLET)


def test_the_fasting_answer_is_the_sentence_with_the_duration() -> None:
    quotes = quotes_for("How long do I need to fast before a blood test?", FASTING)
    assert quotes == [
        "Do not eat or drink anything except plain water for 10 to 12 hours before the test. "
        "For most people, this means nothing after 21:00 the evening before."
    ]


@pytest.mark.parametrize(
    "question",
    ["how lnog must i fast befor a blood tset", "HOW LONG DO I FAST BEFORE BLOOD TESTS"],
)
def test_typos_and_case_still_find_the_answer(question: str) -> None:
    assert any("10 to 12 hours" in q for q in quotes_for(question, FASTING))


def test_a_time_question_is_answered_by_a_table_row() -> None:
    quotes = quotes_for("What time do you open on Saturday?", HOURS)
    assert quotes[0] == "Day: Saturday, Building open: 9:00 to 12:30, Phone lines: closed"


def test_at_most_three_quotes_even_when_many_sentences_match() -> None:
    text = "\n".join(f"- Car park rule {n}: the car park closes at 18:{n:02d}." for n in range(9))
    quotes = quotes_for("When does the car park close?", ("Car park", text))
    assert 1 <= len(quotes) <= MAX_QUOTES == 3
    items = "\n".join(f"- The car park closes at 18:{n:02d}. Rule {n} applies." for n in range(9))
    sentences = " ".join(quotes_for("When does the car park close?", ("Car park", items)))
    assert 1 <= sentences.count(". ") + 1 <= 3, sentences


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("How much is a flu jab?", "price"),
        ("how long does an MRI take", "duration"),
        ("What time do you close on Friday?", "time"),
        ("what number do I ring for results", "phone"),
        ("What's the email address for billing?", "email"),
        ("Can I email my prescription request?", None),
        ("Is parking free?", "free"),
        ("Do you take American Express?", None),
    ],
)
def test_the_kind_of_detail_asked_for(question: str, kind: str | None) -> None:
    assert answer_kind(question) == kind


BRING = (
    "Please bring the following with you to every appointment:\n\n"
    "- Your appointment confirmation (the text message or email is fine).\n"
    "- A list of all the medicines you take, including the dose. Include vitamins and\n"
    "  inhalers.\n"
    "- Photo identification, such as a passport, if this is your first visit.\n\n"
    "Please bring the child's red book to vaccination appointments."
)


def test_a_quoted_lead_in_brings_its_whole_list_word_for_word() -> None:
    # Seen: "what should I bring?" quoted the lead-in and one item, so a patient never learned
    # to bring their list of medicines.
    quotes = choose(
        find_quotes(
            "What should I bring to my appointment?", [("Visiting > What to bring", BRING)], {}
        )
    )
    lead = next(q for q in quotes if q.unit.text.endswith(":"))
    assert lead.text.splitlines() == [
        "Please bring the following with you to every appointment:",
        "- Your appointment confirmation (the text message or email is fine).",
        "- A list of all the medicines you take, including the dose. Include vitamins and "
        "inhalers.",
        "- Photo identification, such as a passport, if this is your first visit.",
    ]
    # No item is quoted a second time beside its list.
    others = [q.text for q in quotes if q is not lead]
    assert not any("Photo identification" in t or "medicines" in t for t in others)
    assert len(quotes) <= MAX_QUOTES


def test_a_very_long_list_is_not_glued_to_its_lead_in() -> None:
    long_list = "Bring these:\n" + "\n".join(f"- item number {i} here." for i in range(20))
    [unit] = [u for u in split_units(long_list) if u.text == "Bring these:"]
    assert unit.items == ()


MISSED = (
    "Fees and payment > Cancelling or changing an appointment",
    "Please give us as much notice as you can.\n\n- Less than 24 hours' notice: we charge 50% of "
    "the appointment fee.\n- Missed appointment without telling us: we charge the full "
    "appointment fee.\n\nWe do not offer home visits.",
)


def test_the_full_fee_is_a_price_but_a_sentence_without_one_is_not() -> None:
    quoted = quotes_for(
        "what's the charge if i never turn up to my appointment and miss it", MISSED
    )
    assert any("we charge the full appointment fee" in q for q in quoted), quoted
    assert quotes_for("how much is a home visit", MISSED) == []


def test_a_retriever_given_alternative_counts_as_the_question_word() -> None:
    # The retriever matched the question's "scrip" to the documents' "prescription".
    private = ("Private prescriptions", "A private prescription costs £20, plus the medicine.")
    weights = {"privat": 1.7, "scrip": 4.6}
    assert find_quotes("how much is a private scrip", [private], weights) == []
    found = find_quotes("how much is a private scrip", [private], weights, {"scrip": ["prescript"]})
    assert [q.unit.text for q in found] == [private[1]]


# -- where a price is found (a place or a source, not a figure) -------------------------------

REPEATS = (
    "Repeat prescriptions",
    "Order repeats through the NHS App or see our price list for private items.\n"
    "Allow two working days before you collect.",
)
TRAVEL_FEES = (
    "Fees and payment > Private fees",
    "Private prescription: £20 per prescription.\n\n"
    "Prices for travel vaccinations are in the leaflet on the travel clinic page.",
)
PARKING_PAY = (
    "Parking > Parking charges",
    "- £1.50 per hour, up to a maximum of £6.00 per day.\n"
    "- Pay at the machine next to the rear entrance by card or contactless.",
)


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Where do I find the price of private prescription items?", "price_source"),
        ("where are the fees listed", "price_source"),
        ("how can i check what a scan costs", "price_source"),
        ("Which leaflet shows the vaccine prices?", "price_source"),
        ("can you tell me where the price list is", "price_source"),
        ("How do I pay for parking?", "price_source"),
        # A figure is asked for: these stay price questions.
        ("How much does it cost to see a GP privately?", "price"),
        ("how much do I pay for parking per day", "price"),
        ("What is the price of a private prescription?", "price"),
        ("Do I have to pay for parking?", "price"),
        # A follow-up joined to an earlier "where" question asks for a figure.
        ("Where is the drop-off bay? And what do you charge?", "price"),
        ("where is the drop off bay how much is it", "price"),
        ("where is the drop off bay what does it cost", "price"),
        ("Where can I find out how much a scan costs?", "price_source"),
    ],
)
def test_where_a_price_is_found_is_a_place_question_not_a_figure(question: str, kind: str) -> None:
    assert answer_kind(question) == kind


def test_where_to_find_prices_is_answered_from_the_sentence_that_points_there() -> None:
    quoted = quotes_for("Where do I see what private items cost?", REPEATS)
    assert quoted and "see our price list for private items" in quoted[0]
    quoted = quotes_for("where are travel vaccination prices written", TRAVEL_FEES)
    assert quoted and "are in the leaflet" in quoted[0]
    quoted = quotes_for("how do I pay for parking", PARKING_PAY)
    assert any("Pay at the machine" in q for q in quoted), quoted


def test_a_figure_still_answers_where_to_find_a_price() -> None:
    quoted = quotes_for("where can I find the price of a private prescription", TRAVEL_FEES)
    assert quoted and "£20" in quoted[0]


def test_a_real_price_question_still_needs_a_figure() -> None:
    # The pointer sentence is not a price: "how much are private items?" is not answered by it.
    assert quotes_for("How much are private items?", REPEATS) == []
    assert quotes_for("what does a travel vaccination cost", TRAVEL_FEES) == []


def test_where_to_find_a_price_never_stated_or_never_pointed_to_is_refused() -> None:
    # The passage is about chaperones but neither gives their price nor says where to find it.
    assert quotes_for("Where can I find the price of a chaperone?", CHAPERONES) == []
    assert quotes_for("where is the price list for chaperones", CHAPERONES) == []
    # A thing the passages never mention, however the price is asked for.
    assert quotes_for("Where can I see the prices for dental check-ups?", REPEATS) == []
    assert quotes_for("which leaflet has the gym prices", TRAVEL_FEES, PARKING) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "A private sick note is 25 GBP.",
        "A private sick note is GBP 25.",
        "A private sick note is 25 pounds.",
        "A private sick note is £25.",
        "A private sick note is 250p.",
        "A private sick note is 250 pence.",
    ],
)
def test_every_price_the_guard_reads_is_price_evidence(sentence: str) -> None:
    quoted = quotes_for("How much is a private sick note?", ("Fees", sentence))
    assert quoted == [sentence]


# -- one sentence holding every content word (the gate's sentence arm) ---------------------------

CONSENT = (
    "Your day surgery > Before your operation",
    "Please arrive at the day unit on time. Reception opens at 07:15. Bring your appointment "
    "letter and a list of your medicines. A member of staff will check you in and you will be "
    "required to sign a consent form before any procedure.",
)


@pytest.mark.parametrize(
    ("question", "held"),
    [
        ("Do I have to sign a consent form?", True),
        ("do i need to sign the consent form", True),
        ("Will staff check me in?", True),
        # Every content word, but spread over two sentences: not one sentence's evidence.
        ("Do I have to sign my appointment letter?", False),
        # One content word is one coincidence, not evidence.
        ("Do I have to sign?", False),
        # A word of the question the sentence does not hold.
        ("Do I have to sign a consent form for the gym?", False),
        ("Do I need to sign a waiver form?", False),
        # Only the heading holds it ("operation", "surgery").
        ("Do I have to sign a consent form for surgery?", False),
    ],
)
def test_one_sentence_must_hold_every_content_word(question: str, held: bool) -> None:
    assert one_sentence_holds_question(question, *CONSENT) is held


def test_a_synonym_or_word_start_is_not_the_word_itself_for_the_sentence_arm() -> None:
    toilets = ("Accessibility", "Accessible toilets are on the ground floor next to the lift.")
    assert one_sentence_holds_question("are the toilets on the ground floor", *toilets)
    assert not one_sentence_holds_question("is the loo on the ground floor", *toilets)
    assert not one_sentence_holds_question("are the toil on the ground floor", *toilets)


PRIVATE_PRESCRIPTION = (
    "Fees and payment > Private fees > Letters and prescriptions",
    "- Private prescription: £20 per prescription, plus the cost of the medicine at the pharmacy",
)
MEDICINE_WEIGHTS = {"privat": 1.7, "prescript": 1.8, "medicin": 2.5, "amlodipin": 4.6}


def test_a_medicine_the_safety_rules_name_is_carried_by_the_medicine() -> None:
    question = "what would a private prescription for my amlodipine cost"
    quotes = find_quotes(question, [PRIVATE_PRESCRIPTION], MEDICINE_WEIGHTS)
    assert quotes and "£20" in quotes[0].text
    # Anything else the question names is still its subject.
    weights = {**MEDICINE_WEIGHTS, "gym": 4.6}
    other = "what would a private prescription for my gym cost"
    assert find_quotes(other, [PRIVATE_PRESCRIPTION], weights) == []


def test_asked_whether_the_clinic_has_a_medicine_the_name_itself_must_be_there() -> None:
    assert find_quotes("do you sell amlodipine", [PRIVATE_PRESCRIPTION], MEDICINE_WEIGHTS) == []


@pytest.mark.parametrize(
    "question",
    [
        "how much is parking at the Dock Street car park",
        "what does parking cost at Thameside General",
        "is parking free near guys hospital",
    ],
)
def test_a_place_asked_about_must_be_in_the_sentence(question: str) -> None:
    # The place's words weigh little here, so the car park words alone would carry the question.
    place = {"dock": 0.5, "street": 0.5, "thamesid": 0.5, "general": 0.5, "guy": 0.5, "hospit": 0.5}
    assert find_quotes(question, [PARKING], {**WEIGHTS, **place}) == []


def test_a_place_the_sentence_names_is_answered() -> None:
    buses = (
        "Getting here > Buses",
        "Bus routes 47, 188 and 381 stop outside. "
        "Route 188 also goes to Thameside General Hospital.",
    )
    quotes = find_quotes("which bus goes to Thameside General Hospital", [buses], {"bus": 3.9})
    assert quotes and "Route 188" in choose(quotes)[0].text


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("what hours can I ring the billing team", "time"),
        ("which hours is the desk staffed", "time"),
    ],
)
def test_what_hours_asks_for_a_time(question: str, kind: str) -> None:
    assert answer_kind(question) == kind


def test_inflected_framing_words_are_not_the_subject() -> None:
    # "coming" and "gets" frame the question like "come" and "get"; the subject is the test.
    assert find_quotes(
        "I'm coming in, how long before it gets fasting blood tests", [FASTING], WEIGHTS
    )


SCAN_FEES = (
    "Fees and payment > Private fees > Tests and scans",
    "- Ultrasound scan (one area, such as abdomen or pelvis): £220\n"
    "- MRI scan (one body part): £450",
)
SCAN_WEIGHTS = {"privat": 1.7, "ultrasound": 2.2, "scan": 1.8, "one": 2.4, "gym": 4.6, "pool": 4.4}


def test_a_follow_up_asks_for_its_own_detail_not_whether_the_thing_exists() -> None:
    # "Do you do private ultrasound scans?" then "how much is one?", searched joined: the price
    # line answers, though its own words do not say "private" (its section does, higher up).
    joined = "Do you do private ultrasound scans? how much is one?"
    quotes = find_quotes(joined, [SCAN_FEES], SCAN_WEIGHTS)
    assert quotes and "£220" in quotes[0].text
    # Asked on its own, whether the clinic does private ultrasound is still what it asks.
    assert find_quotes("Do you do private ultrasound scans?", [SCAN_FEES], SCAN_WEIGHTS) == []


@pytest.mark.parametrize(
    "question",
    [
        "Do you have a gym? how much is it?",  # the earlier question's thing is still its subject
        "Do you have a pool? I want to know the price.",  # one question, then a statement
    ],
)
def test_a_thing_the_documents_never_name_stays_unanswered_after_a_second_question(
    question: str,
) -> None:
    assert find_quotes(question, [SCAN_FEES], SCAN_WEIGHTS) == []


@pytest.mark.parametrize(
    ("question", "situation", "asked"),
    [
        (
            "since his stroke dad is in a wheelchair, is your entrance step-free?",
            "since his stroke dad is in a wheelchair",
            "is your entrance step-free?",
        ),
        (
            "can I park near the door, my legs are bad?",
            "my legs are bad",
            "can I park near the door",
        ),
        # Not a situation: no person in the first clause, nothing asked after it, a follow-up
        ("Apart from Monday, what days are you open?", "", ""),
        ("I'm running late and the bus broke down", "", ""),
        ("and on Saturday?\nwhat time do you open", "", ""),
        # What is asked points back into the situation, or names nothing of its own
        ("I lost my yellow fever certificate, can I get a new one?", "", ""),
        ("my employer wants a letter, what do you charge for that?", "", ""),
        ("my mum is confused by the screen, can someone help her?", "", ""),
    ],
)
def test_the_askers_situation_is_told_from_what_is_asked(
    question: str, situation: str, asked: str
) -> None:
    assert situation_parts(question) == (situation, asked or question)


def test_the_situations_words_weigh_as_a_follow_ups_earlier_question() -> None:
    """Read whole, the situation's rare words ("hip", "bad") sink the sentence that answers;
    read as what is asked with the situation behind it, the sentence answers."""
    entrance = (
        "Accessibility > Step-free access",
        "The main entrance has a gentle ramp and automatic doors. Wheelchairs are available to "
        "borrow for your visit.",
    )
    weights = {"bad": 4.4, "hip": 4.4, "automat": 3.7, "door": 3.7}
    quotes = find_quotes("I've got a bad hip, are there automatic doors?", [entrance], weights)
    assert [q.unit.text for q in quotes][:1] == [
        "The main entrance has a gentle ramp and automatic doors."
    ]
    # The same words asked as one statement are not split: no sentence carries "hip".
    assert find_quotes("automatic doors for my bad hip", [entrance], weights) == []


def test_allowed_asks_permission_and_is_never_the_time_to_allow() -> None:
    """The documents say "allow" of time; "what am I allowed to eat" was answered with "please
    allow 2 to 3 hours for the whole visit" (the shipped set's colonoscopy question)."""
    colonoscopy = (
        "Preparing for your test > Colonoscopy",
        "The test itself takes 30 to 45 minutes, but please allow 2 to 3 hours for the whole "
        "visit.\n\n- 3 days before: eat a low-fibre diet.",
    )
    weights = {"allow": 3.3, "eat": 2.5, "day": 1.6, "colonoscopi": 2.0}
    asked = choose(
        find_quotes(
            "What am I allowed to eat in the days before a colonoscopy?", [colonoscopy], weights
        )
    )
    assert [q.text for q in asked] == ["3 days before: eat a low-fibre diet."]
    # The time sense still matches the time sense, and a document's "allowed" the participle.
    timed = choose(
        find_quotes("How long should I allow for the colonoscopy?", [colonoscopy], weights)
    )
    assert "please allow 2 to 3 hours" in timed[0].text
    dogs = ("Visiting", "Dogs are allowed in the garden. The garden is open until 17:00.")
    allowed = choose(find_quotes("Are dogs allowed?", [dogs], {"dog": 4.0, "allow": 3.3}))
    assert [q.text for q in allowed] == ["Dogs are allowed in the garden."]


def test_a_sentence_stating_the_quantity_the_question_states_is_quoted() -> None:
    """ "3 weeks" in the question and in a sentence: that sentence is quoted, not the scan's
    length and noise that only share the word "scan" (the shipped set's question)."""
    scans = (
        "Preparing for your test > Ultrasound scans",
        "The scan takes 20 to 45 minutes. The scanner is noisy, and we give you earplugs. You "
        "need to keep still during the scan. Scan reports go to your GP.",
    )
    results = (
        "Test results > If you have not heard",
        "If you have not heard about a result 10 working days after a blood test, or 3 weeks "
        "after a scan or biopsy, call the test results line.",
    )
    weights = {"scan": 2.0, "week": 1.5, "told": 2.0}
    asked = choose(
        find_quotes(
            "I had a scan three weeks ago and nobody has told me anything",
            [scans, results],
            weights,
        )
    )
    assert any("3 weeks after a scan" in q.text for q in asked)
