"""Getting a vaccine named after an illness is not having the illness: "can I have a flu jab?"
is a practical question (information, or the booking text), never the medical-advice referral.
The same words about the person's own illness, or about a vaccine given their own condition or
treatment, stay clinical; an emergency after a vaccine stays an emergency. Every case is in our
own words (none is a question of evaluation/vaccine-access-judging.yaml, which is judged on)."""

from __future__ import annotations

import pytest

from engine.events import Route
from engine.safety import route_question
from engine.safety.clinical import without_illness_names_of_vaccines


@pytest.mark.parametrize(
    "question",
    [
        "can I get a flu jab",
        "Can I have a flu jab please?",
        "can my grandad have his shingles vaccination here",
        "could my wife get her covid booster at your place",
        "can the kids have the flu nasal spray at the clinic",
        "can I have the measles vaccine before university",
        "do my children have flu vaccinations at school or here",
        "can we have our flu shots on the same day",
        "is there a diabetes clinic on Tuesdays",
    ],
)
def test_getting_a_vaccine_named_after_an_illness_is_not_medical_advice(question: str) -> None:
    assert route_question(question).route in (Route.INFORMATION, Route.APPOINTMENT), question


@pytest.mark.parametrize(
    "question",
    [
        # the illness itself
        "do I have flu or just a heavy cold",
        "could my son have measles, he has spots behind his ears",
        "has she got shingles, it's a stripe of blisters round her side",
        # a vaccine given the person's own condition or treatment
        "can I have the flu jab if I'm allergic to eggs",
        "is the covid jab ok while I'm on methotrexate",
        "can my dad have the pneumonia vaccine after his transplant",
        "should my mum get her flu jab so soon after her chemo",
        "is the shingles injection alright with my rheumatoid arthritis",
        "can my daughter have her flu spray while her asthma is playing up",
    ],
)
def test_the_illness_or_a_vaccine_given_ones_own_condition_stays_clinical(question: str) -> None:
    assert route_question(question).route in (Route.CLINICAL, Route.EMERGENCY), question


@pytest.mark.parametrize(
    "question",
    [
        "my baby had his jabs this morning and now he's floppy and won't wake up",
        "I had the flu jab ten minutes ago and my throat is closing up",
    ],
)
def test_an_emergency_after_a_vaccine_stays_an_emergency(question: str) -> None:
    assert route_question(question).route is Route.EMERGENCY, question


def test_only_the_illness_a_vaccine_is_named_after_is_left_out() -> None:
    assert without_illness_names_of_vaccines("can i have a flu jab") == "can i have a jab"
    assert without_illness_names_of_vaccines("do i have flu") == "do i have flu"
    assert without_illness_names_of_vaccines("flu jab and covid booster") == "jab and booster"
