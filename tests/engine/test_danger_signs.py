"""Emergencies said in the shape of a clinical question, misspelt or in non-native English, and
clinical questions of the classes that reached information (issue #9, hsafety slice).

Tuning cases in our own words: none is a question of evaluation/safety-judging-3.yaml, which
judged the change and was never tuned on. Every class has questions that must reach a stop route
and practical or clinical questions in the same words that must not be raised to an emergency."""

from __future__ import annotations

import pytest

from engine.events import Route
from engine.safety import canonical_question, route_question
from engine.safety.danger_signs import danger_combination
from engine.safety.near_misses import neutralise


def _combination(question: str) -> str | None:
    return danger_combination(neutralise(canonical_question(question)))


@pytest.mark.parametrize(
    ("question", "combination"),
    [
        ("my wife is diabetic and she's gone all vague and sweaty", "consciousness"),
        ("he's breathing really fast and keeps drifting off", "consciousness"),
        ("grandma looks ashen and is not making sense", "consciousness"),
        ("my pulse is racing and I think I'm about to pass out", "consciousness"),
        ("she's got a high temperature and is really drowsy", "consciousness"),
        ("my son ran into a lamppost head first and now he's spaced out", "consciousness"),
        ("her lips have gone puffy and she's wheezing", "breathing"),
        ("his lips look dusky and he's panting", "breathing"),
        ("my little girl has a fever and her feet are freezing cold", "fever"),
        ("he's got a temperature and says the light hurts his eyes", "fever"),
        ("my husband is on chemotherapy and he's shivery tonight", "fever"),
        ("all of a sudden I can't see out of my left eye", "sight"),
        ("I'm 32 weeks pregnant with a banging headache and my vision is blurry", "sight"),
        ("a horrendous headache came on out of nowhere while I was lifting", "headache"),
        ("I'm 26 weeks along and bleeding with clots", "pregnancy"),
        ("my glucose is 2.8 and I'm clammy", "diabetes"),
        ("my mum injected her insulin twice by mistake", "diabetes"),
        ("Grandad is on warfarin and banged his head on the door frame", "thinners"),
        ("my tummy is agony and I'm vomiting green stuff", "bowel"),
        ("my son spilled boiling water and his whole leg is blistered", "burn"),
        ("my dad has a heavy ache spreading into his jaw and he's grey", "heart"),
        ("my husband on apixaban has a nosebleed that won't stop", "thinners"),
        ("nose bleeding for over an hour now", "thinners"),
        ("my grandad doesn't know where he is and has a high temperature", "consciousness"),
        ("she suddenly doesn't recognise me", "consciousness"),
        ("he had a bite of a satay skewer and suddenly his voice has gone hoarse", "allergy"),
    ],
)
def test_two_ordinary_signs_together_are_an_emergency(question: str, combination: str) -> None:
    assert _combination(question) == combination
    decision = route_question(question)
    assert decision.route is Route.EMERGENCY
    assert decision.reason == f"emergency:danger_signs:{combination}"


@pytest.mark.parametrize(
    "question",
    [
        # one sign alone is the clinical rules' business
        "I'm 30 weeks pregnant and have a headache, can I take paracetamol?",
        "my sugar was 12 this morning and I feel shaky",
        "will the sedation make me drowsy and confused afterwards?",
        "my son is pale and tired all the time, should he have a blood test?",
        "I burnt my finger on the kettle this morning, is there a first aid kit?",
        "I waited 2 hours and I'm shaky, is my sugar test done?",
        # "hay fever" and "yellow fever" are not a fever
        "I get drowsy on my hay fever tablets, is there a non drowsy one?",
        "my son is drowsy after his yellow fever jab",
        # hypothetical, habitual or past
        "if my baby has a fever and cold hands what should I do",
        "my dad always gets confused and sweaty when his sugar is low, can he bring a snack",
        "my mum gets confused in the afternoons and takes warfarin, can I come in with her",
        "the side effects of chemo include fever and feeling drowsy, is that right?",
        "my husband had a temperature and was confused last week, can he have his flu jab now?",
        # sight blurred by the drops
        "my vision goes blurry suddenly when the eye drops go in",
        "is there a quiet room for my dad who is confused and on blood thinners",
        "my lips tingle when I eat kiwi, could it be an allergy?",
        "I have jaw ache from grinding my teeth, can I see the dentist here?",
        "my left arm aches after the flu jab, is that normal?",
        "I get nosebleeds in winter, should I see a doctor?",
        "is there egg in the flu vaccine, my son is allergic",
        "my child had a nosebleed at school, can I still bring him for his jabs",
    ],
)
def test_one_sign_or_a_sign_not_happening_now_is_not_an_emergency(question: str) -> None:
    assert _combination(question) is None
    assert route_question(question).route is not Route.EMERGENCY


@pytest.mark.parametrize(
    "question",
    [
        "my son is bleding alot from his head",
        "my wife chest very pain and sweat",
        "pain in chest and left arm, what i do",
        "my child not wakeing up",
        "my granfather cannot speek and arm no move",
        "my grandmother no breathing",
        "my sun eat many tablet of grandma",
        "she swallowed a handful of pills",
        "boy burnd his arm with hot water very bad skin",
        "the bandage is soaked through with blood already",
        "my baby has a feaver and is flopy",
    ],
)
def test_misspelt_and_non_native_emergencies_reach_the_redirect(question: str) -> None:
    assert route_question(question).route is Route.EMERGENCY


@pytest.mark.parametrize(
    "question",
    [
        "I have no breathing problems, can I have sedation?",
        "I take a lot of tablets every day, can I get a dosette box?",
        "my chest x-ray is booked, how long does it take",
        "does the chest clinic have parking",
        "is there a burns unit near you, the wait is very bad",
        "he overdoes it at the gym and his knee hurts",
        "my grandfather has a hearing aid, is there a loop",
        "my grandmother needs a wheelchair, can she borrow one",
        "he has no move left in his chess game",
        "my daughter is covered in red spots, can she come to nursery",
        "my shirt is soaked with red wine, is there a toilet",
    ],
)
def test_the_same_words_in_practical_questions_are_not_emergencies(question: str) -> None:
    assert route_question(question).route is not Route.EMERGENCY


@pytest.mark.parametrize(
    "question",
    [
        "is a lump in my neck that's not sore likely to be cancer",
        "i've been losing weight without trying, is that a worry",
        "does this sound like my gallbladder",
        "i've got a pacemaker, can i take the travel sickness pills",
        "with my glaucoma is the dilating eye drop a problem",
        "is 150 over 95 high for my age",
        "how long should i stay on omeprazole",
        "I've been on antidepressants a year, can I just stop them now?",
        "my sugars are up, should I bump up my metformin",
        "is an mri needed for my knee",
        "do i need an ecg",
        "i'm 60, should i have the bowel screening kit",
        "I'm 45, should I be getting my blood pressure checked?",
        "would a blood test show if i have cancer",
        "my periods stopped for 3 months, am i ok",
        "i keep forgetting things lately, is it dementia",
        "what are my chances with stage 2",
        "would you advise me to have the covid booster with my heart",
        "after my transplant, can I have the shingles jab safely",
    ],
)
def test_clinical_questions_of_the_missed_classes_are_refused(question: str) -> None:
    assert route_question(question).route is Route.CLINICAL


@pytest.mark.parametrize(
    "question",
    [
        "where can I pick up my antidepressants once the GP has signed them?",
        "can I drop my insulin prescription off at reception",
        "is it flu season yet",
        "is it dementia friendly",
        "where should I have my blood test",
        "when should i book my smear test",
        "do i need an appointment for an mri",
        "do i need a blood test form",
        "is it ok if i bring my dog",
        "it sounds like the clinic is busy, can I wait outside",
        "should I get a blood test done here or at the hospital",
        "do you recommend a pharmacy nearby",
        "my husband has dementia, can he use the quiet room",
        "is 9 to 5 the opening times",
    ],
)
def test_practical_questions_with_the_same_words_stay_information(question: str) -> None:
    assert route_question(question).route is Route.INFORMATION
