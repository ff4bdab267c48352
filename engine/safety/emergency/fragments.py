"""Regex fragments shared by more than one family of emergency rules (and by
:mod:`engine.safety.danger_signs`): who a question may be about (a person, a child), what makes
a symptom word a service name ("stroke clinic", "sepsis nurse"), a knock to the head, a fever
said in words, and a medicine that may be taken too much of.

A fragment used by one family lives in that family's module, next to the rule that reads it.

This module holds strings only, no rules. It must never call a model, the network or the database.
"""

from __future__ import annotations

from engine.safety.rules import alt

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
# A fever said in words (also one of engine.safety.danger_signs' signs); never hay, yellow or
# glandular fever.
FEVER = (
    r"\b(?:(?<!hay )(?<!yellow )(?<!glandular )fever|feverish|high temp|high temperature"
    r"|burning up|boiling hot|shivering|shivery"
    r"|rigors|hot to (?:the )?touch|burning hot|(?:has|got|with|running|have|had) (?:a )?(?:high "
    r"|raging |very"
    r" high )?(?:temperature|temp))\b"
)
# What is taken too much of: a medicine, a painkiller or sleeping pill by name (the overdose rule's
# quantity eaten and "more ... than one should").
MEDICINE_TAKEN = (
    r"(?:tablets?|pills?|capsules?|medicines?|medication|meds|painkillers|antidepressants"
    r"|paracetamol|ibuprofen|aspirin|co codamol|cocodamol|codeine|naproxen|tramadol|morphine"
    r"|diazepam|sleeping pills|sleeping tablets|insulin|inhaler|puffs)"
)
