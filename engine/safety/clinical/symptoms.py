"""Clinical rules about the person's symptoms: worry ("is this serious?", "should I be
worried?", "does this sound like my gallbladder?", "could it be my thyroid?", "is that too
high?"), and diagnosis ("do I have flu?", "what's wrong with me?", "my knee hurts", "am I
pregnant?", a symptom and what to do or take for it; never "is it flu season?").

It must never call a model, the network or the database.
"""

from __future__ import annotations

from engine.safety.rules import Rule, rule
from engine.safety.vocabulary import BODY, CONDITIONS, ORGANS, SYMPTOMS

WORRY: Rule = rule(
    "worry",
    r"\b(?:is|are) (?:this|it|that|these|those|my \w+|his \w+|her \w+) (?:\w+ )?(?:serious"
    r"|normal|dangerous|worrying|concerning|cancer|cancerous|infected|contagious"
    r"|something to worry about)\b",
    r"\bshould (?:i|we) (?:be )?(?:worried|worry|concerned|panic)\b",
    r"\b(?:is|are|could|might) (?:this|it|that|these|those)(?: be)? (?:something|anything)"
    r" (?:bad|serious|wrong|dangerous|nasty|sinister|worrying|to worry about)\b",
    r"\b(?:is|are) (?:this|it|that|these|those) (?:a )?(?:bad|worrying|warning|good) signs?\b",
    r"\b(?:is|are) (?:this|it|that|these|those) (?:a )?(?:worry|concern|worrying|concerning)\b",
    # "does this sound like my gallbladder?", "is a lump like that likely to be cancer?"
    rf"\b(?:sound|sounds|look|looks|seem|seems|feel|feels) like (?:(?:her|his|my|their) "
    rf"(?:\w+ )?{ORGANS}|{CONDITIONS})\b|\blikely to be (?:a |an )?(?:{CONDITIONS}"
    rf"|(?:her|his|my|their) (?:\w+ )?{ORGANS})\b",
    # "my periods stopped for 3 months, am I ok?" (a question that ends there).
    r"\b(?:am i|is (?:he|she)|are (?:they|we)) (?:ok|okay|alright|all right|normal)$",
    r"\bdo (?:i|we) need to (?:worry|be worried|be concerned)\b",
    r"\b(?:is|was|are) (?:that|this|it|these|those) (?:too )?(?:bad|high|low)\b",
    # "is this rash on my arm serious?": the worry word may come a few words later.
    rf"\b(?:is|are) (?:this|that|these|those|the|my) (?:\w+ ){{0,2}}?{SYMPTOMS}\b.{{0,40}}"
    r"\b(?:serious|normal|dangerous|worrying|concerning|bad|cancer|cancerous|infected"
    r"|contagious)\b",
    # "her ankles are puffy, is that her heart?", "could it be my thyroid?"
    r"\b(?:is|could|might|can|would|does|do) (?:that|this|it|these|those|they)(?: be| mean)?"
    r" (?:(?:to do with|from|because of|caused by|down to|coming from|a sign of|a problem"
    rf" with) )?(?:her|his|my|their) (?:\w+ )?{ORGANS}\b",
    # "could his swollen legs be his heart?"
    rf"\b(?:could|might|can|would) (?:\w+ ){{1,4}}?be (?:to do with |from |because of |down to"
    rf" |caused by )?(?:her|his|my|their) (?:\w+ )?{ORGANS}\b",
    r"\b(?:could|might|can|would) (?:it|this|that|these|they) be (?:a |an |her |his |my )?"
    r"(?:\w+ )?(?:side effect|reaction|allergic reaction|infection|clot|stroke|heart attack"
    r"|heart problem|sign of something|symptom of something)\b",
    rf"\b{SYMPTOMS}\b.{{0,60}}\bwhat (?:could|can|might|would) (?:it|this|that) be\b",
    rf"\bwhat (?:could|can|might|would) (?:it|this|that) be\b.{{0,60}}\b{SYMPTOMS}\b",
)

DIAGNOSIS: Rule = rule(
    "diagnosis",
    rf"\b(?:do|could|might|may|can) (?:i|he|she|they|we|my \w+) (?:have|has|be getting) "
    rf"(?:got )?{CONDITIONS}\b",
    rf"\b(?:have|has) (?:i|he|she|they|my \w+) got {CONDITIONS}\b",
    rf"\b(?:could|can|might|would) (?:it|this|that|these) be (?:a sign of )?{CONDITIONS}\b",
    r"\bwhat(?:s| s| is)? wrong with (?:me|my|him|her|them|us)\b",
    # "is it dementia?", "is that an infection?" (not "is it flu season?").
    rf"\b(?:is|was) (?:it|this|that) (?:a sign of |a symptom of )?{CONDITIONS}\b(?! (?:season"
    r"|jab|jabs|vaccine|vaccines|vaccination|clinic|clinics|test|tests|testing|screening"
    r"|service|services|nurse|awareness|week|month|leaflet|team|unit|friendly|aware|support"
    r"|cafe|group|groups))",
    rf"\b(?:show|tell|know|find out|check|see|test) (?:if|whether) (?:i|he|she|we|they|my \w+)"
    rf" (?:have|has|had|got|have got|has got) {CONDITIONS}\b",
    r"\b(?:what are|whats|what s) (?:my|his|her|their) chances\b|\bsurvival (?:rate|rates"
    r"|chances?)\b",
    r"\bdiagnos(?:e|is|ed|ing)\b|\bprognosis\b",
    r"\b(?:am|is|are) (?:i|he|she|my \w+) (?:ill|sick|unwell|pregnant|infected|contagious)\b",
    rf"\b(?:i have|ive got|i got|im having|i am having|i keep getting|i keep having|i get"
    rf"|i feel|im feeling|i am feeling|i think i have|my \w+ (?:has|have|is|keeps|got)"
    rf"|(?:he|she|they) (?:has|have|keeps|got)|(?:hes|shes|theyve|weve) got|(?:hes|shes) "
    rf"(?:been|having)|been having|has had) (?:\w+ ){{0,3}}?{SYMPTOMS}\b",
    rf"\bmy (?:\w+ ){{0,2}}?{BODY} (?:hurts|hurt|is hurting|aches|is aching|is sore|is swollen"
    r"|is itchy|is red|is bleeding|bleeds|itches|is painful|feels|is numb|is killing me)\b",
    rf"\b{SYMPTOMS}\b.{{0,80}}\b(?:what (?:should|do|can) (?:i|we) (?:do|take)|should (?:i|we"
    r"|he|she)|do (?:i|we) need|how (?:do|can|should) (?:i|we) (?:treat|get rid|stop|cure|ease"
    r"|relieve|help)|how to (?:treat|get rid of|cure|ease|relieve)|remedy|remedies|cure"
    r"|treat it|treatment)\b",
    rf"\b(?:what (?:should|do|can) (?:i|we) (?:do|take)|how (?:do|can|should) (?:i|we) "
    rf"(?:treat|get rid of|cure|ease|relieve)|how to (?:treat|get rid of|cure|ease|relieve)"
    rf"|what can i take|should i take something) (?:\w+ ){{0,4}}?(?:for |about )?(?:\w+ )?"
    rf"{SYMPTOMS}\b",
)

RULES: tuple[Rule, ...] = (WORRY, DIAGNOSIS)
