"""The safety rules' vocabulary: the word lists the clinical and appointment rules are written
with (medicines and what one does with them, doses, treatments, tests, symptoms, conditions,
measures, body parts, organs, pregnancy, appointments, clinicians, departments, days), which
retrieval and the extractive answerer also read as the health words the safety rules know.

Each list is a regex string over the canonical question (:mod:`engine.safety.rules` says what
text the rules see), most of them one group ``(?:...)`` built with
:func:`engine.safety.rules.alt`, so a rule can drop a list in whole or splice its bare
alternation (``inner(CONDITIONS)``). A fragment that only one family of rules reads lives in that
family's module, next to its rule. (The typo layer's word lists are another thing:
:mod:`engine.safety.lexicon`.)

Changing a list changes every rule that reads it, and what retrieval weighs as a health word: run
a route diff over every question. This module holds strings only, no rules; it must never call a
model, the network or the database.
"""

from __future__ import annotations

from engine.safety.rules import alt, inner

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
NOT_TAKING = (
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
MEASURES = alt(
    "blood pressure,bp,cholesterol,sugar,sugars,blood sugar,blood sugars,glucose,hba1c,a1c,"
    "iron,ferritin,b12,vitamin d,thyroid,tsh,psa,heart rate,pulse,temperature,temp,oxygen,"
    "sats,saturation,weight,bmi,potassium,sodium,kidney function,egfr,creatinine,"
    "liver function,white cell count,platelets,haemoglobin,hemoglobin,inr,crp,esr,urine test,"
    "result,results,test results,blood test,blood tests,blood results,bloods,scan,x ray,xray,"
    "mri,ct scan,ultrasound,ecg,smear,smear test,biopsy,level,levels,reading,readings,count"
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
    "(?:" + inner(CONDITIONS) + "|colitis|ulcerative colitis|crohns disease|diverticulitis"
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
