"""Two emergency rules for signs no other family names: spine (a numb saddle, or a bladder or
bowel lost with back pain) and acute_signs (a blue or grey colour, agony, smoke or a chemical
breathed in or in the eye, an open fracture, cold water, a large overdose counted in tablets, a
baby's laboured breathing, a diabetic acting drunk, a pregnancy with one-sided pain and
faintness, a testicle in agony, a wound that is pouring, an eye hit and sight lost, a firework
going off in a hand).

It must never call a model, the network or the database.
"""

from __future__ import annotations

from engine.safety.emergency.fragments import CHILD
from engine.safety.rules import Rule, rule

# Numbness of the saddle, or a bladder or bowel lost with back pain (ninth session): signs of a
# squashed nerve root bundle at the bottom of the spine, sent to A&E the same hour.
_SADDLE = (
    r"(?:down below|between (?:my|his|her|their|the) legs|(?:my|his|her|their|the) (?:\w+ )?"
    r"(?:groin|bum|bottom|buttocks|backside|genitals|private parts|privates|saddle area"
    r"|inner thighs|back passage)|when (?:i|he|she|they) (?:wipe|wipes|go to the toilet)"
    r"|saddle)"
)
_NUMB = (
    r"(?:numb|numbness|no feeling|lost (?:the |all )?feeling|(?:cant|cannot|can not|couldnt)"
    r" feel (?:anything|a thing|it)?|pins and needles|dead)"
)
_NOT_SITTING = r"(?!.{0,40}\b(?:sitting|sat|chairs?|seats?|bench|benches|cycling|bike)\b)"
_BACK = (
    r"(?:(?:my|his|her|their|bad|lower|sore|the) back|backache|back pain|sciatica|slipped disc"
    r"|spine|spinal)"
)
_CONTINENCE = (
    r"(?:(?:cant|cannot|can not|unable to|not able to|couldnt|struggling to) (?:pee|wee|urinate"
    r"|pass urine|pass water|empty my bladder)|wet (?:myself|himself|herself|themselves)"
    r"|(?:lost|losing|no) control (?:of|over) (?:my|his|her|their) (?:bladder|bowels?|wee|pee"
    r"|poo)|(?:peed|weed|pooed|soiled) (?:myself|himself|herself|themselves))"
)
# What harms an eye splashed into it or onto the face (acute signs; the ninth round added products
# and a person named before the eye: "into my son's eyes").
_EYE_CHEMICAL = (
    r"(?:bleach|cleaner|chemical|chemicals|acid|oven cleaner|ammonia|caustic|lime|cement"
    r"|superglue|descaler|unblocker|drain cleaner|disinfectant|detergent|dishwasher \w+"
    r"|washing \w+|hair dye|nail polish remover|petrol|white spirit|lighter fluid|pepper spray"
    r"|cs gas)"
)

SPINE: Rule = rule(
    "spine",
    rf"\b{_NUMB}\b(?: \w+){{0,4}}? (?:in |around |on |at )?{_SADDLE}\b{_NOT_SITTING}",
    rf"\b{_SADDLE}\b(?: \w+){{0,4}}? (?:(?:is|are|has|have|feels?|felt|gone|went|going"
    rf"|all|completely|totally) )*{_NUMB}\b{_NOT_SITTING}",
    rf"\b{_BACK}\b.{{0,80}}\b{_CONTINENCE}\b|\b{_CONTINENCE}\b.{{0,80}}\b{_BACK}\b",
)

ACUTE_SIGNS: Rule = rule(
    # Signs of danger in everyday words that no other rule names: colour, agony, smoke or a
    # chemical breathed or in the eye, an open fracture, cold water, a large overdose
    # counted in tablets, a baby's working breathing, a diabetic acting drunk, a pregnancy
    # with one-sided pain and faintness, a testicle in agony, a wound that is pouring.
    "acute_signs",
    r"\b(?:lips|lip|face|skin|fingers|fingertips|nails|tongue|mouth) (?:\w+ ){0,4}?(?:bluish"
    r"|blue tinge|blueish|grey|gray|greyish|grayish|ashen|mottled)\b",
    r"\b(?:bluish|blueish|greyish|grayish|ashen|mottled) (?:tinge |colour |color |look )?"
    r"(?:to |on |in )?(?:his |her |my |their |the )?(?:lips|face|skin|fingers|fingertips)\b",
    r"\b(?:in agony|agonising|agonizing|excruciating|unbearable pain)\b|\bworst pain (?:ever"
    r"|of (?:my|his|her|their) life|(?:i|he|she|theyve|ive|hes|shes) (?:\w+ )?(?:ever|had))\b",
    r"\b(?:breathed|breathing|inhaled|inhaling|swallowed|breathe) (?:in )?(?:\w+ ){0,2}?"
    r"(?:smoke|fumes|chlorine|gas|chemicals?|ammonia)\b|\bsmoke inhalation\b",
    rf"\b{_EYE_CHEMICAL} (?:\w+ ){{0,5}}?(?:in|into|on|over|up into) (?:his|her|my|their|the"
    r"|both)(?: \w+)? (?:eye|eyes|face)\b",
    rf"\b(?:eye|eyes) (?:\w+ ){{0,5}}?{_EYE_CHEMICAL}\b",
    rf"\b(?:eye|eyes)\b.{{0,40}}\b(?:burning|burn|burns|stinging|stings|streaming|cant see"
    rf"|cannot see|cant open)\b.{{0,40}}\b{_EYE_CHEMICAL}\b",
    r"\bbone (?:is |was )?(?:sticking|poking|come|coming) (?:out|through)\b"
    r"|\b(?:see|seeing|showing|exposed|visible) (?:the |his |her |a )?bone\b",
    r"\b(?:fell|fallen|went) (?:through|into) (?:the )?(?:ice|icy water|frozen)\b"
    r"|\b(?:fell|fallen|jumped|slipped|went under) (?:in|into|under) (?:the |a )?(?:canal|river"
    r"|lake|sea|pond|water|reservoir|quarry)\b"
    r"|\bhypothermi\w*",
    r"\b(?:took|taken|swallowed|had|ate|eaten|downed) (?:about |around |over |maybe |like )?"
    r"(?:[1-9]\d|[1-9]\d\d) (?:\w+ )?(?:paracetamol|tablets|pills|capsules|painkillers"
    r"|ibuprofen|aspirin|co codamol|codeine|sleeping pills|antidepressants)\b",
    rf"\b{CHILD}\b.{{0,60}}\b(?:grunting|sucking in|ribs? (?:are |is )?(?:sucking|pulling)"
    r"|whistling|noisy breathing|wheezing badly|blue round|going blue)\b",
    r"\b(?:diabetic|diabetes)\b.{0,60}\b(?:acting drunk|seems drunk|like (?:hes|shes|he is"
    r"|she is) drunk|not making sense|very drowsy|wont wake|cant wake)\b",
    r"\bpregnan\w*\b.{0,80}\b(?:pain|cramps|bleeding)\b.{0,60}\b(?:faint|fainting|dizzy"
    r"|light headed|lightheaded|shoulder tip|collaps\w*)\b",
    r"\btesticle\w* (?:\w+ ){0,3}?(?:agony|severe pain|really painful|swollen|twisted)\b",
    r"\b(?:bit|bitten|cut|slashed|gashed) (?:\w+ ){0,4}?(?:and )?(?:its |it is |he is"
    r" |she is )?(?:pouring|gushing|spurting|pumping)\b",
    # A blow or something flying into an eye, and sight lost (ninth round): "his eye got hit
    # by a football and he can't see out of it", "a stone flew into her eye ... can't see".
    r"\b(?:(?:eye|eyes)\b.{0,30}\b(?:hit|struck|poked|punched|smacked|scratched|cut)"
    r"|(?:hit|struck|poked|punched|smacked|flew|flown|shot|went|scratched|cut) (?:\w+ ){0,4}?"
    r"(?:in|into|on)? ?(?:his|her|my|their|the|both) (?:\w+ )?eyes?)\b.{0,60}\b(?:cant|cannot"
    r"|can not|couldnt|unable to|not able to) see\b",
    # A firework or a battery going off in a hand or a face (ninth round).
    r"\b(?:firework|fireworks|banger|bangers|sparkler|rocket|vape|battery|lighter|aerosol"
    r"|can)\b.{0,40}\b(?:exploded|blew up|went off|burst)\b.{0,20}\b(?:in|into|on) (?:his|her"
    r"|my|their|the)(?: \w+)? (?:hand|hands|face|eye|eyes|fingers)\b",
)

RULES: tuple[Rule, ...] = (SPINE, ACUTE_SIGNS)
