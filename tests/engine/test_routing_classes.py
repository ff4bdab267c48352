"""Routing by class of phrasing (issue #9, second round): medicine words in money, collection and
timing questions are information while dose and medicine questions stay clinical; appointment
requests in everyday words; what-to-do and booking follow-ups. Adversarial on the safety side:
no change may let a dose, a medicine action, an emergency follow-up or a stop route through."""

from __future__ import annotations

import pytest

from engine.answering.follow_up import refers_back
from engine.answering.routing import route_by_rules
from engine.events import Route, Turn
from engine.safety import route_question


def _turn(question: str) -> Turn:
    return Turn(question, "")


@pytest.mark.parametrize(
    "question",
    [
        "what is the price of one dose of the hepatitis B vaccine?",
        "how much is the typhoid jab per dose",
        "how much do antimalarial tablets cost on a private prescription?",
        "how long does it take to get my levothyroxine on repeat?",
        "how many days before my sertraline runs out should I reorder?",
        "where do I collect my insulin once it's ready?",
        "when should I order more of my statins before the bank holiday?",
    ],
)
def test_medicine_words_in_money_collection_and_timing_questions_are_information(
    question: str,
) -> None:
    assert route_question(question).route is Route.INFORMATION


@pytest.mark.parametrize(
    "question",
    [
        "how much of my amlodipine should I take if I forgot one?",
        "can I take two doses of my hay fever tablets?",
        "how much is a dose of calpol for my baby",  # "how much is a" alone is not money
        "how many ibuprofen can I take in a day",
        "how much paracetamol is too much",
        "what dose of vitamin D should I take, and what does it cost?",  # still has "should I take"
        "how many days can I take naproxen for?",
        "how often can I use my inhaler, it costs a lot",
        "is it ok to take my insulin before the fasting blood test?",
        "should I go on statins?",
        "should my dad be on blood thinners?",
    ],
)
def test_dose_and_medicine_questions_stay_clinical(question: str) -> None:
    assert route_question(question).route is Route.CLINICAL


@pytest.mark.parametrize(
    "question",
    [
        "I've got a stent, am I ok to have the sedation?",
        "she has kidney disease, will the bowel prep be too much for her?",
        "my leg has gone a strange colour, is that something bad?",
        "my daughter keeps fainting, what's wrong with her?",
        "my PTH came back at 9, what does that mean?",
        "I have a cholesterol of 8, do I need to worry?",
        "which jabs does my little boy need for Ghana?",
    ],
)
def test_personal_safety_worry_and_result_questions_are_clinical(question: str) -> None:
    assert route_question(question).route is Route.CLINICAL


@pytest.mark.parametrize(
    "question",
    [
        "can you fit me in today?",
        "could someone see my mum this afternoon?",
        "I need to be seen today",
        "any chance of seeing Dr Shah on Monday?",
        "has Dr Hughes got anything on Friday?",
        "is there room in dermatology next week?",
        "any space with Gareth Powell on Thursday?",
        "earliest physio opening",
        "I can't make my nurse appointment, please cancel it",
        "please push back my smear test to next month",
        "put my blood test back to Friday",
    ],
)
def test_appointment_requests_in_everyday_words(question: str) -> None:
    assert route_question(question).route is Route.APPOINTMENT


@pytest.mark.parametrize(
    "question",
    [
        "What should I bring to my first appointment?",
        "am I charged if I cancel my scan the day before?",
        "how much notice do I need to give to cancel?",
        "is there a charge for not turning up?",
        "Is there room for a pushchair in the lift?",  # "room" with no clinic or time
    ],
)
def test_booking_rules_and_preparation_stay_information(question: str) -> None:
    assert route_question(question).route is Route.INFORMATION


# -- follow-ups ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("earlier", "question"),
    [
        ("my arm has gone numb and my speech is slurred", "should I make an appointment?"),
        ("my chest hurts and I'm sweating", "can I wait and see my GP tomorrow?"),
        ("my dad's face has drooped", "can we just see a GP instead?"),
        ("my daughter can't breathe properly", "should we come in to see you?"),
        ("my husband has crushing chest pain", "he's 70, what now?"),
    ],
)
def test_what_to_do_after_an_emergency_stays_an_emergency(earlier: str, question: str) -> None:
    assert route_by_rules(question, [_turn(earlier)]).decision.route is Route.EMERGENCY


def test_what_to_do_after_a_clinical_question_stays_clinical() -> None:
    plan = route_by_rules("should I book in?", [_turn("is it normal to have a lump in my neck")])
    assert plan.decision.route is Route.CLINICAL


@pytest.mark.parametrize(
    ("earlier", "question"),
    [
        ("next free cardiology slot", "and dermatology?"),
        ("When is Dr Patel free?", "how about Thursday?"),
        ("I want to book a flu jab for next week", "oh wait, cancel that"),
        ("I'd like to book a nurse appointment on Tuesday", "actually make it Wednesday"),
    ],
)
def test_a_booking_follow_up_keeps_the_appointment_route(earlier: str, question: str) -> None:
    plan = route_by_rules(question, [_turn(earlier)])
    assert plan.follow_up and plan.decision.route is Route.APPOINTMENT


@pytest.mark.parametrize(
    "question",
    [
        "how much is it?",  # asks for information about what was booked
        "is it free?",
        "do I need to fast?",
        "Where can I park?",  # stands alone
        "What time do you close on Friday?",
    ],
)
def test_an_appointment_route_never_carries_into_an_information_question(question: str) -> None:
    plan = route_by_rules(question, [_turn("I want to book a blood test for Monday")])
    assert plan.decision.route is Route.INFORMATION


@pytest.mark.parametrize(
    ("earlier", "question"),
    [
        ("How long do I fast before a blood test?", "can I drink water?"),
        ("How long does a colonoscopy take?", "how long until I get the results?"),
        ("Do I need to fast for my cholesterol test?", "is black coffee ok?"),
    ],
)
def test_an_aspect_of_the_test_just_asked_about_is_a_follow_up(earlier: str, question: str) -> None:
    assert refers_back(question, earlier)


@pytest.mark.parametrize(
    ("earlier", "question"),
    [
        ("Where can I park?", "can I drink water?"),  # no test named before
        ("How long do I fast before a blood test?", "Where can I park my car?"),
        ("How long do I fast before a blood test?", "how long do MRI results take?"),  # own test
        ("What are your opening hours?", "should I bring my passport?"),
    ],
)
def test_ellipsis_needs_a_test_before_and_no_topic_of_its_own(earlier: str, question: str) -> None:
    assert not refers_back(question, earlier)


@pytest.mark.parametrize(
    ("question", "route"),
    [
        ("can i get a private sick note for work", Route.INFORMATION),
        ("i get sick after every meal, what should I do?", Route.CLINICAL),
        ("I've been sick all night, can I still have my blood test?", Route.CLINICAL),
        ("can i have water b4 a fasting blood test", Route.INFORMATION),
        ("can I have a blood test next week?", Route.APPOINTMENT),
        ("can i book an mri scan without a referral", Route.INFORMATION),
        ("I need to book a scan", Route.APPOINTMENT),
    ],
)
def test_sick_notes_test_preparation_and_referrals(question: str, route: Route) -> None:
    assert route_question(question).route is route


# ---------------------------------------------------------------- third round (issue #9): classes
# A later held-out set found emergencies and clinical questions in everyday words that no rule,
# exemplar or follow-up join caught. Each class: phrasings that must be caught, and near-misses
# (services, published facts, practical questions) that must not be.
_EVERYDAY_EMERGENCIES = {
    "stroke_signs": [
        "my father's face has dropped on one side and he's dribbling",
        "her mouth looks crooked and she can't lift her left arm",
        "grandpa can't move his right side since he woke up",
        "my husband's left leg won't move and he's talking nonsense",
        "her words are all jumbled and one side of her face is odd",
        "my mum can't smile properly and her arm has gone heavy",
        "his arm has suddenly gone heavy and his face looks odd",
    ],
    "fit_described": [
        "a man in the car park fell down and is jerking all over",
        "my son's whole body is twitching and he won't answer",
        "she collapsed and her eyes rolled back and she is shaking",
        "my daughter went down on the floor and is shaking violently",
        "my daughter went stiff and started jerking at the table",
    ],
    "head_knock_red_flags": [
        "my toddler fell off the sofa onto his head and is very sleepy now",
        "she bumped her head at school and has vomited twice",
        "he's been confused since he banged his head on the car door",
        "my baby rolled off the bed onto her head and keeps dozing off",
        "she walked into a door frame head first and is very drowsy now",
    ],
    "indirect_suicidal_intent": [
        "I wrote a letter to my mum to say goodbye",
        "my son has been giving his things away and said goodbye to his friends",
        "there's no point going on any more",
        "I've decided to end it this weekend",
        "everyone would be better off without me",
        "I won't be around much longer so it doesn't matter",
        "I've put my affairs in order and written to everyone",
        "I'm going to take all my tablets tonight",
        "there's no way out for me, I just want it to end",
    ],
    "breathless_severe": [
        "my mum has COPD and can't finish her sentences",
        "he is panting so hard he can't speak",
        "she's too out of breath to talk and her lips look grey",
        "my asthmatic son is struggling to get his words out",
        "my grandad has emphysema and his lips have gone a bit blue",
        "she can only get two or three words out between breaths",
    ],
    "intoxicated_unresponsive": [
        "my friend drank loads and took some tablets and is not responding",
        "he's had a lot of vodka and we cannot wake him",
        "she took her sleeping pills with wine and isn't answering when I shake her",
        "my teenager has been drinking and taking something and is floppy",
    ],
    "child_swallowed_medicines": [
        "my little girl swallowed a load of her nan's blood pressure tablets",
        "my toddler got into my handbag and ate some of my pills",
    ],
}


@pytest.mark.parametrize(
    "question",
    [q for phrasings in _EVERYDAY_EMERGENCIES.values() for q in phrasings],
)
def test_emergencies_in_everyday_words_are_emergencies(question: str) -> None:
    assert route_question(question).route is Route.EMERGENCY


@pytest.mark.parametrize(
    "question",
    [
        "how long does a stroke clinic appointment usually take?",
        "which side of the building is the pharmacy on?",
        "the left side of the car park is closed, where else can I park?",
        "I can't speak English well, can I have an interpreter?",
        "my son can't talk yet, do you have a speech therapist?",
        "where is the defibrillator kept?",
        "what number do I ring when the clinic is shut?",
        "where is the nearest A&E?",
        "is there a point in going on the waiting list?",
        "can I give away my old crutches to the clinic?",
        "the phone line is not answering, is there another number?",
        "I can't finish the registration form, can someone help?",
        "do you check children for head lice?",
        "can I drink alcohol the night before my blood test?",
        "my son finds it hard to swallow tablets, can he have a liquid?",
        "I won't be here tomorrow, can I move my appointment?",
        "my arm feels heavy after the flu jab, is that normal?",
        "should I take all my tablets before the operation?",
        "is speech therapy off this week?",
        "my lips are a bit dry after using the inhaler",
    ],
)
def test_service_and_practical_near_misses_are_not_emergencies(question: str) -> None:
    assert route_question(question).route is not Route.EMERGENCY


@pytest.mark.parametrize(
    ("earlier", "question"),
    [
        ("my son has swallowed a lot of my paracetamol", "he looks fine now, can we wait and see?"),
        ("my son has swallowed a lot of my paracetamol", "can it wait until morning?"),
        ("my son has swallowed a lot of my paracetamol", "shall we just keep an eye on him?"),
        ("my chest feels crushed and I'm sweating", "should my husband drive me to A&E?"),
        ("my chest feels crushed and I'm sweating", "can I take a taxi to the hospital?"),
        ("my chest feels crushed and I'm sweating", "I'm ok now though, can I wait?"),
        ("her face has drooped on one side", "do I call 111 or take her in?"),
        ("her face has drooped on one side", "she's perked up a bit, do we still need to go?"),
        ("her face has drooped on one side", "is it quicker if I drive her?"),
        ("her face has drooped on one side", "which hospital should we go to?"),
        ("her face has drooped on one side", "how long will the ambulance take?"),
        ("my chest feels crushed and I'm sweating", "it's easing off now, can I go home?"),
        ("my chest feels crushed and I'm sweating", "I'll take an aspirin and lie down, ok?"),
    ],
)
def test_waiting_or_getting_to_hospital_after_an_emergency_stays_an_emergency(
    earlier: str, question: str
) -> None:
    plan = route_by_rules(question, [_turn(earlier)])
    assert plan.follow_up and plan.decision.route is Route.EMERGENCY


@pytest.mark.parametrize(
    "question",
    [
        "What time does the pharmacy close today?",
        "Where can I park my car?",
        "Do you have wheelchairs I can borrow?",
        "How much is a private sick note?",
        "Do I need to bring my passport to register?",
        "Where is the car park?",
    ],
)
def test_a_practical_question_after_an_emergency_stands_alone(question: str) -> None:
    plan = route_by_rules(question, [_turn("my chest feels crushed and I'm sweating")])
    assert not plan.follow_up and plan.decision.route is Route.INFORMATION


@pytest.mark.parametrize(
    "question",
    [
        # Own disease and a procedure or its preparation.
        "I have colitis, will the bowel prep cause a flare up?",
        "could the contrast dye harm my kidneys?",
        "will fasting for the test mess up my diabetes and make it worse?",
        "my MS is bad right now, could the MRI trigger a relapse?",
        # Reacted badly before, have it again?
        "I had a bad reaction to the anaesthetic once, can I have it again?",
        "the sedation made my mum really sick last time, should she have it again?",
        "I came out in hives after my last jab, is it ok to have the second one?",
        # Is it an organ?
        "my feet keep swelling, is that my heart?",
        "dad is always thirsty, could that be his sugars?",
        "I'm exhausted all the time, is it my thyroid?",
        # A number of doses.
        "how many puffs of my brown inhaler can I take in a day?",
        "is 6 puffs of salbutamol too many before a spirometry test?",
        "can I have two extra sachets of the laxative?",
        "how many drops of the ear drops should I put in?",
        # Does the person need it at all?
        "do I really need the typhoid jab for a week in Spain?",
        "is the shingles vaccine worth it for me at 71?",
        "does my daughter actually need the HPV vaccine?",
        "is there any point in me having the flu jab if I'm healthy?",
    ],
)
def test_personal_clinical_questions_in_everyday_words_are_clinical(question: str) -> None:
    assert route_question(question).route is Route.CLINICAL


@pytest.mark.parametrize(
    "question",
    [
        "how long does bowel prep take to work?",
        "how much does sedation for a colonoscopy cost?",
        "do I need to bring my inhaler to the appointment?",
        "is that the heart clinic on the second floor?",
        "how much is the rabies vaccine per dose?",
        "do I need an appointment for the flu jab?",
        "what does the flu jab protect against?",
        "can I come again next week for my second jab?",
        "is it worth booking early for travel jabs?",
        "who can have the NHS flu jab for free?",
        "how long is the wait after a vaccination before I can leave?",
    ],
)
def test_published_questions_near_those_classes_stay_information(question: str) -> None:
    assert route_question(question).route is Route.INFORMATION


@pytest.mark.parametrize(
    "question",
    [
        "there's a man on the floor in your toilets",
        "an old man is on the floor by the lift",
        "someone is lying on the ground outside your front door",
        "a kid is lying face down by the swings",
        "a lady has fallen over in the corridor",
        "he has just fallen over and can't get up",
        "she dropped to the floor",
        "the man in the queue has gone down",
        "the lady next to me just went down",
        "my dad went down like a sack of potatoes",
        "my husband has fallen down the stairs",
        "ive found my neighbour on the kitchen floor",
    ],
)
def test_a_person_down_is_an_emergency_without_the_word_collapsed(question: str) -> None:
    """A person on the floor or who has just gone down, in everyday words, is a collapse."""
    assert route_question(question).route is Route.EMERGENCY


@pytest.mark.parametrize(
    "question",
    [
        "where is the floor plan of the clinic",
        "is the waiting room on the ground floor",
        "her fever has gone down, can she come to her appointment",
        "my son fell over at school last week and hurt his knee, can he see the nurse",
        "can my kid sit on the floor in the waiting room",
        "my son is on the floor playing, is there a toy box",
        "he went down with flu last week, can he still have his jab",
        "my daughter has gone down to the pharmacy, where is it",
        "my mum dropped her purse in the car park",
        "my mum went down the stairs on her bottom, is there a lift",
        "the price of the travel jab has gone down",
    ],
)
def test_floors_and_going_down_in_everyday_questions_are_not_emergencies(question: str) -> None:
    assert route_question(question).route is not Route.EMERGENCY


@pytest.mark.parametrize(
    "question",
    [
        "my father's lips and fingertips have a bluish tinge",
        "my grandmother's skin has gone a funny ashen colour and she's clammy",
        "there was a fire in the kitchen and he breathed in lots of smoke",
        "she inhaled fumes from mixing bleach and another cleaner, now she's coughing",
        "he got splashed in the eye with oven cleaner",
        "the bone is sticking out of his leg",
        "i think i can see bone through the cut on his shin",
        "he fell through the ice at the pond and is freezing",
        "the kid fell into the canal and is blue with cold",
        "my wife took 30 paracetamol this morning",
        "the baby is grunting with every breath and sucking in under the ribs",
        "my diabetic son is shaky sweaty and acting drunk",
        "she's 8 weeks pregnant and has a terrible pain on one side and feels faint",
        "my teenage son says his testicle is agony and swollen",
        "the dog bit her face and it's pouring",
        "this is the worst pain I've ever had in my head",
    ],
)
def test_acute_signs_in_everyday_words_are_emergencies(question: str) -> None:
    assert route_question(question).route is Route.EMERGENCY


@pytest.mark.parametrize(
    "question",
    [
        "is there eye wash at reception in case of chemicals",
        "how do I dispose of old paracetamol, I have about 50 tablets left",
        "my grandad's fingernails are a bit grey, can the podiatrist cut them",
        "do you have a leaflet about smoke alarms",
        "what is the worst pain after a knee replacement normally like",
        "is there a swimming pool near the clinic, my son fell in the pool last year",
        "can I bring a pregnant friend who feels faint in queues, is there seating",
    ],
)
def test_acute_sign_words_in_everyday_questions_are_not_emergencies(question: str) -> None:
    assert route_question(question).route is not Route.EMERGENCY
