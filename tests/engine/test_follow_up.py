"""Follow-ups: a question is joined to the conversation only when it refers back, never because
it is short; a question that stands alone is routed and searched as if asked alone."""

from __future__ import annotations

import pytest

from engine.answering.follow_up import refers_back, standalone_query
from engine.answering.routing import route_by_rules
from engine.events import Route, Turn

CHEST = Turn("I've got a crushing pain in my chest", "Call 999 now.")
WARFARIN = Turn("should I stop my blood thinners before surgery", "Please ask your doctor.")
TOPIC = Turn("Blood tests", "Wear a top with sleeves that roll up easily.")
PARK = Turn("Where can I park?", "The car park is behind the building.")
HOURS = Turn("What time are you open on weekdays?", "8:00 to 18:30.")


@pytest.mark.parametrize(
    "question",
    [
        "and on Saturday?",
        "what about for children?",
        "is it free?",
        "how long does it take?",
        "what should I do?",
        "how much?",
        "For my son?",
        "which bus goes there?",
        "she is 84, is that normal at her age?",
        "Or the video one?",
    ],
)
def test_questions_that_refer_back(question: str) -> None:
    assert refers_back(question)


@pytest.mark.parametrize(
    "question",
    [
        "Where can I park?",
        "Do you have a gym?",
        "What are your opening hours?",
        "Is there a cash machine near here?",
        "Is this rash on my arm serious?",  # "this rash" names its own topic
        "Is it safe to take ibuprofen while pregnant?",  # a dummy "it"
        "How long does it take to get my repeat prescription?",
        "With my epilepsy, is it safe for me to be sedated for the camera test?",
        "",
    ],
)
def test_questions_that_stand_alone_even_when_short(question: str) -> None:
    assert not refers_back(question)


def test_a_standalone_question_is_searched_as_itself_whatever_came_before() -> None:
    for history in ([CHEST], [WARFARIN], [TOPIC], [PARK], [CHEST, WARFARIN, TOPIC]):
        assert standalone_query("Where can I park?", history) == "Where can I park?"
        assert standalone_query("Do you have a gym?", history) == "Do you have a gym?"


def test_a_follow_up_is_searched_with_the_question_it_follows() -> None:
    assert standalone_query("and on Saturday?", [HOURS]) == f"{HOURS.question}\nand on Saturday?"
    assert standalone_query("and on Saturday?", []) == "and on Saturday?"


def test_a_chain_of_follow_ups_keeps_the_original_topic() -> None:
    history = [CHEST, Turn("what should I do?", "Call 999 now.")]
    joined = standalone_query("and if he faints?", history)
    assert joined.startswith(CHEST.question)


@pytest.mark.parametrize("previous", [CHEST, WARFARIN])
def test_a_stop_route_never_carries_into_an_unrelated_question(previous: Turn) -> None:
    plan = route_by_rules("Where can I park?", [previous])
    assert plan.decision.route is Route.INFORMATION
    assert not plan.follow_up and plan.search_text == "Where can I park?"


def test_the_next_patient_is_not_routed_by_the_last_ones_emergency() -> None:
    # The kiosk keeps turns until the idle wipe: the next person's question stands alone.
    history = [CHEST, Turn("what should I do?", "Call 999 now.")]
    plan = route_by_rules("What time do you close on Friday?", history)
    assert plan.decision.route is Route.INFORMATION
    assert plan.search_text == "What time do you close on Friday?"


@pytest.mark.parametrize(
    ("history", "question", "route"),
    [
        ([CHEST], "what should I do?", Route.EMERGENCY),
        ([CHEST], "is it serious?", Route.EMERGENCY),  # alone: clinical; after chest pain: 999
        ([CHEST, Turn("what should I do?", "Call 999 now.")], "and now?", Route.EMERGENCY),
        ([WARFARIN], "what about my aspirin?", Route.CLINICAL),
        ([WARFARIN], "and for my son?", Route.CLINICAL),
        ([PARK], "how much does it cost?", Route.INFORMATION),
    ],
)
def test_a_real_follow_up_of_a_stop_route_stays_safe(
    history: list[Turn], question: str, route: Route
) -> None:
    plan = route_by_rules(question, history)
    assert plan.follow_up
    assert plan.decision.route is route


ALLERGY = Turn("my face and throat are swelling up after a bee sting", "Call 999 now.")
FALL = Turn("my grandmother fell in the kitchen and won't wake up", "Call 999 now.")
STATINS = Turn("can I drink grapefruit juice on my statins?", "Please ask your doctor.")
LIFT = Turn("Is there a lift to the first floor?", "A lift goes to the first floor.")


@pytest.mark.parametrize(
    ("history", "question", "route"),
    [
        # Pointing back at the person or the thing after an emergency, with a word or two of
        # its own: still the emergency.
        ([FALL], "should I roll her onto her side?", Route.EMERGENCY),
        ([FALL], "her breathing is funny now", Route.EMERGENCY),
        ([ALLERGY], "the swelling is going down, can I leave it?", Route.EMERGENCY),
        ([ALLERGY], "I've got some piriton, shall I try that and see?", Route.EMERGENCY),
        ([FALL], "should we give her ten minutes to settle?", Route.EMERGENCY),
        # Function words in chat spellings name no topic.
        ([ALLERGY], "how long till they get here tho?", Route.EMERGENCY),
        ([STATINS], "what about just one glass though?", Route.CLINICAL),
        # An aspect of taking the medicine the previous question named.
        ([STATINS], "and how long after the last tablet?", Route.CLINICAL),
        ([STATINS], "how long after my last dose?", Route.CLINICAL),
    ],
)
def test_follow_ups_of_a_stop_route_in_other_words_stay_safe(
    history: list[Turn], question: str, route: Route
) -> None:
    plan = route_by_rules(question, history)
    assert plan.follow_up, question
    assert plan.decision.route is route, question


@pytest.mark.parametrize(
    ("history", "question"),
    [
        # Its own subject and no pointer: asked alone, whatever the emergency before it.
        ([FALL], "Where do I pay for parking though?"),
        ([FALL], "Till what time is the pharmacy line open?"),
        ([ALLERGY], "Is there a cafe nearby?"),
        ([FALL], "How do I settle my bill?"),
        # A dummy "it" and an existential "there" point at nothing.
        ([STATINS], "Is it free to park here?"),
        ([STATINS], "Is there a toilet on the ground floor?"),
        # "they" is the clinic as often as a person: not the looser test.
        ([STATINS], "Can they post my prescription to me?"),
        # An aspect of taking a medicine after a question that named none.
        ([LIFT], "how long after the last tablet?"),
    ],
)
def test_questions_with_their_own_subject_stand_alone_after_a_stop_route(
    history: list[Turn], question: str
) -> None:
    plan = route_by_rules(question, history)
    alone = route_by_rules(question, [])
    assert not plan.follow_up, question
    assert plan.decision == alone.decision and plan.search_text == question


def test_the_looser_test_applies_only_after_a_stop_route() -> None:
    # After an information question, "will my scooter fit in it?" names two words of its own
    # and is still judged by the strict test (one topic word with a pronoun).
    assert not route_by_rules("will my scooter fit in it?", [LIFT]).follow_up
    assert route_by_rules("will she fit in it?", [FALL]).follow_up


@pytest.mark.parametrize(
    "question",
    ["is there another one upstairs?", "what about the other one?", "do you have a different one"],
)
def test_another_one_points_back(question: str) -> None:
    assert refers_back(question)
    assert route_by_rules(question, [LIFT]).follow_up


def test_come_and_see_someone_is_not_waiting_and_seeing() -> None:
    assert not refers_back("can I come and see the practice nurse about my ears?")


def test_the_route_the_last_answer_took_counts_for_the_looser_test() -> None:
    # An emergency found by the exemplar signal, not the rules: the turn records it.
    question = "will she be ok lying on the sofa"
    after_emergency = route_by_rules(question, [Turn("my neighbour", "Call 999.", Route.EMERGENCY)])
    after_information = route_by_rules(
        question, [Turn("my neighbour", "I don't know.", Route.INFORMATION)]
    )
    assert after_emergency.follow_up
    assert after_emergency.search_text == f"my neighbour\n{question}"
    assert after_emergency.decision.route is Route.EMERGENCY  # the recorded route carries
    assert not after_information.follow_up and after_information.search_text == question


def test_a_clinical_answer_does_not_carry_by_its_record_alone() -> None:
    # The exemplars may route a service question clinical; its price follow-up is information.
    jabs = Turn("Do you do travel vaccinations?", "Please ask a clinician.", Route.CLINICAL)
    plan = route_by_rules("how much do they cost?", [jabs])
    assert plan.follow_up and plan.decision.route is Route.INFORMATION


def test_the_it_department_is_not_a_pointer_back() -> None:
    collapse = Turn("a visitor has fainted by the lifts", "Call 999 now.", Route.EMERGENCY)
    plan = route_by_rules("what's the IT support number?", [collapse])
    assert not plan.follow_up
    assert plan.decision == route_by_rules("what's the IT support number?", []).decision
    assert not refers_back("what's the IT number?")  # one topic word and no pointer


# A medicine named in an information question (its answer was information), then what to do
# with it by pronoun, with a topic of its own: a follow-up, routed with the medicine.
ON_WARFARIN = Turn("I'm on warfarin, where do I park?", "The car park is behind the building.")
ON_INSULIN = Turn("I use insulin, do you open early on Tuesdays?", "8:00 to 18:30.")


@pytest.mark.parametrize(
    ("history", "question"),
    [
        ([ON_WARFARIN], "should I stop it before my colonoscopy?"),
        ([ON_INSULIN], "do I skip it on the morning of the fasting blood test?"),
        ([ON_INSULIN], "can I halve it the night before my operation?"),
    ],
)
def test_what_to_do_with_a_medicine_said_before_is_clinical(
    history: list[Turn], question: str
) -> None:
    plan = route_by_rules(question, history)
    assert plan.follow_up
    assert plan.decision.route is Route.CLINICAL


def test_stopping_something_that_is_no_medicine_stays_information() -> None:
    debit = Turn("how do I set up a direct debit for my fees?", "Call patient services.")
    plan = route_by_rules("can I stop it before the next payment?", [debit])
    assert plan.follow_up and plan.decision.route is Route.INFORMATION
