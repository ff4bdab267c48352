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
from engine.safety.safety_net import NET_STATE_SIMILARITY, net_reason

# whether the person needs a medicine, how long a vaccine protects, whether a reading is a
# fever: clinical
CLINICAL_QUESTIONS = [
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
]


# the same words in practical questions: information
PRACTICAL_QUESTIONS = [
    "do I need to bring my medicines to the appointment?",
    "do I need my prescription slip to collect my tablets?",
    "how long does a private prescription last before it runs out?",
    "is the car park covered by CCTV?",
    "how long am I covered by the 15 free minutes in the car park?",
    "is the hep A jab free on the NHS?",
    "what is the temperature in the waiting room kept at?",
]


@pytest.mark.parametrize(
    ("emergency", "question"),
    [
        ("the gas alarm is going off and my wife has passed out", "should I open the doors?"),
        ("smoke everywhere in the kitchen and my son is coughing and wheezing", "open a window?"),
        (
            "the CO detector is beeping and dad is confused and being sick",
            "get him out into the fresh air?",
        ),
        # a question the rules stop on its own, about the person of the emergency
        (
            "my mum's face has dropped on one side and her arm is weak",
            "is a dose of her blood thinner sensible at this point?",
        ),
        (
            "she's collapsed in the hallway and is breathing oddly",
            "is a codeine tablet a good idea for her headache now?",
        ),
    ],
)
def test_first_aid_or_a_question_about_the_person_right_after_an_emergency_stays_one(
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


# -- "more of my tablets": a repeat prescription, or an overdose ------------------------------


# more of a medicine than one should: an emergency
MORE_THAN_ONE_SHOULD = [
    "he's taken more of his epilepsy tablets than he's supposed to",
    "I think I've had more insulin than I should tonight and I'm shaky",
    "mum's been taking more of her painkillers than the label says for a week",
    "my son took extra of his ADHD pills, far more than prescribed",
]


@pytest.mark.parametrize(
    "question",
    [
        "I've had more coffee than I should today, is the blood test still ok?",
        "he takes more tablets than anyone I know, can he bring a list?",
        "my nan gets more prescriptions than she can keep track of, can you help?",
    ],
)
def test_more_than_one_should_of_no_medicine_is_no_emergency(question: str) -> None:
    assert route_question(question).route is not Route.EMERGENCY


# -- "I'll" is "I will", never "ill" ------------------------------------------------------------


# "I'll" is "I will", never "ill": information
I_WILL = [
    "I'll be 10 minutes late, should I still come?",
    "I\u2019ll bring my son, should I bring his red book?",
    "I'll be coming by taxi, should I wait outside?",
    "he'll need his wheelchair, should we bring it?",
]


# saying one will take all one's pills: an emergency
TAKING_ALL_ONES_PILLS = [
    "I'll take all my pills tonight",
    "ill swallow the whole box of my tablets when everyone is asleep",
    "she says she'll down all her meds",
]


@pytest.mark.parametrize(
    ("question", "route"),
    [(q, Route.CLINICAL) for q in CLINICAL_QUESTIONS]
    + [(q, Route.INFORMATION) for q in PRACTICAL_QUESTIONS]
    + [(q, Route.EMERGENCY) for q in MORE_THAN_ONE_SHOULD]
    + [(q, Route.INFORMATION) for q in I_WILL]
    + [(q, Route.EMERGENCY) for q in TAKING_ALL_ONES_PILLS],
)
def test_the_eighth_rounds_questions_get_their_route(question: str, route: Route) -> None:
    assert route_question(question).route is route


# -- the safety net: getting more of a medicine is a practical request --------------------------


@pytest.mark.parametrize(
    ("question", "netted"),
    [
        # getting more of a medicine is never netted as a state
        ("my water tablets have nearly run out, who can help?", False),
        ("I'm running low on my blood pressure tablets, can you sort it?", False),
        ("how do I order more of my pain pills?", False),
        # a medicine taken is still netted as a state
        ("she has necked a load of her pills and won't answer me", True),
        ("my tablets make me dizzy and I'm shaking", True),
        # running out of a medicine beside a state said now: the state is still read
        ("my inhalers are running low and he is wheezing badly", True),
        ("ran out of my heart tablets days ago and now I feel faint and sweaty", True),
    ],
)
def test_the_net_reads_a_state_beside_a_medicine_but_not_getting_more_of_it(
    question: str, netted: bool
) -> None:
    nearest = {Route.EMERGENCY: NET_STATE_SIMILARITY + 0.1, Route.INFORMATION: 0.9}
    assert (net_reason(question, nearest) is not None) is netted


# -- right after the emergency text, a clinical question about a person -------------------------


@pytest.mark.parametrize(
    "previous",
    [
        # the next patient's own clinical question, about themselves
        Turn("my mum's face has dropped on one side and her arm is weak", "", Route.EMERGENCY),
        # a clinical question about a person after an answer that was no emergency
        Turn("where do I park?", "", Route.INFORMATION),
    ],
)
def test_a_clinical_question_stays_clinical_when_it_is_about_no_emergency(previous: Turn) -> None:
    question = (
        "is it safe for me to have the flu jab while pregnant?"
        if previous.route is Route.EMERGENCY
        else "can she have a paracetamol for the headache?"
    )
    plan = route_by_rules(question, (previous,))
    assert not plan.follow_up
    assert plan.decision.route is Route.CLINICAL
