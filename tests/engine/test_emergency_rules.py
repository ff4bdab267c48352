"""The emergency rules are split by family (engine/safety/emergency/); the router runs them in one
fixed order, and the first that matches names the reason in the review log. These tests keep the
families and the order in step: no family's rule left out, none run twice, the order as decided."""

from __future__ import annotations

import importlib
import pkgutil

from engine.safety import emergency
from engine.safety.emergency import EMERGENCY_RULES
from engine.safety.rules import Rule


def _family_rules() -> list[Rule]:
    found: list[Rule] = []
    for info in pkgutil.iter_modules(emergency.__path__):
        module = importlib.import_module(f"{emergency.__name__}.{info.name}")
        if info.name == "fragments":
            assert not hasattr(module, "RULES")
            continue
        found.extend(module.RULES)
    return found


def test_every_family_rule_runs_exactly_once() -> None:
    family_rules = _family_rules()
    assert len(family_rules) == len(EMERGENCY_RULES)
    for rule in family_rules:
        assert sum(r is rule for r in EMERGENCY_RULES) == 1, rule


def test_rule_names_are_unique_and_in_the_decided_order() -> None:
    assert [name for name, _ in EMERGENCY_RULES] == [
        "chest_pain",
        "breathing",
        "unconscious",
        "stroke",
        "bleeding",
        "anaphylaxis",
        "seizure",
        "overdose",
        "poisoning",
        "burns",
        "self_harm",
        "child_unwell",
        "spine",
        "acute_signs",
        "explicit_emergency",
    ]
