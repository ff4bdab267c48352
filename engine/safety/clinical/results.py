"""The results clinical rule: what a result or reading of the person's means ("what do my
bloods show?", "my cholesterol is 7", "my ALT came back at 80", "is 38.4 a fever?", "is 150 over
95 high?"). A test only a lab or a meter gives a value of is read even without "my" ("HbA1c
result of 50").

It must never call a model, the network or the database.
"""

from __future__ import annotations

from engine.safety.rules import Rule, alt, rule
from engine.safety.vocabulary import MEASURES

# The tests MEASURES names that only a lab or a meter gives a value of (no "scan", "result" or
# "temperature", which also come with times and dates: "a scan at 3").
_LAB_MEASURES = alt(
    "cholesterol,blood sugar,blood sugars,glucose,hba1c,a1c,ferritin,b12,vitamin d,tsh,psa,"
    "potassium,sodium,egfr,creatinine,haemoglobin,hemoglobin,inr,crp,esr,platelets,"
    "white cell count,alt,bilirubin,calcium,folate,sats,oxygen,thyroid,iron"
)

RESULTS: Rule = rule(
    "results",
    rf"\bwhat (?:does|do|did|would) (?:my|the|his|her|these|this|those|our) (?:\w+ ){{0,3}}?"
    rf"{MEASURES}s? (?:\w+ )?(?:mean|means|show|shows|say|says|indicate)\b",
    rf"\b(?:my|his|her|their|our) (?:\w+ )?{MEASURES} (?:\w+ ){{0,3}}?(?:\d+|high|low"
    r"|abnormal|raised|elevated|borderline|positive|negative|normal|bad|good|ok|okay|fine"
    r"|healthy|too high|too low)\b",
    rf"\b(?:interpret|explain|understand|read) (?:my|his|her|these|the) (?:\w+ )?{MEASURES}\b",
    # "my ALT came back at 80": a test the list does not name, with its value.
    r"\b(?:my|his|her|their|our) (?:\w+ ){1,3}?(?:came|come|comes) back (?:at |as |with |"
    r"showing )?(?:a )?(?:\d|high|low|raised|abnormal|positive|borderline)",
    rf"\b(?:a|an|my|his|her|their) {MEASURES} (?:level |reading |result )?(?:of|at) \d",
    # ... a blood test's name and its value, said without "my" (ninth session):
    # "haemoglobin reading of 105 in the letter", "HbA1c result of 50".
    rf"\b{_LAB_MEASURES} (?:level |reading |result |score |count |test )?(?:of|at|was|is"
    r"|came back at|came back as|came back|reads|reading) (?:about |around |only |over "
    r"|under )?\d",
    # Whether a reading counts as a fever: "is 38.4 a fever for a grown man?", "would 38
    # count as a temperature?" (tenth session).
    r"\b(?:is|would|does|will) (?:a )?(?:temperature |temp |reading )?(?:of )?\d{2}(?: \d)?"
    r"(?: degrees| c)? (?:classed as |counted as |count as |considered |be considered |be )?"
    r"(?:a |an )?(?:fever|temperature|temp|high temperature|raised temperature|high|too"
    r" high)\b",
    # A blood pressure reading asked about: "is 150 over 95 high for my age?"
    r"\b\d{2,3} (?:over|on) \d{2,3}\b.{0,40}\b(?:high|low|ok|okay|normal|bad|good|fine"
    r"|mean|worrying|dangerous)\b",
)

RULES: tuple[Rule, ...] = (RESULTS,)
