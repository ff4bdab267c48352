"""The self-harm emergency rule: suicide or self-harm named, a wish to die, intent said
indirectly (goodbye letters, things given away, no point going on, a burden, better off
without me), a plan or the means (a place chosen, tablets stockpiled or counted, a rope, a
bridge or a train), and a threat to hurt someone else.

It must never call a model, the network or the database.
"""

from __future__ import annotations

from engine.safety.emergency.fragments import MEDICINE_TAKEN
from engine.safety.rules import Rule, rule

SELF_HARM: Rule = rule(
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
    rf" {MEDICINE_TAKEN}\b",
    rf"\b{MEDICINE_TAKEN}\b (?:\w+ ){{0,3}}?(?:lined up|laid out|counted out|out in front of"
    r" (?:me|him|her))\b",
    rf"\bhow many (?:\w+ ){{0,3}}?{MEDICINE_TAKEN}\b (?:\w+ ){{0,2}}?(?:(?:would it take|it"
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
)

RULES: tuple[Rule, ...] = (SELF_HARM,)
