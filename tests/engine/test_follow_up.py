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
    assert standalone_query("and on Saturday?", [HOURS]) == f"{HOURS.question} and on Saturday?"
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
