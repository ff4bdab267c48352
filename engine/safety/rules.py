"""The safety router's rule core: the ``Rule`` type (a name and one compiled regex over a
canonical question), how rules and word lists are built (:func:`rule`, :func:`alt`),
:func:`first_match`, and where the lines between the routes are drawn.

Every pattern runs on the output of :func:`engine.safety.text.normalise` after typo repair: lower
case, no punctuation, no apostrophes ("cant", "im", "hes"), "A&E" written "ae", single spaces.
Rules are grouped by route and each has a short name that ends up in the review log
("emergency:breathing"). Patterns are kept linear: no nested quantifiers, bounded gaps only.
The rules live by route: :mod:`engine.safety.emergency` and :mod:`engine.safety.clinical`
(one module per family), :mod:`engine.safety.appointment`; the word lists they share in
:mod:`engine.safety.vocabulary`; :mod:`engine.safety.router` runs them in order.

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
It must never import the rule modules: they import it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

Rule = tuple[str, re.Pattern[str]]


def rule(name: str, *patterns: str) -> Rule:
    return name, re.compile("|".join(f"(?:{p})" for p in patterns))


def alt(words: str) -> str:
    return "(?:" + "|".join(words.split(",")) + ")"


def inner(group: str) -> str:
    """The bare alternatives of an :func:`alt` group, to list inside another group with more
    alternatives ("(?:{inner(MEDS)}|chemo|dialysis)"). Refuses anything else loudly, so a change
    to :func:`alt`'s wrapping cannot silently cut a character off a word list."""
    if not (group.startswith("(?:") and group.endswith(")")):
        raise ValueError(f"not an alt() group: {group[:40]!r}")
    return group[3:-1]


def first_match(rules: Sequence[Rule], text: str) -> str | None:
    """Name of the first rule in ``rules`` that matches ``text``, or None."""
    for name, pattern in rules:
        if pattern.search(text):
            return name
    return None
