"""The safety router's appointment rules: a request about a booking of one's own (book,
cancel, change, "I want to see a doctor tomorrow", "when is my appointment?", "any free slots on
Tuesday?"), and ``APPOINTMENT_PROCESS``: on a question the appointment rules matched, a question
about the booking process or its rules ("how do I book?", "what is the cancellation fee?", "can
I book online?") is information, because the documents answer it. See :mod:`engine.safety.rules`
for where the line is drawn; the word lists (``APPT``, ``CLINICIAN``, ``DEPARTMENTS``, ``DAYS``)
are in :mod:`engine.safety.vocabulary`.

``APPOINTMENT_RULES`` run in order and the first that matches names the reason in the review log
("appointment:free_slot"). This module must never call a model, the network or the database,
and never hold user text.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.safety.rules import Rule, inner, rule
from engine.safety.vocabulary import APPT, CLINICIAN, DAYS, DEPARTMENTS

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
        r"^(?=.*\b(?:" + inner(APPT) + r"|" + inner(CLINICIAN) + r"|cant make|cant come|wont make"
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
