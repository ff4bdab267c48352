"""The triage clinical rule: whether the person should be seen (A&E, the GP, 111, "is this an
emergency?"), and whether they need a vaccine, treatment, medicine, test or check at all ("do I
really need the rabies jabs?", "do I need an ECG?", "should I be getting my cholesterol
checked?", how long a vaccine protects them). Never where, when or how to have one: "where should
I have my blood test?" is information.

It must never call a model, the network or the database.
"""

from __future__ import annotations

from engine.safety.rules import Rule, rule
from engine.safety.vocabulary import MEDS, NOT_TAKING, TESTS, TREATMENT

TRIAGE: Rule = rule(
    "triage",
    r"\bshould (?:i|we|he|she|they|my \w+) (?:go|come|get|see|call|ring|phone|visit|take "
    r"(?:him|her|them|my \w+)|be seen)(?: \w+){0,3}? (?:ae|er|hospital|emergency|doctor"
    r"|doctors|dr|gp|urgent care|walk in|111|999|ambulance|nurse|pharmacist|casualty"
    r"|minor injuries|out of hours|seen)\b",
    r"\b(?:do|will) (?:i|we|he|she|they) need (?:to see |to go to )?(?:a |an |the )?(?:ae"
    r"|hospital|doctor|gp|specialist|antibiotics|stitches|an operation|surgery|an x ray"
    r"|a scan|to be seen|to see a doctor|to see someone)\b",
    r"\bis (?:this|it|that) an emergency\b",
    # Whether the person needs a vaccine or treatment at all: "do I really need the rabies
    # jabs for a fortnight away?", "is the flu jab worth it for me?"
    rf"\b(?:do|does|will|would) (?:i|he|she|we|they|my \w+|my \w+ \w+) (?:really |actually "
    rf"|definitely |honestly |even |still |personally |truly )?need (?:to (?:have|get|take"
    rf"|start|be given|go on|keep taking|continue|bother with) )?(?:the |a |an |this |that "
    rf"|my |his |her |any |another |more |all |these |those )?(?:\w+ ){{0,2}}?{TREATMENT}\b",
    # ... any medicine named: "will he need steroids for it?" (tenth session)
    rf"\b(?:do|does|will|would) (?:i|he|she|we|they|my \w+|my \w+ \w+) (?:really |actually "
    rf"|still )?need (?:to (?:have|get|take|give (?:him|her|them) |start|be given|go on) )?"
    rf"(?:the |a |an |some |any |more )?{MEDS}\b{NOT_TAKING}",
    # How long a vaccine's protection lasts: "how long does the hep B protection last?",
    # "how many years will I be protected after the jab?" (tenth session; never "covered",
    # which insurance and parking say too).
    r"\b(?:protection|immunity) (?:\w+ ){0,4}?(?:last|lasts|wear off|wears off|run out"
    r"|runs out|go down|fade|fades)\b",
    r"\bhow (?:long|many years|many months) (?:\w+ ){0,2}?(?:am|are|is|will|would) (?:i|we"
    r"|he|she|they|my \w+) (?:be |stay )?(?:protected|immune)\b",
    r"\b(?:do|does|will|would) (?:i|he|she|we|they|my \w+) (?:really|actually|personally"
    r"|truly|honestly) need (?:it|them|one|that|this)\b",
    rf"\b{TREATMENT}\b.{{0,60}}\b(?:worth (?:it|having|getting|taking|doing|the)|really"
    r" (?:needed|necessary|need)|actually (?:needed|necessary|need)|necessary for|pointless"
    r"|any point|a waste|overkill|bother)\b",
    rf"\b(?:worth (?:it|having|getting|taking|doing)|really (?:need|needed|necessary)"
    rf"|actually (?:need|needed|necessary)|any point (?:in )?(?:me |him |her |us |them )?"
    rf"(?:having|getting|taking)"
    rf"|bother (?:having|getting|with))\b.{{0,60}}\b{TREATMENT}\b",
    r"\bworth (?:it|having|getting|taking|doing)\b.{0,30}\b(?:for me|for him|for her|for us"
    r"|for my \w+|at my age|at his age|at her age|in my case|in his case|in her case)\b",
    r"\bshould (?:i|my \w+|he|she|we|they) (?:have|get|take|be given|receive) (?:the |a |an "
    r"|my |his |her |their )?(?:\w+ )?(?:jab|jabs|vaccine|vaccines|vaccination|booster"
    r"|boosters|immunisation|immunization|shot|shots|injection|injections|mmr|hpv|bcg)\b",
    # Whether the person needs a test: "do I need an ECG?", "is an MRI needed for my knee?",
    # "should I have the bowel screening kit?" (not "where should I have my blood test?").
    rf"\b(?:do|does|will|would) (?:i|he|she|we|they|my \w+) (?:really |actually |still )?need"
    rf" (?:to have |to get )?(?:a |an |the |my |his |her |another )?(?:\w+ )?{TESTS}\b"
    r"(?! (?:appointment|booking|form|letter|result|results|before|to be booked))",
    rf"\b(?:is|are|would) (?:a |an |the )?(?:\w+ )?{TESTS} (?:needed|necessary|required"
    r"|a good idea|worth it|worth having|worth doing) (?:for (?:me|him|her|them|my|his|her"
    r"|their)|in my case|at my age)\b",
    rf"(?<!where )(?<!when )(?<!how )(?<!what time )(?<!which day )\bshould (?:i|we|he|she"
    rf"|they|my \w+) (?:have|get|do|take|book) (?:a |an |the |my |his |her )?(?:\w+ ){{0,2}}?"
    rf"{TESTS}\b(?! (?:before|after|on|at|in|done|booked|results))",
    r"\b(?:advise|recommend|suggest) (?:that )?(?:me|him|her|us|my \w+) (?:to )?(?:have|get"
    r"|take|go on|come off|stop|start)\b",
    # Whether the person should have a check at all: "I'm 40, should I be getting my
    # cholesterol checked?" (not "where should I get my bloods checked?").
    r"(?<!where )(?<!when )(?<!how )(?<!what time )\b(?:should|ought) (?:i|we|he|she|they"
    r"|my \w+) (?:to )?(?:be )?(?:getting|having|get|have) (?:my |his |her |their |a |an "
    r"|the )?(?:\w+ ){0,2}?(?:checked|tested|screened|looked at|scanned|x rayed|checked out)\b",
    r"\b(?:do|does) (?:i|he|she|we|they|my \w+) need (?:to (?:get|have) )?(?:my |his |her"
    r" |their )(?:\w+ ){0,2}?(?:checked|tested|screened|looked at|scanned)\b",
    rf"\b(?:have|get|take) (?:the |a |an |my |his |her )?(?:\w+ ){{0,2}}?{TREATMENT} safely\b",
)

RULES: tuple[Rule, ...] = (TRIAGE,)
