"""Emergency rules for the heart and the airway: chest pain (a chest crushed, squeezed or in a
vice, pain behind the breastbone, a crushing pain that spreads to the jaw or arm, "heart
attack"), and breathing (cannot breathe or finish a sentence, blue lips, an inhaler doing
nothing, ribs sucked in, breathing that sounds wrong and looks bad, choking).

It must never call a model, the network or the database.
"""

from __future__ import annotations

from engine.safety.rules import Rule, rule

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

CHEST_PAIN: Rule = rule(
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
)

BREATHING: Rule = rule(
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
)

RULES: tuple[Rule, ...] = (CHEST_PAIN, BREATHING)
