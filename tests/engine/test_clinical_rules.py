"""The clinical rules are split by family (engine/safety/clinical/); the router runs them in one
fixed order, and the first that matches names the reason in the review log. These tests keep the
families and the order in step: no family's rule left out, none run twice, the order as decided."""

from __future__ import annotations

import importlib
import pkgutil

from engine.safety import clinical
from engine.safety.clinical import CLINICAL_RULES
from engine.safety.rules import Rule


def _family_rules() -> list[Rule]:
    found: list[Rule] = []
    for info in pkgutil.iter_modules(clinical.__path__):
        module = importlib.import_module(f"{clinical.__name__}.{info.name}")
        found.extend(module.RULES)
    return found


def test_every_family_rule_runs_exactly_once() -> None:
    family_rules = _family_rules()
    assert len(family_rules) == len(CLINICAL_RULES)
    for rule in family_rules:
        assert sum(r is rule for r in CLINICAL_RULES) == 1, rule


def test_rule_names_are_unique_and_in_the_decided_order() -> None:
    assert [name for name, _ in CLINICAL_RULES] == [
        "medicine_action",
        "recovery",
        "dose",
        "worry",
        "diagnosis",
        "results",
        "pregnancy",
        "triage",
        "my_condition",
        "medical_advice",
        "personal_opinion",
    ]
