"""The safety router's emergency rules: named regexes over a canonical question (see
:mod:`engine.safety.rules` for the text they run on and where the lines are drawn).

Each rule is a symptom or an explicit emergency; a symptom phrase wins even when negated or asked
about, because a false emergency costs a redirect and a missed one can cost a life. Service names
("stroke clinic", "seizure nurse") are not symptoms.

This module must never call a model, the network or the database.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.safety.rules import Rule, alt, rule

PERSON = alt(
    "he,she,they,hes,shes,theyre,him,her,them,baby,child,son,daughter,husband,wife,partner,"
    "mum,mom,mam,mummy,dad,daddy,father,mother,friend,brother,sister,grandma,grandad,granddad,"
    "nan,nana,grandpa,granny,grandmother,grandfather,someone,somebody,person,man,woman,boy,girl,kid,toddler,patient,"
    "boyfriend,girlfriend,neighbour,neighbor,colleague,uncle,aunt,auntie,grandson,granddaughter,"
    "lady,gentleman,guy,bloke,chap,lad,lass,teenager,pensioner,men,women,people"
)
CHILD = alt(
    "baby,babys,babies,child,childs,toddler,infant,newborn,son,daughter,kid,kids,boy,girl,"
    "grandson,granddaughter,little one,my 2 year old,my 1 year old"
)
SERVICE = alt(
    "clinic,clinics,unit,ward,rehab,rehabilitation,service,services,team,nurse,nurses,support,"
    "group,club,association,prevention,awareness,review,survivor,survivors,follow up,recovery,"
    "physio,physiotherapy,medication,medications,meds,medicine,medicines,tablets,diary,free,"
    "action plan,care plan,specialist,consultant,appointment,appointments,check,checks,"
    "leaflet,leaflets,information,training,course,vaccine,vaccination,jab,injection"
)
# A knock to the head: "bumped his head", "fell off the swing onto her head".
HEAD_KNOCK = (
    r"\b(?:headbutt\w*|head butt\w*|(?:banged|bumped|knocked|smacked|bashed|cracked|whacked|hurt"
    r"|injured|hit|fell on"
    r"|landed on|fell and hit) (?:\w+ ){0,3}?head|(?:fell|fallen|falling|landed|dropped|tumbled"
    r"|rolled|slipped|tripped|toppled|flew|walked|ran|crashed)"
    r" (?:\w+ ){0,5}?(?:on|onto) (?:his|her|my|their|the|its) (?:\w+ )?head|head first"
    r"|headfirst|blow to the head|hit on the head|whack on the head|knock on the head"
    r"|(?:took|taken|got|had|caught) (?:a |an )?(?:\w+ ){0,3}?(?:to|in|on) the head)\b"
)
# What a knock to the head may be followed by (either order): drowsy, sick, confused, repeating.
_AFTER_KNOCK = (
    r"\b(?:sleepy|drowsy|dozy|vomit\w*|sick|throwing up|threw up|thrown up|confused|dazed|groggy"
    r"|woozy"
    r"|not himself|not herself|not making sense|talking rubbish|talking nonsense|seeing double"
    r"|double vision|hard to wake|keeps (?:nodding|dropping|falling"
    r"|dozing) off|dozing off|falling asleep|wont stay awake|cant stay awake|repeating (?:himself"
    r"|herself|themselves|myself)|(?:keeps |keep )?asking the same|cant remember (?:what"
    r" happened|anything|where))\b"
)
# Where someone is, between the person and what happened: "the man in the queue has gone down",
# "the lady next to me just went down".
_BESIDE = (
    r"(?:(?:in|at|by|near|next to|outside|inside|behind|in front of) (?:me |us |(?:the|your|a|our)"
    r" (?:\w+ )?))?"
)
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
# Drink or drugs, and a person who is hard to rouse (hsafe5).
_SUBSTANCE = (
    r"(?:drunk|drank|drinking|alcohol|vodka|gin|whisky|whiskey|rum|wine|beer|beers|cider"
    r"|spirits|pills|tablets|drugs|painkillers|sleeping|morphine|codeine|co codamol|methadone"
    r"|heroin|diazepam|valium|tramadol|oxycodone|fentanyl|ketamine|overdose|took something"
    r"|taken something)"
)
# What is taken too much of: a medicine, a painkiller or sleeping pill by name (the overdose rule's
# quantity eaten and "more ... than one should").
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
# What harms an eye splashed into it or onto the face (acute signs; the ninth round added products
# and a person named before the eye: "into my son's eyes").
_EYE_CHEMICAL = (
    r"(?:bleach|cleaner|chemical|chemicals|acid|oven cleaner|ammonia|caustic|lime|cement"
    r"|superglue|descaler|unblocker|drain cleaner|disinfectant|detergent|dishwasher \w+"
    r"|washing \w+|hair dye|nail polish remover|petrol|white spirit|lighter fluid|pepper spray"
    r"|cs gas)"
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
_MEDICINE_TAKEN = (
    r"(?:tablets?|pills?|capsules?|medicines?|medication|meds|painkillers|antidepressants"
    r"|paracetamol|ibuprofen|aspirin|co codamol|cocodamol|codeine|naproxen|tramadol|morphine"
    r"|diazepam|sleeping pills|sleeping tablets|insulin|inhaler|puffs)"
)
_HARD_TO_ROUSE = (
    r"\b(?:(?:hard|difficult|impossible) to (?:wake|rouse|wake up|keep awake)|(?:can|could)"
    r" (?:barely|hardly|only just) (?:wake|rouse)|barely (?:wake|rouse|wakes|rouses)"
    r"|(?:cant|cannot|couldnt|can not) (?:properly )?rouse|(?:wont|will not|doesnt|isnt|not)"
    r" (?:wake|waking|wake up|come round|coming round|coming to|come to) (?:up )?properly"
    r"|drifting in and out|in and out of (?:it|consciousness)|snoring (?:weird\w*|strange\w*"
    r"|funny|funnily|oddly|odd|loudly and)|wont stay awake|cant stay awake)\b"
    # A habit, not a state now: "hard to wake in the mornings", "for school".
    r"(?! (?:in the mornings?|in the morning|every|most|on \w+ mornings?|for school|for work"
    r"|at weekends))"
)
# A baby under three months (ninth session): "my 4 week old", "she's only 6 weeks old", "baby is
# 10 weeks", "our newborn", "11 days old", "my 2 month old". Never "10 weeks pregnant".
_NUMBER_UP_TO_12 = (
    r"(?:[1-9]|1[0-2]|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
)
# A baby's or toddler's age in weeks or months: "my 4 month old", "our 10 week old".
_BABY_AGE = r"(?:(?:[1-9]|1[0-9]|2[0-4]) (?:week|weeks|month|months) old)"
_YOUNG_BABY = (
    rf"(?:\b{_NUMBER_UP_TO_12} (?:week|weeks|wk|wks) old\b|\bnewborn\b"
    r"|\b(?:[1-9]|[1-8]\d|one|two|three|four|five|six|seven|eight|nine|ten) days? old\b"
    r"|\b(?:1|2|one|two) months? old\b"
    rf"|\b{CHILD} (?:is|s) (?:only |just |not even )?{_NUMBER_UP_TO_12} (?:weeks|wks)\b"
    rf"|\b{CHILD} (?:is|s) (?:only |just |not even )?(?:[1-9]|[1-8]\d) days\b"
    rf"|\b{CHILD} (?:is|s) (?:only |just |not even )?(?:1|2|one|two) months?\b)"
)
# A fever said in words (also one of engine.safety.danger_signs' signs); never hay, yellow or
# glandular fever.
FEVER = (
    r"\b(?:(?<!hay )(?<!yellow )(?<!glandular )fever|feverish|high temp|high temperature"
    r"|burning up|boiling hot|shivering|shivery"
    r"|rigors|hot to (?:the )?touch|burning hot|(?:has|got|with|running|have|had) (?:a )?(?:high "
    r"|raging |very"
    r" high )?(?:temperature|temp))\b"
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
# Breathing that sounds wrong (eleventh round), and what says it is bad now.
_NOISY_BREATHING = (
    r"(?:wheez\w*|whistl\w*|rattl\w*|crackl\w*|gurgl\w*|grunt\w*|rasp\w*|bubbl\w*|(?:strange|funny|odd|weird"
    r"|horrible|awful|scary) (?:noise|noises|sound|sounds) (?:when )?(?:\w+ )?breath\w*)"
)
_BREATHING_BAD = (
    r"(?:terribly|really badly|very badly|so badly|(?:very |really |so |quite |all )?(?:pale|grey"
    r"|gray|dusky|blue|clammy)\b|(?:cant|cannot|can not|unable to|couldnt|not able to|struggling"
    r" to) (?:\w+ )?(?:talk|speak|answer)\b)"
)
# Food or a small thing that will not come up (choking, eleventh round): "can't get the sweet
# up", "can't cough the bit of apple out".
_CHOKE_NOT_UP = (
    r"(?:cant|cannot|can not|couldnt|unable to) (?:get|cough|bring|spit) (?:the |a |that |it |his"
    r" |her )?(?:\w+ )?(?:sweet|sweetie|grape|coin|bone|meat|steak|food|marble|toy|piece|bit"
    r"|button|lego|crisp|nut|it)\b (?:\w+ )?(?:up|out)"
)
# Words lost (eleventh round), and what makes it a stroke sign: said to be sudden, or with a weak
# limb or a changed face. "I can't find the right words in English" alone is not.
_WORDS_LOST = (
    r"(?:cant|cannot|can not|couldnt|unable to|struggling to|struggles to) (?:find|get out|get)"
    r" (?:the |her |his |my |their |any )?(?:right )?words\b"
)
# Narrower than danger_signs' "sudden" sign on purpose: words lost are a stroke sign on their own
# only when said to have come on at once; "I can't find the right words right now" is not.
_SUDDEN = r"\b(?:suddenly|all of a sudden|out of nowhere|out of the blue|just now|this morning)\b"
_STROKE_SIGN = (
    r"\b(?:arm|arms|leg|legs|hand|hands|side|face|mouth) (?:\w+ ){0,2}?(?:weak|numb|droop\w*"
    r"|drooped|heavy|useless|floppy|dead|looks different|looks odd|looks wrong|fallen|dropped)\b"
)
EMERGENCY_RULES: Sequence[Rule] = (
    rule(
        "chest_pain",
        r"\b(?:chest|heart) (?:pain|pains|ache|aches|aching|hurts|hurting|tightness|tight|pressure"
        r"|crushing|squeezing|discomfort|heaviness)\b",
        r"\b(?:pain|pains|pressure|tightness|crushing|squeezing|ache|aching|discomfort|heaviness)"
        r" (?:in|on|across|around) (?:my|his|her|their|the|your|our) chest\b",
        # ... and a chest crushed or squeezed, in the words people use (eighth session): "my chest
        # is crushing", "his chest is being squeezed", "a crushing feeling in his chest", "an
        # elephant sitting on my chest".
        r"\bchest (?:is |are |was |feels |feel |felt |keeps |went |gone |getting )?(?:being "
        r"|getting )?(?:really |very |so |too |quite )?(?:tight|heavy|sore|painful|hurting|crushed"
        r"|squeezed|burning|crushing|squeezing|compressed|pressing)\b",
        r"\b(?:crushing|squeezing|crushed|squeezed) (?:\w+ )?chest\b",
        r"\b(?:crushing|squeezing|tight|heavy|pressing|gripping|burning) (?:feeling|sensation"
        r"|pain|weight|pressure|band)s? (?:in|on|across|around|round|behind|over) (?:my|his|her"
        r"|their|the|your|our) chest\b",
        r"\b(?:elephant|weight|brick|bricks|ton|tonne|tons|someone|somebody|something)\b"
        r"(?: \w+){0,3}? (?:sitting|sat|standing|stood|pressing|pushing|crushing|squeezing)"
        r" (?:on |down on |onto )?(?:my|his|her|their|the|your|our) chest\b",
        # "a tight band round my chest", "like a vice around his chest" (not "someone put the
        # strap round my chest" for a heart tracing).
        r"\b(?:band|vice|vise)\b(?: \w+){0,2}? (?:round|around|across) (?:my|his|her|their"
        r"|the|your|our) chest\b",
        r"\b(?:heart attack|cardiac arrest|no pulse|heart (?:has |is )?stopped)\b",
        # The breastbone for the chest: "a crushing feeling behind his breastbone" (hsafe4).
        r"\b(?:pain|pains|pressure|tightness|tight|crushing|squeezing|ache|aching|heaviness"
        r"|heavy|burning|weight|brick|band)\b(?: \w+){0,4}? (?:behind|on|in|under|across|around)"
        r" (?:my|his|her|their|the) (?:breastbone|breast bone|sternum)\b",
        r"\b(?:breastbone|breast bone|sternum) (?:\w+ ){0,2}?(?:hurts|hurting|aches|aching|pain"
        r"|tight|heavy|crushing|squeezing|pressure)\b",
        r"\b(?:clutching|clutches|clutched|gripping|grabbing|holding) (?:at )?(?:his|her|my|their)"
        r" (?:chest|heart)\b",
        # Non-native word order: "my wife chest very pain", "pain in chest", "chest have pain".
        r"\bchest (?:is |has |have |got |very |so |much |big |too |bad )+(?:pain|pains|hurt|hurts"
        r"|hurting|ache|aching|pressure|tight)\b",
        r"\b(?:pain|pains|pressure|tightness|ache|hurt|hurting) (?:in|on) chest\b",
        # Eleventh round: the middle of the chest, a vice: "a squeezing feeling in the middle of
        # my chest that won't go", "my chest feels like it's in a vice".
        r"\b(?:crushing|squeezing|tight|heavy|pressing|gripping|burning|pain|pains|pressure"
        r"|tightness|ache|aching|heaviness)\b(?: \w+){0,2}? (?:in|on|across) (?:the )?(?:middle"
        r"|centre|center|front) of (?:my|his|her|their|the) chest\b",
        r"\bchest (?:\w+ ){0,4}?(?:in a vice|in a vise|like a vice|like a vise)\b",
        # A crushing pain that spreads: "crushing pain going to his jaw" (a heavy or tight ache
        # that spreads is a danger sign with another one, engine.safety.danger_signs).
        r"\b(?:crushing|squeezing|gripping) (?:\w+ )?(?:pain|pressure|feeling|ache)"
        r"\b.{0,40}\b(?:jaw|left arm|down (?:his|her|my|their) (?:left )?arm|into (?:his|her|my"
        r"|their) (?:neck|shoulder|arm))\b",
    ),
    rule(
        "breathing",
        r"\b(?:cant|cannot|can not|couldnt|could not|unable to|not able to|can barely|can hardly"
        r"|barely|hardly|hard to|difficult to|struggling to|struggle to|struggles to|stopped|not"
        r"|isnt|wasnt|arent|no longer|trouble|difficulty|difficulties|struggling|struggles"
        r"|fighting for|gasping for|labou?red|short of|shortness of) (?:(?:really|properly|even"
        r"|to|get|catch|with|my|his|her|their|any) ){0,2}(?:breathe|breath|breathing|breaths)\b",
        r"\b(?:cant|cannot|couldnt) get (?:any |enough )?air\b|\bgasping for air\b",
        r"\bbreathless\b|\bchok(?:e|es|ed|ing)\b|\basthma attack\b",
        r"\binhaler (?:isnt|is not|not|doesnt|does not|wont) (?:working|helping|help|work)\b",
        r"\blips? (?:are |is |have |has |look |looks )?(?:gone |turned |turning |going |went )?"
        r"(?:a bit |a little |slightly |really |very |quite |all |a )?(?:blue|grey|gray|purple"
        r"|purply|purplish|bluey|bluish|blueish)\b",
        # "she can only get two or three words out between breaths"
        r"\b(?:only|just) (?:get|say|manage|speak|gasp) (?:out )?(?:a |one |two |three |a few |a "
        r"couple of |one or two |two or three |single )(?:\w+ )?words?\b",
        r"\b(?:blue|grey|purple) (?:lips|lip|face)\b|\b(?:turn|turned|turning|gone|going|went) "
        r"blue\b",
        # Severity in everyday words: "panting and can't finish a sentence", "too puffed to talk".
        r"\b(?:cant|cannot|can not|unable to|couldnt|not able to|can barely|can hardly|struggling"
        r" to|struggles to|struggled to) (?:even )?(?:finish|complete|get through|get out|say) "
        r"(?:a |his |her |my |their |the |one |full |whole |more than (?:a )?(?:few|couple|two"
        r"|three) )?(?:\w+ )?(?:sentence|sentences|words?)\b",
        r"\b(?:cant|cannot|can not|unable to|couldnt|not able to|can barely|can hardly|struggling"
        r" to|struggles to|struggled to) (?:even )?get (?:\w+ ){0,6}?words? out\b",
        r"\btoo (?:breathless|out of breath|puffed|puffed out|winded) to (?:talk|speak|walk"
        r"|move|stand|finish)\b|\bgasping\b|\bfighting for (?:air|breath)\b",
        r"\b(?:panting|puffing|wheezing|heaving)\b.{0,60}\b(?:cant|cannot|can not|unable to"
        r"|couldnt|can barely|can hardly|struggling to) (?:even )?(?:talk|speak|answer|get \w+ "
        r"words out)\b",
        r"\b(?:copd|emphysema|asthma|lung disease|lung condition|bad chest)\b.{0,80}\b(?:cant"
        r"|cannot|can not|unable to|couldnt|can barely|can hardly|struggling to|struggles to)"
        r" (?:even )?(?:talk|speak|walk|move|stand|lie down|get up)\b",
        # Eleventh round (twelfth session): breathing that sounds wrong, said with a sign of how
        # bad it is: "wheezing terribly and going pale", "a strange noise breathing and cannot
        # talk", "her breathing sounds like a crackly rattle and she's very pale".
        rf"\b{_NOISY_BREATHING}\b.{{0,60}}\b{_BREATHING_BAD}",
        rf"{_BREATHING_BAD}.{{0,60}}\b{_NOISY_BREATHING}\b",
        # Ribs pulled in, non-native words, the reliever doing nothing, a sentence not got out:
        # "sucking in her ribs to breathe", "I no can breathe good", "breath very hard for me",
        # "the blue inhaler is doing nothing", "can't get a whole sentence out".
        r"\b(?:sucking|sucks|pulling|pulls|caving|caves) in (?:\w+ ){0,2}?(?:ribs|rib cage|ribcage"
        r"|chest|tummy)\b|\b(?:ribs|rib cage|ribcage) (?:are |is )?(?:sucking|pulling|caving)"
        r" in\b",
        # "fighting to get air in", "nostrils flaring", "breathing really quick and shallow".
        r"\b(?:fighting|struggling|battling|trying hard) to get (?:\w+ )?(?:air|breath|a breath)\b"
        r"|\bnostrils (?:are |keep )?flaring\b|\bflaring (?:his|her|their) nostrils\b"
        r"|\b(?:quick|fast|rapid) and shallow\b|\bshallow (?:and )?(?:quick|fast|rapid)\b",
        r"\bno (?:can|could) (?:breathe|breath|breathing)\b|\bbreath(?:ing)? (?:is )?(?:very|so"
        r"|too|really) (?:hard|difficult|short)\b",
        r"\b(?:inhaler|reliever|ventolin|salbutamol|puffer)s? (?:is |are |s )?(?:doing nothing"
        r"|not doing anything|isnt doing anything|no use|useless|not touching it|making no"
        r" difference)\b(?! for (?:my|his|her|their|the) (?:cough|hay fever|hayfever|cold|nose"
        r"|allergies|allergy|sinuses))",
        r"\b(?:cant|cannot|can not|unable to|couldnt|not able to|can barely|can hardly|struggling"
        r" to|struggles to|struggled to) (?:even )?get (?:\w+ ){0,6}?sentences? out\b",
        # Choking in the words people use: a throat clutched, no sound at all, something stuck
        # or in the mouth with the child silent, gagging or changing colour, or not coming up.
        r"\bclutch\w* (?:at )?(?:his|her|my|their) (?:throat|neck)\b",
        r"\b(?:gagging|choking) on (?:a |the |some |his |her |their )?(?:\w+ )?(?:grape|sweet"
        r"|sweetie|food|coin|toy|piece|bit|nut|sausage|meat|bone|marble|button|crisp|apple"
        r"|carrot|popcorn|lolly)\b",
        r"\b(?:cant|cannot|can not|couldnt|not able to|unable to) make (?:a|any) (?:sound|noise)\b",
        rf"\b(?:stuck|lodged|wedged|swallowed|in (?:his|her|their|my) mouth)\b.{{0,60}}"
        rf"\b(?:gagging|silent|squeak\w*|trying to breathe|(?:turning|going|gone|went) (?:red|blue"
        rf"|purple|dark|grey)"
        rf"|coughing weakly|{_CHOKE_NOT_UP})\b",
        rf"\b{_CHOKE_NOT_UP}\b",
    ),
    rule(
        "unconscious",
        r"\b(?:unconscious|unresponsive|passed out|blacked out|collapsed|collapse|collapsing"
        r"|keeled over|fainted|out cold|knocked out|not conscious|barely conscious"
        r"|lost consciousness|loss of consciousness)\b",
        r"\b(?:cant|cannot|can not|couldnt|wont|will not|not|isnt) (?:wake|waking|be woken"
        r"|rouse)\b",
        rf"\b{PERSON} (?:is |isnt |was |s |has )?(?:not |stopped )?(?:responding|moving)\b",
        # Non-native negation: "he no breathing", "my mother no wake up".
        rf"\b{PERSON} (?:is |was )?no (?:breathing|breathe|breath|wake|waking|wake up|respond"
        r"|responding|answer|answering|move|moving)\b",
        # A person down, said without "collapsed": "there's a man on the floor in your toilets",
        # "an old man is on the floor by the lift", "a kid is lying face down by the swings",
        # "a lady has fallen over in the corridor", "the man in the queue has gone down".
        rf"\b(?:theres|there is|ive found|i found|found) (?:a |an |some |this )?(?:\w+ )?{PERSON}"
        r" (?:\w+ ){0,3}?(?:on|down on) the (?:floor|ground|pavement|road|stairs|grass)\b"
        r"(?! floor)",
        rf"\b{PERSON} (?:is |s |has been |was |been )?(?:still |just )?(?:lying |laying |laid out"
        r" |slumped |sprawled |collapsed )?(?:on|down on) the (?:floor|ground|pavement|road"
        r"|bathroom floor|kitchen floor|stairs)\b(?! floor)(?! (?:playing|sitting|colouring"
        r"|reading|drawing))",
        r"\b(?:lying|laying|slumped|sprawled) (?:\w+ ){0,3}?(?:face down|face first|in a heap"
        r"|at the bottom of the stairs|on the (?:floor|ground|pavement|road)\b(?! floor))",
        rf"\b{PERSON} {_BESIDE}(?:(?:has|have|s|just|suddenly) )+(?:fallen|fell) (?:over|down)\b"
        r"(?! with\b)",
        rf"\b{PERSON} {_BESIDE}(?:(?:has|have|s|just|suddenly) )*(?:gone down|went down|keeled"
        r"|hit the (?:floor|ground|deck)|dropped (?:down|like a))\b"
        r"(?! (?:with|to|for|the|a|an|into|towards|there|here|stairs|in|on|by|at"
        r"|and (?:got|get|found))\b)",
        # Eleventh round: "a man has dropped to the floor in reception", "someone has gone limp in
        # the corridor", "my friend has gone floppy in the chair", "slid off his chair".
        rf"\b{PERSON} {_BESIDE}(?:(?:has|have|s|just|suddenly) )*(?:dropped|fallen|fell|slid"
        r"|slumped|crumpled|sunk|sank) (?:down )?(?:to|onto|on to) the (?:floor|ground|deck)\b",
        rf"\b{PERSON} {_BESIDE}(?:(?:has|have|is|s|just|suddenly) )*(?:gone|went|going) (?:all"
        r" |completely )?(?:limp|floppy)\b",
        r"\b(?:slid|slipped|slumped|fell|flopped) (?:off|out of|down off) (?:his|her|their|the)"
        r" (?:chair|seat|stool|wheelchair)\b.{0,50}\b(?:not|isnt|wont|cant|doesnt|stopped)"
        r" (?:\w+ )?(?:answering|responding|moving|waking|breathing|talking)\b",
        r"\bflat on (?:his|her|their|my) (?:back|face)\b.{0,50}\b(?:not|isnt|wont|cant|doesnt"
        r"|stopped) (?:\w+ )?(?:answering|responding|moving|waking|breathing|respond|answer"
        r"|move|wake)\b",
        r"\b(?:dropped|fallen|fell|collapsed|slid|slumped|on the (?:floor|ground))\b.{0,60}"
        r"\b(?:and|but|who|now) (?:(?:he|she|hes|shes|he is|she is|is|s) )?(?:not|isnt|wont"
        r"|will not|doesnt|cant|stopped) (?:answering|responding|reacting|respond|answer|react)\b"
        r"(?! (?:the |her |his |my )?(?:phone|phones|calls|texts|messages|door|emails)\b)",
        # "I can't get any reply from her" after drink or pills.
        rf"\b{_SUBSTANCE}\b.{{0,100}}\b(?:cant|cannot|couldnt|can not) get (?:any |a )?(?:reply"
        r"|response|answer|word|sound) (?:\w+ )?(?:from|out of) (?:him|her|them)\b",
        # "slumped forward on the bench", "slumped over in his chair" (hsafe4).
        r"\bslumped (?:forward|forwards|over|sideways|to one side|down|across)\b",
        # "someone is lying on the pavement outside and not moving"
        r"\b(?:lying|laying|slumped|sprawled) (?:\w+ ){0,8}?(?:not|isnt|wont|cant|stopped)"
        r" (?:moving|responding|waking|breathing|reacting|answering)\b",
        # Eleventh round: "I can't get her to wake up properly", "she won't really wake up".
        r"\b(?:cant|cannot|can not|couldnt) get (?:him|her|them|my \w+) to (?:wake|respond|answer"
        r"|come round|open (?:his|her|their) eyes)\b",
        r"\b(?:wont|will not|doesnt|does not|isnt|not) (?:really|fully|quite) (?:wake|waking"
        r"|wake up|waking up|come round|coming round)\b",
        # "she isn't answering me when I shake her", "he won't respond to his name".
        r"\b(?:not|isnt|wont|will not|doesnt|does not|cant|stopped|no longer) (?:\w+ )?"
        r"(?:answering|responding|reacting|respond|react|answer) (?:to )?(?:me|us|anyone|anything"
        r"|his name|her name|their name|when|at all|touch|my voice|our voices)\b",
        r"\b(?:cant|cannot|can not|couldnt) (?:\w+ )?(?:wake|rouse|get a response from|get"
        r" anything out of) (?:him|her|them|my \w+|his|the)\b",
        # Drink or drugs with someone who does not respond.
        r"\b(?:drunk|drank|drinking|alcohol|vodka|wine|spirits|beer|pills|tablets|drugs"
        r"|painkillers|sleeping)\b.{0,100}\b(?:not|isnt|wont|will not|doesnt|cant) (?:\w+ )?"
        r"(?:answering|responding|reacting|waking|wake|wake up|come round|open (?:his|her|their)"
        r" eyes)\b",
        r"\b(?:not|isnt|wont|will not|doesnt|cant) (?:\w+ )?(?:answering|responding|reacting"
        r"|waking|wake|wake up|come round)\b.{0,100}\b(?:drunk|drank|drinking|alcohol|vodka"
        r"|wine|spirits|beer|pills|tablets|drugs|painkillers)\b",
        r"\b(?:drunk|drank|drinking|alcohol|vodka|whisky|wine|spirits|pills|tablets|drugs"
        r"|painkillers|took something|taken something|taking something)\b.{0,100}\b(?:floppy"
        r"|limp|out of it|out cold|unrousable|cant be woken|snoring strangely|making gurgling"
        r"|gurgling|cold and clammy)\b",
        # Hard to rouse after drink or drugs (hsafe5): "took pills with vodka and he's hard to
        # rouse", "had his nan's morphine and I can barely wake him", "snoring weirdly".
        rf"\b{_SUBSTANCE}\b.{{0,100}}{_HARD_TO_ROUSE}",
        rf"{_HARD_TO_ROUSE}.{{0,100}}\b{_SUBSTANCE}\b",
    ),
    rule(
        "stroke",
        rf"\bstrokes?\b(?! {SERVICE}\b)",
        r"\b(?:face|mouth|smile|eye|side of (?:his|her|my|their|the) face) (?:is |has |looks "
        r"|seems |went |gone )?(?:drooping|droopy|dropped|drooped|fallen|lopsided|sagging|numb)\b",
        r"\b(?:drooping|droopy|lopsided|sagging) (?:face|mouth|smile)\b|\bslurr(?:ed|ing)\b",
        r"\bspeech (?:is |has |went |gone |become )?(?:slurred|garbled|jumbled|gone)\b",
        r"\b(?:arm|arms|leg|legs|one side|side of (?:his|her|my|their|the) body) (?:(?:is|has|have"
        r"|went|gone|feels|suddenly|just|gone all|all) ){0,2}(?:weak|numb|dead|paralysed|paralyzed"
        r"|limp|floppy|gone weak)\b",
        # "suddenly can't speak properly": sudden loss of speech (not "I can't speak English").
        r"\b(?:suddenly|all of a sudden) (?:\w+ ){0,2}?(?:cant|cannot|can not|unable to|struggling"
        r" to) (?:speak|talk)\b",
        r"\b(?:cant|cannot|can not|unable to) (?:speak|talk) (?:properly|clearly|normally|right)\b",
        r"\b(?:cant|cannot|can not|unable to) (?:lift|raise|move) (?:his|her|my|their|both|one) "
        r"(?:arms?|legs?|hands?)\b",
        r"\bsudden (?:weakness|numbness|confusion|blindness|loss of vision|vision loss|severe "
        r"headache|headache)\b|\bworst headache\b|\b(?:face|arm|leg) weakness\b",
        # A headache that comes on at once (ninth session): "sudden stabbing pain at the back of
        # my head", "a thunderclap headache".
        r"\bthunderclap\b|\bsudden (?:\w+ ){0,2}?(?:pain|ache|agony) (?:in|at|at the back of"
        r"|round|across|behind|through) (?:my|his|her|their|the) (?:head|skull)\b",
        # Face signs in everyday words: "her mouth has gone all twisted", "his face looks crooked".
        r"\b(?:face|mouth|smile|lip|lips) (?:\w+ ){0,3}?(?:twisted|crooked|wonky|lopsided|droops"
        r"|drooping|droopy|drooped|sagged|sagging|slipped|pulled to one side|gone funny|gone odd"
        r"|looks odd|looks strange|looks weird|looks wrong|gone weird"
        r"|on one side)\b",
        r"\b(?:one|left|right) side of (?:his|her|my|their|the) (?:face|mouth)\b(?! (?:cream"
        r"|mask|wash|piercing))",
        # One side of the body: "she can't move her left side", "his right side won't move".
        r"\b(?:cant|cannot|can not|unable to|couldnt|not able to|wont) (?:\w+ )?(?:move|lift"
        r"|raise|use|feel) (?:his|her|my|their|the|one)(?: left| right)? (?:side|half|arm|leg"
        r"|hand)\b",
        r"\b(?:one|left|right) (?:side|arm|leg)\b(?: of (?:his|her|my|their|the) body)? (?:\w+ )"
        r"{0,2}?(?:wont|cant|will not|isnt|not|no|stopped|doesnt) (?:move|moving|working|work"
        r"|respond|responding)\b",
        # "suddenly started speaking nonsense", "when she talked it was all wrong words".
        r"\b(?:speaking|saying|spouting) (?:\w+ )?(?:nonsense|gibberish|jibberish)\b",
        r"\b(?:talk|talked|talks|speak|spoke|speaks|talking|speaking)\b.{0,30}\b(?:the |all )?"
        r"wrong words\b",
        r"\b(?:speech|words|talking|voice) (?:\w+ ){0,2}?(?:slurred|slurring|garbled|jumbled"
        r"|muddled|all wrong|nonsense|gibberish)\b|\btalking (?:nonsense|gibberish)\b",
        r"\bspeech (?:is|has gone|went|sounds|seems|has become) (?:\w+ )?(?:off|strange|funny"
        r"|weird|wrong|odd|thick)\b|\b(?:cant|cannot|unable to) (?:smile|grin) (?:properly|right"
        r"|normally|straight|on one side)\b",
        r"\b(?:arm|arms|leg|legs|hand) (?:has |have )?(?:suddenly |just )?(?:gone|went|turned"
        r"|suddenly feels|suddenly felt) (?:all |really |very )?(?:heavy|useless)\b",
        r"\b(?:arm|leg|hand) (?:\w+ ){0,2}?(?:useless|like a dead weight)\b",
        # Eleventh round: a side or half of the face or body gone, words lost suddenly or with
        # another sign: "her right side has gone useless", "mum's left side has gone floppy",
        # "half of his face is not moving properly", "all of a sudden she can't find her words",
        # "his words are coming out all muddled".
        r"\b(?:left|right|one) side (?:of (?:his|her|my|their|the) body )?(?:has |have |is |s )?"
        r"(?:suddenly |just )?(?:gone|went|going|is|s) (?:all |completely )?(?:useless|floppy|limp"
        r"|weak|numb|dead|heavy)\b",
        r"\bhalf (?:of )?(?:his|her|my|their|the) (?:face|mouth|body)\b(?! (?:cream|mask|wash"
        r"|piercing|paint))",
        r"\b(?:words|speech|sentences) (?:are |is |keep |keeps )?(?:coming|come|came) out (?:all )?"
        r"(?:wrong|muddled|jumbled|garbled|slurred|funny|strange|nonsense|backwards|mixed up)\b"
        r"(?!.{0,20}\b(?:when|whenever|if|sometimes|every)\b)",
        rf"\b{_WORDS_LOST}.{{0,80}}\b(?:{_SUDDEN}|{_STROKE_SIGN})|(?:{_SUDDEN}|{_STROKE_SIGN})"
        rf".{{0,80}}{_WORDS_LOST}",
        # Non-native negation: "cannot speak and arm no move".
        r"\b(?:arm|arms|leg|legs|hand|side|face) (?:is |has )?no (?:move|moving|work|working"
        r"|feel|feeling)\b",
    ),
    rule(
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
    ),
    rule(
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
    ),
    rule(
        "seizure",
        rf"\b(?:seizure|seizures|seizing|convulsion|convulsions|convulsing)\b(?! {SERVICE}\b)",
        r"\b(?:having|had|has|is having) (?:a |an )?(?:fit|fits|epileptic fit)\b",
        r"\b(?:is|are|was|hes|shes|theyre|been|keeps|kept|started|starting|still|now|began|baby"
        r"|child|son|daughter|toddler|he|she) fitting\b",
        r"\b(?:shaking|jerking|twitching) uncontrollably\b|\bstatus epilepticus\b",
        # "fell over and is shaking all over", "his whole body is jerking", "eyes rolled back".
        r"\b(?:shaking|jerking|twitching|juddering|thrashing|shuddering|trembling) (?:all over"
        r"|violently|everywhere|from head to toe|and jerking|and twitching|and shaking|and foaming)"
        r"\b",
        r"\b(?:whole|entire) body (?:\w+ )?(?:shaking|jerking|twitching|juddering|convulsing"
        r"|shook|jerked|went stiff|is stiff|stiffened)\b",
        r"\b(?:fell|fallen|falls|collapsed|dropped|went down|hit the floor|on the floor)\b.{0,50}"
        r"\b(?:shaking|jerking|twitching|juddering|thrashing|stiff and)\b",
        r"\beyes (?:\w+ )?(?:rolled|rolling|rolls) (?:back|up)\b|\bfoaming at the mouth\b",
        r"\b(?:went|gone|goes|going|is|was|has gone) (?:all )?(?:stiff|rigid)\b.{0,40}\b(?:jerk"
        r"|jerks|jerking|shake|shakes|shaking|twitch|twitching|thrashing)\b",
        r"\bstarted (?:jerking|convulsing|fitting|thrashing|twitching all over|shaking all over)\b",
        # Epilepsy or fits named, then one happening: "she's epileptic and she's having one",
        # "he has epilepsy and has been twitching and stiff".
        r"\b(?:epilepsy|epileptic|fits|seizures)\b.{0,60}\b(?:having|started having|starting)"
        r" (?:one|another|another one|a bad one)\b",
        r"\b(?:epilepsy|epileptic|fits|seizures)\b.{0,60}\b(?:shaking|jerking|twitching|convulsing"
        r"|juddering|thrashing|stiff|rigid|stiffened)\b",
    ),
    rule(
        "overdose",
        r"\b(?:overdose|overdosed|overdosing|overdoses)\b",
        r"\b(?:took|taken|take|swallowed|had|ate|eaten|taking|takes)\b.{0,40}\btoo (?:many|much)\b",
        r"\b(?:took|taken|swallowed|ate|eaten) (?:a whole|the whole|a|all (?:of )?(?:my|his|her"
        r"|their|the)) (?:bottle|pack|packet|box|packets|boxes|strip)\b",
        r"\baccidentally (?:took|taken|had|swallowed|given|gave|injected|ate|eaten|drank)\b",
        # "he eat many tablet", "she swallowed a lot of pills": a quantity eaten or swallowed.
        r"\b(?:eat|ate|eaten|took|taken|swallow|swallowed|drank|drunk)\b (?:\w+ ){0,2}?(?:many"
        r"|lot of|lots of|a lot of|a load of|loads of|all the|all of the|whole|handful of"
        rf"|handfuls of) (?:\w+ ){{0,2}}?{_MEDICINE_TAKEN}\b",
        # More of a medicine than one should (tenth session): "he's had way more of his heart
        # pills than he should", "taking more of her painkillers than the label says", "took
        # extra of his ADHD pills, far more than prescribed" (never "more coffee than I should").
        r"\b(?:took|taken|take|takes|taking|swallowed|had|eaten|ate|used|using|given|gave)\b"
        rf"(?: \w+){{0,3}}? (?:more|extra)\b(?: \w+){{0,5}}? {_MEDICINE_TAKEN}\b"
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
        rf"\b{_MEDICINE_TAKEN}\b.{{0,60}}\b(?:took|taken|swallowed|downed|ate|eaten|had)"
        r" (?:them all|all of them|the lot|the whole lot|every (?:last )?one)\b"
        r"(?!.{0,30}\b(?:this morning|today|as prescribed|as usual|as normal|with breakfast"
        r"|on time)\b)",
        rf"\b(?:took|taken|swallowed|downed|ate|eaten|had) every (?:last )?one of (?:my|his|her"
        rf"|their|the) (?:\w+ )?{_MEDICINE_TAKEN}\b",
        # A child who ate someone's medicines: "my toddler ate a load of my iron tablets".
        rf"\b{CHILD}\b.{{0,60}}\b(?:ate|eaten|eating|swallowed|swallowing|drank|drunk|chewed"
        r"|got into|getting into|found|has had|had some|munched) (?:\w+ ){0,7}?(?:tablets|pills"
        r"|capsules|painkillers|medicines|medicine bottle|medicine cabinet|medicine cupboard"
        r"|sleeping tablets|vitamins|gummies|iron|paracetamol|calpol|nicotine)\b",
    ),
    rule(
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
    ),
    rule(
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
    ),
    rule(
        "self_harm",
        r"\bsuicid\w*",
        r"\b(?:kill|killing|killed|hurt|hurting|harm|harming|cut|cutting|end|ending|starve|"
        r"starving|poison|drown|hang|hanging) (?:myself|my self|meself|themselves|himself|herself"
        r"|yourself)\b",
        r"\bself (?:harm|harming|harmed|injury|injuring|injure|inflicted)\b",
        r"\b(?:end|ending|take|taking|took) (?:my|his|her|their) (?:own )?life\b",
        r"\b(?:end|ending|ended|finish|finishing) (?:it all|everything|it tonight|my life)\b"
        r"|\bbetter off dead\b|\b(?:cant|cannot) go on\b",
        r"\b(?:want|wants|wanted|wanting|going|planning|plan|trying|tried|try|ready) to die\b",
        r"\b(?:wish|wished) (?:i|he|she) (?:was|were|had) (?:dead|never been born)\b",
        r"\b(?:dont|do not|doesnt|does not) want to (?:live|be alive|be here anymore|exist|wake up"
        r"|be here)\b",
        r"\bno (?:reason|point) (?:to|in) (?:live|living|going on)\b",
        # Indirect intent: goodbye letters, giving things away, no point going on, ending it.
        r"\b(?:goodbye|good bye|farewell|suicide|final) (?:letter|letters|note|notes|message"
        r"|messages|text|texts|video)\b",
        r"\b(?:written|wrote|writing|write|left|leaving|sent|sending) (?:\w+ ){0,4}?(?:letters?"
        r"|notes?|messages?|texts?) (?:\w+ ){0,6}?(?:goodbye|good bye|farewell|for when (?:im|i am"
        r"|hes|shes) gone|after (?:im|i am|hes|shes) gone)\b",
        r"\bsa(?:y|ying|id|ys) (?:my |his |her |their )?(?:goodbyes|goodbye to (?:everyone"
        r"|everybody|my family|the family|all|us))\b",
        r"\bgiv(?:e|es|ing|en|ven) (?:away )?(?:all )?(?:of )?(?:my|his|her|their) (?:\w+ )?"
        r"(?:things|stuff|belongings|possessions|treasures|savings) away\b",
        r"\bgiv(?:e|es|ing|en) away (?:all )?(?:of )?(?:my|his|her|their) (?:\w+ )?(?:things"
        r"|stuff|belongings|possessions|treasures|savings|pets?|dog|cat)\b",
        r"\bpoint (?:in |of )?(?:going on|carrying on|being alive|living|me being here|trying"
        r" anymore|trying any more)\b(?! (?:the|a|an|my|to|with|holiday|for)\b)",
        r"\b(?:no|any) point (?:anymore|any more)\b",
        r"\b(?:want|wants|going|planning|plan|ready|decided|deciding|thinking about|think about"
        r"|tempted|tempting) (?:to )?(?:just )?end(?:ing)? (?:it|things|everything)\b",
        r"\b(?:wont|will not|not going to|dont want to|do not want to|rather not|shouldnt) be "
        r"(?:here|around|alive) (?:anymore|any more|much longer|for much longer|for long|soon"
        r"|by (?:tomorrow|the morning|next week))\b",
        r"\b(?:put|putting|got|getting|sorted|sorting) (?:all )?(?:my|his|her) affairs (?:in"
        r" order|sorted|straight)\b",
        r"\b(?:going to|gonna|want to|wanna|planning to|plan to|thinking of|thinking about"
        r"|about to|tempted to|(?:i|he|she|they|we) will|ill) (?:take|taking|swallow|swallowing"
        r"|down|downing) (?:all|the whole"
        r"|every one|the rest|a whole) (?:of )?(?:my|the|his|her|their)? ?(?:\w+ )?(?:tablets|pills"
        r"|meds|medication|medicine|painkillers|box|bottle|packet)\b",
        # Eleventh round: "in case I'm not here tomorrow", "life is not worth it anymore", "life
        # doesn't feel worth living", a message of love and sorry for everything.
        r"\bin case (?:im|i am|hes|he is|shes|she is|i m) not (?:here|around|alive) (?:tomorrow"
        r"|anymore|any more|by|in the morning|next)\b",
        r"\blife (?:(?:is|s|feels|seems) (?:not|no longer|hardly)|isnt|doesnt feel|does not feel"
        r"|doesnt seem|does not seem) (?:\w+ )?worth (?:it|living|the effort|anything)\b"
        r"|\b(?:not|isnt|no longer) worth living\b",
        r"\b(?:texted|text|texts|messaged|message|messages|note|notes|letter|letters|wrote|posted"
        r"|voicemail|said|saying|told)\b.{0,60}\bsorry for everything\b",
        r"\b(?:posted|sent|messaged|texted|put up|shared) (?:\w+ ){0,3}?(?:picture|photo|pic|pics"
        r"|photos|pictures|snap|video) of (?:\w+ ){0,2}?(?:pills|tablets|rope|a noose|a bridge"
        r"|a blade|razor blades?|her wrists|his wrists)\b|\bthis is goodbye\b",
        r"\bno way out\b|\b(?:want|wants|need|needs) (?:it|this|everything|things) (?:all )?to"
        r" (?:end|stop)\b",
        r"\b(?:better off|happier|be better) without (?:me|him|her|them)\b|\b(?:tired|sick)"
        r" of (?:living|being alive|life)\b|\bdisappear (?:for ever|forever|for good)\b",
        r"\b(?:going to|want to|about to|planning to) (?:kill|stab|shoot) (?:\w+ )?(?:someone"
        r"|somebody|him|her|them|people|everyone|my \w+)\b",
        r"\b(?:going to|want to|about to|planning to) (?:hurt|harm) (?:someone|somebody|people"
        r"|everyone)\b",
        # A place chosen, or the last day said (ninth session): "I've picked the bridge and I'm
        # going tonight", "tonight is my last night" (not "the last day to book flu jabs").
        r"\b(?:chosen|chose|picked|decided on|worked out|planned|sorted) (?:out )?(?:the |a"
        r" |my )?(?:spot|place|bridge|cliff|edge|railway|tracks|rope|method|way to do it)\b"
        r"(?!.{0,40}\b(?:picnic|party|holiday|wedding|appointment|car|parking|park|walk|map"
        r"|entrance|seat|table|date)\b)",
        r"\b(?:today|tonight|this|thats|it|its|tomorrow) (?:is|s|will be)? ?(?:my|the) last"
        r" (?:day|night)\b(?! (?:to|for|of (?:the|term|school|work|my holiday|the month)|at work"
        r"|before)\b)(?!.{0,30}\b(?:book|booking|order|ordering|jab|jabs|vaccine|clinic|open"
        r"|appointment|sale|offer)\b)",
        r"\blast day (?:on earth|alive|of my life)\b|\bnobody will see me again\b|\b(?:the"
        r" )?last (?:day|time) anyone (?:will|ll) see me\b",
        # Tenth round (eleventh session): the means gathered or the method named, a place to
        # jump from, ending it said after having had enough, no future, a burden, a wish to
        # sleep for ever, cutting one's arms. "I've got the rope", "stockpiling my tablets", "how
        # many of my pills it would take", "stepping in front of a train", "had enough of
        # everything and I'm going to finish it", "I don't see a future for myself".
        r"\b(?:ive|i have|i got|ive got|i bought|ive bought|bought|got hold of|found|he has|hes got"
        r"|she has|shes got|theyve got) (?:a |the |some |(?:my|his|her) )?(?:rope|noose|blade"
        r"|razor blades?)\b(?! (?:barrier|barriers|access|ladder|swing|light|lights))",
        r"\b(?:stockpil\w*|hoard\w*|stash\w*|sav(?:ed|ing) up|collect(?:ed|ing) up)\b(?: \w+){0,5}?"
        rf" {_MEDICINE_TAKEN}\b",
        rf"\b{_MEDICINE_TAKEN}\b (?:\w+ ){{0,3}}?(?:lined up|laid out|counted out|out in front of"
        r" (?:me|him|her))\b",
        rf"\bhow many (?:\w+ ){{0,3}}?{_MEDICINE_TAKEN}\b (?:\w+ ){{0,2}}?(?:(?:would it take|it"
        r" would take|would take)\b(?! to (?!kill|die|end|overdose|finish))|to (?:kill|die|end"
        r"|overdose|finish))\b",
        r"\b(?:looked|looking|look|searched|searching|googled|googling|researched|researching)"
        r" (?:up )?(?:\w+ ){0,3}?(?:how to (?:die|kill|end|hang|overdose)|ways? to (?:die|kill"
        r"|end it|go)|quickest way to (?:die|go|end))\b",
        r"\b(?:jump|jumps|jumping|jumped|throw|throws|throwing|threw) (?:myself |himself |herself"
        r"|themselves )?(?:off|from) (?:the |a |that )?(?:top of (?:the |a )?)?(?:\w+ ){0,2}?"
        r"(?:bridge|building|roof|car park|multi storey|cliff|tower|balcony|window|ledge|flats)\b",
        r"\b(?:jump|jumps|jumping|jumped|throw|throws|throwing|threw|step|steps|stepping|stepped"
        r"|walk|walking|lie|lying) (?:myself |himself |herself |themselves )?(?:in front of|under)"
        r" (?:a |the |an )?(?:train|bus|lorry|truck|car|tube|van)\b",
        r"\b(?:on|up on|stood on|standing on|sat on|sitting on) (?:the |a )?(?:\w+ )?(?:roof|ledge"
        r"|edge|bridge|parapet|balcony)\b.{0,40}\b(?:jump|end it|die|let go)\b",
        r"\b(?:walk|walking|swim|swimming) (?:out )?into the (?:sea|river|canal|lake|water)\b"
        r".{0,40}\b(?:not come back|never come back|not coming back|and die|end it|drown)\b",
        r"\b(?:had enough|had it with|cant do this|cannot do this|cant cope|cant take (?:it|this)"
        r"|fed up|tired of it all)\b.{0,60}\b(?:finish|end|ending|finishing) (?:it|things"
        r"|everything|myself)\b",
        r"\b(?:finish|end) (?:it|things|everything|myself) (?:for good|once and for all)\b",
        r"\bwhats? (?:is )?the point (?:of|in) (?:anything|it all|life|living|going on|carrying on"
        r"|me|any of it)\b",
        r"\b(?:dont|do not|cant|cannot|can not) see (?:a|any) (?:future|way forward|way out"
        r"|reason to (?:live|go on|carry on))\b|\bno future for (?:me|myself|him|her)\b",
        r"\b(?:im|i am|i feel|feel like|ive become|becoming|shes|hes|she is|he is|being|feels"
        r" like) (?:like )?(?:a|such a|just a) burden\b",
        r"\b(?:better|better off|happier|relieved|easier) if (?:i|he|she) (?:just )?(?:wasnt"
        r"|was not|werent|were not) (?:around|here|alive)\b|\b(?:better off|happier|relieved"
        r"|easier) if (?:i|he|she) (?:died|was dead|were dead|was gone|disappeared)\b",
        r"\b(?:no one|nobody|noone) would (?:even )?(?:notice|miss|care)\b.{0,30}\b(?:if|when)"
        r" (?:i|he|she) (?:was gone|were gone|disappeared|died|wasnt here|went)\b",
        r"\b(?:want|wants|wish|wishes|rather) (?:to )?(?:just )?(?:go to )?sleep"
        r" (?:forever|for ever|and never wake up)\b|\bnever (?:to )?wake up again\b",
        r"\b(?:cutting|cut|cuts|slicing|sliced|slashing|slashed|scratching) (?:at )?(?:her|his|my"
        r"|their) (?:own )?(?:arms?|wrists?|legs|thighs|skin)\b(?! (?:on|while|by accident"
        r"|accidentally|opening|cooking)\b)",
    ),
    rule(
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
    ),
    rule(
        "spine",
        rf"\b{_NUMB}\b(?: \w+){{0,4}}? (?:in |around |on |at )?{_SADDLE}\b{_NOT_SITTING}",
        rf"\b{_SADDLE}\b(?: \w+){{0,4}}? (?:(?:is|are|has|have|feels?|felt|gone|went|going"
        rf"|all|completely|totally) )*{_NUMB}\b{_NOT_SITTING}",
        rf"\b{_BACK}\b.{{0,80}}\b{_CONTINENCE}\b|\b{_CONTINENCE}\b.{{0,80}}\b{_BACK}\b",
    ),
    rule(
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
    ),
    rule(
        "explicit_emergency",
        r"(?<!if )(?<!when )(?<!in case )\b(?:its|it is|this is|theres|there is|we have|i have"
        r"|having) an? (?:medical )?emergency\b",
        r"\b(?:call|calling|get|send|need|needs|phone|ring) (?:me |us |for )?(?:an |a )?"
        r"ambulance\b",
        r"\b(?:call|ring|phone|dial|calling|ringing|dialled|dialed) 999\b",
        rf"\b(?:im|i am|{PERSON} is|{PERSON} s|think (?:i|he|she|they) (?:am|is|are|m)) dying\b",
        r"\b(?:help help|sos|mayday|urgent help)\b",
        r"\b(?:drowning|drowned|hit by a (?:car|bus|van|lorry|truck)|run over|car crash|stabbed"
        r"|(?:been|was|got|has been) shot|gunshot|broken neck|head injury|hit (?:his|her|my|their)"
        r" head|fell down the stairs|(?:cant|cannot) feel (?:my|his|her|their) legs)\b",
        r"\b(?:having|had|is having) a (?:bad |severe )?hypo\b|\bdiabetic (?:coma|emergency)\b",
        # A knock to the head followed by drowsiness, vomiting or confusion (either order).
        rf"{HEAD_KNOCK}.{{0,100}}{_AFTER_KNOCK}",
        rf"{_AFTER_KNOCK}.{{0,100}}{HEAD_KNOCK}",
        # Eleventh round: muddled or groggy straight after a fall or a crash, said as now: "after
        # the fall onto the pavement my dad is groggy and not making sense" (not "after the fall
        # I had last year").
        r"\b(?:after|since) (?:the |a |his |her |their |my |that )?(?:fall|tumble|crash|accident"
        r"|knock|bump)\b(?!.{0,40}\b(?:last|ago|years?|months?|in (?:19|20)\d\d)\b).{0,60}"
        r"\b(?:groggy|not making sense|dazed|woozy|drowsy|hard to wake|confused|not (?:himself"
        r"|herself)|slurring|talking nonsense)\b",
        # Feeling lost in the legs or feet after a fall or a crash (hsafe4).
        r"\b(?:fell|fallen|fall|came off|come off|crashed|crash|accident|landed|ladder|bike"
        r"|horse|roof|tackle|hit by)\b.{0,80}\b(?:(?:cant|cannot|can not) feel (?:my|his|her"
        r"|their) (?:feet|toes)|(?:lost|no|lost all|lost the) feeling in (?:my|his|her|their"
        r"|both) (?:\w+ )?(?:legs|feet|toes))\b",
        r"\b(?:waters|water) (?:have |has )?(?:broken|broke|gone|went)\b|\bbaby is coming\b",
        r"\b(?:cord|umbilical cord) (?:is |s |has )?(?:coming out|come out|came out|hanging"
        r" (?:out|down)|showing|out)\b",
    ),
)
