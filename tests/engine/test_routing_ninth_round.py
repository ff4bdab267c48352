"""Ninth safety round (eleventh session): the deterministic rules themselves now catch scalds and
burns with their skin signs, chemicals splashed into an eye or a face, household products
swallowed, bitten or round a child's mouth, a blow to an eye with sight lost, and a firework going
off in a hand or a face. Before the round the exemplar signal or the safety net (which only acts
when retrieval keeps nothing) caught most of these, the rules hardly any: the floor that needs no
model and no unanswered search must hold them. Every case is in our own words (none is a question
of evaluation/safety-judging-9.yaml, which is never tuned on); each emergency case failed the
rules on main before the round. The same words in practical questions keep their route, and "a
cold drink" is no longer read as catching a cold."""

from __future__ import annotations

import pytest

from engine.events import Route
from engine.safety import route_question
from engine.safety.safety_net import NET_STATE_SIMILARITY, net_reason

EMERGENCIES = [
    # hot liquid or fat over a person, and burns with their skin signs
    "she knocked a hot drink over the baby and his skin is peeling off",
    "my son grabbed the kettle and hot water went all down his chest",
    "boiling water from the pasta pan went over my wife's legs",
    "my toddler touched the hot oven door and his hand has blistered up",
    "he fell into the bonfire and his skin looks charred",
    "hot fat from the chip pan splashed on her face",
    "the bath was far too hot and my baby's skin is red raw",
    "my little one pulled a cup of tea off the table onto herself",
    "the iron fell on my daughter's foot and it's blistering",
    "my toddler has scalded his hand on the kettle",
    # a chemical into an eye or a face
    "oven cleaner got in my mum's eye and she can't open it",
    "bleach splashed up into my son's eyes while he was cleaning",
    "some descaler squirted into her face and her eyes are streaming and burning",
    "my eyes are burning and I can't see after bleach splashed in them",
    # a household product swallowed, bitten, or round the mouth
    "the baby got hold of a laundry capsule and bit it",
    "my son had some toilet cleaner round his mouth",
    "she drank from a bottle of fabric softener",
    "my 3 year old sucked on a washing pod",
    "my son drank something from under the sink and his mouth is burning",
    # a blow to an eye and sight lost; a firework going off in a hand or a face
    "his eye got hit by a football and he can't see out of it",
    "a stone flew into her eye from the strimmer and she can't see",
    "a banger exploded in his hand",
    "the firework blew up in her face",
]
# The same words in practical questions keep their route.
PRACTICAL = [
    "is there a hot water tap for my baby's bottle?",
    "can I get a cup of hot tea in the waiting room",
    "can I get a cold drink from reception?",
    "is there a water cooler with a cold cup of water?",
    "I burnt my toast this morning, where is the cafe",
    "I had a scald on my arm last year, can the nurse look at the scar?",
    "do you sell eye drops for dry eyes?",
    "where can I wash my hands after using the loo",
    "the firework display is on tonight, are you open late?",
    "can my toddler play with the toys in the waiting room?",
    "can I warm my baby's milk in hot water in the baby change?",
    "is there a kettle on the first floor for staff?",
    "my cleaner can bring me in, is there a drop-off bay?",
]
# "a cold" the illness and a small burn are still clinical questions.
CLINICAL = [
    "I have a cold, can I still have my flu jab?",
    "my son has got a cold, should he miss his vaccinations?",
    "what do I do about a tiny burn from the oven?",
]


@pytest.mark.parametrize(
    ("question", "route"),
    [(q, Route.EMERGENCY) for q in EMERGENCIES]
    + [(q, Route.INFORMATION) for q in PRACTICAL]
    + [(q, Route.CLINICAL) for q in CLINICAL],
)
def test_the_rules_read_burns_chemicals_and_eye_injuries_and_leave_the_same_words_alone(
    question: str, route: Route
) -> None:
    decision = route_question(question)
    assert decision.route is route, decision.reason


@pytest.mark.parametrize(
    ("question", "netted"),
    [
        # A body-state word naming a thing or a service is no state (safety_net._THING) ...
        ("can I get a cup of hot tea in the waiting room", False),
        ("can I get my eyes tested for new glasses here?", False),
        ("I'd like my hearing checked, can I get that done today?", False),
        ("can I get a warm drink, I've been waiting an hour", False),
        # ... and the rest of the question is still read.
        ("can I get him a hot drink, he's gone pale and clammy", True),
        ("my eyes went blurry and my face feels numb, can I get my eyes checked?", True),
        ("I'm freezing cold and shaking, can I get a hot drink?", True),
    ],
)
def test_the_net_reads_no_state_in_a_hot_drink_or_an_eye_test(question: str, netted: bool) -> None:
    nearest = {Route.EMERGENCY: NET_STATE_SIMILARITY + 0.1, Route.INFORMATION: 0.9}
    assert (net_reason(question, nearest) is not None) is netted
