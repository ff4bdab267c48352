"""The safety router's emergency rules: named regexes over a canonical question (see
:mod:`engine.safety.rules` for the text they run on and where the lines are drawn).

Each rule is a symptom or an explicit emergency; a symptom phrase wins even when negated or asked
about, because a false emergency costs a redirect and a missed one can cost a life. Service names
("stroke clinic", "seizure nurse") are not symptoms.

The rules live by family, one module each, every module exporting its own ``RULES``:

* :mod:`~engine.safety.emergency.fragments`: regex pieces more than one family reads (and
  :mod:`engine.safety.danger_signs` reads ``FEVER`` and ``HEAD_KNOCK``);
* :mod:`~engine.safety.emergency.heart_and_breathing`: chest_pain, breathing;
* :mod:`~engine.safety.emergency.consciousness_and_stroke`: unconscious, stroke, seizure;
* :mod:`~engine.safety.emergency.injuries_and_poisoning`: bleeding, anaphylaxis, overdose,
  poisoning, burns;
* :mod:`~engine.safety.emergency.self_harm`: self_harm;
* :mod:`~engine.safety.emergency.children`: child_unwell;
* :mod:`~engine.safety.emergency.spine_and_acute_signs`: spine, acute_signs;
* :mod:`~engine.safety.emergency.explicit_emergency`: explicit_emergency.

:data:`EMERGENCY_RULES` runs them in one fixed order, which is not the order of the families: the
first rule that matches names the reason in the review log ("emergency:stroke"), so reordering
changes what the log says about a question two rules both read. Change the order only with a route
diff over every question. tests/engine/test_rule_families.py checks that every family's rules
are in the order exactly once, and pins the order.

This package must never call a model, the network or the database.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.safety.emergency import (
    children,
    consciousness_and_stroke,
    explicit_emergency,
    heart_and_breathing,
    injuries_and_poisoning,
    self_harm,
    spine_and_acute_signs,
)
from engine.safety.rules import Rule

EMERGENCY_RULES: Sequence[Rule] = (
    heart_and_breathing.CHEST_PAIN,
    heart_and_breathing.BREATHING,
    consciousness_and_stroke.UNCONSCIOUS,
    consciousness_and_stroke.STROKE,
    injuries_and_poisoning.BLEEDING,
    injuries_and_poisoning.ANAPHYLAXIS,
    consciousness_and_stroke.SEIZURE,
    injuries_and_poisoning.OVERDOSE,
    injuries_and_poisoning.POISONING,
    injuries_and_poisoning.BURNS,
    self_harm.SELF_HARM,
    children.CHILD_UNWELL,
    spine_and_acute_signs.SPINE,
    spine_and_acute_signs.ACUTE_SIGNS,
    explicit_emergency.EXPLICIT_EMERGENCY,
)

__all__ = ["EMERGENCY_RULES"]
