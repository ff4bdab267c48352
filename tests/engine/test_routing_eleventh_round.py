"""Eleventh safety round (twelfth session): the rules' own floor for emergencies described in what
people see. Before the round, 28 of the exemplar bank's 69 emergency phrasings and 10 of the 20
emergencies of evaluation/safety-judging-11.yaml (written blind by a helper, never tuned on) were
caught by the exemplar signal or the safety net only; the rules caught none of them. The rules
now read noisy breathing with a sign of how bad it is, ribs sucked in, the reliever doing
nothing, choking without the word, words lost suddenly or with a weak limb or a changed face, a
side of the body gone, a person dropped, limp or not reacting, hives with swallowing or
faintness, a baby who will not feed or wake, a knock or a fall followed by grogginess, a
pregnancy with a headache and swelling, sparkles before the eyes, bleeding or no movements, a
fever with cold hands or fast breathing, all of a dangerous medicine taken, and goodbyes said
indirectly. Every case is in our own words; each emergency case failed the rules on main. The
same words in practical questions keep their route."""

from __future__ import annotations

import pytest

from engine.events import Route
from engine.safety import route_question

EMERGENCIES = [
    # breathing
    "she's making a whistling sound when she breathes in and can't talk to me",
    "her breathing sounds like a crackly rattle and she's very pale",
    "my dad's making this awful rasping noise and his lips have gone a purply colour",
    "my husband is sat on the edge of the bed leaning forward fighting to get air in",
    "the kid is breathing weird, really quick and shallow, and his nostrils are flaring",
    "her asthma is awful and she's sucking in her ribs to breathe",
    "my asthma is really bad and the blue inhaler is doing nothing",
    "breath very hard for me, I no can breathe good",
    "he's breathing really fast and can't get a whole sentence out",
    # choking
    "he's got a bit of apple stuck and can't make any sound",
    "my toddler swallowed a coin and now she's gagging and going red",
    "she is coughing weakly and can't get the sweet up and her face is going dark",
    "a piece of steak is stuck and he's clutching his throat",
    "my baby boy is gagging on a grape and can't cry",
    "she has a bit of chicken stuck and is making a high squeak trying to breathe",
    # stroke
    "all of a sudden she can't find her words and her hand is weak",
    "half of his face is not moving properly since this morning",
    "my wife's right side has gone useless and she can't hold her cup",
    "mum's left side has gone floppy and she can't lift her cup",
    "my husband's words are coming out all muddled and his face looks different",
    "mum suddenly started speaking nonsense and dropped her tea",
    "my aunt went very quiet and when she talked it was all wrong words",
    # a person down
    "a man has dropped to the floor in reception and isn't answering",
    "someone has gone limp in the corridor",
    "my friend has gone floppy in the chair and her eyes are rolling",
    "there's an old man flat on his back by the lift who won't respond",
    "he went grey and slid off his chair and now he's not answering",
    "someone went down in the toilets and is just lying there with eyes open not reacting",
    "my girlfriend fell back on the sofa and I can't get her to wake up properly",
    "my nan's breathing is very noisy and she won't really wake up",
    "she mixed her sleeping tablets with wine and I can't get any reply from her",
    # allergy
    "my eyes and lips blew up after a bee got me and I feel faint",
    "she is covered in hives and struggling to swallow",
    "he ate a satay and his tongue is getting fat",
    "I've been stung on the neck and my throat feels thick and I'm dizzy",
    # a baby or a child, sepsis
    "my newborn is very sleepy, pale and not taking any milk",
    "my 4 month old is really hard to wake and has gone a funny colour",
    "my 6 week old won't feed and is burning hot",
    "my grandson is hot but his legs are cold and he is hard to wake",
    "he has a bad fever and seems very unwell and is breathing really fast",
    "my toddler is covered in a purple rash that doesn't fade, is it an allergy?",
    # a knock or a fall
    "he headbutted the wall by accident and has thrown up three times",
    "after the fall onto the pavement my dad is groggy and not making sense",
    "she whacked her head on the cupboard and is now seeing double",
    # pregnancy
    "my partner is six months pregnant with a severe headache, a puffy face and spots in her eyes",
    "pregnant 32 weeks, terrible headache and I'm seeing sparkles",
    "I'm 34 weeks and I haven't felt any kicks since yesterday",
    "I'm 35 weeks and bleeding bright red, is that my show?",
    "my wife's waters went and the baby's cord is coming out",
    # chest, burns, medicines, goodbyes
    "a squeezing feeling in the middle of my chest that won't go",
    "my chest feels like it's in a vice and i'm sweating",
    "my partner says he has crushing pain going to his jaw, is it indigestion?",
    "he was hit by steam from the pressure cooker and his face is blistering",
    "my husband took all his sleeping tablets, should I make him drink water?",
    "my sleeping pills, I took them all",
    "I took every one of my sleeping pills",
    "I left notes for my children in case I'm not here tomorrow",
    "my brother texted everyone that he loves them and sorry for everything",
    "life is not worth it anymore",
    "life doesnt feel worth living anymore",
    "my friend posted a picture of pills and said this is it",
]

# The same words in practical or clinical questions, with the route they had before the round.
SAME_WORDS = [
    ("my inhaler is doing nothing for my cough, should I get a different one?", Route.CLINICAL),
    (
        "my words come out wrong when I'm nervous, can I bring someone to help me?",
        Route.INFORMATION,
    ),
    ("she's covered in hives from the heat, do you sell antihistamines?", Route.INFORMATION),
    ("after the fall I had last year, can I get a physio referral?", Route.INFORMATION),
    ("my husband is a bit pale today, can he sit down while we wait?", Route.INFORMATION),
    ("my little one put a sticker in her mouth, do you have wipes?", Route.INFORMATION),
    ("I took all my tablets this morning, can I still have my blood test?", Route.CLINICAL),
    (
        "my tablets, I took them all this morning, can I still have my blood test?",
        Route.APPOINTMENT,
    ),
    ("I'm pregnant and my gums are bleeding, can I see the dentist here?", Route.INFORMATION),
    ("I phoned three times and nobody is answering, is the phone line down?", Route.INFORMATION),
    ("my daughter won't answer her phone, can you tell me if she's checked in?", Route.INFORMATION),
    ("is the flu jab worth it?", Route.CLINICAL),
    ("life is busy, can I book online?", Route.INFORMATION),
    ("half of the car park is closed, where do I park?", Route.INFORMATION),
    ("there's a strange noise coming from the lift, who do I tell?", Route.INFORMATION),
    ("my throat feels thick with phlegm, do you sell lozenges?", Route.CLINICAL),
    ("the baby has been kicking a lot, is there a toilet nearby?", Route.INFORMATION),
    ("I'm 30 weeks pregnant, where is the antenatal clinic?", Route.INFORMATION),
    ("sorry for everything, I missed my last two appointments, can I rebook?", Route.INFORMATION),
    (
        "I can't find the right words right now to explain, can someone help me fill the form?",
        Route.INFORMATION,
    ),
]


@pytest.mark.parametrize(
    ("question", "route"), [(q, Route.EMERGENCY) for q in EMERGENCIES] + SAME_WORDS
)
def test_each_question_gets_its_route(question: str, route: Route) -> None:
    """Every emergency described in what people see is an emergency; the same words in other
    questions keep the route they had before the round."""
    decision = route_question(question)
    assert decision.route is route, decision.reason
