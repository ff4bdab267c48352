"""The pregnancy clinical rule: whether something is safe, allowed or harmful while pregnant or
breastfeeding, a medicine and a pregnancy in one question, and whether the person is pregnant
("could I be pregnant?", "my pregnancy test came back faint").

It must never call a model, the network or the database.
"""

from __future__ import annotations

from engine.safety.rules import Rule, rule
from engine.safety.vocabulary import MEDS, PREGNANCY

# Named so because PREGNANCY is the word list it reads.
PREGNANCY_RULE: Rule = rule(
    "pregnancy",
    rf"\b{PREGNANCY}\b.{{0,80}}\b(?:safe|safely|ok to|okay to|alright to|harm|harmful|risk"
    r"|risky|affect|dangerous|can i (?:take|have|eat|drink|get|use|do)|should i (?:take|have"
    r"|eat|drink|get|stop|avoid|use)|allowed to (?:take|have|eat|drink))\b",
    rf"\b(?:safe|safely|ok|okay|alright|harm|harmful|risk|risky|affect|dangerous"
    rf"|can i (?:take|have|eat|drink|use|get)|should i (?:take|have|eat|drink|avoid))\b"
    rf".{{0,80}}\b{PREGNANCY}\b",
    rf"\b{PREGNANCY}\b.{{0,80}}\b{MEDS}\b|\b{MEDS}\b.{{0,80}}\b{PREGNANCY}\b",
    r"\b(?:am i|could i be|might i be|think im|think i am|think i might be|is she|could she be)"
    r" pregnant\b|\bpregnancy test (?:is |was |came back )?(?:positive|negative|faint)\b",
)

RULES: tuple[Rule, ...] = (PREGNANCY_RULE,)
