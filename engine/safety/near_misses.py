"""Benign near-misses of the emergency rules: where an emergency word does not describe anyone
in danger now, rewritten to neutral words before the emergency rules read the question.

The emergency rules (:mod:`engine.safety.emergency`) fire on a symptom phrase wherever it
appears. Some phrases are also everyday speech, and a false emergency is not free on the kiosk:
the 999 text replaces the answer and a red alert sounds at the desk, so staff learn to ignore it.
This module recognises three classes, each by its shape, not by one sentence:

* **Figures of speech and things, not people**: "dying for a cuppa", "fits of laughter",
  "knocked out of the cup", "passed out of college", "back stroke", "drowning in paperwork",
  "can't go on holiday", "our tent collapsed", "the printer keeps choking", "my team is on fire",
  "nearly got hit by a car", "if the clinic has to call an ambulance for a patient".
* **A sign explained by a harmless setting**: a face or smile that looks odd *in a photo*;
  trouble finishing a sentence *with a stammer or shyness*; an arm that will not go *high enough
  for the cuff*, or sits *in a cast or sling*, or *a frozen shoulder*; lips or hair *blue from an
  ice lolly or dye*.
* **Long ago**: a stroke, a knock to the head or a deep cut dated years or months ago, or a
  limb that has not moved well *since* then ("his stroke eight years ago", "in 2019"); a stroke
  named as what a disability dates from ("since his stroke he uses a wheelchair").

The second and third classes never apply when the question also says the sign is new ("suddenly",
"just now", "this morning", "started", "minutes ago", "an hour ago", "getting worse"): a stroke
noticed in a photo taken today is still a stroke.

It must never: touch the clinical or appointment rules' text (only the emergency rules read the
rewrite), rewrite a sign that the question says is new, or rewrite a word it cannot tie to its
harmless setting inside a few words (a bounded gap, never the whole question, except the
long-ago and setting markers, which must sit in the same question as the sign). It never calls
a model, the network or the database.
"""

from __future__ import annotations

import re

from engine.safety.rules import alt

# A sign the question calls new keeps its emergency meaning whatever else it says.
_NEW = re.compile(
    r"\b(?:suddenly|sudden|all of a sudden|just now|right now|this morning|this afternoon"
    r"|this evening|tonight|today|started|starting|minutes? ago|an hour ago|hours? ago|a few"
    r" minutes|getting worse|worse and worse|out of nowhere|since (?:lunch|breakfast|this)"
    r"|woke up with|came on|another|again|second one|once more|having (?:one|a stroke|a fit))\b"
)
_THINGS = alt(
    "tent,tents,ceiling,roof,shelf,shelves,wall,fence,bridge,chair,chairs,table,bed,sofa,"
    "building,house,shed,scaffolding,gazebo,umbrella,pram,buggy,pushchair,cot,stand,stall,"
    "market,deal,plan,plans,business,company,talks,negotiations,sandcastle,cake,souffle,"
    "printer,computer,laptop,website,system,app,screen,till,card machine,machine,scanner,"
    "engine,car,boiler,pipe,pipes"
)
_Rewrites = tuple[tuple[re.Pattern[str], str], ...]


def _rewrites(*pairs: tuple[str, str]) -> _Rewrites:
    """(pattern, replacement) pairs, compiled once at import."""
    return tuple((re.compile(pattern), replacement) for pattern, replacement in pairs)


def _apply(rewrites: _Rewrites, text: str) -> str:
    for pattern, replacement in rewrites:
        text = pattern.sub(replacement, text)
    return text


# (pattern, replacement): always safe to rewrite.
_FIGURES = _rewrites(
    (
        r"\b(?:im|i am|were|we are|hes|shes|he is|she is|theyre) dying (?:for (?:a|an|some|my"
        r"|the|one)|to (?:know|find|see|hear|meet|try|get|go|tell|ask))\b",
        "longing",
    ),
    (r"\b(?:fit|fits) of (?:laughter|laughing|giggles|giggling|the giggles)\b", "giggles"),
    (
        r"\bknocked out of (?:the|a|an|our|their|his|her|my) (?:\w+ )?(?:cup|tournament|league"
        r"|competition|contest|final|semi final|quiz|round)\b",
        "eliminated",
    ),
    (
        r"\bpassed out (?:of|from) (?:\w+ )?(?:college|school|training|academy|university)\b",
        "graduated",
    ),
    (r"\b(?:back|breast|front|butterfly) stroke\b", "swimming"),
    (
        r"\bdrowning in (?:\w+ )?(?:paperwork|work|forms|emails|bills|debt|admin|letters|post"
        r"|homework|washing|laundry)\b",
        "busy with papers",
    ),
    (
        r"\b(?:cant|cannot|can not|couldnt) go on (?:holiday|holidays|a holiday|a trip|the trip"
        r"|my trip|our trip|leave|the school trip|a cruise|the cruise|honeymoon|my honeymoon"
        r"|the plane|the ride|rides|the waiting list|the list|the rota|the course)\b",
        "cannot travel",
    ),
    (
        r"\b(?:team|side|squad|sales|form|striker|player) (?:is |are |was"
        r" |were )?(?:really |totally |absolutely )?on fire\b",
        "doing well",
    ),
    (
        r"\b(?:nearly|almost) (?:got |been |was |were )?(?:hit|knocked over|run over) by\b",
        "nearly passed by",
    ),
    (
        r"\b(?:if|when|in case) (?:the clinic|the practice|you|your staff|staff|the staff"
        r"|reception|the receptionist|a nurse|the nurse|the doctor|a doctor) (?:has|have|had"
        r"|needs?) to (?:call|ring|phone) (?:an )?ambulance for (?:a|any)"
        r" (?:patient|visitor)\b",
        "calls transport for a patient",
    ),
)
# A thing that collapsed or "chokes" (a tent, a card machine): only when no person is named in the
# question, since "a woman in the market collapsed" and "the man at the till is choking" put a
# person beside the thing, and the thing is only where it happens.
_THING_FIGURES = _rewrites(
    (
        rf"\b{_THINGS} (?:has |have |had |just |nearly |almost )?(?:collapsed|collapsing"
        r"|collapse)\b(?! on| onto| in on| over)",
        "thing came down",
    ),
    (rf"\b{_THINGS} (?:keeps |kept |is |was )?(?:choking|choked|chokes)\b", "thing jammed"),
)
_PERSON = re.compile(
    r"\b(?:man|men|woman|women|lady|ladies|gentleman|guy|bloke|boy|boys|girl|girls|child"
    r"|children|kid|kids|baby|babies|toddler|infant|person|people|someone|somebody|anyone"
    r"|patient|customer|visitor|he|hes|she|shes|him|her|they|theyre|them|mum|mom|mother|dad"
    r"|father|nan|nana|gran|granny|grandma|grandad|grandpa|husband|wife|partner|son|daughter"
    r"|brother|sister|friend|neighbour|uncle|aunt|auntie|cousin|nephew|niece|colleague|carer)\b"
)
# Words that put someone in danger now: then nothing is rewritten, whatever else the question
# says ("her lips went blue after the paint fumes", "the tent collapsed and he isn't moving").
_DANGER = re.compile(
    r"\b(?:breath\w*|breathe|breathing|cant breathe|unconscious|not moving|isnt moving"
    r"|not responding|unresponsive|wont wake|will not wake|not waking|cant wake|floppy|fumes"
    r"|smoke|gas|swallowed|swallow|ate|eaten|drank|drunk|overdose|poison\w*|swelling|swollen"
    r"|bleeding|blood everywhere|lots of blood|losing blood|fitting|seizure|trapped|crushed"
    r"|injured|unwell|being sick|been sick|vomiting|throwing up|chest pain|in agony)\b"
)
_PHOTO = r"(?:photo|photos|photograph|photographs|picture|pictures|pic|pics|selfie|selfies)"
_STAMMER = (
    r"(?:stammer\w*|stutter\w*|shy|shyness|speech therapist|speech therapy|speech and language"
    r"|tongue tied)"
)
_KIT = (
    r"(?:cuff|blood pressure machine|high enough|above (?:my|his|her|their) (?:head|shoulder"
    r"|shoulders)|frozen shoulder|plaster|cast|sling|splint|brace)"
)
# Dated long ago: a past illness or injury ("his stroke eight years ago", "in 2019").
_LONG_AGO = (
    r"(?:(?:\w+ )?(?:years|year|months) ago|in (?:19|20)\d\d|last (?:year|summer|winter"
    r"|spring|autumn)|(?:years|months) back|healed)"
)
# A stroke or head injury named as the past event a disability dates from ("since his stroke he
# uses a wheelchair", "she walks with a frame after her stroke two years back", "since dad's
# stroke"): the stroke is history, what follows is the visit (hsafe5).
_SINCE_EVENT = (
    r"(?:(?:ever )?since (?:his|her|my|their|your|the|mums|dads|\w+s) (?:\w+ )?(?:stroke|strokes"
    r"|head injury|brain injury)|(?:a while|ages|a long time|some time) (?:ago|back)"
    r"|(?:previous|old|earlier|past|last) strokes?|stroke survivor|after (?:his|her|my|their)"
    r" (?:stroke|head injury) (?:\w+ ){0,3}?(?:he|she|they|i) (?:uses|use|needs|need|walks|walk"
    r"|has|have|relies|rely|cant|cannot|struggles|struggle))"
)
# A limb that has not worked well *since* then: tied to the limb by "since" or "still".
_EVER_SINCE = (
    r"(?:since (?:\w+ ){0,5}?(?:(?:years|year|months) ago|(?:19|20)\d\d)|since (?:birth|childhood"
    r"|he was born|she was born|i was born)|(?:years|year|months) ago (?:\w+ ){0,5}?still)"
)
# Colour that rubs off: only "from" the thing (food, dye), or "after" a non-food cause; "went blue
# after a sweet" may be choking and is not rewritten.
_BLUE_CAUSE = (
    r"(?:from (?:the |a |an |her |his |my |their |some )?(?:\w+ ){0,2}?(?:lolly|lollies|lollipop"
    r"|slush|slushie|slushy|blueberries|food colouring|dye|face paint|felt tip"
    r"|marker|jeans|icing|crayon|crayons|ice pop|popsicle)|after (?:the |a |an |some )?"
    r"(?:hair dye|dye|face paint|felt tip|marker))"
)
_FACE_SIGN = (
    r"\b(?:face|mouth|smile|lip|lips) (?:\w+ ){0,3}?(?:twisted|crooked|wonky|lopsided"
    r"|looks odd|looks strange|looks weird|looks wrong|odd|strange|weird|droopy|on one side)\b"
    r"|\b(?:one|left|right) side of (?:his|her|my|their|the) (?:face|mouth)\b"
)
_SPEECH_SIGN = (
    r"\b(?:cant|cannot|can not|unable to|couldnt|struggles to|struggling to|struggled to)"
    r" (?:even )?(?:finish|complete|get \w+ words out|get (?:his|her|my|their|the) words out"
    r"|get words out|say)\b"
)
# An arm, leg or hand (never "one side" or "left side": that is a stroke, not a frozen shoulder).
_LIMB_SIGN = (
    r"\b(?:cant|cannot|can not|unable to|couldnt|not able to|wont|will not) (?:\w+ )?(?:move"
    r"|lift|raise|use|feel) (?:his|her|my|their|the|one)(?: left| right)? (?:arm|arms|leg|legs"
    r"|hand|hands)\b"
    r"|\b(?:one|left|right) (?:arm|leg|hand) (?:\w+ ){0,2}?(?:wont|cant|will not|doesnt)"
    r" (?:move|lift|work)\b"
)
_HISTORY_SIGN = (
    r"\bstrokes?\b|\bhit (?:his|her|my|their) head\b|\bdeep (?:cut|wound|gash)\b"
    r"|\bhead (?:injury|first)\b"
)
_BLUE_SIGN = (
    r"\b(?:lips?|mouth|face|tongue|hair|fingers|hands|nails|teeth) (?:\w+ ){0,2}?(?:blue|purple"
    r"|grey|gray)\b|\b(?:turned|turning|gone|going|went) blue\b"
)
# (sign, setting that explains it, replacement): the sign is rewritten when the setting is in
# the same question and the question does not call the sign new.
_SETTINGS: tuple[tuple[re.Pattern[str], re.Pattern[str], str], ...] = tuple(
    (re.compile(sign), re.compile(rf"\b{setting}\b"), replacement)
    for sign, setting, replacement in (
        (_FACE_SIGN, _PHOTO, "face in a photo"),
        (_SPEECH_SIGN, _STAMMER, "speaks slowly"),
        (_LIMB_SIGN, _KIT, "limited reach"),
        (_LIMB_SIGN, _EVER_SINCE, "old limitation"),
        (_HISTORY_SIGN, _LONG_AGO, "old illness"),
        (_HISTORY_SIGN, _SINCE_EVENT, "old illness"),
        (_BLUE_SIGN, _BLUE_CAUSE, "coloured"),
    )
)


# Help with the visit itself, never a state of the body: confused by the screen or a form, can't
# read the screen or the signs, hard of hearing, gone down the corridor or to the car, lost in the
# building. Applied only when nothing in the question is new or in danger.
_VISIT = _rewrites(
    (
        r"\b(?:confused|confusing|puzzled|muddled|baffled|flummoxed|lost) (?:by|with|about|on"
        r"|at) (?:the |this |that |your |a |an |our |these )?(?:\w+ )?(?:screen|screens|kiosk"
        r"|form|forms|machine|check in|letter|letters|instructions|signs|sign|system|app"
        r"|website|map|building|layout|questions|buttons|touch screen|queue|ticket|numbers)\b",
        "unsure about the visit",
    ),
    (
        r"\b(?:screen|kiosk|form|machine|check in|check in machine|signs|letter|app) (?:is |are"
        r" |keeps )?(?:confusing|baffling|puzzling)\b",
        "unsure about the visit",
    ),
    (
        r"\b(?:cant|cannot|can not|couldnt|struggles to|struggling to|unable to|hard to|not"
        r" able to) read (?:\w+ ){0,2}?(?:screen|kiosk|form|writing|letter|sign|signs|words"
        r"|print|english|instructions|menu|buttons)\b",
        "reading help",
    ),
    (
        r"\b(?:hard of hearing|(?:a bit|very|quite|partially) deaf|(?:wont|will not|might not"
        r"|may not|doesnt|cant) hear (?:his|her|my|their|the) (?:name|number|ticket))\b",
        "hearing help",
    ),
    (
        r"\b(?:walked|went|gone|popped|nipped|go|going|stepped) (?:down|out|up|over|back)"
        r" (?:to )?(?:the )?(?:wrong )?(?:corridor|stairs|car|car park|shop|shops|pharmacy"
        r"|road|street|hall|hallway|lift|toilet|toilets|way|cafe|machine|front|entrance)\b",
        "walked",
    ),
    (r"\bgot lost (?:in|looking|on|finding|inside|around)\b", "lost the way"),
)


# Any sign of the body in a visit-help question keeps it as it is (the net and the rules read it).
_BODY = re.compile(
    r"\b(?:collaps\w*|sweat\w*|grey|gray|pale|clammy|faint\w*|dizzy|drowsy|sleepy|vomit\w*"
    r"|shaking|fitting|floppy|blue|breath\w*|pain|hurt\w*|bleed\w*|fell|fallen|drooping|dropped"
    r"|slurr\w*|numb|weak|sick|unwell|ill)\b"
)


def neutralise(text: str) -> str:
    """``text`` (canonical, as the rules read it) with benign near-misses rewritten to neutral
    words. Unchanged when it holds none, or when it also says someone is in danger now."""
    if _DANGER.search(text):
        return text
    text = _apply(_FIGURES, text)
    if not _PERSON.search(text):
        text = _apply(_THING_FIGURES, text)
    if _NEW.search(text):
        return text
    if not _BODY.search(text):
        text = _apply(_VISIT, text)
    for sign, setting, replacement in _SETTINGS:
        if setting.search(text):
            text = sign.sub(replacement, text)
    return text
