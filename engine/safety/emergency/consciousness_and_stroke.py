"""Emergency rules for the brain: unconscious (collapsed, unresponsive, a person down on the
floor, gone limp, hard to rouse after drink or drugs), stroke (a face that droops or looks
odd, an arm, leg or side gone weak, speech slurred or words lost suddenly, a thunderclap
headache), and seizure (fits, shaking or jerking all over, stiff then jerking, epilepsy with
one happening now). A knock to the head is read by the explicit emergency rule
(:mod:`engine.safety.emergency.explicit_emergency`).

It must never call a model, the network or the database.
"""

from __future__ import annotations

from engine.safety.emergency.fragments import PERSON, SERVICE
from engine.safety.rules import Rule, rule

# Where someone is, between the person and what happened: "the man in the queue has gone down",
# "the lady next to me just went down".
_BESIDE = (
    r"(?:(?:in|at|by|near|next to|outside|inside|behind|in front of) (?:me |us |(?:the|your|a|our)"
    r" (?:\w+ )?))?"
)
# Drink or drugs, and a person who is hard to rouse (hsafe5).
_SUBSTANCE = (
    r"(?:drunk|drank|drinking|alcohol|vodka|gin|whisky|whiskey|rum|wine|beer|beers|cider"
    r"|spirits|pills|tablets|drugs|painkillers|sleeping|morphine|codeine|co codamol|methadone"
    r"|heroin|diazepam|valium|tramadol|oxycodone|fentanyl|ketamine|overdose|took something"
    r"|taken something)"
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

UNCONSCIOUS: Rule = rule(
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
)

STROKE: Rule = rule(
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
)

SEIZURE: Rule = rule(
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
)

RULES: tuple[Rule, ...] = (UNCONSCIOUS, STROKE, SEIZURE)
