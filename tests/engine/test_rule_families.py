"""The emergency and clinical rules are split by family (engine/safety/emergency/,
engine/safety/clinical/); the router runs each set in one fixed order, and the first rule that
matches names the reason in the review log ("emergency:stroke"). These tests keep the families
and the order in step: no family's rule left out, none run twice, the order as decided."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Sequence
from types import ModuleType

import pytest

from engine.safety import clinical, emergency
from engine.safety.rules import Rule, alt, inner

EMERGENCY_ORDER = [
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
CLINICAL_ORDER = [
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
FAMILIES = pytest.mark.parametrize(
    ("package", "ordered", "names"),
    [
        (emergency, emergency.EMERGENCY_RULES, EMERGENCY_ORDER),
        (clinical, clinical.CLINICAL_RULES, CLINICAL_ORDER),
    ],
    ids=["emergency", "clinical"],
)


def _family_rules(package: ModuleType) -> list[Rule]:
    """Every family module's ``RULES``; a module without (the shared fragments) holds none."""
    found: list[Rule] = []
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        found.extend(getattr(module, "RULES", ()))
    return found


@FAMILIES
def test_every_family_rule_runs_exactly_once(
    package: ModuleType, ordered: Sequence[Rule], names: list[str]
) -> None:
    family_rules = _family_rules(package)
    assert len(family_rules) == len(ordered)
    for rule in family_rules:
        assert sum(r is rule for r in ordered) == 1, rule


@FAMILIES
def test_rule_names_are_unique_and_in_the_decided_order(
    package: ModuleType, ordered: Sequence[Rule], names: list[str]
) -> None:
    assert [name for name, _ in ordered] == names


def test_a_word_list_is_spliced_whole_and_anything_else_is_refused() -> None:
    assert inner(alt("warfarin,insulin")) == "warfarin|insulin"
    for not_a_group in ("warfarin|insulin", "(?:warfarin)|insulin", "(warfarin|insulin)"):
        with pytest.raises(ValueError):
            inner(not_a_group)
