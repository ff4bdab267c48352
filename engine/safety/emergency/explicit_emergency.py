"""The explicit_emergency rule: an emergency said in so many words ("it's an emergency", "call
an ambulance", "999", "I'm dying"), trauma named (drowning, hit by a car, stabbed, shot), a
bad hypo, a knock to the head followed by drowsiness, vomiting or confusion, muddled after a
fall, no feeling in the legs or feet after a fall, and labour (waters broken, the cord showing).

It must never call a model, the network or the database.
"""

from __future__ import annotations

from engine.safety.emergency.fragments import HEAD_KNOCK, PERSON
from engine.safety.rules import Rule, rule

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

EXPLICIT_EMERGENCY: Rule = rule(
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
)

RULES: tuple[Rule, ...] = (EXPLICIT_EMERGENCY,)
