"""Danger signs in combination: an emergency said in the shape of a clinical question.

The emergency rules (:mod:`engine.safety.emergency`) name one sign each ("chest pain",
"not breathing"). Fresh question sets kept finding emergencies that name no such sign but two
ordinary ones together, usually asked the way a clinical question is asked: "my son has type 1,
he's drowsy and panting, is it his sugar?", "my toddler has a fever and his knees look purple and
blotchy, should I give him calpol?", "my sight went fuzzy all of a sudden and my head is
splitting, is that my blood pressure?". Each sign alone is an everyday clinical question; the
pair is what first-aid guidance calls a red flag. This module recognises the pairs by class of
sign, not by sentence:

* a changed level of consciousness (vague, dozing off, about to pass out, floppy, talking
  rubbish) with breathing, colour, a racing heart, a fever, shaking or sweating, diabetes or
  insulin, pregnancy, chemotherapy, a knock to the head, a severe or sudden sign;
* breathing trouble with a colour change, swelling or tingling of the lips or throat, or a racing
  heart;
* a fever with a colour change, cold hands or feet, a stiff neck or light hurting the eyes, or
  chemotherapy;
* sight lost or changed, suddenly, or with a bad headache in pregnancy or said to be severe;
  a severe headache that came on suddenly;
* pregnancy with heavy bleeding, clots or a baby that has stopped moving; insulin taken twice or
  by mistake; diabetes with shaking or sweating that came on suddenly; blood thinners and a
  knock to the head; a blood sugar under 3.5 with shaking, sweating or confusion; green vomit
  with belly pain; a burn that is large, white or blistered all over.

A sign counts only where it describes someone now: not after "if", "whenever", "every time",
"last time", "used to", "always", "gets", "I get" or "side effect" within a few words before it,
and never in a question dated weeks, months or years ago; sight blurred by eye drops, glasses or
lenses does not count, nor "hay fever" or "yellow fever".

It must never: call a model, the network or the database; be slower than linear in the question
(bounded gaps only); fire on one sign alone (one sign is the clinical rules' business).
"""

from __future__ import annotations

import re

from engine.safety.emergency.fragments import FEVER, HEAD_KNOCK

_CONSCIOUS = (
    r"\b(?:vague|not with it|out of it|spaced out|not all there|away with the fairies|dozing off"
    r"|nodding off|drifting off|keeps? (?:dozing|nodding|drifting|falling asleep)|hardly (?:opening"
    r"|open|opens) (?:his|her|their|my) eyes|(?:cant|cannot|struggling to|wont) keep (?:his|her"
    r"|their|my) eyes open|barely (?:awake|conscious|responding|opening)|(?:black|blacking|pass"
    r"|passing) out|(?:going|about|gonna) to (?:faint|pass out|black out|collapse|keel over)"
    r"|might (?:faint|pass out|black out|collapse|keel over)|floppy|limp|drowsy"
    r"|(?:will|go to|going to|gonna|about to|feels? like (?:he|she|i|they) (?:will|is going to))"
    r" (?:fall down|fall over|faint|drop)"
    r"|confused(?! (?:about|by|with|over|as to|which|what|where|how|when|whether))"
    r"|talking (?:rubbish|nonsense"
    r"|gibberish)|not making (?:any )?sense|not (?:himself|herself|themselves|myself)|cant string"
    r"|muddled|delirious|hallucinating|seeing things|hard to wake|wont wake|(?:doesnt|does not"
    r"|didnt|dont|do not|not) (?:know|recognise|recognize) (?:where|who|what day|his own|her own"
    r"|me|us|his name|her name)|not with us)\b"
)
_BREATH = (
    r"\b(?:panting|wheez\w*|gasping|breathless|short of breath|out of breath|breathing (?:\w+ )?"
    r"(?:funny|fast|quick|quickly|deep|deeply|strange|strangely|oddly|odd|weird|weirdly|noisy"
    r"|noisily|hard|heavily|badly|shallow|rapid|rapidly)|(?:cant|cannot|struggling to) (?:catch"
    r"|get) (?:his|her|my|their) breath|breath (?:smells|smelling|smell) (?:of|like))\b"
)
_COLOUR = (
    r"\b(?:dusky|purple|purplish|blotchy|mottled|grey|gray|greyish|grayish|ashen|bluish|blueish"
    r"|blue(?! badge)|white as|deathly pale|very pale|really pale|gone pale|gone white"
    r"|turned white|going white|pale and)\b"
)
_PULSE = (
    r"\b(?:pulse|heart|heartbeat|heart rate) (?:\w+ ){0,3}?(?:racing|pounding|fluttering|thumping"
    r"|going (?:crazy|mad|really fast|so fast|very fast|like the clappers)|really fast|very fast"
    r"|all over the place)\b"
)
# A fever, or a person said to be hot now (the eleventh round: "my grandson is hot but his legs
# are cold"; never the weather, a room or a drink).
_FEVER = (
    rf"(?:{FEVER}|\b(?:he|she|hes|shes|they|theyre|baby|babys|child|son|daughter|grandson"
    r"|granddaughter|toddler|kid|little one) (?:is |s |feels |felt |feel |seems )?(?:really |very "
    r"|so |burning |boiling )?hot\b)"
)
_COLD_HANDS = (
    r"\b(?:hands|feet|fingers|toes|legs) (?:\w+ ){0,4}?(?:ice cold|icy|freezing|cold|frozen)\b"
    r"|\b(?:ice cold|icy|freezing cold) (?:hands|feet)\b"
)
_NECK_OR_LIGHT = (
    r"\bstiff neck\b|\bneck (?:is |feels |has gone )?(?:really |very )?stiff\b|\b(?:hates"
    r"|cant stand|cant bear|cant look at|hurts|hurting) (?:\w+ )?(?:the )?(?:light|lights"
    r"|bright lights)\b|\b(?:light|lights) (?:hurts|hurt|is hurting|are hurting|bothers"
    r"|is bothering)"
    r" (?:his|her|their|my) eyes\b|\bsoft spot\b.{0,40}\b(?:bulging|sticking up|sticking out|raised"
    r"|swollen)\b"
)
_SEVERE = (
    r"\b(?:splitting|worst|thunderclap|unbearable|agony|excruciating|terrible|horrendous|severe"
    r"|rock hard|wont stop|will not"
    r" stop|cant stop|non ?stop|all night|since yesterday|soaking|soaked|pouring|gushing|clots"
    r"|(?:cant|cannot) stand up|doubled up|screaming|keeps? (?:being sick|vomiting|throwing up"
    r"|retching))\b"
)
_SUDDEN = (
    r"\b(?:suddenly|sudden|all of a sudden|out of nowhere|out of the blue|just now|right now"
    r"|came on|minutes ago|an hour ago|since (?:lunch|breakfast|this morning))\b"
)
_SIGHT = (
    r"\b(?:sight|vision|eyesight|seeing double|double vision|seeing two|flashing lights|flashes"
    r"|shadow (?:over|across|in|on)|curtain|cant see|lost (?:the )?(?:sight|vision)|gone blind"
    r"|went blind|blind in|seeing (?:sparkles|stars|spots|zigzags)|(?:spots|stars|sparkles"
    r"|zigzags) (?:in|before|in front of) (?:my|his|her|their|the) eyes)\b"
)
_HEADACHE = r"\b(?:headache|head (?:is |feels )?(?:splitting|pounding|banging|throbbing|killing))\b"
_THROAT = (
    r"\b(?:lips|lip|tongue|throat|mouth|face) (?:\w+ ){0,3}?(?:tingl\w*|swell\w*|swollen|puff\w*"
    r"|tight\w*|closing|thick|too big|itchy|itching)\b|\bhives\b|\bcant swallow\b|\bhoarse\b"
    r"|\bvoice (?:has |is )?(?:gone|changed|going|different|croaky)\b"
)
# Something a severe allergy comes from, just eaten, taken or met.
_ALLERGEN = (
    r"\b(?:nut|nuts|peanut|peanuts|cashew\w*|sesame|prawn|prawns|shellfish|seafood|egg|eggs"
    r"|stung|sting|wasp|bee|hornet|penicillin|amoxicillin|antibiotic|antibiotics|ate|eaten"
    r"|eating|bite of)\b"
)
# Pain that spreads from the chest: to the jaw, the neck, the left arm, between the shoulders.
_RADIATING = (
    r"\b(?:pain|pains|ache|aches|aching|pressure|heaviness|tightness|tight|hurts|hurting)\b"
    r"(?: \w+){0,6}? (?:jaw|left arm|down (?:his|her|my|their|the) (?:left )?arm|into (?:his|her"
    r"|my|their) neck|between (?:his|her|my|their) shoulder blades)\b|\b(?:jaw|left arm)"
    r" (?:\w+ ){0,3}?(?:aches|aching|hurts|hurting|pain|tight|heavy)\b"
)
_NAUSEA = (
    r"\b(?:feel sick|feeling sick|feels sick|felt sick|being sick|nauseous|nausea|queasy"
    r"|throwing up|vomiting|retching)\b"
)
_NOSEBLEED = r"\b(?:nosebleed|nose bleed|nose (?:is |has been |keeps |wont stop )?bleeding)\b"
_LONG = (
    r"\b(?:over|more than|for) (?:an|half an|a whole|\d+|twenty|thirty|forty) (?:hour|hours"
    r"|minutes|mins)\b|\bwont stop\b|\bwill not stop\b|\bfor ages\b"
)
_AUTONOMIC = r"\b(?:shaky|shaking|trembling|sweaty|sweating|clammy)\b"
_DIABETES = r"\b(?:insulin|type 1|type one|diabetic|diabetes|hypo)\b"
_PREGNANT = r"\b(?:pregnant|pregnancy|\d+ weeks (?:gone|along)|im \d+ weeks|shes \d+ weeks)\b"
_THINNERS = (
    r"\b(?:blood thinners?|warfarin|apixaban|rivaroxaban|edoxaban|dabigatran|anticoagulants?)\b"
)
_BLEED = r"\b(?:bleed\w*|blood|clots|a pad|pads)\b"
# The baby's movements stopped or not felt (the eleventh round added movements and kicks not
# felt: "I haven't felt any kicks since yesterday").
_STILL_BABY = (
    r"\bbaby (?:\w+ ){0,2}?(?:hasnt|has not|not|stopped|isnt) (?:moved|moving|kicking)"
    r"|\b(?:havent|hasnt|have not|has not|not|didnt|did not|cant|cannot) (?:\w+ )?(?:felt|feel"
    r"|feeling) (?:any |the )?(?:babys? )?(?:kicks|kicking|movements?|(?:him|her|it|baby) (?:move"
    r"|moving|kick))\b|\bno (?:kicks|movements?)\b|\bmovements? (?:have |has )?(?:stopped"
    r"|slowed right down|gone quiet)\b"
)
# Swelling of the face or hands (with a headache in pregnancy, a sign of pre-eclampsia; swollen
# ankles alone are common and not counted).
_SWELLING = (
    r"\b(?:puffy|swollen|swelling|swelled|puffed up) (?:\w+ ){0,2}?(?:face|hands|fingers)\b"
    r"|\b(?:face|hands|fingers) (?:\w+ ){0,2}?(?:puffy|swollen|swelling|swelled|puffed up)\b"
)
# Fresh blood in a pregnancy: "bleeding bright red at 35 weeks".
_BRIGHT_BLOOD = r"\b(?:bright red (?:blood|bleeding)|bleeding bright red|fresh red blood)\b"
_INSULIN_TWICE = (
    r"\b(?:took|taken|injected|given|gave|had|done|did|put in)\b.{0,30}\b(?:double|twice"
    r"|two lots of|too much|extra|the wrong)\b.{0,20}\binsulin\b|\binsulin\b.{0,40}\b(?:twice by"
    r"|by mistake|by accident|two times by)\b"
)
# What burns or scalds (the ninth round added hot drinks, an oven, a hob, a bonfire, a
# barbecue and bath water too hot) and how a bad burn looks (it added skin peeling, coming away,
# red raw or leathery, and blistering said of the burn, not a small blister).
_BURN = (
    r"\b(?:scald\w*|burn|burns|burnt|burned|boiling|kettle|chip pan|hot fat|hot oil|hot water"
    r"|hot drink|hot tea|hot coffee|cup of tea|mug of tea|cup of coffee|oven|hob|stove"
    r"|bonfire|barbecue|bbq|too hot|far too hot|steam|pressure cooker)\b"
)
_BURN_BAD = (
    r"\b(?:gone white|turned white|white and|blister\w* (?:all over|everywhere)|charred|whole"
    r" (?:arm|forearm|leg|chest|back|hand|face|side)|all over (?:his|her|my|their) (?:\w+ )?"
    r"(?:arm|leg|chest|back|body|face)|skin (?:is |looks |has |went |gone )?(?:\w+ )?(?:peeling"
    r"|coming off|came off|coming away|red raw|raw|leathery)|(?<!small )(?<!tiny )(?<!little )"
    r"(?:blistered|blistering))\b"
)
_CHEMO = r"\b(?:chemo|chemotherapy)\b"
# A blood sugar under 3.5 ("my sugar is 2.1": the decimal point is a space in canonical text).
_LOW_SUGAR = (
    r"\b(?:sugar|sugars|glucose|bm|bms|blood sugar|reading|meter|monitor) (?:\w+ ){0,3}?(?:[0-2]"
    r"|3 [0-4])\b(?! (?:hours|hour|days|weeks|times|mmol a|months))"
)
_GREEN_VOMIT = (
    r"\b(?:throwing up|vomiting|being sick|sick|vomit|vomited|threw up|bringing up) (?:\w+ ){0,2}?"
    r"(?:green|bile|coffee grounds)\b|\bgreen (?:vomit|sick)\b"
)
_BELLY = r"\b(?:belly|tummy|stomach|abdomen|abdominal|gut)\b"

_SIGNS: dict[str, re.Pattern[str]] = {
    name: re.compile(pattern)
    for name, pattern in {
        "conscious": _CONSCIOUS,
        "breath": _BREATH,
        "colour": _COLOUR,
        "pulse": _PULSE,
        "fever": _FEVER,
        "cold_hands": _COLD_HANDS,
        "neck_or_light": _NECK_OR_LIGHT,
        "severe": _SEVERE,
        "sudden": _SUDDEN,
        "sight": _SIGHT,
        "headache": _HEADACHE,
        "throat": _THROAT,
        "allergen": _ALLERGEN,
        "radiating": _RADIATING,
        "nausea": _NAUSEA,
        "nosebleed": _NOSEBLEED,
        "long": _LONG,
        "autonomic": _AUTONOMIC,
        "diabetes": _DIABETES,
        "pregnant": _PREGNANT,
        "thinners": _THINNERS,
        "head_knock": HEAD_KNOCK,
        "bleed": _BLEED,
        "still_baby": _STILL_BABY,
        "swelling": _SWELLING,
        "bright_blood": _BRIGHT_BLOOD,
        "insulin_twice": _INSULIN_TWICE,
        "burn": _BURN,
        "burn_bad": _BURN_BAD,
        "chemo": _CHEMO,
        "low_sugar": _LOW_SUGAR,
        "green_vomit": _GREEN_VOMIT,
        "belly": _BELLY,
    }.items()
}

# Each combination: a name for the review log, and the sets of signs that must all be present
# (any one set suffices).
_COMBINATIONS: tuple[tuple[str, tuple[frozenset[str], ...]], ...] = tuple(
    (name, tuple(frozenset(s.split("+")) for s in sets.split()))
    for name, sets in (
        (
            "consciousness",
            "conscious+breath conscious+colour conscious+pulse conscious+fever "
            "conscious+diabetes conscious+pregnant conscious+chemo conscious+head_knock "
            "conscious+severe conscious+sudden "
            "conscious+autonomic",
        ),
        (
            "heart",
            "radiating+autonomic radiating+colour radiating+nausea radiating+breath "
            "radiating+conscious",
        ),
        ("breathing", "breath+colour breath+throat breath+pulse"),
        ("allergy", "throat+allergen+sudden throat+allergen+conscious throat+allergen+breath"),
        ("fever", "fever+colour fever+cold_hands fever+neck_or_light fever+chemo fever+breath"),
        ("sight", "sight+sudden sight+headache+pregnant sight+headache+severe"),
        ("headache", "headache+severe+sudden"),
        (
            "pregnancy",
            "pregnant+bleed+severe pregnant+still_baby pregnant+headache+swelling "
            "pregnant+bright_blood",
        ),
        (
            "diabetes",
            "diabetes+autonomic+sudden insulin_twice low_sugar+autonomic low_sugar+conscious",
        ),
        ("bowel", "green_vomit+belly green_vomit+severe"),
        ("thinners", "thinners+head_knock nosebleed+thinners nosebleed+long"),
        ("burn", "burn+burn_bad"),
    )
)

# Words that make a sign hypothetical, habitual or past when they come shortly before it.
_NOT_NOW_BEFORE = re.compile(
    r"\b(?:if|whenever|in case|every time|each time|last time|used to|side effects?|what if"
    r"|would|might happen|always|usually|tend to|often|sometimes|gets|(?:i|we|you|they) get"
    r"|when (?:i|he|she|we|they) (?:eat|eats|have|has|take|takes))\b"
)
_MONTHS = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november"
    r"|december)"
)
_DATED = re.compile(
    r"\b(?:years? ago|months? ago|weeks? ago|last (?:week|year|month|summer|winter|spring|autumn"
    rf"|{_MONTHS})|(?:years?|months?|weeks?|a while|ages) back|back in {_MONTHS}|in (?:19|20)"
    r"\d\d|earlier this year)\b"
)
# "since last week", "since 3 weeks ago": it started then and goes on now (not dated).
_ONGOING_BEFORE = re.compile(r"\bsince (?:\w+ )?$")
_LOOKBACK = 40
# A sign explained by a harmless cause anywhere in the question: sight blurred by eye drops that
# widen the pupil, or by glasses or lenses.
_EXPLAINED = {
    "sight": re.compile(r"\b(?:drops|dilat\w*|glasses|specs|lenses|contacts)\b"),
}


def _present(text: str) -> set[str]:
    """The signs in ``text`` that describe someone now (not after "if", "last time"...)."""
    found: set[str] = set()
    for name, pattern in _SIGNS.items():
        explained = _EXPLAINED.get(name)
        if explained is not None and explained.search(text):
            continue
        for match in pattern.finditer(text):
            before = text[max(0, match.start() - _LOOKBACK) : match.start()]
            if not _NOT_NOW_BEFORE.search(before):
                found.add(name)
                break
    return found


def dated(text: str) -> bool:
    """Whether the canonical ``text`` dates what it describes weeks, months or years ago ("last
    month", "a few weeks back", "in 2019"; not "since last week", which goes on now)."""
    return any(
        not _ONGOING_BEFORE.search(text[max(0, m.start() - 20) : m.start()])
        for m in _DATED.finditer(text)
    )


def danger_combination(text: str) -> str | None:
    """The name of the first combination of danger signs in the canonical ``text``, or None."""
    if dated(text):
        return None
    present = _present(text)
    for name, sets in _COMBINATIONS:
        if any(required <= present for required in sets):
            return name
    return None
