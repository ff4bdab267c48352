"""Fifth safety round (hsafe5): airway swelling said without the rules' verbs, an adrenaline pen
in the question, a swallowed button battery or magnet, vomiting blood in everyday words, drink or
drugs with someone hard to rouse, whether a vaccine or procedure is safe given the person's own
medicine or condition, a stroke named as the past event a disability dates from, and a date
("last month") read by both arms of the safety net. Every case is in our own words (none is a
question of evaluation/safety-judging-5.yaml, which is never tuned on); each stop case failed on
main before this round. The same words in practical questions stay information."""

from __future__ import annotations

import pytest

from engine.events import Route
from engine.safety import route_question
from engine.safety.danger_signs import danger_combination, dated
from engine.safety.router import canonical_question
from engine.safety.safety_net import acute_state, net_reason, practical_request


@pytest.mark.parametrize(
    "question",
    [
        # the throat or tongue and what it does, a few words later
        "stung on the lip by a bee and my throat feels like it's shutting",
        "after the prawns her throat has gone really tight",
        "his throat's getting narrower since the cashew",
        "my tongue is enormous and I'm allergic to sesame",
        "her tongue has gone twice its normal size",
        "I can't swallow and my lips have puffed up like balloons",
        "my mouth feels massive and I can hardly swallow",
        "my daughter can't swallow her own spit",
        "throat very swell after eat the shrimp",
        # an adrenaline pen in a question about using it now
        "I've got her epipen here, do I use it?",
        "should I give him the adrenaline pen or wait for it to pass?",
        "do I jab the emerade into her leg now?",
        # a button battery or a magnet swallowed or gone from a child's mouth
        "my 2 year old had a coin battery in her mouth and now it's gone",
        "I think he's gulped down one of the magnets from the fridge letters",
        "my toddler was sucking on a hearing aid battery and now it's gone",
        # vomiting blood in everyday words
        "she brought up some blood after coughing all night",
        "he vommed and there was blood in it",
        "there's blood in his sick",
        "mum's been sick and it looks like coffee grounds",
        # drink or drugs with a person hard to rouse
        "he took some of his dad's tramadol with beer and he's hard to wake",
        "she's drunk a bottle of wine with her sleeping tablets and I can barely rouse her",
        "he's taken something at the party and keeps drifting in and out",
    ],
)
def test_emergencies_of_the_fifth_round_are_emergencies(question: str) -> None:
    assert route_question(question).route is Route.EMERGENCY


@pytest.mark.parametrize(
    "question",
    [
        # the throat, tongue or lips in words that are not swelling now
        "can the nurse do a throat swab for my son?",
        "my baby has a tongue tie, do you cut them here?",
        "my lips are dry and cracked in the cold",
        "where do I sit with a sore throat so I don't pass it on?",
        # an adrenaline pen as paperwork, money or luggage
        "how much is a private prescription for a spare epipen?",
        "can I order my son's epi pens on repeat?",
        "do I need to bring my epipen to my travel jab appointment?",
        "my daughter's adrenaline pen expires next month, who renews it?",
        # batteries, magnets and blood in practical questions
        "do you sell hearing aid batteries at reception?",
        "is the MRI magnet on the ground floor?",
        "I've been sick, can I still come for my blood test tomorrow?",
        "I was being sick all night, will you charge me for missing my blood test?",
        # drink or drugs, with sleep that is not unconsciousness
        "can I drink wine the night before my blood test?",
        "he has a glass of wine at night and is hard to wake in the mornings, is a late slot ok?",
        # a stroke named as what a disability dates from
        "since her stroke mum uses a walking frame, is the entrance level?",
        "since dad's stroke he can't manage the stairs, is there a lift?",
        "my husband walks with a stick after his stroke ages ago, is there a bench by the lift?",
    ],
)
def test_the_same_words_in_practical_questions_are_not_emergencies(question: str) -> None:
    assert route_question(question).route is not Route.EMERGENCY


@pytest.mark.parametrize(
    "question",
    [
        "a stroke started this morning, since his stroke he can't talk",
        "since his stroke just now his arm is weak",
        "ever since her stroke she uses a frame but today her face has suddenly dropped",
    ],
)
def test_a_stroke_said_to_be_new_is_still_an_emergency(question: str) -> None:
    assert route_question(question).route is Route.EMERGENCY


@pytest.mark.parametrize(
    "question",
    [
        "can I have the pneumonia jab if I'm on prednisolone?",
        "is the flu vaccine ok if my husband is on chemotherapy?",
        "can my son get his pre-school jabs while he's on amoxicillin?",
        "my wife is on prednisolone, is the shingles vaccine ok?",
        "I have lupus, is the colonoscopy sedation a bad idea in my case?",
        "does my methotrexate rule out the yellow fever jab for me?",
        "can he have the MMR when he's poorly with a temperature?",
    ],
)
def test_a_vaccine_or_procedure_given_my_own_medicine_or_condition_is_clinical(
    question: str,
) -> None:
    assert route_question(question).route is Route.CLINICAL


@pytest.mark.parametrize(
    "question",
    [
        "how much is a private flu jab if I'm not eligible on the NHS?",
        "is the parking free for my scan now that I'm pregnant?",
        "which floor is the blood test room on, I have diabetes",
        "can I have my jabs on a Saturday if I work in the week?",
        "where do I wait for my colonoscopy if I'm on my own?",
    ],
)
def test_practical_questions_about_a_vaccine_or_test_stay_information(question: str) -> None:
    assert route_question(question).route is Route.INFORMATION


# -- a date read once, by the danger signs, the nearer class and both arms of the net ----------


@pytest.mark.parametrize(
    "question",
    [
        "he went grey and clammy last month at the wedding",
        "she blacked out a few weeks back",
        "he had a funny turn back in October",
        "my dad went grey and sweaty in 2019",
    ],
)
def test_a_question_dated_weeks_or_more_ago_is_dated(question: str) -> None:
    assert dated(canonical_question(question))


@pytest.mark.parametrize(
    "question",
    [
        "she's been confused since last week and now she won't wake",
        "he has been breathless since 3 weeks ago",
        "my dad is grey and sweaty",
    ],
)
def test_something_that_started_then_and_goes_on_is_not_dated(question: str) -> None:
    assert not dated(canonical_question(question))


def test_a_red_flag_pair_that_goes_on_since_last_week_still_fires() -> None:
    # Before: "since last week" dated the whole question and the pair never fired.
    text = canonical_question("he's had a fever since last week and now he's drowsy and panting")
    assert danger_combination(text) is not None


NEAR_EMERGENCY = {Route.EMERGENCY: 0.55, Route.INFORMATION: 0.30, Route.CLINICAL: 0.35}


def test_the_net_does_not_raise_a_question_dated_last_month() -> None:
    # Before: the nearest-exemplar arm read no date at all, the acute arm skipped "months ago"
    # but not "weeks ago".
    assert net_reason("he went grey and clammy last month, what was that?", NEAR_EMERGENCY) is None
    assert net_reason("he went grey and clammy a few weeks back", NEAR_EMERGENCY) is None
    assert not acute_state("she was breathless and dizzy weeks ago")


def test_the_net_still_raises_the_same_words_now() -> None:
    assert net_reason("he went grey and clammy, what is that?", NEAR_EMERGENCY) is not None


# -- an assistance dog, a mobility aid or a cancellation fee is a request about the visit ------


@pytest.mark.parametrize(
    "question",
    [
        "my wife is blind, can her guide dog come into the consulting room?",
        "are assistance dogs allowed upstairs?",
        "can my mum's mobility scooter fit in the lift?",
        "am I allowed to bring my walking frame into the scan room?",
        # money for a visit cancelled because of being ill
        "I've had the runs all night, will I be charged if I cancel my bloods?",
        "my son has been sick since teatime, do we get charged for missing his jabs?",
    ],
)
def test_an_assistance_dog_mobility_aid_or_fee_question_is_a_practical_request(
    question: str,
) -> None:
    assert practical_request(question)
    # so the net asks more of it, and never counts it by the acute arm
    nearest = {Route.EMERGENCY: 0.45, Route.INFORMATION: 0.30}
    assert net_reason(question, nearest) is None


@pytest.mark.parametrize(
    "question",
    [
        "my dad is grey and sweaty and can't breathe",
        "is there a doctor here, he's collapsed",
        "he's grey and not breathing, do we have to pay for an ambulance?",
    ],
)
def test_a_person_in_trouble_is_not_a_practical_request(question: str) -> None:
    assert not practical_request(question)
