"""Follow-up questions: whether a question refers back to the conversation, and its search form.

A question is joined to the previous one only when it *needs* it, judged by referential cues in
its own words (never by its length):

* it opens with a connective that continues a thought: "and on Saturday?", "what about for
  children?", "or the video one?", "same for my son?";
* it has no topic of its own: every word is a function or generic word ("what should I do?",
  "is it free?", "how long does it take?", "how much?");
* it points back with a pronoun (it, that, there, he, she, they...) and names at most
  ``MAX_TOPIC_WORDS_WITH_PRONOUN`` topic words of its own ("which bus goes there?", "she is 84,
  is that normal at her age?"). A dummy "it" ("is it safe to...", "does it take to...") and an
  existential "there" ("is there a gym?") do not point back;
* it says "instead" (not "instead of ..."): "can we just see a GP instead?";
* it asks what to do next: "should I make an appointment?", "can I wait until tomorrow?", "what
  now?" (after slurred speech such a question is part of the emergency), says the person seems
  fine now and asks to wait and see, or asks how to get to hospital ("should I drive myself to
  A&E?", "can I take her in?"): after an emergency each of these is still the emergency;
* ellipsis: the previous question named a test or procedure (a blood test, fasting, a scan, a
  colonoscopy, a vaccine) and this one names none, only an aspect of one (results, a report,
  water, tea, food, driving home): "how long until I get the results?" after a blood test
  question, "is tea allowed?" after a fasting one. After any other question it stands alone;
* "another one", "the other one", "a different one": "is there another one upstairs?";
* after a question that names a medicine ("can I have a beer on these antibiotics?"), one that
  names only an aspect of taking it (the last or next tablet, a dose, the course): "how long
  after the last tablet?".

After an emergency or clinical question (the caller says which: this module never routes), a
question that points back at a person or the thing said ("he", "her", "it", "that") with at most
``MAX_TOPIC_WORDS_AFTER_STOP`` topic words of its own is a follow-up too: "do I move her or
leave her where she is?", "she's still talking to me tho", "pressing on it isn't working, then
what?". Right after the emergency text, so is one that names only what first aid is done with
("ice or running water?", "compressions or rescue breaths first?"), one that points back and
names first-aid words besides ("should I put something between his teeth?"), and one that says
it goes on ("I'd rather not speak to anyone on the phone though"). Someone who has just
described an emergency and goes on about "her" is still talking about the emergency; a question
that names its own subject without pointing back ("where do I pay for parking?") still stands
alone.

A leading interjection ("oh wait, cancel that", "actually, ...") is not a topic.

Everything else stands alone and is routed and searched exactly as if it were asked alone: a
stop route (emergency, clinical) of an earlier question never carries into it. A real follow-up
of a stop-route question is routed together with it and stays safe.

The measured behaviour (cue rule vs. embedding similarity to the previous question) is in
docs/evaluation.md. This module must never call a model, the network or the database, and
never decide a route (the safety router does, on the text this module returns).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from engine.events import Route, Turn
from engine.safety.text import normalise

MAX_TOPIC_WORDS_WITH_PRONOUN = 1
# After an emergency or clinical question, a question pointing back at a person or the thing said.
MAX_TOPIC_WORDS_AFTER_STOP = 2
# How many earlier turns a chain of follow-ups may reach back through.
MAX_CHAIN = 3

_CONNECTIVE = re.compile(
    r"^(?:and|what about|how about|what if|also|or|but|plus|same for|same with|same goes for"
    r"|then|so what|ok and|okay and|what else|else|as well|too)\b"
)
# Weaker openings ("for my son?", "with the nurse?") point back only when little else is named.
_WEAK_CONNECTIVE = re.compile(r"^(?:for|with|so|in|on|at)\b")
_POINTER_TEXT = "it that this these those there them they he she him her hers one"
_POINTERS = frozenset(_POINTER_TEXT.split())
# Words that point back only when they stand alone: "this rash", "her arm" name their own topic.
_DETERMINER_TEXT = "that this these those her one"
_DETERMINERS = frozenset(_DETERMINER_TEXT.split())
# A dummy "it" ("is it safe to take...", "how long does it take to...") and an existential
# "there" ("is there a gym?") point at nothing earlier.
_DUMMY = re.compile(
    r"\bit (?:\w+ ){0,3}?to\b|\bit (?:is|s) (?:\w+ )?(?:that|if|when)\b"
    r"|\b(?:is|are|was|were|isnt|arent) there\b|\bthere (?:is|are|s|was|were)\b|\btheres\b"
)
# Words that carry no topic: pronouns, auxiliaries, question words, and generic verbs and
# adjectives of asking ("cost", "free", "safe", "serious", "bring", "need").
_FUNCTION_TEXT = """
    a an the and or but so if then than to of in on at for with from by about as into onto up
    down out off over under again also too very really just only still even ever yet please
    thanks thank ok okay yes no not nor dont doesnt didnt isnt arent wasnt werent cant cannot
    wont wouldnt shouldnt couldnt ill im ive id youre youve hes shes theyre weve
    i me my mine myself we us our ours you your yours he him his she her hers it its they them
    their theirs this that these those there here one ones someone something anything
    what whats which who whom whose when where why how hows wheres whens whos
    is are was were be been being am do does did done doing have has had having
    can could will would shall should may might must need needs needed
    get gets got getting go goes going went come comes came make makes made take takes took
    taken give gives gave let say says said tell told know think want wants like
    much many long often soon far more less most least enough any some all each every other
    another same else
    cost costs price prices pay paying charge charged free cheap expensive fee
    safe ok alright fine normal serious bad good dangerous possible allowed able worry worried
    mean means matter happen happens now until before after during while since
    bring need do should time times day days week weeks see seen visit theyve
    though tho till til anyway anyways
"""
_FUNCTION_WORDS = frozenset(_FUNCTION_TEXT.split())
_INTERJECTION = re.compile(
    r"^(?:(?:oh|ah|um|erm|hmm|well|sorry|actually|wait|hang on|on second thoughts|no|ok|okay)"
    r" )+"
)
# Asking what to do next about what was said ("should I make an appointment?", "can I wait
# until tomorrow?", "what now?"): a follow-up whatever words it names.
_ASKS_WHAT_TO_DO = re.compile(
    r"^(?:so |then |ok |okay |well |and )?(?:should|shall|must) (?:i|we|he|she|they)"
    r" (?:\w+ ){0,2}?(?:make|book|see|go|come|call|ring|phone|wait|worry|be seen)\b"
    r"|^(?:so |then |ok |okay |well |and )?(?:can|could|may) (?:i|we|he|she|they|it|this|that)"
    r" (?:just |not |still )?wait\b"
    r"|^(?:do|will) (?:i|we|he|she|they) (?:still )?need to (?:see|go|come|call|book|worry|wait)\b"
    r"|\bwhat (?:should|do|can|shall|must) (?:i|we|he|she|they) do\b|\bis it too late\b"
    r"|\bwhat now\b|\bnow what\b|\bwhat next\b"
    # Waiting instead of acting: "she seems fine now, can we just wait and see?", "can it wait
    # till the morning?", "shall we leave it and watch him?".
    r"|\bwait and see\b|\bwatch and wait\b|\bkeep an eye on (?:him|her|them|it)\b"
    # Doing something to a medicine said before: "do I skip it on the morning of my blood
    # test?", "can he come off it beforehand?", "could I halve them?" (the question before
    # names the medicine; routed together, the clinical rules see it).
    r"|\b(?:stop|stopping|come off|coming off|quit|skip|skipping|halve|halving|double"
    r"|doubling|cut down on|reduce|pause) (?:taking |using )?(?:it|them|these|those)\b"
    r"|\b(?:can|could|should|shall|may|do|is it ok to|is it okay to|is it alright to) (?:i|we"
    r"|he|she|they|it|this|that)? ?(?:just |not |still |safely )?(?:wait|leave (?:it|him|her"
    r"|them)|hold off|sleep on it|see how (?:he|she|they|it|i) (?:goes|go|is|are|gets|feels))\b"
    r"|\b(?:he|she|they|it|i|hes|shes|theyre|im)(?: is| s| are| am)? (?:\w+ )?(?:seems?|looks?"
    r"|feels?|seem|look|feel|is|s|are) (?:\w+ )?(?:fine|ok|okay|alright|all right|better"
    r"|normal|ok now|back to normal|settled|calmer) (?:now|though|again|already)\b"
    # Getting there: "should I drive myself to A&E?", "can I take her in the car?", "shall
    # we get a taxi to the hospital?", "do I call 111 or 999?".
    r"|\b(?:drive|take|bring|get|run|walk|carry) (?:myself|him|her|them|me|us|my \w+|it)?"
    r" ?(?:in|over|down|up)? ?(?:to )?(?:ae|hospital|the hospital|casualty|the emergency"
    r" department|emergency|urgent care|the walk in|minor injuries|the out of hours)\b"
    r"|\b(?:take|bring|drive|get) (?:him|her|them|me|us|myself) (?:in|there|up|down)\b"
    r"|\b(?:taxi|uber|cab|bus|lift|car|drive)\b.{0,30}\b(?:ae|hospital|casualty)\b"
    r"|\b(?:call|ring|phone|dial) (?:111|999|an ambulance|for an ambulance|the ambulance)\b"
    r"|\b(?:the|an) ambulance\b|\bwhich (?:hospital|ae|emergency department)\b"
    r"|\bwhere (?:should|do|shall|can) (?:i|we) (?:go|take (?:him|her|them))$"
    r"|\b(?:drive|driving) (?:him|her|them|me|us|myself)(?: (?:there|in|over|down|up|ourselves"
    r"|myself|himself|herself))?$|\b(?:quicker|faster|better|ok|okay|alright|safer) (?:if|to|for)"
    r" (?:i|we|me|us) (?:\w+ )?(?:drive|take|bring|run)\b"
    r"|\b(?:do|does|will) (?:i|we|he|she|they) (?:still |really |actually )?need to (?:go|come"
    r"|call|ring|bother|go in|take (?:him|her|them)(?: in)?)(?: (?:in|there|anywhere|now|then"
    r"|at all|to (?:hospital|the hospital|ae)))?$"
    # Better now, so home or bed: "it's easing off now, can I go home?", "he's perked up".
    r"|\b(?:easing|eased|settling|settled|calming|calmed|passed|passing|wore off|wearing off"
    r"|gone away|going away|died down|dying down|perked up|picked up|came round|come round"
    r"|back to (?:his|her|their|my) (?:old |normal )?self)\b"
    r"|\b(?:can|could|should|shall) (?:i|we|he|she|they) (?:just )?(?:go|stay|head) home\b"
    r"|\b(?:lie|lay|sit) (?:him |her |them )?down\b|\bsleep (?:it|this) off\b"
    # Trying something and waiting: "can I just take an antihistamine and see?", "shall I use
    # it and see how it goes?" ("come and see the nurse" names who, and is not at the end).
    r"|\band see(?: (?:if|how|whether|what happens)\b.*)?$"
    # Giving it time: "can we give it half an hour to settle?" (never "settle my bill").
    r"|\b(?:give (?:it|him|her|them)|wait) (?:\w+ ){0,4}?to settle\b|\bsettle down\b"
)
_INSTEAD = re.compile(r"\binstead\b(?! of\b)")
_ANOTHER_ONE = re.compile(r"\b(?:another|the other|a different|a second|the same) ones?\b")
# Pointing back at the person or the thing an emergency or clinical question was about.
_PERSONAL_POINTER_TEXT = "he she him her his hers it that this hes shes its thats"
_PERSONAL_POINTERS = frozenset(_PERSONAL_POINTER_TEXT.split())
# What first aid is done with or to (ninth session): right after an answer that was the emergency
# text, a question whose every topic word is one of these ("ice or running water?",
# "compressions or rescue breaths first?", "pillow under the head or not?") is about what was
# just said, even without pointing back; unless it asks where, when or whether the clinic has
# something ("is there a lift?", "where can I get a drink?": a question of its own).
_FIRST_AID_TEXT = """
    ice cold cool cooling warm tap running run water milk cream creams butter gel vaseline
    plaster bandage bandages dressing towel tea cloth clingfilm cling film blanket coat pillow
    cushion belt scarf tourniquet pressure press pressing push pushing compressions compression
    pumps pumping breaths breath rescue cpr recovery position side back front head chest neck
    mouth tongue throat teeth fingers spoon upright flat sit sitting lie lying hold still move
    moving roll turn tilt raise lift sick vomit wash rinse spit swallow squeeze rub put tie
    apply pour wrap cover keep
    cut wound burn blister sting
    aspirin paracetamol calpol ibuprofen nurofen antihistamine piriton tablet tablets inhaler
    epipen pen adrenaline sugar sweets juice glucose drink paramedics paramedic
    first aid
"""
_FIRST_AID = frozenset(_FIRST_AID_TEXT.split())
MAX_FIRST_AID_WORDS = 4
# Words of place that name nothing of their own ("between his teeth", "round it").
_PLACE_TEXT = """
    between round around above below under over behind onto into against beside near inside
    outside top bottom
"""
_PLACE_WORDS = frozenset(_PLACE_TEXT.split())
# Asking what the asker should do, or saying it: "do I ...", "should we ...", "tie a belt ...".
_DOES_FIRST_AID = re.compile(
    r"^(?:so |then |ok |okay |and )?(?:(?:do|should|shall|must|can|could) (?:i|we)\b|(?:put"
    r"|tie|press|push|rub|run|pour|wrap|cover|keep|hold|give|roll|lie|sit|turn|lift|raise"
    r"|squeeze)\b)"
)
# Airing a room or getting someone out of it, the first aid for fumes and smoke (tenth session):
# "open the windows first?", "should I open the doors?", "get him out into the fresh air?".
_AIRING = re.compile(
    r"^(?:so |then |ok |okay |and )?(?:(?:do|should|shall|must) (?:i|we) )?(?:(?:open|prop open"
    r"|throw open) (?:\w+ ){0,2}?(?:windows?|doors?)|get (?:him|her|them|everyone|everybody|us"
    r"|the kids|the children) (?:out|outside)(?: (?:into|in) (?:the )?fresh air)?)\b"
)
# Said to go on from what came before: "I'd rather not speak to anyone on the phone though".
_CONTINUES = re.compile(r"\b(?:though|tho|anyway|anyways)$")
_ASKS_THE_CLINIC = re.compile(
    r"\b(?:where|wheres|when|whens|what time|is there|are there|isnt there|theres|do you|does"
    r" the|have you|has the|how much|which|can i get|could i get|can i have|could i have|may i"
    r"|is it possible)\b"
)
_IT_DEPARTMENT = re.compile(r"\bIT\b")
# Words of time that name no subject of their own ("my last injection", "by tomorrow").
_TIME_TEXT = (
    "last first next final later earlier tonight tomorrow today yesterday morning evening night"
)
_TIME_WORDS = frozenset(_TIME_TEXT.split())
# Medicines a question may name, and the aspects of taking one that a next question may name
# without naming the medicine again ("how long after the last tablet?").
_MEDICINE = re.compile(
    r"\b(?:medicines?|medications?|meds|tablets?|pills?|capsules?|antibiotics?|painkillers?"
    r"|inhalers?|insulin|cream|creams|drops|injections?|doses?|prescriptions?"
    r"|\w*(?:cillin|mycin|olol|pril|sartan|statin|prazole|oxetine|codeine|profen|amol)s?)\b"
)
_MEDICINE_ASPECT_TEXT = """
    last first next final tablet tablets pill pills capsule capsules dose doses course one ones
    injection injections finish finished stop stopped start started
"""
_MEDICINE_ASPECTS = frozenset(_MEDICINE_ASPECT_TEXT.split())
# The tests and procedures whose aspects a next question may leave unsaid (ellipsis).
_PROCEDURE = re.compile(
    r"\b(?:blood tests?|bloods|fasting|fast|scans?|mri|ultrasound|x ray|colonoscopy|camera test"
    r"|bowel prep\w*|smear(?: test)?|biopsy|swabs?|urine tests?|vaccines?|vaccinations?|jabs?"
    r"|injections?|immunisations?|sedation|ecg)\b"
)
# Aspects of a test that name no test of their own: "results", "water", "tea", "driving home".
_ASPECT_TEXT = """
    result results report reports back till ready wait waiting
    water drink drinks drinking eat eating food tea coffee black milk juice squash snack
    breakfast lunch dinner chew gum allowed drive driving home afterwards
"""
_ASPECTS = frozenset(_ASPECT_TEXT.split())


def _tokens(text: str) -> list[str]:
    return normalise(text).split()


def topic_words(question: str) -> list[str]:
    """The words of ``question`` that name something (not function or generic words, not
    numbers: "she is 84" names no new topic)."""
    return [t for t in _tokens(question) if t not in _FUNCTION_WORDS and not t.isdigit()]


def _ellipsis(text: str, previous: str) -> bool:
    """True when ``text`` names only aspects (one or two words) of the test or the medicine that
    ``previous`` named; a test named again in ``text`` is a question of its own."""
    topics = topic_words(text)
    if not topics or len(topics) > 2:
        return False
    earlier = normalise(previous)
    of_a_test = (
        _PROCEDURE.search(earlier) is not None
        and not _PROCEDURE.search(text)
        and all(t in _ASPECTS for t in topics)
    )
    of_a_medicine = bool(_MEDICINE.search(earlier)) and all(t in _MEDICINE_ASPECTS for t in topics)
    return of_a_test or of_a_medicine


def _points_back(text: str) -> bool:
    words = _DUMMY.sub(" ", text).split()
    for index, word in enumerate(words):
        if word not in _POINTERS:
            continue
        following = words[index + 1] if index + 1 < len(words) else ""
        if word in _DETERMINERS and following and following not in _FUNCTION_WORDS:
            continue  # "this rash", "that letter": a topic of its own
        return True
    return False


def _asked(question: str) -> str:
    """The question normalised, without a leading interjection, and without "it" when it is the
    IT department ("the IT helpdesk" points at nothing)."""
    text = _INTERJECTION.sub("", normalise(question))
    if _IT_DEPARTMENT.search(question):
        text = " ".join(w for w in text.split() if w != "it")
    return text


def refers_back(question: str, previous: str | None = None) -> bool:
    """True when ``question`` cannot be understood without the conversation before it
    (``previous``: the stand-alone form of the question before it, when there is one)."""
    text = _asked(question)
    if not text:
        return False
    if _CONNECTIVE.match(text) or _INSTEAD.search(text) or _ASKS_WHAT_TO_DO.search(text):
        return True
    topics = topic_words(text)
    if not topics:
        return True
    if _ANOTHER_ONE.search(text):
        return True
    if previous is not None and _ellipsis(text, previous):
        return True
    if len(topics) > MAX_TOPIC_WORDS_WITH_PRONOUN:
        return False
    return bool(_WEAK_CONNECTIVE.match(text)) or _points_back(text)


_PERSON_POINTER_TEXT = "he she him her his hers hes shes they them their theyre"
_PERSON_POINTERS = frozenset(_PERSON_POINTER_TEXT.split())


def _names_a_person(question: str) -> bool:
    """Whether ``question`` points at a person ("him", "she", "their"), not at a thing."""
    return any(w in _PERSON_POINTERS for w in _asked(question).split())


def refers_back_after_stop(question: str, after_emergency: bool = False) -> bool:
    """True when ``question`` points back at a person or the thing said ("he", "her", "it",
    "that"; not a dummy "it") and names at most ``MAX_TOPIC_WORDS_AFTER_STOP`` topic words of
    its own, words of time aside: the looser test for what follows an emergency or clinical
    question. ``after_emergency`` (the answer before was the emergency text), unless the
    question asks where, when or whether the clinic has something: a question that names only
    what first aid is done with counts too ("ice or running water?"), first-aid words do not
    count against one that points back ("should I put something between his teeth?"), and one
    that says it goes on from before ("... though") counts."""
    text = _asked(question)
    topics = [t for t in topic_words(text) if t not in _TIME_WORDS]
    words = _DUMMY.sub(" ", text).split()
    points = any(w in _PERSONAL_POINTERS for w in words)
    if after_emergency and not _ASKS_THE_CLINIC.search(text):
        own = [t for t in topics if t not in _FIRST_AID and t not in _PLACE_WORDS]
        if topics and not own and len(topics) <= MAX_FIRST_AID_WORDS:
            return True  # "ice or running water?": first aid for what was just said
        if (
            points
            and _DOES_FIRST_AID.search(text)
            and len(own) < len(topics)
            and len(own) <= MAX_TOPIC_WORDS_AFTER_STOP
        ):
            return True  # "do I make her drink lots of water?": first aid words aside
        if _AIRING.search(text):
            return True  # "open the windows first?": airing the room for fumes or smoke
        if _CONTINUES.search(text.rstrip()):
            return True  # "I'd rather not speak to anyone on the phone though"
    if not points:
        return False
    return len(topics) <= MAX_TOPIC_WORDS_AFTER_STOP


def joined_query(
    question: str, history: Sequence[Turn], stop: Callable[[str], bool] | None = None
) -> str | None:
    """The stand-alone form of the previous question followed by ``question`` when it refers
    back to it; None when it stands alone (or there is no history). ``stop`` says whether a
    text is an emergency or clinical question (the caller's rules); an emergency the previous
    turn's answer recorded counts too (one the exemplar signal found; a recorded clinical
    route does not: the exemplars also give it to service questions). After either, the
    looser :func:`refers_back_after_stop` applies too."""
    if not history:
        return None
    recent = list(history)[-MAX_CHAIN:]
    previous = standalone_query(recent[-1].question, recent[:-1], stop)
    after_emergency = recent[-1].route is Route.EMERGENCY
    if (
        refers_back(question, previous)
        or (
            stop is not None
            and refers_back_after_stop(question, after_emergency)
            and (after_emergency or stop(previous))
        )
        # Right after the emergency text, a stop question about a person ("is an aspirin a good
        # idea for him right now?", tenth session) is about the person of the emergency.
        or (after_emergency and stop is not None and _names_a_person(question) and stop(question))
    ):
        # A line break between them: the same words for the rules, the embedding and the search,
        # and the sentence-level evidence can tell what the follow-up itself asks.
        return f"{previous}\n{question}"
    return None


def standalone_query(
    question: str, history: Sequence[Turn], stop: Callable[[str], bool] | None = None
) -> str:
    """The text a question is routed and searched by: itself when it stands alone, or the
    stand-alone form of the previous question followed by it when it refers back."""
    return joined_query(question, history, stop) or question
