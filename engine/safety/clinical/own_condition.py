"""Clinical rules about the person's own condition or operation: recovery (when they may
drive, work, fly or exercise again after their own operation; never after a test, never a price
or the visit's logistics), and my_condition (whether a vaccine, test or procedure is safe or
wise given their medicine, condition, pregnancy or state, "someone like me", whether a test or
its preparation will set off their own disease, a bad reaction last time and having it again,
which vaccines they personally need; never a question about the building or the visit).

It must never call a model, the network or the database.
"""

from __future__ import annotations

from engine.safety.rules import Rule, inner, rule
from engine.safety.vocabulary import (
    AGAIN,
    BAD_REACTION,
    CONDITIONS,
    MEDS,
    OWN_CONDITION,
    PRICE,
    SYMPTOMS,
    TESTS,
    TREATMENT,
)

# The visit itself, not the person's body: "is the parking free for my scan now that I'm
# pregnant?", "which floor is the blood test room on, I have diabetes".
_LOGISTICS = (
    r"\b(?:park|parking|car park|floor|lift|stairs|toilet|toilets|wheelchair|ramp|where|which"
    r" room|what time|opening|open|interpreter|bus|train|address)\b"
)
# A place the question is about: "is the building ok for...", "is your entrance suitable for...".
_PLACE_IS = (
    r"\b(?:is|are|isnt|arent) (?:the|your|this|its) (?:\w+ )?(?:building|buildings|clinic"
    r"|practice|entrance|entrances|car park|parking|lift|lifts|toilet|toilets|waiting room"
    r"|waiting area|site|premises|place|door|doors|ramp|ramps|reception|surgery|corridors?"
    r"|stairs|floor|room|rooms)\b"
)
# One's own operation, and what one may do again after it (ninth session): "when can I go back
# to the gym after my gallbladder operation?", "is it ok to fly two weeks after my surgery?".
# Never a test ("after my colonoscopy can I drive home?": the documents answer that).
_OWN_OPERATION = (
    r"(?:my|his|her|their|the) (?:\w+ ){0,2}?(?:op|operation|surgery|replacement|repair"
    r"|transplant|c section|caesarean|cesarean|section|hysterectomy|keyhole|bypass)"
)
_ACTIVITY = (
    r"(?:drive|driving|behind the wheel|work|gym|exercise|exercising|swim|swimming|fly|flying"
    r"|bath|shower|lift|lifting|run|running|jog|jogging|sex|cycle|cycling|sport|sports|football"
    r"|golf|yoga|dance|dancing|carry|carrying|hoover|hoovering)"
)

RECOVERY: Rule = rule(
    "recovery",
    rf"^(?!.*(?:{PRICE}|{_LOGISTICS})).*?\b(?:after|since|following|post) {_OWN_OPERATION}"
    rf"\b.{{0,60}}\b{_ACTIVITY}\b",
    rf"^(?!.*(?:{PRICE}|{_LOGISTICS})).*?\b{_ACTIVITY}\b.{{0,60}}\b(?:after|since"
    rf"|following|post) {_OWN_OPERATION}\b",
)

MY_CONDITION: Rule = rule(
    "my_condition",
    # "is it safe for me to have an MRI?", "is a colonoscopy ok for someone like me?" (not a
    # place: "is the clinic suitable for someone who uses a walking frame?", ninth session)
    rf"^(?!.*{_PLACE_IS}).*?"
    r"\b(?:safe|safely|ok|okay|alright|all right|fine|dangerous|risky|harmful|suitable"
    r"|a problem|a risk|a bad idea|a good idea|wise|unwise|sensible|advisable|too risky)"
    r" (?:for|to) (?:me|him|her|them|us|my \w+|someone|somebody|people"
    r"|a person|patients) ?(?:with|who has|who have|like me|like him|like her|to|\b)",
    r"\b(?:safe|ok|okay|alright|fine|dangerous|risky|harmful|suitable|a problem|a risk|a bad"
    r" idea|wise|sensible|advisable) (?:\w+ )?(?:in|given) (?:my|his|her|their) (?:case"
    r"|condition|state|situation)\b",
    # A vaccine, test or procedure, and the person's own medicine or condition given as the
    # reason to ask (hsafe5): "can I have the shingles jab if I'm on methotrexate?", "is the
    # flu jab ok if I'm on chemo", "should he have his MMR while he's on antibiotics?".
    rf"^(?!.*(?:{PRICE}|{_LOGISTICS})).*?"
    rf"\b(?:{inner(TREATMENT)}|{inner(TESTS)}|sedation|sedative|anaesthetic|general anaesthetic"
    rf"|bowel prep|laxative|contrast|dye)\b.{{0,80}}\b(?:if|while|whilst|when|as|since"
    rf"|because|given|now that|even though|though|seeing as|with) (?:im|i am|hes|shes|he is"
    rf"|she is|theyre|they are|(?:my|our) \w+ is|i take|he takes|she takes|i have|ive got"
    rf"|hes got|shes got|he has|she has|(?:my|our) \w+ (?:has|takes)|ive had|ive just had"
    rf"|i had|i still have|im still) (?:\w+ ){{0,3}}?(?:on (?:\w+ ){{0,2}}?(?:{inner(MEDS)}"
    rf"|chemo|chemotherapy|radiotherapy|dialysis|immunosuppressants|biologics|treatment)\b"
    rf"|taking\b|pregnant|breastfeeding|allergic|immunosuppressed|immunocompromised|poorly"
    rf"|unwell|chemo\b|{inner(CONDITIONS)}\b|a transplant|a pacemaker|an implant)",
    # The same with the person's own treatment or condition named by its owner: "can my mum
    # have the covid booster when her chemo only finished last week?", "is the jab ok after
    # his transplant?" (lead; never "after my blood test", "with my husband").
    rf"^(?!.*(?:{PRICE}|{_LOGISTICS})).*?"
    rf"\b(?:{inner(TREATMENT)}|{inner(TESTS)}|sedation|sedative|anaesthetic|general anaesthetic"
    rf"|bowel prep|laxative|contrast|dye)\b.{{0,80}}\b(?:if|while|whilst|when|as|since"
    rf"|because|given|now that|even though|though|seeing as|with|after|so soon after)"
    rf" (?:my|his|her|their|our) (?:\w+ )?(?:chemo|chemotherapy|radiotherapy|dialysis"
    rf"|transplant|immunosuppressants|biologics|{inner(MEDS)}|{inner(CONDITIONS)})\b",
    rf"^(?!.*(?:{PRICE}|{_LOGISTICS})).*?"
    rf"\b(?:im on|i am on|(?:hes|shes|theyre) on|(?:he|she|my \w+) (?:is|are) on|i take"
    rf"|(?:he|she|my \w+) takes|i have|ive got|i suffer from|(?:he|she|my \w+) has"
    rf"|(?:hes|shes) got|im|i am) (?:\w+ ){{0,3}}?(?:{inner(MEDS)}|chemo|chemotherapy"
    rf"|biologics|immunosuppressants|dialysis|{inner(CONDITIONS)}|a pacemaker|pregnant"
    rf"|allergic to \w+)\b.{{0,80}}\b(?:is|are|would|will|could|might) (?:the |a |an |my"
    rf" |his |her |their |this |that |these |any )?(?:\w+ ){{0,3}}?(?:{inner(TREATMENT)}"
    rf"|{inner(TESTS)}|sedation|sedative|anaesthetic|bowel prep|laxative)\b(?: \w+){{0,4}}?"
    rf" (?:ok|okay|alright|safe|fine|a problem|a risk|risky|dangerous|a bad idea|harmful"
    rf"|out|off limits|suitable|allowed|possible|wise)\b",
    # "does my methotrexate rule out the zoster jab for me?", "is the yellow fever one off
    # limits for him?"
    rf"\b(?:rule|rules|ruled|ruling) (?:me |him |her |them )?out (?:the |a |an |my |his |her"
    rf" |any |all )?(?:\w+ ){{0,2}}?(?:{inner(TREATMENT)}|{inner(TESTS)}|sedation"
    r"|live vaccines?)\b",
    rf"\b(?:{inner(TREATMENT)}|{inner(TESTS)}|sedation)\b(?: \w+){{0,3}}? (?:off limits"
    r"|out of the question|ruled out|not allowed|a no go|a no no) (?:for|in) (?:me|him|her"
    r"|them|us|my \w+"
    r"|my case|his case|her case)\b",
    r"\b(?:someone|somebody|people|a person) like (?:me|him|her|us)\b",
    # "I have MS, am I fine to have sedation?", "im on dialysis, will I be ok to..."
    r"\b(?:i have|ive got|ive had|i got|i had|i suffer from|i am on|im on|with my"
    r"|(?:he|she|my \w+) (?:has|had|is on)|(?:hes|shes) (?:got|on)) (?:\w+ ){0,4}?(?:am i"
    r"|is he|is she|are we"
    r"|will i be|would i be|is my \w+|will (?:he|she|my \w+) be|can i still|should i still)"
    r" (?:\w+ )?(?:ok|okay|alright|all right|fine|safe|well enough|fit|able) to\b",
    # "I'm diabetic, can I still fast?", "she is on chemo, is she able to have the jab?"
    r"\b(?:im|i am|hes|shes|he is|she is) (?:\w+ ){0,2}?(?:positive|diabetic|asthmatic"
    r"|epileptic|immunosuppressed|immunocompromised|anaemic|allergic|on (?:chemo|chemotherapy"
    r"|dialysis|steroids|immunosuppressants|treatment|blood thinners|warfarin|insulin))\b"
    r".{0,60}\b(?:am i|is he|is she|can i|could i|should i|may i|can he|can she) (?:still )?"
    r"(?:(?:\w+ )?(?:ok|okay|alright|fine|safe|able|allowed) to|have|get|take|go|do|fast|eat"
    r"|drink|be)\b",
    r"\b(?:too much|too strong|too hard|too risky|too dangerous) for (?:me|him|her|them|us"
    r"|my \w+)\b",
    # "I've been sick all night, can I still have my blood test?"
    rf"\b(?:ive been|i have been|ive had|i had|im|i am|i feel|ive got|i have|i get|i go|i keep"
    rf" getting|(?:hes|shes) been"
    rf"|(?:he|she|my \w+) (?:has been|has|had|is)) (?:\w+ ){{0,3}}?{SYMPTOMS}\b.{{0,60}}"
    rf"\b(?:can|should|could) (?:i|we|he|she|they) still\b",
    # "my son is on steroids, can he have his jabs?", "I've had a transplant, can I still
    # get the yellow fever vaccine?": the person's own medicine or condition, then a request.
    rf"\b(?:im on|i am on|(?:hes|shes|theyre) on|(?:he|she|my \w+) (?:is|are) on|i take"
    rf"|(?:he|she|my \w+) takes) (?:\w+ ){{0,3}}?{MEDS}\b.{{0,60}}\b(?:can|could|should|may"
    rf"|is it ok for|is it safe for) (?:i|he|she|they|we|me|him|her|them|my \w+) (?:still )?"
    rf"(?:to )?(?:have|get|go|be|do)\b",
    rf"\b(?:i have|ive got|ive had|i had|i suffer from|(?:he|she|my \w+) (?:has|had))"
    rf" (?:a |an )?(?:\w+ ){{0,2}}?(?:{inner(CONDITIONS)}|transplant|disorder|implant|pacemaker"
    rf"|stent|valve|allergy|immune|chemo|chemotherapy|dialysis)\b.{{0,60}}\b(?:can|could"
    rf"|should|may) (?:i|he|she|they|we|my \w+) (?:still )?(?:have|get|go|be|take|eat"
    rf"|drink)\b",
    rf"\b(?:can|could|should|may) (?:i|he|she|they|we|my \w+) (?:who has|who have|with)"
    rf" (?:a |an )?(?:\w+ ){{0,2}}?(?:{inner(CONDITIONS)}|transplant|disorder|implant|pacemaker"
    rf"|stent|valve|allergy|immune|chemo|chemotherapy|dialysis)\b.{{0,40}}\b(?:have|get|go"
    rf"|be|take)\b",
    # The person's own disease and what a test or its preparation does to it: "will the
    # bowel prep set off my colitis?", "could the dye make my kidneys worse?"
    rf"\b(?:flare|flares|flare up|flareup|flaring|relapse|attack|episode)\b.{{0,60}}\b(?:my"
    rf"|his|her|their) (?:\w+ ){{0,2}}?{OWN_CONDITION}\b",
    rf"\b(?:my|his|her|their) (?:\w+ ){{0,2}}?{OWN_CONDITION}\b.{{0,80}}\b(?:flare|flares"
    r"|flare up|flareup|flaring|relapse|worse|worsen|affect|affects|upset|trigger|set off"
    r"|bring on|clash|interfere|harm|damage|a problem|an issue|risky|a risk)\b",
    rf"\b(?:i have|ive got|i got|i suffer from|i live with|(?:he|she|my \w+) (?:has|lives"
    rf" with)|(?:hes|shes) got) (?:a |an )?(?:\w+ ){{0,2}}?{OWN_CONDITION}\b.{{0,80}}\b(?:flare"
    r"|flares|flare up|flareup|relapse|worse|worsen|affect|upset|trigger|set off|bring on"
    r"|for me|for him|for her)\b",
    rf"\b(?:flare|worsen|make worse|affect|upset|trigger|set off|harm|damage|interfere with"
    rf"|clash with|be bad for|be a problem for|be risky for) (?:\w+ ){{0,2}}?(?:my|his|her"
    rf"|their) (?:\w+ ){{0,2}}?{OWN_CONDITION}\b",
    r"\b(?:cause|give|trigger|set off|bring on|start) (?:me |him |her |them )?(?:a |an )?"
    r"(?:flare|flare up|flareup|relapse)\b",
    # Reacted badly before, have it again? "the sedation made me really ill last time,
    # should I risk it again?"
    rf"{BAD_REACTION}.{{0,100}}\b{AGAIN}\b",
    rf"\b{AGAIN}\b.{{0,100}}{BAD_REACTION}",
    # "which vaccines do I personally need for my trip?"
    r"\b(?:which|what) (?:\w+ ){0,2}?(?:vaccines|vaccinations|jabs|injections|immunisations"
    r"|immunizations|shots|boosters) (?:do|should|will|would|must) (?:i|we|he|she|they"
    r"|my \w+) (?:personally |actually |really )?(?:need|have|get|take)\b",
    r"\b(?:which|what) (?:\w+ ){0,2}?(?:vaccines|vaccinations|jabs|injections|immunisations"
    r"|immunizations|shots|boosters) does (?:my|our|his|her)(?: \w+){1,3}? need\b",
)

RULES: tuple[Rule, ...] = (RECOVERY, MY_CONDITION)
