"""Emergency rules for injuries, allergy and what was swallowed: bleeding (heavy, spurting,
through the towels, blood coughed or vomited up), anaphylaxis (a throat, tongue or lips swelling
or closing, an adrenaline pen to use now, a sting or an allergen with swelling), overdose (too
many, the whole packet, more than prescribed, a child into the medicines), poisoning (household
products, button batteries, magnets) and burns (severe, scalds from hot liquid, a child burnt,
electric shock).

Chemicals in the eye, smoke breathed in and a large overdose counted in tablets are acute
signs (:mod:`engine.safety.emergency.spine_and_acute_signs`).

It must never call a model, the network or the database.
"""

from __future__ import annotations

from engine.safety.emergency.fragments import CHILD, MEDICINE_TAKEN
from engine.safety.rules import Rule, rule

# "blood" that is a test, a reading or a medicine, not blood coming up: "sick before my blood
# test", "being sick, are my blood sugars ok?".
_NOT_BLOOD_WORD = (
    r"(?! (?:test|tests|testing|pressure|sugar|sugars|results?|form|forms|sample|samples"
    r"|thinners?|count|donor|donation|donations|group|type|work|clinic|appointment|check"
    r"|checks|levels?|glucose|bank))"
)
# An adrenaline auto-injector by any of its names (hsafe5).
_EPIPEN = (
    r"(?:epipen|epipens|epi pen|epi pens|jext|jext pen|emerade|anapen|adrenaline (?:pen|pens"
    r"|injector|auto injector|autoinjector|shot|jab|injection)|adrenalin pen|auto injector"
    r"|autoinjector)"
)
# Swelling of the airway said without a verb the first anaphylaxis patterns know: "feels like
# it's closing", "my tongue is huge", "throat very swell" (hsafe5).
_SWOLLEN = (
    r"(?:closing|closed|closes|close up|shutting|shut|shrinking|narrowing|narrower|tight|tighter"
    r"|tightening|swelling|swollen|swelled|swell|swells|puffing|puffed|puffy|blown up|blowing up"
    r"|ballooned"
    r"|ballooning|huge|enormous|massive|twice (?:the|its|their) (?:normal )?size|closing over"
    r"|getting smaller|fat|fatter|thick|thicker|getting bigger)\b(?! with\b)(?! (?:lump|lumps|ulcer"
    r"|ulcers|spot|spots|sore|sores|blister|bump"
    r"|patch|patches|gland|glands|tonsils?|cough))"
)
# Words between the throat or tongue and what it does: never an article ("my tongue has a huge
# ulcer" is not swelling).
_GAP = r"(?: (?!(?:a|an|some|one|two|the|this|that)\b)\w+){0,5}?"
# A household product a child or anyone may take by mouth (the poisoning rule), and the ways it is
# taken; the ninth round added biting, sucking, getting hold of a product and more products.
_HOUSEHOLD = (
    r"(?:bleach|detergent|washing up liquid|washing liquid|cleaning \w+|cleaner|battery|batteries"
    r"|antifreeze|chemical|chemicals|weed killer|weedkiller|pesticide|magnet|magnets|(?:laundry"
    r"|washing|washing machine|dishwasher) (?:pods?|capsules?|tablets?|liquid|powder)"
    r"|fabric softener|softener|white spirit|paraffin|nail polish remover|vape liquid"
    r"|liquid nicotine|e liquid|descaler|unblocker|disinfectant|dettol|lighter fluid|petrol"
    r"|screenwash|rat poison|slug pellets)"
)
_PRODUCT_TAKEN = (
    r"(?:swallowed|drank|drunk|ate|eaten|licked|chewed|swallow|drinking|swallowing|bit|bitten"
    r"|bit into|sucked|sucking|sucked on|got hold of|got into|got at|been at|had some|has some"
    r"|swigged|sipped|gulped)"
)
# What scalds or burns a person, and where (the burns rule, ninth round).
_HOT_THING = (
    r"(?:boiling (?:\w+ )?water|boiling|hot water|hot fat|hot oil|chip pan|hot drink|hot tea"
    r"|hot coffee|cup of tea|mug of tea|cup of coffee|mug of coffee|teapot|kettle|saucepan|pan"
    r"|hot soup|soup|steam|iron|oven|hob|stove|bonfire|barbecue|bbq"
    r"|fire(?! exit| exits| alarm| alarms| door| doors| drill| escape| safety| extinguisher"
    r"| brigade| service| station| assembly))"
)
_BURNT_PLACE = (
    r"(?:face|chest|arm|arms|leg|legs|hand|hands|head|body|neck|feet|foot|fingers|tummy"
    r"|belly|lap|thigh|thighs|skin)"
)

BLEEDING: Rule = rule(
    "bleeding",
    r"\b(?:bleeding|bleed|bleeds|blood) (?:really |very |so )?(?:heavily|badly|a lot|loads"
    r"|lots|everywhere|profusely|so much|non stop|nonstop|wont stop|will not stop|not stopping"
    r"|that wont stop|keeps coming|pouring|gushing|spurting)\b",
    r"\b(?:heavy|severe|serious|uncontrolled|uncontrollable|massive|major|lots of|loads of"
    r"|a lot of|so much) (?:bleeding|blood loss|blood)\b",
    r"\b(?:wont|will not|cant|cannot|doesnt|does not|not) stop (?:the )?bleeding\b",
    r"\b(?:losing|lost) (?:a lot of|lots of|loads of|so much|too much) blood\b",
    r"\b(?:coughing|vomiting|throwing|spitting|vomited|threw|coughed) (?:up )?blood\b",
    # Vomiting blood in everyday words (hsafe5): "brought up blood", "vommed blood", "being
    # sick and there's blood in it", "sick that looks like coffee grounds".
    r"\b(?:brought|bringing|brings|bring|vommed|vomming|vommit\w*|puked|puking|puke|spewed"
    r"|spewing|heaved|chucked|chucking|retched|sicked|thrown|throws|vomits) (?:up )?(?:\w+ )"
    r"{0,3}?(?:blood|bloody)\b" + _NOT_BLOOD_WORD,
    r"\b(?:vomit\w*|vom|sick|puke|puking|throwing up|threw up|thrown up|brought up|bringing"
    r" up)\b(?! note| notes| pay| leave)(?: \w+){0,8}? (?:blood|bloody|coffee grounds)\b"
    + _NOT_BLOOD_WORD,
    r"\b(?:blood|coffee grounds)\b (?:\w+ ){0,3}?(?:in|through) (?:\w+ ){0,2}?(?:sick|vomit"
    r"|vom|puke)\b(?! note| notes| pay| leave)",
    r"\b(?:haemorrhage|hemorrhage|haemorrhaging|hemorrhaging)\b",
    r"\bdeep (?:cut|wound|gash|laceration)\b",
    # "the towel is soaked through with blood", "dripping red".
    r"\b(?:soaked|soaking|drenched|dripping|pooling) (?:\w+ ){0,2}?(?:in |with |through )?"
    r"(?:blood|red)\b(?! (?:spots|rash|marks|patches|eyes|wine|paint|dye))",
    # Blood spraying or pumping out (ninth session): "blood is spurting out of his arm",
    # "the cut is squirting red everywhere".
    r"\b(?:blood|bloods|red) (?:is |s |keeps |just )?(?:spraying|spurting|squirting|pumping"
    r"|gushing|pouring|jetting|pissing) (?:out|everywhere|all over)\b"
    r"|\b(?:spraying|spurting|squirting|pumping|gushing|jetting) (?:out )?(?:blood|red)"
    r" (?:everywhere|all over|out)\b",
    # Blood through what is pressed on it (ninth session): "it's soaking through every
    # towel", "coming through the bandage and two tea towels" (not a period's pads).
    r"\b(?:soaked|soaking|soaks|bled|bleeding|bleeds|coming|come|comes|seeping|seeped|pouring)"
    r" (?:right |straight |all the way )?through (?:\w+ ){0,3}?(?:towels?|tea towels?"
    r"|bandages?|dressings?|plasters?|gauze|kitchen roll|cloths?|tissues?|flannels?|t shirt"
    r"|shirt|jumper)\b",
)

ANAPHYLAXIS: Rule = rule(
    "anaphylaxis",
    r"\b(?:anaphylaxis|anaphylactic)\b",
    r"\b(?:used|use|using|need|needs|needed|give|gave|given) (?:his |her |my |an |the |their )?"
    r"epipen\b",
    r"\b(?:throat|tongue|lips?|face|mouth|airway) (?:is |are |has |have |feels |feel )?"
    r"(?:swelling|swollen|swelled|swell|closing|closing up|tight|tightening|puffing up)\b",
    r"\b(?:swelling|swollen) (?:of |in |on |up )?(?:the |my |his |her |their )?"
    r"(?:throat|tongue|lips|face|mouth|airway)\b",
    r"\b(?:severe|bad|serious|major|massive) allergic\b",
    # The throat or tongue with what it does a few words later: "my throat feels like it's
    # closing", "her tongue has gone huge", "throat very swell", "his throat is getting
    # tight" (never "a sore throat", "tongue tie").
    rf"\b(?:throat|throats|tongue|tongues|airway|windpipe)\b(?! tie| tied| swab| swabs){_GAP}"
    rf" {_SWOLLEN}",
    r"\b(?:lips?|face|mouth|eyelids) (?:(?:is|are|has|have|gone|went|going|got|look|looks"
    r"|feel|feels|all|really|very|so|just|suddenly|and (?:eyes|eyelids|tongue|lips|face)) )*"
    r"(?:swelling up|swelled up|swollen up"
    r"|puffing up|puffed up|blown up|blowing up|blew up|ballooned|ballooning|like balloons?"
    r"|twice (?:the|its|their) (?:normal )?size|huge|enormous|massive)\b",
    # Swallowing lost together with a swollen or closing mouth, tongue, lips or throat.
    rf"\b(?:cant|cannot|can not|couldnt|unable to|struggling to|struggles to|hard to|hardly"
    rf"|barely|difficult to|trouble|can hardly|can barely) (?:\w+ )?swallow\w*\b.{{0,80}}"
    rf"\b(?:throat|tongue|lips?|mouth|face)\b{_GAP} {_SWOLLEN}",
    rf"\b(?:throat|tongue|lips?|mouth|face)\b{_GAP} {_SWOLLEN}.{{0,80}}"
    r"\b(?:cant|cannot|can not|couldnt|unable to|struggling to|struggles to|hard to|hardly"
    r"|barely|difficult to|trouble|can hardly|can barely) (?:\w+ )?swallow\w*\b",
    # Not even saliva goes down: "can't swallow my own spit", "drooling, can't swallow".
    r"\b(?:cant|cannot|can not|couldnt|unable to) swallow (?:\w+ )?(?:own )?(?:spit|saliva"
    r"|spittle)\b",
    # An adrenaline pen in a question about using it now: "I've got my epipen, shall I use
    # it?", "do I jab him with the epi pen?" (not its prescription, price or expiry).
    rf"^(?!.*\b(?:prescription|prescriptions|repeat|reorder|order|ordering|cost|costs|price"
    rf"|charge|fee|fees|pay|paid|collect|collecting|pick up|expire\w*|expiry|out of date"
    rf"|spare|training|trainer|leaflet|pharmacy|chemist|bring|bringing|pack|flight|airport"
    rf"|school|nursery|holiday|replace\w*)\b).*\b{_EPIPEN}\b",
    r"\b(?:having|is having|going into|gone into|went into) (?:an? )?(?:severe |bad |serious )?"
    r"(?:allergic reaction|anaphylactic shock|anaphylaxis)\b",
    # A sting or a food allergen together with swelling anywhere in the question.
    r"\b(?:stung|sting|stings|bee|wasp|hornet|peanut|peanuts|nut|nuts|shellfish|allergic"
    r"|allergy)\b.{0,80}\b(?:swelling|swollen|swelled|swell|hives)\b",
    r"\b(?:swelling|swollen|swelled|swell|hives)\b.{0,80}\b(?:stung|sting|bee|wasp|hornet"
    r"|peanut|peanuts|nut|nuts|shellfish)\b",
    # Eleventh round: hives or a rash all over with swallowing, the throat or faintness now:
    # "covered in hives and struggling to swallow" (not "hives from the heat, do you sell
    # antihistamines?").
    r"\b(?:hives|welts|nettle rash|urticaria)\b.{0,80}\b(?:(?:cant|cannot|can not|couldnt"
    r"|unable to|struggling to|struggles to|hard to|trouble|can hardly|can barely) (?:\w+ )?"
    r"swallow\w*|throat|faint|fainting|dizzy|light headed|lightheaded|wheez\w*|collaps\w*)\b",
)

OVERDOSE: Rule = rule(
    "overdose",
    r"\b(?:overdose|overdosed|overdosing|overdoses)\b",
    r"\b(?:took|taken|take|swallowed|had|ate|eaten|taking|takes)\b.{0,40}\btoo (?:many|much)\b",
    r"\b(?:took|taken|swallowed|ate|eaten) (?:a whole|the whole|a|all (?:of )?(?:my|his|her"
    r"|their|the)) (?:bottle|pack|packet|box|packets|boxes|strip)\b",
    r"\baccidentally (?:took|taken|had|swallowed|given|gave|injected|ate|eaten|drank)\b",
    # "he eat many tablet", "she swallowed a lot of pills": a quantity eaten or swallowed.
    r"\b(?:eat|ate|eaten|took|taken|swallow|swallowed|drank|drunk)\b (?:\w+ ){0,2}?(?:many"
    r"|lot of|lots of|a lot of|a load of|loads of|all the|all of the|whole|handful of"
    rf"|handfuls of) (?:\w+ ){{0,2}}?{MEDICINE_TAKEN}\b",
    # More of a medicine than one should (tenth session): "he's had way more of his heart
    # pills than he should", "taking more of her painkillers than the label says", "took
    # extra of his ADHD pills, far more than prescribed" (never "more coffee than I should").
    r"\b(?:took|taken|take|takes|taking|swallowed|had|eaten|ate|used|using|given|gave)\b"
    rf"(?: \w+){{0,3}}? (?:more|extra)\b(?: \w+){{0,5}}? {MEDICINE_TAKEN}\b"
    r".{0,40}\bthan (?:(?:i|he|she|they|we|you|hes|shes|im|theyre|youre) (?:should|was|were|is"
    r"|are|am|meant|supposed|ought|allowed|d|had)|(?:the|my|his|her|their|it) (?:\w+ )?"
    r"(?:says|said|allowed|prescribed|recommended|label|box|packet|leaflet|dose|doctor|gp"
    r"|pharmacist)|prescribed|allowed|recommended)\b",
    # All of a medicine that harms in excess (eleventh round): "my husband took all his
    # sleeping tablets" (not "I took all my tablets this morning").
    r"\b(?:took|taken|swallowed|ate|eaten|downed|has had|had) all (?:of )?(?:my|his|her|their"
    r"|the) (?:\w+ )?(?:sleeping tablets|sleeping pills|painkillers|antidepressants"
    r"|paracetamol|co codamol|codeine|tramadol|morphine|diazepam|insulin|heart pills|heart"
    r" tablets|tablets in the (?:box|packet|pack|bottle)|pills in the (?:box|packet|pack"
    r"|bottle))\b(?!.{0,30}\b(?:this morning|today|as prescribed|as usual|as normal|with"
    r" breakfast|on time)\b)",
    # "my sleeping pills, I took them all", "swallowed every one of her painkillers".
    rf"\b{MEDICINE_TAKEN}\b.{{0,60}}\b(?:took|taken|swallowed|downed|ate|eaten|had)"
    r" (?:them all|all of them|the lot|the whole lot|every (?:last )?one)\b"
    r"(?!.{0,30}\b(?:this morning|today|as prescribed|as usual|as normal|with breakfast"
    r"|on time)\b)",
    rf"\b(?:took|taken|swallowed|downed|ate|eaten|had) every (?:last )?one of (?:my|his|her"
    rf"|their|the) (?:\w+ )?{MEDICINE_TAKEN}\b",
    # A child who ate someone's medicines: "my toddler ate a load of my iron tablets".
    rf"\b{CHILD}\b.{{0,60}}\b(?:ate|eaten|eating|swallowed|swallowing|drank|drunk|chewed"
    r"|got into|getting into|found|has had|had some|munched) (?:\w+ ){0,7}?(?:tablets|pills"
    r"|capsules|painkillers|medicines|medicine bottle|medicine cabinet|medicine cupboard"
    r"|sleeping tablets|vitamins|gummies|iron|paracetamol|calpol|nicotine)\b",
)

POISONING: Rule = rule(
    "poisoning",
    r"(?<!food )\bpoison(?:ed|ing|ous)?\b|\bcarbon monoxide\b",
    rf"\b{_PRODUCT_TAKEN}\b(?: \w+){{0,5}}? {_HOUSEHOLD}\b",
    # A household product in or round the mouth, or something from under the sink (ninth
    # round): "had some toilet cleaner round his mouth", "drank something from under the sink".
    rf"\b{_HOUSEHOLD}\b.{{0,40}}\b(?:in|round|around|on) (?:his|her|their|my) (?:mouth|lips)\b",
    rf"\b{_PRODUCT_TAKEN}\b.{{0,30}}\bfrom under the (?:kitchen )?sink\b",
    # A button battery or a magnet swallowed or missing from a child's mouth (hsafe5):
    # "gulped down two ball magnets", "had a watch battery in his mouth and now it's gone".
    r"\b(?:swallowed|swallow|swallowing|gulped|gulp|ate|eaten|eat|chewed|had|put|popped"
    r"|sucking|sucked) (?:\w+ ){0,7}?(?:button (?:battery|batteries|cell|cells)|coin"
    r" (?:battery|batteries|cell|cells)|(?:watch|lithium|round|disc|disk|remote|scales|key"
    r"|hearing aid) (?:\w+ )?(?:battery|batteries|cell)|batteries|battery|magnets|magnet"
    r"|magnetic (?:ball|balls|beads?))\b",
    r"\b(?:button (?:battery|batteries|cell|cells)|coin (?:battery|batteries|cell|cells)"
    r"|(?:watch|lithium|round|disc|disk) (?:\w+ )?(?:battery|batteries|cell)|batteries|battery"
    r"|magnets|magnet|magnetic (?:ball|balls|beads?))\b.{0,60}\b(?:in (?:his|her|their|my)"
    r" mouth|swallowed|swallow|gulped|down (?:his|her|their) throat|cant find|missing"
    r"|gone|disappeared)\b",
)

BURNS: Rule = rule(
    "burns",
    r"\b(?:severe|bad|serious|deep|large|big|major|massive|third degree|3rd degree|second "
    r"degree|2nd degree|chemical|electrical|acid) (?:burn|burns|burnt|burned|scald|scalds"
    r"|scalded)\b",
    r"\b(?:badly|severely|seriously) (?:burnt|burned|scalded)\b",
    r"\b(?:burnt|burned|scalded) (?:badly|severely|all over)\b",
    # "burned his arm with hot water very bad": how bad said after the burn.
    r"\b(?:burnt|burned|scalded)\b.{0,50}\b(?:very bad|really bad|so bad"
    r"|very badly|really badly|very deep|very big|huge)\b",
    r"\bon fire\b|\belectric shock\b|\belectrocuted\b",
    # Hot liquid or fat over a person, or a child scalded or burnt (ninth round): "hot water
    # went all down his chest", "pulled a cup of tea off the table onto herself", "my toddler
    # has scalded his hand". A burn with its skin signs is a danger-sign combination
    # (engine.safety.danger_signs: burn + burn_bad).
    rf"\b{_HOT_THING}\b.{{0,50}}\b(?:(?:over|onto|on to|down) (?:him|her|them|me|himself"
    r"|herself|themselves|myself|(?:the|my|his|her|their|our) (?:baby|son|daughter|toddler"
    rf"|little one))|(?:over|onto|on to|down|on|into|in) (?:his|her|my|their|the) (?:\w+ )?"
    rf"{_BURNT_PLACE})\b",
    rf"\b{CHILD}\b.{{0,60}}\b(?:scalded|burnt|burned|scald|scalds|burns|burn)\b (?:himself"
    rf"|herself|themselves|(?:his|her|their) (?:\w+ )?{_BURNT_PLACE})\b",
    rf"\b{CHILD}\b.{{0,40}}\b(?:got|has been|been|was|is) (?:badly )?(?:scalded|burnt"
    r"|burned)\b",
)

RULES: tuple[Rule, ...] = (BLEEDING, ANAPHYLAXIS, OVERDOSE, POISONING, BURNS)
