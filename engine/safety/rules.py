"""The safety router's clinical and appointment rules: named regexes over a canonical question.

Every pattern runs on the output of :func:`engine.safety.text.normalise` after typo repair: lower
case, no punctuation, no apostrophes ("cant", "im", "hes"), "A&E" written "ae", single spaces.
Rules are grouped by route and each has a short name that ends up in the review log
("emergency:breathing"). Patterns are kept linear: no nested quantifiers, bounded gaps only.

Where the line is drawn (decisions, so the next person does not re-argue them):

* Emergency rules (in :mod:`engine.safety.emergency`) look for a symptom or an explicit
  emergency ("call an ambulance", "its an emergency"). A symptom phrase wins even when negated
  ("I don't have chest pain") or asked about ("do you treat chest pain in the walk-in?"): a false
  emergency costs a redirect, a missed one can cost a life. Only meta questions with no symptom
  ("what number do I call in an emergency?", "where is the nearest emergency department?") stay
  information, simply because no rule matches them. Service names ("stroke clinic", "seizure
  nurse") are not symptoms.
* Clinical means the answer depends on the person: their medicines (a medicine word next to an
  action: stop, start, take, double, combine...), doses, their symptoms, results, pregnancy,
  "is this serious", "should I go to A&E". The same question asked about everyone ("do I need
  to stop eating before an MRI?", "how long do I fast before a blood test?") has a published
  answer and is information.
* Appointment means a request about a booking (book, cancel, change, "I want to see a doctor
  tomorrow", "when is my appointment"). Questions about the booking *process* or its rules ("how
  do I book?", "what is the cancellation fee?", "can I book online?") are information: the
  documents answer them.

This module must never call a model, the network or the database, and never hold user text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

Rule = tuple[str, re.Pattern[str]]


def rule(name: str, *patterns: str) -> Rule:
    return name, re.compile("|".join(f"(?:{p})" for p in patterns))


def alt(words: str) -> str:
    return "(?:" + "|".join(words.split(",")) + ")"


MEDS = alt(
    "paracetamol,ibuprofen,aspirin,warfarin,insulin,metformin,statin,statins,atorvastatin,"
    "simvastatin,rosuvastatin,amlodipine,ramipril,lisinopril,losartan,bisoprolol,propranolol,"
    "atenolol,omeprazole,lansoprazole,codeine,co codamol,cocodamol,tramadol,morphine,oxycodone,"
    "naproxen,diclofenac,gabapentin,pregabalin,diazepam,sertraline,citalopram,fluoxetine,"
    "mirtazapine,amitriptyline,levothyroxine,thyroxine,prednisolone,steroid,steroids,"
    "hydrocortisone,antibiotic,antibiotics,amoxicillin,penicillin,doxycycline,nitrofurantoin,"
    "trimethoprim,clarithromycin,flucloxacillin,antihistamine,antihistamines,cetirizine,"
    "loratadine,chlorphenamine,piriton,antidepressant,antidepressants,blood thinner,"
    "blood thinners,anticoagulant,anticoagulants,apixaban,rivaroxaban,edoxaban,dabigatran,"
    "clopidogrel,methotrexate,lithium,digoxin,furosemide,diuretic,diuretics,water tablet,"
    "water tablets,beta blocker,beta blockers,ace inhibitor,ace inhibitors,inhaler,inhalers,"
    "salbutamol,ventolin,hrt,contraceptive pill,contraceptive,the pill,morning after pill,"
    "iron tablet,iron tablets,ferrous sulphate,vitamins,supplement,supplements,sleeping pills,"
    "sleeping tablets,painkiller,painkillers,pain killers,calpol,nurofen,gaviscon,sumatriptan,"
    "melatonin,viagra,sildenafil,tamoxifen,letrozole,semaglutide,ozempic,wegovy,mounjaro,"
    "medication,medications,medicine,medicines,meds,tablet,tablets,pill,pills,capsule,capsules,"
    "drug,drugs,blood pressure tablets,blood pressure pills,blood pressure medication,"
    "metronidazole,flagyl,fluconazole,cefalexin,ciprofloxacin,erythromycin,azithromycin"
)
# A medicine word that is about paperwork or luggage, not about taking it.
_NOT_TAKING = (
    r"(?! (?:list|lists|chart|record|records|box|bag|bags|with me|with you|with him|with her"
    r"|along|to (?:the|my|your|his|her) (?:appointment|clinic|hospital|visit|surgery)))"
)
ACTIONS = alt(
    "stop,stopping,stopped,start,starting,take,taking,took,skip,skipping,miss,missed,missing,"
    "combine,combining,mix,mixing,switch,switching,change,changing,increase,increasing,decrease,"
    "decreasing,reduce,reducing,lower,lowering,double,doubling,halve,halving,split,crush,"
    "crushing,come off,coming off,go off,continue,continuing,keep taking,carry on,pause,"
    "pausing,hold,withhold,give,giving,restart,resume,cut down on,use,using,go on,going on,"
    "be on,being on,put on,stay on,staying on,remain on"
)
# Words that make a question about money, not about how much medicine to take: "how much is a
# rabies jab per dose?", "what does a single dose cost?". Only explicit money words: "how much is
# a dose of calpol for my baby?" is a dose question.
PRICE = (
    r"\b(?:cost|costs|costing|price|prices|priced|pricing|charge|charges|charged|fee|fees|pay"
    r"|paying|paid|pound|pounds|quid)\b|\bper (?:dose|jab|injection|vaccine|shot)\b"
)
# Units a dose is counted in ("puffs", "sprays", "drops"): a number of them is a dose question.
DOSE_UNITS = (
    "(?:puffs?|sprays?|squirts|drops|spoonfuls?|teaspoons?|spoons|ml|mls|millilitres|mg"
    "|milligrams|units|sachets|lozenges|patches|tablets|pills|capsules)"
)
# A vaccine or treatment a person may or may not need ("do I really need the jab?").
TREATMENT = (
    "(?:jabs?|vaccines?|vaccinations?|boosters?|immunisations?|immunizations?|injections?"
    "|shots?|treatment|operation|surgery|antibiotics|course|procedure|colonoscopy|scan|biopsy"
    "|screening|smear|smear test|statins|tablets|medication|medicine|inhaler|mmr|hpv|bcg"
    "|flu jab|covid jab|contraception|contraceptives?|emergency contraception|morning after pill"
    "|coil|implant)"
)
# A test or check a person may or may not need ("do I need an ECG?", "is an MRI needed for my
# knee?", "should I have the bowel screening kit?").
TESTS = (
    "(?:mri|mri scan|ct|ct scan|ecg|echo|x ray|xray|ultrasound|scan|blood test|blood tests|bloods"
    "|colonoscopy|endoscopy|biopsy|mammogram|screening|screening kit|smear|smear test|check"
    "|checkup|check up|test|tests|health check|bone density scan)"
)
# A duration, not a quantity of medicine: "how many days before my omeprazole runs out".
_DURATION = r"(?!(?:more )?(?:days|weeks|months|working days|hours)\b)"
# "a cold" the illness, not a cold drink, a cold pack or a cold room ("can I get a cold drink?"
# was read as asking about catching a cold).
_A_COLD = (
    "a cold(?! drink| drinks| water| juice| bottle| glass| cup| snack| pack| compress"
    "| flannel| room| spell| snap)"
)
SYMPTOMS = alt(
    "rash,rashes,fever,temperature,high temperature,headache,headaches,migraine,migraines,"
    "cough,coughing,sore throat,vomiting,being sick,been sick,throwing up,diarrhoea,diarrhea,"
    "dizzy,dizziness,lightheaded,light headed,lump,lumps,pain,pains,painful,ache,aches,aching,"
    "hurts,hurting,sore,swollen,swelling,itchy,itching,itch,infection,infected,bruise,bruises,"
    "bruising,nausea,nauseous,feel sick,feeling sick,spots,"
    f"{_A_COLD},"
    "flu,covid,discharge,"
    "blood in,tired all the time,fatigue,exhausted,palpitations,numb,numbness,tingling,"
    "cramps,cramping,bleeding,constipated,constipation,burning,stinging,blister,blisters,"
    "mole,moles,wheezing,wheezy,shortness of breath,insomnia,cant sleep,anxious,anxiety,"
    "shaky,woozy,clammy,depressed,depression,panic attacks,food poisoning,earache,toothache,"
    "stomach ache,"
    "tummy ache,backache,back pain,sprain,sprained,fracture,broken,bite,bitten,sting,stung,"
    "burn,burnt,burned,cut,wound,stitches,symptom,symptoms,unwell,ill,"
    "sick(?! note| notes| pay| leave| line| certificate),poorly,allergy,"
    "allergic,hay fever,blood pressure,chest infection,uti,thrush,period,periods,nosebleed,"
    "nosebleeds,nose bleed,nose bleeds"
)
CONDITIONS = alt(
    "cancer,diabetes,covid,corona,flu,influenza,"
    f"{_A_COLD},"
    "uti,an infection,infection,sepsis,"
    "asthma,copd,arthritis,gout,depression,anxiety,adhd,autism,dementia,alzheimers,"
    "thyroid problem,anaemia,anemia,a virus,virus,a bug,chlamydia,gonorrhoea,herpes,hiv,std,"
    "an std,sti,an sti,thrush,shingles,chickenpox,measles,mumps,glandular fever,tonsillitis,"
    "strep,pneumonia,bronchitis,a chest infection,chest infection,ibs,crohns,coeliac,celiac,"
    "an allergy,allergies,a hernia,hernia,a tumour,tumour,a tumor,tumor,high blood pressure,"
    "hypertension,long covid,lupus,epilepsy,migraine,eczema,psoriasis,scabies,head lice,"
    "conjunctivitis,an ear infection,ear infection,sinusitis,kidney stones,gallstones,"
    "appendicitis,a fracture,fracture,a broken \\w+,a sprain,skin cancer,melanoma,"
    "endometriosis,pcos,menopause,a blood clot,blood clot,dvt,a heart condition,heart disease,"
    "glaucoma,dementia,alzheimers disease,parkinsons,ms,multiple sclerosis,a stroke,"
    "something wrong,something serious,anything serious,anything wrong,a disease,a condition"
)
# "a flu jab", "the shingles vaccine", "her covid booster" name a vaccine, not an illness: the
# clinical rules see them without the illness's name ("can I have a flu jab" is not "do I have
# flu"), so only what the question says about the person is read ("can I have the jab while I'm
# on antibiotics" is still clinical). The emergency rules never see this rewrite.
VACCINE_NAMED = re.compile(
    rf"\b{CONDITIONS} (?=(?:jabs?|vaccines?|vaccinations?|injections?|shots?|boosters?"
    r"|nasal spray|immunisations?|immunizations?|clinics?)\b)"
)


def without_illness_names_of_vaccines(text: str) -> str:
    """``text`` (normalised) with the illness a vaccine is named after left out."""
    return VACCINE_NAMED.sub("", text)


MEASURES = alt(
    "blood pressure,bp,cholesterol,sugar,sugars,blood sugar,blood sugars,glucose,hba1c,a1c,"
    "iron,ferritin,b12,vitamin d,thyroid,tsh,psa,heart rate,pulse,temperature,temp,oxygen,"
    "sats,saturation,weight,bmi,potassium,sodium,kidney function,egfr,creatinine,"
    "liver function,white cell count,platelets,haemoglobin,hemoglobin,inr,crp,esr,urine test,"
    "result,results,test results,blood test,blood tests,blood results,bloods,scan,x ray,xray,"
    "mri,ct scan,ultrasound,ecg,smear,smear test,biopsy,level,levels,reading,readings,count"
)
# The tests MEASURES names that only a lab or a meter gives a value of (no "scan", "result" or
# "temperature", which also come with times and dates: "a scan at 3").
_LAB_MEASURES = alt(
    "cholesterol,blood sugar,blood sugars,glucose,hba1c,a1c,ferritin,b12,vitamin d,tsh,psa,"
    "potassium,sodium,egfr,creatinine,haemoglobin,hemoglobin,inr,crp,esr,platelets,"
    "white cell count,alt,bilirubin,calcium,folate,sats,oxygen,thyroid,iron"
)
BODY = alt(
    "head,chest,back,neck,arm,arms,leg,legs,knee,knees,foot,feet,ankle,hip,hips,shoulder,"
    "stomach,tummy,belly,ear,ears,eye,eyes,throat,tooth,teeth,wrist,hand,hands,finger,toe,"
    "skin,side,joints,joint,bum,bottom,breast,breasts,testicle,testicles,groin,penis,vagina"
)
PREGNANCY = alt(
    "pregnant,pregnancy,expecting a baby,breastfeeding,breast feeding,breastfeed,"
    "nursing mother,trying to conceive,trying for a baby,ttc"
)
APPT = alt(
    "appointment,appointments,appt,appts,booking,bookings,slot,consultation,check up,checkup,"
    "review,smear test,blood test,scan,jab,vaccination,session"
)
CLINICIAN = alt(
    "doctor,doctors,gp,dr,nurse,physio,physiotherapist,dentist,specialist,consultant,midwife,"
    "health visitor,practitioner,clinician,pharmacist"
)

DEPARTMENTS = alt(
    "paediatrics,pediatrics,dermatology,cardiology,physiotherapy,physio,womens health,"
    "general practice,gp,the gp,the nurse,the practice nurse,the doctor"
)
DAYS = alt(
    "today,tomorrow,tonight,this,next,monday,tuesday,wednesday,thursday,friday,saturday,sunday,"
    "morning,afternoon,evening,on,before,after,asap,soon"
)

# A disease of the person's own (for "will the prep set off my colitis?").
OWN_CONDITION = (
    "(?:" + CONDITIONS[3:-1] + "|colitis|ulcerative colitis|crohns disease|diverticulitis"
    "|kidneys|kidney disease|kidney problems|bad kidneys|heart|heart failure|liver|lungs|bladder"
    "|bowel|bowels|stomach|ms|multiple sclerosis|parkinsons|myasthenia|sickle cell|condition"
    "|disease|illness|health|symptoms|sugars|blood sugars|blood pressure|fits|seizures|allergy)"
)
# An organ or cause a symptom may come from ("is that her heart?", "could it be my thyroid?").
ORGANS = (
    "(?:heart|lungs?|kidneys?|liver|thyroid|bladder|bowels?|prostate|stomach|appendix"
    "|gallbladder|pancreas|blood pressure|sugars?|diabetes|nerves|brain|hormones|age|menopause"
    "|meds|medication|medicine|tablets|pills|asthma|circulation|blood|glands?|ovaries|womb"
    "|immune system|chest|condition)"
)
# Having it once more: "again", "the second one", "this time".
AGAIN = (
    "(?:again|this time|a second time|another one|next time|the second one|the second dose|the"
    " next one|the next dose|another dose|the booster|the next jab|the second jab)"
)
# A bad reaction the person had before ("reacted badly", "made me really ill", "I fainted").
BAD_REACTION = (
    r"\b(?:reacted|reaction|reactions|react|allergic|bad experience|went (?:all )?(?:funny"
    r"|faint|dizzy|wobbly|blotchy)|made (?:me|him|her|them|my \w+) (?:\w+ )?(?:ill|sick|poorly"
    r"|unwell|faint|dizzy|itchy|confused|vomit|throw up|be sick|pass out|come out in|swell up)"
    r"|came out in|passed out|fainted|threw up|was sick|side effects?|didnt agree with"
    r"|did not agree with|badly|funny turn|bad turn|felt (?:\w+ )?(?:awful|terrible|ill|sick"
    r"|unwell|woozy|faint|dizzy|rough|dreadful|horrible|strange|weird|funny))\b"
)
# The visit itself, not the person's body: "is the parking free for my scan now that I'm
# pregnant?", "which floor is the blood test room on, I have diabetes".
_LOGISTICS = (
    r"\b(?:park|parking|car park|floor|lift|stairs|toilet|toilets|wheelchair|ramp|where|which"
    r" room|what time|opening|open|interpreter|bus|train|address)\b"
)
# A place the question is about: "is the building ok for...", "is your entrance suitable for...".
_PLACE_IS = (
    r"\b(?:is|are|isnt|arent) (?:the|your|this|its) (?:\w+ )?(?:building|buildings|clinic"
    r"|practice|entrance|entrances|car park|parking|lift|lifts|toilet|toilets|waiting room"
    r"|waiting area|site|premises|place|door|doors|ramp|ramps|reception|surgery|corridors?"
    r"|stairs|floor|room|rooms)\b"
)
# One's own operation, and what one may do again after it (ninth session): "when can I go back
# to the gym after my gallbladder operation?", "is it ok to fly two weeks after my surgery?".
# Never a test ("after my colonoscopy can I drive home?": the documents answer that).
_OWN_OPERATION = (
    r"(?:my|his|her|their|the) (?:\w+ ){0,2}?(?:op|operation|surgery|replacement|repair"
    r"|transplant|c section|caesarean|cesarean|section|hysterectomy|keyhole|bypass)"
)
_ACTIVITY = (
    r"(?:drive|driving|behind the wheel|work|gym|exercise|exercising|swim|swimming|fly|flying"
    r"|bath|shower|lift|lifting|run|running|jog|jogging|sex|cycle|cycling|sport|sports|football"
    r"|golf|yoga|dance|dancing|carry|carrying|hoover|hoovering)"
)
CLINICAL_RULES: Sequence[Rule] = (
    rule(
        "medicine_action",
        # Not a duration ("how long does it take to get my insulin on repeat?").
        rf"(?<!\bit )(?<!\bthey )\b{ACTIONS} (?:\w+ ){{0,3}}?{MEDS}\b{_NOT_TAKING}",
        rf"\bhave (?:a |an |some |any |more |another |extra |my |his |her )?{MEDS}\b{_NOT_TAKING}",
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
    ),
    rule(
        "recovery",
        rf"^(?!.*(?:{PRICE}|{_LOGISTICS})).*?\b(?:after|since|following|post) {_OWN_OPERATION}"
        rf"\b.{{0,60}}\b{_ACTIVITY}\b",
        rf"^(?!.*(?:{PRICE}|{_LOGISTICS})).*?\b{_ACTIVITY}\b.{{0,60}}\b(?:after|since"
        rf"|following|post) {_OWN_OPERATION}\b",
    ),
    rule(
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
    ),
    rule(
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
    ),
    rule(
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
    ),
    rule(
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
    ),
    rule(
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
    ),
    rule(
        "triage",
        r"\bshould (?:i|we|he|she|they|my \w+) (?:go|come|get|see|call|ring|phone|visit|take "
        r"(?:him|her|them|my \w+)|be seen)(?: \w+){0,3}? (?:ae|er|hospital|emergency|doctor"
        r"|doctors|dr|gp|urgent care|walk in|111|999|ambulance|nurse|pharmacist|casualty"
        r"|minor injuries|out of hours|seen)\b",
        r"\b(?:do|will) (?:i|we|he|she|they) need (?:to see |to go to )?(?:a |an |the )?(?:ae"
        r"|hospital|doctor|gp|specialist|antibiotics|stitches|an operation|surgery|an x ray"
        r"|a scan|to be seen|to see a doctor|to see someone)\b",
        r"\bis (?:this|it|that) an emergency\b",
        # Whether the person needs a vaccine or treatment at all: "do I really need the rabies
        # jabs for a fortnight away?", "is the flu jab worth it for me?"
        rf"\b(?:do|does|will|would) (?:i|he|she|we|they|my \w+|my \w+ \w+) (?:really |actually "
        rf"|definitely |honestly |even |still |personally |truly )?need (?:to (?:have|get|take"
        rf"|start|be given|go on|keep taking|continue|bother with) )?(?:the |a |an |this |that "
        rf"|my |his |her |any |another |more |all |these |those )?(?:\w+ ){{0,2}}?{TREATMENT}\b",
        # ... any medicine named: "will he need steroids for it?" (tenth session)
        rf"\b(?:do|does|will|would) (?:i|he|she|we|they|my \w+|my \w+ \w+) (?:really |actually "
        rf"|still )?need (?:to (?:have|get|take|give (?:him|her|them) |start|be given|go on) )?"
        rf"(?:the |a |an |some |any |more )?{MEDS}\b{_NOT_TAKING}",
        # How long a vaccine's protection lasts: "how long does the hep B protection last?",
        # "how many years will I be protected after the jab?" (tenth session; never "covered",
        # which insurance and parking say too).
        r"\b(?:protection|immunity) (?:\w+ ){0,4}?(?:last|lasts|wear off|wears off|run out"
        r"|runs out|go down|fade|fades)\b",
        r"\bhow (?:long|many years|many months) (?:\w+ ){0,2}?(?:am|are|is|will|would) (?:i|we"
        r"|he|she|they|my \w+) (?:be |stay )?(?:protected|immune)\b",
        r"\b(?:do|does|will|would) (?:i|he|she|we|they|my \w+) (?:really|actually|personally"
        r"|truly|honestly) need (?:it|them|one|that|this)\b",
        rf"\b{TREATMENT}\b.{{0,60}}\b(?:worth (?:it|having|getting|taking|doing|the)|really"
        r" (?:needed|necessary|need)|actually (?:needed|necessary|need)|necessary for|pointless"
        r"|any point|a waste|overkill|bother)\b",
        rf"\b(?:worth (?:it|having|getting|taking|doing)|really (?:need|needed|necessary)"
        rf"|actually (?:need|needed|necessary)|any point (?:in )?(?:me |him |her |us |them )?"
        rf"(?:having|getting|taking)"
        rf"|bother (?:having|getting|with))\b.{{0,60}}\b{TREATMENT}\b",
        r"\bworth (?:it|having|getting|taking|doing)\b.{0,30}\b(?:for me|for him|for her|for us"
        r"|for my \w+|at my age|at his age|at her age|in my case|in his case|in her case)\b",
        r"\bshould (?:i|my \w+|he|she|we|they) (?:have|get|take|be given|receive) (?:the |a |an "
        r"|my |his |her |their )?(?:\w+ )?(?:jab|jabs|vaccine|vaccines|vaccination|booster"
        r"|boosters|immunisation|immunization|shot|shots|injection|injections|mmr|hpv|bcg)\b",
        # Whether the person needs a test: "do I need an ECG?", "is an MRI needed for my knee?",
        # "should I have the bowel screening kit?" (not "where should I have my blood test?").
        rf"\b(?:do|does|will|would) (?:i|he|she|we|they|my \w+) (?:really |actually |still )?need"
        rf" (?:to have |to get )?(?:a |an |the |my |his |her |another )?(?:\w+ )?{TESTS}\b"
        r"(?! (?:appointment|booking|form|letter|result|results|before|to be booked))",
        rf"\b(?:is|are|would) (?:a |an |the )?(?:\w+ )?{TESTS} (?:needed|necessary|required"
        r"|a good idea|worth it|worth having|worth doing) (?:for (?:me|him|her|them|my|his|her"
        r"|their)|in my case|at my age)\b",
        rf"(?<!where )(?<!when )(?<!how )(?<!what time )(?<!which day )\bshould (?:i|we|he|she"
        rf"|they|my \w+) (?:have|get|do|take|book) (?:a |an |the |my |his |her )?(?:\w+ ){{0,2}}?"
        rf"{TESTS}\b(?! (?:before|after|on|at|in|done|booked|results))",
        r"\b(?:advise|recommend|suggest) (?:that )?(?:me|him|her|us|my \w+) (?:to )?(?:have|get"
        r"|take|go on|come off|stop|start)\b",
        # Whether the person should have a check at all: "I'm 40, should I be getting my
        # cholesterol checked?" (not "where should I get my bloods checked?").
        r"(?<!where )(?<!when )(?<!how )(?<!what time )\b(?:should|ought) (?:i|we|he|she|they"
        r"|my \w+) (?:to )?(?:be )?(?:getting|having|get|have) (?:my |his |her |their |a |an "
        r"|the )?(?:\w+ ){0,2}?(?:checked|tested|screened|looked at|scanned|x rayed|checked out)\b",
        r"\b(?:do|does) (?:i|he|she|we|they|my \w+) need (?:to (?:get|have) )?(?:my |his |her"
        r" |their )(?:\w+ ){0,2}?(?:checked|tested|screened|looked at|scanned)\b",
        rf"\b(?:have|get|take) (?:the |a |an |my |his |her )?(?:\w+ ){{0,2}}?{TREATMENT} safely\b",
    ),
    rule(
        "my_condition",
        # "is it safe for me to have an MRI?", "is a colonoscopy ok for someone like me?" (not a
        # place: "is the clinic suitable for someone who uses a walking frame?", ninth session)
        rf"^(?!.*{_PLACE_IS}).*?"
        r"\b(?:safe|safely|ok|okay|alright|all right|fine|dangerous|risky|harmful|suitable"
        r"|a problem|a risk|a bad idea|a good idea|wise|unwise|sensible|advisable|too risky)"
        r" (?:for|to) (?:me|him|her|them|us|my \w+|someone|somebody|people"
        r"|a person|patients) ?(?:with|who has|who have|like me|like him|like her|to|\b)",
        r"\b(?:safe|ok|okay|alright|fine|dangerous|risky|harmful|suitable|a problem|a risk|a bad"
        r" idea|wise|sensible|advisable) (?:\w+ )?(?:in|given) (?:my|his|her|their) (?:case"
        r"|condition|state|situation)\b",
        # A vaccine, test or procedure, and the person's own medicine or condition given as the
        # reason to ask (hsafe5): "can I have the shingles jab if I'm on methotrexate?", "is the
        # flu jab ok if I'm on chemo", "should he have his MMR while he's on antibiotics?".
        rf"^(?!.*(?:{PRICE}|{_LOGISTICS})).*?"
        rf"\b(?:{TREATMENT[3:-1]}|{TESTS[3:-1]}|sedation|sedative|anaesthetic|general anaesthetic"
        rf"|bowel prep|laxative|contrast|dye)\b.{{0,80}}\b(?:if|while|whilst|when|as|since"
        rf"|because|given|now that|even though|though|seeing as|with) (?:im|i am|hes|shes|he is"
        rf"|she is|theyre|they are|(?:my|our) \w+ is|i take|he takes|she takes|i have|ive got"
        rf"|hes got|shes got|he has|she has|(?:my|our) \w+ (?:has|takes)|ive had|ive just had"
        rf"|i had|i still have|im still) (?:\w+ ){{0,3}}?(?:on (?:\w+ ){{0,2}}?(?:{MEDS[3:-1]}"
        rf"|chemo|chemotherapy|radiotherapy|dialysis|immunosuppressants|biologics|treatment)\b"
        rf"|taking\b|pregnant|breastfeeding|allergic|immunosuppressed|immunocompromised|poorly"
        rf"|unwell|chemo\b|{CONDITIONS[3:-1]}\b|a transplant|a pacemaker|an implant)",
        # The same with the person's own treatment or condition named by its owner: "can my mum
        # have the covid booster when her chemo only finished last week?", "is the jab ok after
        # his transplant?" (lead; never "after my blood test", "with my husband").
        rf"^(?!.*(?:{PRICE}|{_LOGISTICS})).*?"
        rf"\b(?:{TREATMENT[3:-1]}|{TESTS[3:-1]}|sedation|sedative|anaesthetic|general anaesthetic"
        rf"|bowel prep|laxative|contrast|dye)\b.{{0,80}}\b(?:if|while|whilst|when|as|since"
        rf"|because|given|now that|even though|though|seeing as|with|after|so soon after)"
        rf" (?:my|his|her|their|our) (?:\w+ )?(?:chemo|chemotherapy|radiotherapy|dialysis"
        rf"|transplant|immunosuppressants|biologics|{MEDS[3:-1]}|{CONDITIONS[3:-1]})\b",
        rf"^(?!.*(?:{PRICE}|{_LOGISTICS})).*?"
        rf"\b(?:im on|i am on|(?:hes|shes|theyre) on|(?:he|she|my \w+) (?:is|are) on|i take"
        rf"|(?:he|she|my \w+) takes|i have|ive got|i suffer from|(?:he|she|my \w+) has"
        rf"|(?:hes|shes) got|im|i am) (?:\w+ ){{0,3}}?(?:{MEDS[3:-1]}|chemo|chemotherapy"
        rf"|biologics|immunosuppressants|dialysis|{CONDITIONS[3:-1]}|a pacemaker|pregnant"
        rf"|allergic to \w+)\b.{{0,80}}\b(?:is|are|would|will|could|might) (?:the |a |an |my"
        rf" |his |her |their |this |that |these |any )?(?:\w+ ){{0,3}}?(?:{TREATMENT[3:-1]}"
        rf"|{TESTS[3:-1]}|sedation|sedative|anaesthetic|bowel prep|laxative)\b(?: \w+){{0,4}}?"
        rf" (?:ok|okay|alright|safe|fine|a problem|a risk|risky|dangerous|a bad idea|harmful"
        rf"|out|off limits|suitable|allowed|possible|wise)\b",
        # "does my methotrexate rule out the zoster jab for me?", "is the yellow fever one off
        # limits for him?"
        rf"\b(?:rule|rules|ruled|ruling) (?:me |him |her |them )?out (?:the |a |an |my |his |her"
        rf" |any |all )?(?:\w+ ){{0,2}}?(?:{TREATMENT[3:-1]}|{TESTS[3:-1]}|sedation"
        r"|live vaccines?)\b",
        rf"\b(?:{TREATMENT[3:-1]}|{TESTS[3:-1]}|sedation)\b(?: \w+){{0,3}}? (?:off limits"
        r"|out of the question|ruled out|not allowed|a no go|a no no) (?:for|in) (?:me|him|her"
        r"|them|us|my \w+"
        r"|my case|his case|her case)\b",
        r"\b(?:someone|somebody|people|a person) like (?:me|him|her|us)\b",
        # "I have MS, am I fine to have sedation?", "im on dialysis, will I be ok to..."
        r"\b(?:i have|ive got|ive had|i got|i had|i suffer from|i am on|im on|with my"
        r"|(?:he|she|my \w+) (?:has|had|is on)|(?:hes|shes) (?:got|on)) (?:\w+ ){0,4}?(?:am i"
        r"|is he|is she|are we"
        r"|will i be|would i be|is my \w+|will (?:he|she|my \w+) be|can i still|should i still)"
        r" (?:\w+ )?(?:ok|okay|alright|all right|fine|safe|well enough|fit|able) to\b",
        # "I'm diabetic, can I still fast?", "she is on chemo, is she able to have the jab?"
        r"\b(?:im|i am|hes|shes|he is|she is) (?:\w+ ){0,2}?(?:positive|diabetic|asthmatic"
        r"|epileptic|immunosuppressed|immunocompromised|anaemic|allergic|on (?:chemo|chemotherapy"
        r"|dialysis|steroids|immunosuppressants|treatment|blood thinners|warfarin|insulin))\b"
        r".{0,60}\b(?:am i|is he|is she|can i|could i|should i|may i|can he|can she) (?:still )?"
        r"(?:(?:\w+ )?(?:ok|okay|alright|fine|safe|able|allowed) to|have|get|take|go|do|fast|eat"
        r"|drink|be)\b",
        r"\b(?:too much|too strong|too hard|too risky|too dangerous) for (?:me|him|her|them|us"
        r"|my \w+)\b",
        # "I've been sick all night, can I still have my blood test?"
        rf"\b(?:ive been|i have been|ive had|i had|im|i am|i feel|ive got|i have|i get|i go|i keep"
        rf" getting|(?:hes|shes) been"
        rf"|(?:he|she|my \w+) (?:has been|has|had|is)) (?:\w+ ){{0,3}}?{SYMPTOMS}\b.{{0,60}}"
        rf"\b(?:can|should|could) (?:i|we|he|she|they) still\b",
        # "my son is on steroids, can he have his jabs?", "I've had a transplant, can I still
        # get the yellow fever vaccine?": the person's own medicine or condition, then a request.
        rf"\b(?:im on|i am on|(?:hes|shes|theyre) on|(?:he|she|my \w+) (?:is|are) on|i take"
        rf"|(?:he|she|my \w+) takes) (?:\w+ ){{0,3}}?{MEDS}\b.{{0,60}}\b(?:can|could|should|may"
        rf"|is it ok for|is it safe for) (?:i|he|she|they|we|me|him|her|them|my \w+) (?:still )?"
        rf"(?:to )?(?:have|get|go|be|do)\b",
        rf"\b(?:i have|ive got|ive had|i had|i suffer from|(?:he|she|my \w+) (?:has|had))"
        rf" (?:a |an )?(?:\w+ ){{0,2}}?(?:{CONDITIONS[3:-1]}|transplant|disorder|implant|pacemaker"
        rf"|stent|valve|allergy|immune|chemo|chemotherapy|dialysis)\b.{{0,60}}\b(?:can|could"
        rf"|should|may) (?:i|he|she|they|we|my \w+) (?:still )?(?:have|get|go|be|take|eat"
        rf"|drink)\b",
        rf"\b(?:can|could|should|may) (?:i|he|she|they|we|my \w+) (?:who has|who have|with)"
        rf" (?:a |an )?(?:\w+ ){{0,2}}?(?:{CONDITIONS[3:-1]}|transplant|disorder|implant|pacemaker"
        rf"|stent|valve|allergy|immune|chemo|chemotherapy|dialysis)\b.{{0,40}}\b(?:have|get|go"
        rf"|be|take)\b",
        # The person's own disease and what a test or its preparation does to it: "will the
        # bowel prep set off my colitis?", "could the dye make my kidneys worse?"
        rf"\b(?:flare|flares|flare up|flareup|flaring|relapse|attack|episode)\b.{{0,60}}\b(?:my"
        rf"|his|her|their) (?:\w+ ){{0,2}}?{OWN_CONDITION}\b",
        rf"\b(?:my|his|her|their) (?:\w+ ){{0,2}}?{OWN_CONDITION}\b.{{0,80}}\b(?:flare|flares"
        r"|flare up|flareup|flaring|relapse|worse|worsen|affect|affects|upset|trigger|set off"
        r"|bring on|clash|interfere|harm|damage|a problem|an issue|risky|a risk)\b",
        rf"\b(?:i have|ive got|i got|i suffer from|i live with|(?:he|she|my \w+) (?:has|lives"
        rf" with)|(?:hes|shes) got) (?:a |an )?(?:\w+ ){{0,2}}?{OWN_CONDITION}\b.{{0,80}}\b(?:flare"
        r"|flares|flare up|flareup|relapse|worse|worsen|affect|upset|trigger|set off|bring on"
        r"|for me|for him|for her)\b",
        rf"\b(?:flare|worsen|make worse|affect|upset|trigger|set off|harm|damage|interfere with"
        rf"|clash with|be bad for|be a problem for|be risky for) (?:\w+ ){{0,2}}?(?:my|his|her"
        rf"|their) (?:\w+ ){{0,2}}?{OWN_CONDITION}\b",
        r"\b(?:cause|give|trigger|set off|bring on|start) (?:me |him |her |them )?(?:a |an )?"
        r"(?:flare|flare up|flareup|relapse)\b",
        # Reacted badly before, have it again? "the sedation made me really ill last time,
        # should I risk it again?"
        rf"{BAD_REACTION}.{{0,100}}\b{AGAIN}\b",
        rf"\b{AGAIN}\b.{{0,100}}{BAD_REACTION}",
        # "which vaccines do I personally need for my trip?"
        r"\b(?:which|what) (?:\w+ ){0,2}?(?:vaccines|vaccinations|jabs|injections|immunisations"
        r"|immunizations|shots|boosters) (?:do|should|will|would|must) (?:i|we|he|she|they"
        r"|my \w+) (?:personally |actually |really )?(?:need|have|get|take)\b",
        r"\b(?:which|what) (?:\w+ ){0,2}?(?:vaccines|vaccinations|jabs|injections|immunisations"
        r"|immunizations|shots|boosters) does (?:my|our|his|her)(?: \w+){1,3}? need\b",
    ),
    rule(
        "medical_advice",
        r"\b(?:you are|youre|act as|acting as|pretend to be|pretend you are|pretend youre"
        r"|roleplay as|role play as|imagine you are|imagine youre) (?:now )?(?:a |an |my )?"
        r"(?:doctor|gp|nurse|pharmacist|physician|medic|clinician|consultant|surgeon|dr)\b",
        r"\b(?:medical|clinical) (?:advice|opinion)\b",
        r"\b(?:can|could|will|would) (?:you|the doctor|a doctor|the gp|a gp|a nurse|the nurse"
        r"|the pharmacist|someone) prescribe\b",
    ),
    rule(
        # Asking the clinic's opinion about one person, in shapes no symptom word announces
        # (hsafe4): "do you think I need...", "does she need seeing about...", "will my kidneys
        # cope with...", "would a course of X sort it out?", "is my weight a problem for my
        # health?", "what's the best thing to give him for...", "am I still protected?".
        "personal_opinion",
        r"\bdo you think (?:that )?(?:i|im|he|hes|she|shes|we|they|my (?!(?:appointment|booking"
        r"|slot|prescription|letter|results?|car|parking|form|ticket|bus|train)\b)\w+(?: \w+)?"
        r"|his \w+|her \w+) (?:really |still |might |will |would |should )?(?:need|needs|should"
        r"|ought|has|have|is|are|could|might|getting|get|gets|be)\b",
        r"\b(?:need|needs|needing) (?:seeing|seeing about|seeing to|looking at|checking over"
        r"|checking out|to be seen about|to be looked at|to be checked over|to be checked out)\b",
        r"(?<!where )(?<!when )(?<!how )\b(?:should|ought to|need to) (?:i |we |he |she |they )?"
        r"(?:get|have) (?:it |this |that |him |her |them |these |those )?(?:looked at|checked"
        r" out|checked over|seen to)\b",
        r"\b(?:will|would|can|could|might) (?:my|his|her|their) (?:\w+ )?(?:kidneys?|heart|liver"
        r"|lungs?|body|stomach|bones|immune system|skin|bladder|bowels?) (?:cope|handle|manage"
        r"|tolerate|take it|be ok|be okay|be alright|be fine|react|suffer)\b",
        rf"\b(?:would|will|could|does|do|might) (?:a |an |the |some )?(?:course of |dose of |few"
        rf" )?(?:\w+ )?{MEDS} (?:\w+ )?(?:sort|clear|help|fix|cure|work|shift|get rid)\b",
        r"\b(?:bad|unhealthy|dangerous|harmful|a problem|a worry|a risk|risky|normal|ok|okay"
        r"|healthy) for (?:my|his|her|their) (?:health|heart|knees|joints|back|weight|blood"
        r" pressure|sugars|kidneys|liver)\b",
        r"\b(?:bad|unhealthy|dangerous|a problem|a worry|normal|ok|okay|healthy|too (?:high|low"
        r"|much|heavy|light)) for (?:a (?:man|woman|lady|person|boy|girl|child|baby) |someone )?"
        r"(?:of )?(?:my|his|her|their) (?:age|height|size|build)\b",
        r"\bat (?:my|his|her) (?:height|age|weight)\b.{0,30}\b(?:bad|a problem|too|normal"
        r"|healthy|dangerous|ok|okay|worry|worrying)\b",
        r"\b(?:what|which) (?:cream|creams|ointment|lotion|gel|spray|drops|eye drops|medicine"
        r"|tablets?|remedy|remedies|treatment|antibiotic|painkiller|rub) (?:\w+ )?(?:is|are|works?"
        r"|would|will|do you recommend|should) (?:\w+ )?(?:good|best|right|better|work|help"
        r"|recommend|use)\b",
        r"\b(?:best|good|right|safest) (?:thing|stuff|medicine|cream|remedy|treatment) to (?:give"
        r"|put on|use on|rub on|take for|take|use for|try for)\b",
        r"\b(?:do|does|will|would) (?:i|we|he|she|they|my \w+) need (?:some |a |any |an |the )?"
        r"(?:cream|ointment|drops|eye drops|antibiotics|medicine|tablets|an inhaler|inhaler|a spray"
        r"|spray|something|stitches|a plaster cast) (?:for|on|to|or)\b",
        r"\b(?:am i|are we|is she|is he|are they) (?:still )?(?:protected|immune|contagious"
        r"|infectious|covered against)\b",
    ),
)

# Questions about the booking process or its rules: published, so information, not a booking.
APPOINTMENT_PROCESS: Rule = rule(
    "appointment_process",
    r"\bhow (?:do|can|should|would|does|to|far in advance|much|long)\b|\bis (?:it|that) free\b",
    r"\bwhat (?:is|are|s) the (?:process|procedure|policy|rules|fee|fees|charge|cost)\b",
    r"\b(?:what happens if|is there a (?:fee|charge|penalty)|notice period|cancellation fee"
    r"|cancellation policy|cancellation charge|late cancellation|fee|fees|charge|charges|cost"
    r"|costs|price|policy|charged|pay|paying|paid|money|refund|penalty|penalised|penalized)\b",
    # "what should I bring to my first appointment?": preparing for a visit is published.
    r"\b(?:bring|wear|arrive|arriving|check in|parking|park)\b",
    r"\b(?:online|on line|website|the app|an app|by phone|over the phone|by email|by text)\b",
    r"\b(?:referral|referred|refer)\b",
    r"\b(?:where|who) (?:do|should|can) (?:i|we)\b",
    # "can I get a blood test here?", "could I have a bone density scan at this clinic?": whether
    # the clinic does it at all (published, or not: never "book it" for a service the documents
    # do not name). A day or a time makes it a booking ("can I book my smear test here next week";
    # not DAYS, whose "this", "on" and "before" are in "at this clinic" and "before my scan").
    r"^(?!.*\b(?:today|tomorrow|tonight|tmrw|asap|soon|earliest|morning|afternoon|evening|week"
    r"|weekend|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|wed|thurs"
    r"|fri|sat|sun|\d+)\b).*\b(?:at (?:the|your|this) (?:clinic|practice|surgery|centre|center)"
    r"|here)\b",
)

APPOINTMENT_RULES: Sequence[Rule] = (
    rule(
        "booking_request",
        r"\b(?:i want to|i want|i would like to|i would like|id like to|id like|i need to|i need"
        r"|i have to|i must|i wish to|im trying to|i am trying to|can i|could i|may i|can you"
        r"|could you|would you|will you|please|help me|want to|need to|like to|trying to|let me"
        r"|lets|i wanted to|i was hoping to)\b(?: \w+){0,3}? (?:book|make|cancel|change"
        r"|reschedule|re schedule|move|rearrange|amend|postpone|bring forward|push back|swap"
        # "can I have water before a blood test?" is about the test, not a booking.
        r"|arrange|get|confirm|check|have)\b(?: (?!before\b|b4\b|after\b|during\b)\w+){0,4}? "
        + APPT
        + r"\b",
        r"^(?:please )?(?:book|cancel|reschedule|rearrange|change|move|postpone|amend) (?:me |my "
        r"|an |a |the |our )?(?:\w+ ){0,3}?(?:" + APPT + r"|in|for|with)\b",
        r"\b(?:cancel|reschedule|rearrange|postpone|move|change|amend|confirm) (?:my|our|his|her"
        r"|their|the|this|tomorrows|todays) (?:\w+ ){0,3}?" + APPT + r"\b",
        r"\bbook (?:me |us |him |her )?(?:in|for|with) (?:tomorrow|today|tonight|monday|tuesday"
        r"|wednesday|thursday|friday|saturday|sunday|next|this|the|a|an|dr|doctor)\b",
        r"\b(?:cancel|reschedule|rearrange|postpone|move|change|amend|push back|bring forward"
        r"|put back|put off) (?:my|our|his|her|their|the|this) (?:\w+ ){0,3}?" + APPT + r"\b",
        r"\b(?:push|put|move|bring) (?:my|our|his|her|the) (?:\w+ ){0,3}?"
        + APPT
        + r" (?:back|forward|earlier|later|to)\b",
        # "I can't make my physio on Thursday, please cancel it": "it" is the booking named.
        r"^(?=.*\b(?:" + APPT[3:-1] + r"|" + CLINICIAN[3:-1] + r"|cant make|cant come|wont make"
        r"|wont be able to (?:come|make)|not able to (?:come|make))\b).*\b(?:cancel|reschedule"
        r"|rearrange|postpone|move|change) (?:it|that|this one|them)\b",
        # "can you fit me in today?", "can someone see me today?"
        # Not letters in another format ("can I get my letters in large print?", "... in braille").
        r"\b(?:fit|squeeze|get|slot) (?:me|us|him|her|them|my \w+) in\b(?! (?:\w+ )?(?:print"
        r"|braille|writing|format|version|font|type|easy read|language|english)\b)",
        r"\b(?:can|could|will|would) (?:someone|somebody|anyone|anybody|a doctor|the doctor|a gp"
        r"|a nurse|the nurse) (?:\w+ )?see (?:me|us|him|her|them|my \w+)\b",
        r"\b(?:need|want|like|hoping) to be seen (?:today|tomorrow|this|asap|as soon as)\b",
        r"\b(?:chance|possible|possibility) (?:of|to) (?:seeing|see|getting in with|getting an"
        r" appointment with|booking in with) (?:a |an |the |dr |doctor )?\w+",
    ),
    rule(
        "see_clinician",
        r"\b(?:i want|i wanna|i would like|id like|i need|can i|could i|may i|i wish|im hoping"
        r"|i am hoping|hoping|want|need|like)(?: to)? (?:see|speak to|speak with|talk to|talk with"
        r"|get an appointment with|get in with) (?:a |an |the |my |dr |doctor )?(?:\w+ )?"
        + CLINICIAN
        + r"\b",
        # "could I get in to see a doctor today?", "can my son pop in and see the nurse?" (eighth
        # session); not whether one has to ("do I need to come in to see the doctor after it?").
        r"^(?!.*\b(?:do|does|will|would|should) (?:i|we|he|she|they|you|my \w+) (?:need|have)"
        r" to\b).*\b(?:can|could|may|want to|need to|like to|wanna|hoping to|possible to|able to"
        r"|chance to|try to)\b(?: \w+){0,2}? (?:get|come|pop|drop|call|nip) (?:in |round |over"
        r" |down )?(?:to|and) see (?:a |an |the |my |our |his |her |dr |doctor )?(?:\w+ )?"
        + CLINICIAN
        + r"\b",
    ),
    rule(
        "my_appointment",
        r"\b(?:when|what time|what day|where|which room|what date) (?:is|s|was|are) (?:my|our|his"
        r"|her) (?:next )?" + APPT + r"\b",
        r"\b(?:do|have) (?:i|we) (?:have|got) (?:an |any |a )?(?:\w+ )?(?:appointment|appointments"
        r"|booking|bookings|appt)\b",
        r"\bim (?:here|running late|late) for (?:my|an|the) (?:\w+ ){0,2}?" + APPT + r"\b",
    ),
    rule(
        "free_slot",
        # "next free cardiology slot on Tuesday?", "any appointments available tomorrow"; not
        # "my first appointment" (a first visit, not a free slot).
        r"(?<!my )(?<!your )(?<!his )(?<!her )(?<!our )(?<!their )"
        r"\b(?:next|first|earliest|soonest) (?:free |available |open )?(?:\w+ ){0,2}?(?:slot"
        r"|slots|appointment|appointments|appt|opening|openings|availability)\b",
        r"\b(?:free|available|open|spare) (?:\w+ ){0,2}?(?:slot|slots|appointment|appointments"
        r"|appt|appts)\b",
        # A named clinician's free times: "when is Dr Patel free?", "any gaps with Dr Okafor".
        r"\b(?:dr|doctor|nurse) \w+ (?:\w+ ){0,3}?(?:free|available|availability|have any"
        r" (?:space|spaces|slots|gaps|appointments|openings)|got (?:open|anything|any time"
        r"|space|time))\b",
        r"\b(?:room|space|spaces|gap|gaps|opening|openings|availability|anything) (?:in|with|for"
        r"|at) " + DEPARTMENTS + r"\b",
        r"\b(?:room|space|spaces|gap|gaps|opening|openings|availability|anything free) with"
        r" (?:\w+ ){1,2}?" + DAYS + r"\b",
        r"\b(?:got|have|has) (?:anything|any time|any space|any room|any gaps?|any openings?)"
        r" (?:free |available |left |open )?(?:\w+ )?" + DAYS + r"\b",
        r"\b(?:gaps|openings|space|spaces|availability) (?:with|for) (?:dr|doctor|nurse|the"
        r" \w+|a \w+)\b",
        r"\b(?:what|which|any) (?:free )?(?:slots|appointments|appts) (?:does|do|has|have|is|are)"
        r" (?:\w+ ){1,3}?(?:have|got|free|available|on)\b",
        r"\b(?:any|are there) (?:\w+ ){0,2}?(?:slots|appointments) (?:free|available|left|going)\b",
    ),
)


def first_match(rules: Sequence[Rule], text: str) -> str | None:
    """Name of the first rule in ``rules`` that matches ``text``, or None."""
    for name, pattern in rules:
        if pattern.search(text):
            return name
    return None
