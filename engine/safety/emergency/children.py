"""The child_unwell emergency rule: a child floppy, blue, unresponsive or not feeding, a rash
that does not fade under a glass, meningitis or sepsis, a baby who will not feed or is hard to
wake, and a baby under three months with a fever. A child's burns, overdose and laboured
breathing are read by the rules for those (:mod:`engine.safety.emergency.injuries_and_poisoning`,
:mod:`engine.safety.emergency.spine_and_acute_signs`).

It must never call a model, the network or the database.
"""

from __future__ import annotations

from engine.safety.emergency.fragments import CHILD, FEVER, SERVICE
from engine.safety.rules import Rule, rule

# A baby's or toddler's age in weeks or months: "my 4 month old", "our 10 week old".
_BABY_AGE = r"(?:(?:[1-9]|1[0-9]|2[0-4]) (?:week|weeks|month|months) old)"
# A baby under three months (ninth session): "my 4 week old", "she's only 6 weeks old", "baby is
# 10 weeks", "our newborn", "11 days old", "my 2 month old". Never "10 weeks pregnant".
_NUMBER_UP_TO_12 = (
    r"(?:[1-9]|1[0-2]|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
)
_YOUNG_BABY = (
    rf"(?:\b{_NUMBER_UP_TO_12} (?:week|weeks|wk|wks) old\b|\bnewborn\b"
    r"|\b(?:[1-9]|[1-8]\d|one|two|three|four|five|six|seven|eight|nine|ten) days? old\b"
    r"|\b(?:1|2|one|two) months? old\b"
    rf"|\b{CHILD} (?:is|s) (?:only |just |not even )?{_NUMBER_UP_TO_12} (?:weeks|wks)\b"
    rf"|\b{CHILD} (?:is|s) (?:only |just |not even )?(?:[1-9]|[1-8]\d) days\b"
    rf"|\b{CHILD} (?:is|s) (?:only |just |not even )?(?:1|2|one|two) months?\b)"
)
# A baby's fever now (ninth session): the words above, a slight temperature, a reading of 38 or
# more, or a baby who feels hot. Not "take her temperature", "38 weeks", "hot water".
_FEVERISH = (
    rf"(?:{FEVER}|\bfebrile\b"
    r"|\b(?:has|had|got|running|run|with|have) (?:got )?(?:a |an )?(?:slight |bit of a )"
    r"temp(?:erature)?\b"
    r"|\b(?:3[89]|4[01])(?: [0-9])?\b(?! (?:weeks?|wks?|days?|years?|months?|hours?|minutes?"
    r"|mins?|pounds?|kg|ml|percent))"
    r"|\b(?:feels?|felt|feeling|is|s) (?:really |very |so |quite |a bit |too |all )?(?:hot|boiling"
    r"|roasting|clammy and hot)\b(?! (?:water|bath|drink|drinks|tea|weather|day|room|car|milk))"
    r"|\b(?:temp|temperature) (?:of|is|was|reads|reading|at|has gone up to|went up to|up to)"
    r" (?:about |over |above |nearly )?(?:3[89]|4[01])\b)"
)
# ... said as something that may happen later ("will she get a fever after her jabs?").
_FEVER_TO_COME = (
    r"\b(?:will|would|might|could|may|can|does|do|usually|normal for|expect|in case)"
    r" (?:\w+ ){0,3}?(?:get|have|run|develop|cause|causes|give|gives|getting|having)"
    r" (?:\w+ ){0,2}?(?:fever|temperature|temp)\b"
)

CHILD_UNWELL: Rule = rule(
    "child_unwell",
    rf"\b{CHILD}\b(?: \w+){{0,4}}? (?:floppy|limp|blue|grey|gray|not breathing|unresponsive"
    r"|lethargic|very drowsy|hard to wake|high pitched cry|bulging|not feeding)\b",
    r"\brash\b.{0,40}\b(?:doesnt|does not|wont|will not|dont|do not|didnt|did not|not) "
    r"(?:fade|go away) (?:under|with|when)\b|\bnon ?blanching\b|\bglass test\b",
    # "spots that don't fade when I push on them", "marks that stay when pressed" (hsafe4).
    r"\b(?:rash|spots|marks|blotches|dots|pinpricks?|pin pricks?)\b.{0,50}\b(?:doesnt|does not"
    r"|dont|do not|didnt|did not|wont|will not|not) (?:fade|go|disappear|change|go pale"
    r"|go white|vanish)\b.{0,20}\b(?:press|pressed|presses|pressing|push|pushed|pushing|glass)",
    r"\b(?:rash|spots|marks|blotches)\b.{0,20}\b(?:doesnt|does not|dont|do not|wont|will not"
    r"|isnt|not) (?:fade|fading)\b",
    r"\b(?:rash|spots|marks|blotches|dots|pinpricks?)\b.{0,50}\b(?:stay|stays|still there"
    r"|remain|remains) (?:\w+ )?(?:when|if|after) (?:i |you |we )?(?:press|push)",
    r"\bmeningitis\b(?! (?:b |c )?(?:vaccine|vaccines|vaccination|jab|jabs|injection))",
    rf"\bsepsis\b(?! {SERVICE}\b)",
    # Eleventh round: a baby who will not feed with another sign, or is hard to wake or an odd
    # colour: "my newborn is very sleepy, pale and not taking any milk", "my 4 month old is
    # really hard to wake and has gone a funny colour".
    rf"\b(?:{CHILD}|{_BABY_AGE})\b.{{0,60}}\b(?:(?:very|really|so|too|unusually) (?:sleepy"
    r"|drowsy|pale|quiet)|pale|grey|mottled|blotchy|floppy|limp)\b.{0,40}\b(?:not (?:taking"
    r"|feeding|drinking)|wont (?:feed|take|drink)|isnt (?:feeding|taking|drinking)|off (?:his"
    r"|her|their) (?:feeds|milk|bottle))\b",
    rf"\b(?:{CHILD}|{_BABY_AGE})\b.{{0,40}}\b(?:(?:really |very |so )?hard to wake|cant wake"
    r"|wont wake|(?:gone|turned|going|turning) (?:a )?(?:funny|strange|odd|weird|grey|bluish"
    r"|mottled) colou?r)\b(?! (?:in the mornings?|for school|every))",
    # A baby under three months with a fever (ninth session), either order.
    rf"^(?!.*{_FEVER_TO_COME}).*?(?:{_YOUNG_BABY}.{{0,80}}{_FEVERISH}"
    rf"|{_FEVERISH}.{{0,80}}{_YOUNG_BABY})",
)

RULES: tuple[Rule, ...] = (CHILD_UNWELL,)
