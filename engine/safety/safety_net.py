"""The safety net: a question the kiosk cannot answer that reads like someone unwell now.

Rules and exemplars recognise the words they were written for; a fresh set found four
emergencies in ten, in other words, reaching the information route and ending in "I don't know".
The net does not try to recognise the emergency. It applies only where a false alarm costs
nothing the patient would have had: the question was routed **information** by every signal and
retrieval kept **nothing** (the answer would be the fixed "I don't know"). There, a question is
sent to the emergency route when either

* its nearest exemplar of the whole bank is an emergency phrasing, at a similarity of at least
  ``NET_SIMILARITY`` (lower than the exemplar signal's own thresholds, and with no margin over
  the information near-misses: the question only has to resemble an emergency more than
  anything else the bank knows); or
* it describes a person's body or state now (``acute_state``): a person (I, my mum, he, someone)
  with a symptom or body-state word ("can't breathe", "won't wake", "pale and sweaty",
  "bleeding", "shaking", "confused", "cold and blue"), and its nearest emergency exemplar is at
  least ``NET_STATE_SIMILARITY``.

A question that asks for a service or a facility (``practical_request``: "do you run a sleep
clinic?", "is there a quiet corner?") needs ``NET_PRACTICAL_SIMILARITY`` for the first arm and
never counts by the second; neither arm reads a question dated weeks or more ago
(:func:`engine.safety.danger_signs.dated`: "last month", "a few weeks back"; not "since last
week"); a question in which the rules found a benign near-miss
(:mod:`engine.safety.near_misses`: a stammer, a photo, a stroke years ago) is never netted.

The caller (:func:`engine.answering.routing.settle_route`) decides the "nothing kept" part; this
module only reads the exemplar similarities already computed for the question (no embedding) and
its canonical text.

It must never: apply to a route other than information (clinical stays clinical, an appointment
stays an appointment), apply when retrieval kept a passage (an answered question is never turned
into an emergency), embed anything, call a model, the network or the database.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine.events import Route
from engine.safety.danger_signs import dated
from engine.safety.near_misses import neutralise
from engine.safety.router import canonical_question
from engine.safety.rules import alt

# Measured on evaluation/tuning.yaml and evaluation/holdout2.yaml (docs/evaluation.md, "The
# safety net"): below these, the net raised unanswerable practical questions and caught no more
# emergencies.
NET_SIMILARITY = 0.40
NET_STATE_SIMILARITY = 0.30

_SOMEONE = (
    r"(?:i|im|i am|ive|i have|me|my \w+|our \w+|he|she|hes|shes|they|theyre|him|her|someone"
    r"|somebody|(?:this|the|a|that) (?:man|woman|lady|guy|person|boy|girl|child|kid|baby"
    r"|toddler|patient|gentleman|chap|bloke|teenager|lad))"
)
# Symptom and body-state words. "blood", "sick", "see", "move" alone are not enough: "take
# blood", "a sick note", "see the doctor" are practical; a function lost ("cant see", "not
# moving") is.
_STATE = alt(
    "pain,painful,agony,hurts,hurting,bleeding,bleeds,breathe,breathing,breathless,wheezing,"
    "wheezy,choking,gasping,panting,dizzy,faint,fainting,fainted,woozy,lightheaded,light headed,"
    "pale,grey,gray,blue,clammy,sweaty,sweating,shaking,shivering,trembling,jerking,twitching,"
    "stiff,floppy,limp,drowsy,confused,confusion,muddled,unconscious,unresponsive,collapsed,"
    "collapse,fell,fallen,vomiting,vomit,throwing up,being sick,been sick,swollen,swelling,"
    "burning,burnt,numb,tingling,weak,paralysed,slurring,slurred,seizure,fitting,overdose,"
    "swallowed,poisoned,suicidal,dying,burning up,temperature,fever,freezing,stung,bitten,"
    "allergic,hives,wound,gash,broken,chest,heart,stomach,belly,tummy,throat,tongue,lips,"
    "face,mouth,arm,arms,leg,legs,head,eye,eyes,skin,tight,heavy,drooped,drooping,droopy,"
    "lopsided,twisted,puffy,gibberish,nonsense,blind,weakness,sleeping tablets,pills,tablets,"
    "painkillers,vodka,wine,drunk,goodbye,goodbyes,end it,better off without,gone,"
    "coughing,wont stop,sleepy,tired,exhausted,hot,cold,shivery,sweats,rash,spots,bleed,"
    "blood everywhere,blood all over,blood wont stop,blood coming,blood pouring,coughing blood"
)
_LOST = (
    r"(?:cant|cannot|can not|couldnt|wont|will not|not|isnt|stopped|unable to|struggling to)"
    r" (?:\w+ )?(?:breathe|breathing|wake|waking|wake up|respond|responding|move|moving|talk"
    r"|talking|speak|speaking|see|stand|walk|feel|swallow|stay awake|keep \w+ eyes open)"
)
# Paperwork about being ill, not a state now. A question dated weeks or more ago ("last month",
# "a few weeks back") is read by ``danger_signs.dated``, the same test the danger signs and the
# nearer-stop-class decision use.
_NOT_NOW = re.compile(r"\b(?:sick notes?|fit notes?|off sick|sick pay|sick leave)\b")
_ACUTE = re.compile(rf"\b{_SOMEONE}\b(?: \w+){{0,6}}? (?:{_STATE}|{_LOST})\b")
_IF = re.compile(r"\b(?:if|in case|when|whenever|whether|what if)$")
# Running out of, or getting more of, a medicine one takes (tenth session): "my thyroid tablets are
# running out, who sorts more?", "can I get more of my usual pills sent to a different chemist?".
# The medicine words in it are no body state ("tablets", "pills" are, for "I've necked my
# pills"); the rest of the question is still read ("my inhalers are running low and he is
# wheezing badly" describes a state).
_MEDICINE_WORDS = (
    r"(?:tablets|pills|meds|medicines?|medication|inhalers?|insulin|capsules|painkillers"
    r"|prescription|prescriptions)"
)
_SUPPLY = re.compile(
    rf"\b{_MEDICINE_WORDS} (?:are |is |have |has )?(?:running|nearly run|almost run|nearly"
    rf"|almost|about to run) (?:out|low)\b"
    rf"|\b(?:running|run|ran|nearly|almost) (?:out|low) (?:of|on) (?:my|his|her|their|our) "
    rf"(?:\w+ ){{0,2}}?{_MEDICINE_WORDS}\b"
    rf"|\b(?:get|getting|order|ordering|request|requesting|collect|collecting|pick up|picking up"
    rf"|sort|sorts|sorting) (?:\w+ ){{0,2}}?more (?:of )?(?:my|his|her|their|our) (?:\w+ ){{0,2}}?"
    rf"{_MEDICINE_WORDS}\b"
)

# A body-state word that names a thing or a service, not anyone's state (eleventh session): "can
# I get a hot drink anywhere inside?", "can I get my eyes tested for new glasses here?". Taken out
# before the state words are read, as the supply phrase is; the rest of the question is still
# read ("a hot drink for him, he's gone pale and clammy" describes a state).
_THING = re.compile(
    r"\b(?:hot|cold|warm) (?:drinks?|water|tea|teas|coffee|coffees|chocolate|food|meal|snacks?"
    r"|cups?|brew|tap|taps|bottle)\b"
    r"|\b(?:eye|eyes|hearing|ear|ears|sight|eyesight) (?:tests?|tested|testing|checks?|checked"
    r"|examined|exams?|drops|appointment|appointments|clinic|test done|checked over)\b"
)

# A request for a service or a facility ("do you run a sleep clinic?", "can someone help her
# with the check-in screen?", "is there a quiet corner?"): the body words in it set the scene.
# Asking for a person to help now ("is there a doctor here?") is not such a request.
_PRACTICAL = re.compile(
    r"\b(?:do you (?:have|sell|do|offer|run|provide|stock|keep|take|accept|hire|treat)"
    r"|does (?:the|your) (?:clinic|practice|surgery|pharmacy|reception) (?:have|do|offer|sell|run"
    r"|provide)|(?:is|are) there (?:a|an|any|somewhere|anywhere|more)\b(?! (?:\w+ )?(?:doctor"
    r"|doctors|nurse|nurses|first aider|medic|paramedic|defib|defibrillator|ambulance))"
    r"|have you got|can (?:someone|somebody|anyone|you|staff|the nurse|the receptionist"
    r"|reception) (?:help (?:\w+ )?(?:with|fill|to fill|use|to use|find|get)|turn|show|fill"
    r"|bring|open|book|pierce|print)|can (?:i|he|she|we|they) (?:bring|lie down for|sit|wait"
    r"|park|leave|borrow|use the)"
    # An assistance dog or a mobility aid coming along (hsafe5): "can his guide dog
    # come into the room?", "are wheelchairs allowed upstairs?", "am I allowed to bring my carer?"
    r"|can (?:my|his|her|their|our|the) (?:\w+ ){0,2}?(?:dog|guide dog|assistance dog|hearing"
    r" dog|wheelchair|scooter|mobility scooter|walker|walking frame|frame|rollator"
    r"|buggy|pram|interpreter) (?:come|go|be|stay|wait|get|fit)"
    r"|(?:is|are) (?:\w+ ){0,3}?(?:dogs?|guide dogs?|assistance dogs?|carers?|wheelchairs?"
    r"|scooters?|mobility scooters?|walkers?|frames?|rollators?|buggies|buggy|prams?)"
    r" (?:allowed|welcome|permitted|ok|okay|able)"
    r"|(?:am i|are we|is he|is she|are they) allowed to (?:bring|come|wait|sit|park|use|stay)"
    # Money for a visit missed or cancelled because of being ill (hsafe5): "I've been throwing
    # up since last night, will I be charged for cancelling my scan?"
    r"|(?:will|would|do|does|can|could) (?:i|we|you|he|she|they) (?:still )?(?:be |get )?"
    r"(?:charged|charge|billed|bill|fined|pay|have to pay)\b(?! (?:for|to) (?:an |the )?"
    r"ambulance)|cancellation (?:fee|fees|charge|charges)|(?:get|give) (?:me |us )?a refund"
    # Asking where a place is (lead): "where will I find reception when I walk in?", "where can
    # a taxi drop my dad off?"; not where a person is ("where is she? she was in the toilet"),
    # nor where help, a first aider or the emergency department is.
    r"|\b(?:where|wheres|whereabouts) (?:is|are|can|do|does|should|will|would|shall|abouts)\b"
    r"(?! (?:he|she|they|him|her|them|my|his|our|their)\b)"
    r"(?!.*\b(?:doctor|doctors|nurse|nurses|first aider|first aid|medic|paramedic|defib"
    r"|defibrillator|ambulance|ae|a and e|emergency|casualty|hospital|help)\b))"
)
# The nearest-exemplar arm asks more of a question that is such a request.
NET_PRACTICAL_SIMILARITY = 0.50


def practical_request(question: str) -> bool:
    """Whether ``question`` asks for a service, a facility or help with the visit itself."""
    return bool(_PRACTICAL.search(canonical_question(question)))


def acute_state(question: str) -> bool:
    """Whether ``question`` describes a person's body or state now (a person, then within a few
    words a symptom or body-state word; not when the question dates it weeks or more ago)."""
    return _describes_state(neutralise(canonical_question(question)))


def _describes_state(text: str) -> bool:
    """``acute_state`` on a question already canonical and neutralised."""
    if _NOT_NOW.search(text) or dated(text):
        return False
    text = _THING.sub(" ", _SUPPLY.sub(" ", text))
    # "if I feel faint after my blood test" asks what happens; it does not describe anyone now.
    return any(not _IF.search(text[: m.start()].rstrip()) for m in _ACUTE.finditer(text))


def net_reason(question: str, nearest: Mapping[Route, float]) -> str | None:
    """The net's reason for sending an unanswered information question to the emergency route,
    or None. ``nearest``: the similarity of the nearest exemplar of each route (already
    computed for the exemplar signal)."""
    emergency = nearest.get(Route.EMERGENCY)
    if emergency is None:
        return None
    text = canonical_question(question)
    if neutralise(text) != text:
        # The rules recognised a benign near-miss ("can't finish a sentence with a stammer"):
        # the words that sound urgent are explained in the question itself.
        return None
    if dated(text):
        # "he fainted last month, ...": what it describes is weeks or more ago, not now (both
        # arms; before hsafe5 the nearest-exemplar arm read no date at all).
        return None
    others = max((s for r, s in nearest.items() if r is not Route.EMERGENCY), default=0.0)
    practical = practical_request(question)
    floor = NET_PRACTICAL_SIMILARITY if practical else NET_SIMILARITY
    if emergency >= floor and emergency > others:
        return f"net:nearest emergency {emergency:.2f}"
    # ``text`` is already what ``neutralise`` makes of it (checked above): not read twice.
    if emergency >= NET_STATE_SIMILARITY and not practical and _describes_state(text):
        return f"net:acute state, emergency {emergency:.2f}"
    return None
