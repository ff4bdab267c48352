"""The safety router's clinical-advice rules: named regexes over a canonical question whose
answer depends on the person (their medicines, doses, symptoms, results, pregnancy, own condition,
"is this serious", "should I go to A&E"). See :mod:`engine.safety.rules` for the text they run on
and where the line between clinical and information is drawn.

The rules live by family, one module each, every module exporting its own ``RULES``:

* :mod:`~engine.safety.clinical.medicines`: medicine_action, dose;
* :mod:`~engine.safety.clinical.own_condition`: recovery, my_condition;
* :mod:`~engine.safety.clinical.symptoms`: worry, diagnosis;
* :mod:`~engine.safety.clinical.results`: results;
* :mod:`~engine.safety.clinical.pregnancy`: pregnancy;
* :mod:`~engine.safety.clinical.triage`: triage;
* :mod:`~engine.safety.clinical.opinion`: medical_advice, personal_opinion.

The word lists they share are in :mod:`engine.safety.vocabulary`.

:data:`CLINICAL_RULES` runs them in one fixed order, which is not the order of the families: the
first rule that matches names the reason in the review log ("clinical:dose"), so reordering
changes what the log says about a question two rules both read. Change the order only with a route
diff over every question. tests/engine/test_rule_families.py checks that every family's rules
are in the order exactly once, and pins the order. The router reads the question through
:func:`without_illness_names_of_vaccines` before these rules (the reason is given below).

This package must never call a model, the network or the database, and never hold user text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.safety.clinical import (
    medicines,
    opinion,
    own_condition,
    pregnancy,
    results,
    symptoms,
    triage,
)
from engine.safety.rules import Rule
from engine.safety.vocabulary import CONDITIONS

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


CLINICAL_RULES: Sequence[Rule] = (
    medicines.MEDICINE_ACTION,
    own_condition.RECOVERY,
    medicines.DOSE,
    symptoms.WORRY,
    symptoms.DIAGNOSIS,
    results.RESULTS,
    pregnancy.PREGNANCY_RULE,
    triage.TRIAGE,
    own_condition.MY_CONDITION,
    opinion.MEDICAL_ADVICE,
    opinion.PERSONAL_OPINION,
)

__all__ = ["CLINICAL_RULES", "VACCINE_NAMED", "without_illness_names_of_vaccines"]
