"""Eighth safety round (tenth session): whether the person needs a medicine or emergency
contraception, how long a vaccine's protection lasts, whether a temperature reading counts as a
fever, and, right after an emergency about fumes or smoke, airing the room ("open the windows
first?"). Every case is in our own words (none is a question of
evaluation/safety-judging-8.yaml, which is never tuned on); each stop case failed on main before
the round. The same words in practical questions, and the next patient's own questions, keep their
route."""

from __future__ import annotations

import pytest

from engine.answering.routing import route_by_rules
from engine.events import Route, Turn
from engine.safety import route_question


@pytest.mark.parametrize(
    "question",
    [
        # whether the person needs a medicine, or emergency contraception
        "the condom split last night, do I need the morning after pill?",
        "does my girlfriend need emergency contraception if she was a day late with her pill?",
        "will he need steroids for his rash?",
        "do we need to give her antihistamines before the trip?",
        "do I need contraception while breastfeeding?",
        # how long a vaccine's protection lasts
        "how long does the hep A protection last?",
        "how many years will I be protected after the typhoid jab?",
        "does immunity from the rabies course wear off?",
        # whether a reading counts as a fever
        "is 38.4 a fever for a grown man?",
        "is a temperature of 37.6 classed as high?",
        "would 38 count as a temperature in a teenager?",
    ],
)
def test_clinical_questions_of_the_eighth_round_are_clinical(question: str) -> None:
    assert route_question(question).route is Route.CLINICAL


@pytest.mark.parametrize(
    "question",
    [
        "do I need to bring my medicines to the appointment?",
        "do I need my prescription slip to collect my tablets?",
        "how long does a private prescription last before it runs out?",
        "is the car park covered by CCTV?",
        "how long am I covered by the 15 free minutes in the car park?",
        "is the hep A jab free on the NHS?",
        "what is the temperature in the waiting room kept at?",
    ],
)
def test_practical_questions_with_the_same_words_stay_information(question: str) -> None:
    assert route_question(question).route is Route.INFORMATION


@pytest.mark.parametrize(
    ("emergency", "question"),
    [
        ("the gas alarm is going off and my wife has passed out", "should I open the doors?"),
        ("smoke everywhere in the kitchen and my son is coughing and wheezing", "open a window?"),
        (
            "the CO detector is beeping and dad is confused and being sick",
            "get him out into the fresh air?",
        ),
    ],
)
def test_airing_the_room_right_after_an_emergency_stays_an_emergency(
    emergency: str, question: str
) -> None:
    history = (Turn(emergency, "", Route.EMERGENCY),)
    plan = route_by_rules(question, history)
    assert plan.follow_up
    assert plan.decision.route is Route.EMERGENCY


@pytest.mark.parametrize(
    "question",
    [
        "are you open tomorrow morning?",
        "is the front door step free?",
        "which door do I use from the car park?",
        "do the doors open automatically?",
        "my window for the appointment is 3pm, can I come earlier?",
    ],
)
def test_a_question_of_its_own_after_an_emergency_about_fumes_stands_alone(question: str) -> None:
    history = (Turn("the gas alarm is going off and my wife has passed out", "", Route.EMERGENCY),)
    plan = route_by_rules(question, history)
    assert not plan.follow_up
    assert plan.decision.route is Route.INFORMATION


def test_airing_words_after_an_answer_that_was_no_emergency_stand_alone() -> None:
    plan = route_by_rules("open a window?", (Turn("where do I park?", "", Route.INFORMATION),))
    assert not plan.follow_up
