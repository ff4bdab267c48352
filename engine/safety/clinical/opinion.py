"""Clinical rules for an opinion asked outright: medical_advice (asking the assistant to act as
a doctor, for "medical advice", or for a prescription) and personal_opinion (the clinic's view
of one person in shapes no symptom word announces: "do you think I need...", "will my kidneys
cope with...", "what's the best thing to give him for...", "am I still protected?").

It must never call a model, the network or the database.
"""

from __future__ import annotations

from engine.safety.rules import Rule, rule
from engine.safety.vocabulary import MEDS

MEDICAL_ADVICE: Rule = rule(
    "medical_advice",
    r"\b(?:you are|youre|act as|acting as|pretend to be|pretend you are|pretend youre"
    r"|roleplay as|role play as|imagine you are|imagine youre) (?:now )?(?:a |an |my )?"
    r"(?:doctor|gp|nurse|pharmacist|physician|medic|clinician|consultant|surgeon|dr)\b",
    r"\b(?:medical|clinical) (?:advice|opinion)\b",
    r"\b(?:can|could|will|would) (?:you|the doctor|a doctor|the gp|a gp|a nurse|the nurse"
    r"|the pharmacist|someone) prescribe\b",
)

PERSONAL_OPINION: Rule = rule(
    # Asking the clinic's opinion about one person, in shapes no symptom word announces
    # (hsafe4): "do you think I need...", "does she need seeing about...", "will my kidneys
    # cope with...", "would a course of X sort it out?", "is my weight a problem for my
    # health?", "what's the best thing to give him for...", "am I still protected?".
    "personal_opinion",
    r"\bdo you think (?:that )?(?:i|im|he|hes|she|shes|we|they|my (?!(?:appointment|booking"
    r"|slot|prescription|letter|results?|car|parking|form|ticket|bus|train)\b)\w+(?: \w+)?"
    r"|his \w+|her \w+) (?:really |still |might |will |would |should )?(?:need|needs|should"
    r"|ought|has|have|is|are|could|might|getting|get|gets|be)\b",
    r"\b(?:need|needs|needing) (?:seeing|seeing about|seeing to|looking at|checking over"
    r"|checking out|to be seen about|to be looked at|to be checked over|to be checked out)\b",
    r"(?<!where )(?<!when )(?<!how )\b(?:should|ought to|need to) (?:i |we |he |she |they )?"
    r"(?:get|have) (?:it |this |that |him |her |them |these |those )?(?:looked at|checked"
    r" out|checked over|seen to)\b",
    r"\b(?:will|would|can|could|might) (?:my|his|her|their) (?:\w+ )?(?:kidneys?|heart|liver"
    r"|lungs?|body|stomach|bones|immune system|skin|bladder|bowels?) (?:cope|handle|manage"
    r"|tolerate|take it|be ok|be okay|be alright|be fine|react|suffer)\b",
    rf"\b(?:would|will|could|does|do|might) (?:a |an |the |some )?(?:course of |dose of |few"
    rf" )?(?:\w+ )?{MEDS} (?:\w+ )?(?:sort|clear|help|fix|cure|work|shift|get rid)\b",
    r"\b(?:bad|unhealthy|dangerous|harmful|a problem|a worry|a risk|risky|normal|ok|okay"
    r"|healthy) for (?:my|his|her|their) (?:health|heart|knees|joints|back|weight|blood"
    r" pressure|sugars|kidneys|liver)\b",
    r"\b(?:bad|unhealthy|dangerous|a problem|a worry|normal|ok|okay|healthy|too (?:high|low"
    r"|much|heavy|light)) for (?:a (?:man|woman|lady|person|boy|girl|child|baby) |someone )?"
    r"(?:of )?(?:my|his|her|their) (?:age|height|size|build)\b",
    r"\bat (?:my|his|her) (?:height|age|weight)\b.{0,30}\b(?:bad|a problem|too|normal"
    r"|healthy|dangerous|ok|okay|worry|worrying)\b",
    r"\b(?:what|which) (?:cream|creams|ointment|lotion|gel|spray|drops|eye drops|medicine"
    r"|tablets?|remedy|remedies|treatment|antibiotic|painkiller|rub) (?:\w+ )?(?:is|are|works?"
    r"|would|will|do you recommend|should) (?:\w+ )?(?:good|best|right|better|work|help"
    r"|recommend|use)\b",
    r"\b(?:best|good|right|safest) (?:thing|stuff|medicine|cream|remedy|treatment) to (?:give"
    r"|put on|use on|rub on|take for|take|use for|try for)\b",
    r"\b(?:do|does|will|would) (?:i|we|he|she|they|my \w+) need (?:some |a |any |an |the )?"
    r"(?:cream|ointment|drops|eye drops|antibiotics|medicine|tablets|an inhaler|inhaler|a spray"
    r"|spray|something|stitches|a plaster cast) (?:for|on|to|or)\b",
    r"\b(?:am i|are we|is she|is he|are they) (?:still )?(?:protected|immune|contagious"
    r"|infectious|covered against)\b",
)

RULES: tuple[Rule, ...] = (MEDICAL_ADVICE, PERSONAL_OPINION)
