"""Benign near-misses of the emergency rules (engine/safety/near_misses.py): everyday speech and
signs explained by a harmless setting stop raising the 999 text, while the same signs described
as new, or without the setting, stay emergencies. The judging set for this change is
evaluation/benign-near-miss-judging.yaml; these are tuning cases in other words."""

from __future__ import annotations

import pytest

from engine.events import Route
from engine.safety import route_question
from engine.safety.near_misses import neutralise


@pytest.mark.parametrize(
    "question",
    [
        # figures of speech and things
        "we are dying for some fresh air in here, can the window be opened?",
        "my nephew was in fits of giggles at the nurse's puppet, where do I leave feedback?",
        "our team was knocked out of the league, can the physio appointment move to Friday?",
        "i passed out of police training last month, do you do occupational medicals?",
        "does the leisure centre by you teach breast stroke to adults?",
        "we can't go on the school trip without a form, do you sign those?",
        "the gazebo collapsed in the car park wind, is the drop-off bay still open?",
        "your card machine keeps choking on my bank card, can I pay by phone?",
        "sales are on fire this month, do staff get the flu jab free?",
        "we almost got knocked over by a van at your gate, who do I complain to?",
        "in case the nurse has to call an ambulance for a patient, where does it park?",
        # a setting that explains the sign
        "my mouth looks lopsided in the photos from the wedding, do you do botox?",
        "my son stutters and can't say his name easily, is there a speech therapy group?",
        "his hand won't lift high enough for the cuff, can you measure on his leg?",
        "i can't move my arm much in this sling, can someone help me with the check-in screen?",
        "her tongue is blue from a slushie, is that fine for her throat swab?",
        "my nails went blue after the hair dye, is there a sink?",
        # long ago
        "dad can't lift his right arm since his accident in 2015, is there a ramp at the entrance?",
        "mum had a stroke three years ago, can she bring her carer into the consulting room?",
        "I hit my head on a low beam last summer, do you still have that scan report?",
    ],
)
def test_benign_near_misses_are_not_emergencies(question: str) -> None:
    assert route_question(question).route is not Route.EMERGENCY, neutralise(question)


@pytest.mark.parametrize(
    "question",
    [
        # the same words, someone in danger now
        "I think I'm dying, my chest is crushing",
        "i am dying",
        "she had fits all morning and won't wake up",
        "he was knocked out in the match and is being sick",
        "he was knocked out of the game by a tackle and is not responding",
        "my mum has had arthritis for years and cannot lift her arm",
        "my husband collapsed in the car park",
        "the tent collapsed on my dad and he isn't moving",
        "the ceiling collapsed on top of her",
        "I can't go on, I've written my goodbye letters",
        "I can't go on holiday and I can't go on living",
        "he went blue after a sweet, he can't breathe",
        "her lips are blue from the cold and she is very sleepy",
        "his lips have turned blue",
        "do I have to call an ambulance for my wife? she is pale and sweaty with chest pain",
        # a sign described as new, whatever the setting
        "his face went lopsided suddenly, I took a photo of it",
        "her smile looks crooked in the selfie she sent me this morning",
        "he stammers but today he suddenly can't speak properly",
        "she had a stroke years ago and I think she is having another one",
        "my dad had a stroke 5 years ago and now his face is drooping",
        "she can't lift her arm and her face has dropped",
        "she has arthritis and can't move her left side",
        "an old man can't move his left arm and his speech is slurred",
        "my mum can't lift her arm, it started an hour ago",
        "he's so breathless he can't finish a sentence",
        "he nearly got hit by a car and now he's unconscious",
        # a person beside one of the "things": the thing is where it happens, not who
        "a woman in the market collapsed",
        "someone by the car has collapsed and isn't moving",
        "the man near the fence collapsed",
        "an old lady on the bed collapsed",
        "the lady at the card machine just collapsed",
        "the man at the till is choking",
        "a child next to the machine is choking",
        "my son's chair tipped and now he's choking",
        # a literal fire, not a team on form
        "the shop is on fire",
        "the business next door is on fire and there's smoke everywhere",
        # colour from something breathed in or swallowed is poisoning, not a stain
        "her lips went blue after the paint fumes",
        "his lips are blue from the ink he swallowed",
        "his lips went blue after breathing in chlorine at the pool",
        "my nails went blue after the hair dye and now my lips are swelling",
        "her tongue is blue from a slushie and now she can't breathe",
        # history, with anything happening now, a sign of the body, or no question about a visit
        "I had a heart attack in 2016 and this pain feels like that one",
        "I've had a heart attack before and it's happening again",
        "my dad had a heart attack years ago, is this what one looks like?",
        "he had fits as a child and he's started jerking on the floor",
        "she has a history of seizures and she's gone floppy",
        "i had a heart attack last year and I'm sweating and dizzy, where is the nurse?",
        "she had a heart attack before we got to the clinic",
        "he's had fits before, he's been on the floor for five minutes",
        "my wife had a heart attack in the past and now she is grey",
        "my dad's had a heart attack before, can you call an ambulance?",
        "had a seizure last year, could it be happening again?",
        "ive had a heart attack",
        "he is having a heart attack, he had one in 2019 as well",
        "he gets fits and he's on the floor now",
        "she has epilepsy and has been shaking for five minutes",
        "my son has seizures and this one is lasting ages, where is the nurse?",
        "he has fits and isn't breathing properly, can someone come?",
        "she has epilepsy, she's having one, where's the doctor?",
        "he gets seizures, is this one different?",
        # recent, not history: "in the past hour", the simple past with "before", "just"
        "he had a heart attack in the past hour, where is the doctor?",
        "my husband had a heart attack in the past day or so, can he wait somewhere quiet?",
        "he had a heart attack before, where do we go?",
        "she has just had a fit, is there a quiet room?",
        "my son had a seizure last night, where do we go?",
        # the condition named, then the event happening
        "she has epilepsy and is having a seizure, where is the nurse?",
        "he has a history of heart attacks and is having a heart attack, where is the doctor?",
        "she has epilepsy and has a seizure, where is the nurse?",
        "he has had fits before and has gone into a fit in the waiting room, can someone come?",
        "my dad has a history of cardiac arrest and is in cardiac arrest, where is the doctor?",
        # the condition named, then a call for help
        "he has fits, where is the nurse?",
        "I've had a heart attack before, where is the doctor?",
        "my son gets seizures, can anyone help us quickly?",
    ],
)
def test_the_same_signs_in_danger_stay_emergencies(question: str) -> None:
    assert route_question(question).route is Route.EMERGENCY, neutralise(question)


def test_text_without_a_near_miss_is_unchanged() -> None:
    for text in ("where can i park", "chest pain", "he is not breathing", ""):
        assert neutralise(text) == text


# A heart attack or fits named as history was tried as a near-miss class (docs/evaluation.md,
# "A heart attack or fits named as history: tried, reverted"): every guard against a statement
# of what is happening now left a form it missed. These stay emergencies whatever is tried next.
_HISTORIES = (
    "I've had a heart attack before",
    "he has a history of seizures",
    "my dad had a heart attack years ago",
    "he has had fits for years",
    "she's recovering from a heart attack",
    "she had fits as a child",
    "I had a heart attack in 2019",
)
_HAPPENING = (
    "she can't speak",
    "he's jerking",
    "it's happening again",
    "he won't wake up",
    "she looks strange",
    "jaw aching",
    "arm tingling",
    "very confused",
    "seeing double",
    "about to pass out",
)
_ASKS = ("is there a lift?", "where is the nurse?", "where do I park?")


@pytest.mark.parametrize("history", _HISTORIES)
def test_a_history_with_anything_happening_stays_an_emergency(history: str) -> None:
    for happening in _HAPPENING:
        for ask in _ASKS:
            for question in (
                f"{history} and {happening}, {ask}",
                f"{history}, {happening}, {ask}",
                f"{happening}, {history}, {ask}",
                f"{history}, {ask} {happening}",
                f"{history} {happening} {ask}",
            ):
                assert route_question(question).route is Route.EMERGENCY, question
