"""Clinical rules about the person's own medicines: medicine_action (stopping, starting,
taking, skipping, combining or changing a medicine; alcohol or a food with it; interactions and
side effects; which medicine is right for them; raising, dropping or weaning off their own), and
dose (how much, how many or how often to take or give, a number of puffs, sprays or drops; never
a price "per dose", a duration, or how many come in a pack).

It must never call a model, the network or the database.
"""

from __future__ import annotations

from engine.safety.rules import Rule, rule
from engine.safety.vocabulary import ACTIONS, DOSE_UNITS, MEDS, NOT_TAKING, PRICE

# A duration, not a quantity of medicine: "how many days before my omeprazole runs out".
_DURATION = r"(?!(?:more )?(?:days|weeks|months|working days|hours)\b)"

MEDICINE_ACTION: Rule = rule(
    "medicine_action",
    # Not a duration ("how long does it take to get my insulin on repeat?").
    rf"(?<!\bit )(?<!\bthey )\b{ACTIONS} (?:\w+ ){{0,3}}?{MEDS}\b{NOT_TAKING}",
    rf"\bhave (?:a |an |some |any |more |another |extra |my |his |her )?{MEDS}\b{NOT_TAKING}",
    rf"\b{MEDS} (?:is |are )?(?:safe|ok|okay|alright|dangerous|bad for)\b",
    rf"\b(?:safe|ok|okay|alright|fine) (?:to|for) (?:\w+ ){{0,3}}?{MEDS}\b",
    rf"\b(?:alcohol|drink|drinking|wine|beer)\b.{{0,30}}\b(?:on|with|while|whilst) "
    rf"(?:\w+ ){{0,2}}?{MEDS}\b",
    # ... the medicine said first: "on my new antidepressants, is wine a no-go?" (ninth
    # session; never "a glass of water", "a drink of water").
    rf"\b(?:on|taking|take|with|started) (?:\w+ ){{0,3}}?{MEDS}\b.{{0,60}}\b(?:alcohol|wine"
    r"|beer|beers|pint|pints|lager|cider|booze|vodka|gin|prosecco|spirits|a drink|drinking"
    r"|a glass|a tipple|a shandy)\b(?! of (?:water|milk|juice|squash))",
    # "will orange juice interfere with my thyroid tablets?", "does coffee mess with my
    # blood pressure meds?" (ninth session)
    rf"\b(?:interfere|interferes|interfering|mess|messes|messing|react|reacts|clash|clashes"
    rf"|mix|mixes|muck|mucks) (?:about |around |up )?with (?:my|his|her|their|the) "
    rf"(?:\w+ ){{0,3}}?{MEDS}\b",
    rf"\b{MEDS}\b.{{0,40}}\b(?:interact|interacts|interaction|interactions|side effects?"
    r"|clash|together)\b",
    rf"\b(?:interact|interaction|interactions|side effects?|allergic to) (?:\w+ ){{0,3}}?"
    rf"{MEDS}\b",
    # "which malaria tablets are best for me?": choosing a medicine for a person.
    rf"\b(?:which|what) (?:\w+ ){{0,2}}?{MEDS}\b.{{0,40}}\b(?:best|right|suitable|should)"
    r" (?:for )?(?:me|my \w+|him|her|us|them|i|take)\b",
    # A medicine named, then what to do with it by pronoun: "I've been on antidepressants a
    # year, can I just stop them now?"; raising, dropping or weaning off one's own medicine.
    rf"\b{MEDS}\b.{{0,80}}\b(?:stop|stopping|come off|coming off|quit|quitting|skip|halve"
    r"|double|cut down on|cut back on|reduce|increase|up|bump up|put up|wean (?:myself |him"
    r" |her )?off) (?:taking )?(?:them|it|these|those)\b",
    rf"\b(?:(?<!pick )(?<!picking )(?<!picked )(?<!pop )(?<!top )(?<!collect )up|bump up|put up"
    rf"|quit|ditch|wean (?:myself |him |her |them )?off|drop) (?:my|his"
    rf"|her|their) (?:\w+ )?{MEDS}\b(?! (?:off|in|at|round|to|into|prescription))",
)

DOSE: Rule = rule(
    "dose",
    # A dose word in a price question is about money ("per dose", "a single dose cost").
    rf"^(?!.*(?:{PRICE})).*?\b(?:dose|doses|dosage|dosages|dosing)\b",
    # ... but a dose the person takes or gives stays a dose question, money or not.
    r"\b(?:dose|doses|dosage|dosages)\b.{0,40}\b(?:should|can|could|do|may|must) (?:i|he|she"
    r"|we|they|my \w+) (?:take|have|give|use)\b",
    r"\b(?:take|taking|took|give|giving|gave|double|doubling|skip|skipped|miss|missed)"
    r" (?:\w+ ){0,2}?(?:dose|doses)\b",
    rf"^(?!.*(?:{PRICE})).*?\bhow (?:much|many|often) {_DURATION}(?:\w+ ){{0,3}}?{MEDS}\b",
    r"\bhow (?:much|many|often) (?:\w+ ){0,4}?(?:can|should|do|may|could) (?:i|he|she|we|they"
    r"|you|my \w+) (?:take|have|give|use)\b",
    # Units of a dose: "how many puffs of my inhaler am I OK to take?", "is 4 sprays too many?"
    rf"^(?!.*(?:{PRICE})).*?\b(?:how (?:much|many)|how often|what number of) (?:\w+ ){{0,2}}?"
    rf"{DOSE_UNITS}\b(?! (?:are|come|is) in\b| in (?:a|the|each|one|every) (?:pack|box"
    r"|packet|bottle|course|prescription)\b)",
    rf"\b(?:\d+|one|two|three|four|five|six|seven|eight|ten|a few|several|extra|more|another"
    rf"|an extra|a couple of|double the) {DOSE_UNITS}\b.{{0,60}}\b(?:ok|okay|alright|allowed"
    r"|safe|fine|too many|too much|can i|should i|may i|am i|before|a day|an hour|at once)\b",
    rf"\b(?:allowed|ok|okay|alright|safe|fine|can i|should i|may i|is it ok to)"
    rf" (?:\w+ ){{0,4}}?"
    rf"(?:\d+|one|two|three|four|five|six|extra|more|another|an extra|a couple of) "
    rf"{DOSE_UNITS}\b",
    rf"\b{DOSE_UNITS} (?:\w+ ){{0,4}}?(?:am i|is it|are we|can i|should i|may i|is he|is she)"
    r" (?:ok|okay|alright|allowed|safe|fine|meant|supposed)\b",
)

RULES: tuple[Rule, ...] = (MEDICINE_ACTION, DOSE)
