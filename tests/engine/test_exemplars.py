"""The exemplar bank (the second routing signal): kept apart from every evaluation set, organised
by class, and raising a question only when it is close to a stop-route phrasing."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.answering.routing import add_exemplar_signal, plan_route, route_by_rules
from engine.events import Route, Turn
from engine.safety import normalise
from engine.safety.exemplars import BANK_PATH, Exemplar, ExemplarBank, load_bank
from tests.support.fake_embedder import FakeEmbedder

ROOT = Path(__file__).resolve().parents[2]
# Every evaluation set, whenever it was written: a new set is covered without being listed.
EVALUATION_SETS = tuple(sorted(p.name for p in (ROOT / "evaluation").glob("*.yaml")))


def _evaluation_questions() -> set[str]:
    texts: set[str] = set()
    for name in EVALUATION_SETS:
        for row in yaml.safe_load((ROOT / "evaluation" / name).read_text(encoding="utf-8")):
            texts.add(normalise(row["question"]))
            texts.update(normalise(h) for h in row.get("history", []))
    return texts


def test_the_bank_shares_no_question_with_any_evaluation_set() -> None:
    shared = [e.text for e in load_bank() if normalise(e.text) in _evaluation_questions()]
    assert shared == []


def test_every_phrasing_class_has_several_phrasings_and_no_duplicates() -> None:
    bank = load_bank()
    classes: dict[tuple[Route, str], int] = {}
    for exemplar in bank:
        key = (exemplar.route, exemplar.phrasing_class)
        classes[key] = classes.get(key, 0) + 1
    assert {route for route, _ in classes} == set(Route)
    assert all(count >= 2 for count in classes.values()), classes
    texts = [normalise(e.text) for e in bank]
    assert len(texts) == len(set(texts))


def test_a_malformed_bank_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bank.yaml"
    bad.write_text("gossip:\n  chat:\n    - hello\n", encoding="utf-8")
    with pytest.raises(ValueError, match="unknown route"):
        load_bank(bad)
    bad.write_text("emergency:\n  chest: not a list\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not a list"):
        load_bank(bad)
    assert BANK_PATH.is_file()


SMALL = ExemplarBank(
    [
        Exemplar(Route.EMERGENCY, "person_down", "grandmother floor still cold quiet"),
        Exemplar(Route.CLINICAL, "could_it_be_cancer", "lump armpit tumour cancer growing"),
        Exemplar(Route.APPOINTMENT, "clinician_free", "when is doctor rahman available"),
        Exemplar(Route.INFORMATION, "what_to_bring", "bring passport list medicines visit"),
    ]
)


def test_a_question_close_to_a_stop_phrasing_is_raised_even_when_no_rule_matched() -> None:
    embedder = FakeEmbedder()
    question = "grandmother floor still cold quiet"  # no emergency rule's words
    assert route_by_rules(question, []).decision.route is Route.INFORMATION
    plan = plan_route(question, [], embedder, SMALL)
    assert plan.decision.route is Route.EMERGENCY
    assert plan.decision.reason.startswith("exemplar:emergency/person_down")
    assert plan.vector == embedder.embed_query(question)  # computed once, kept for retrieval


def test_a_clinical_verdict_can_be_raised_to_emergency_but_never_lowered() -> None:
    embedder = FakeEmbedder()
    information_like = "bring passport list medicines visit"
    assert plan_route(information_like, [], embedder, SMALL).decision.route is Route.INFORMATION
    clinical = route_by_rules("should I stop my warfarin", [])
    assert clinical.decision.route is Route.CLINICAL
    # Its words are far from every exemplar: the clinical referral stands.
    assert add_exemplar_signal(clinical, embedder, SMALL).decision.route is Route.CLINICAL


def test_an_emergency_by_the_rules_is_never_embedded() -> None:
    class Refusing(FakeEmbedder):
        def embed_query(self, text: str) -> list[float]:
            raise AssertionError("an emergency must not wait for an embedding")

    plan = plan_route("I have chest pain", [], Refusing(), SMALL)
    assert plan.decision.route is Route.EMERGENCY and plan.vector is None


def test_information_near_misses_keep_information() -> None:
    embedder = FakeEmbedder()
    plan = plan_route("what should I bring to my visit, passport?", [], embedder, SMALL)
    assert plan.decision.route is Route.INFORMATION


def test_a_follow_up_is_classified_with_the_question_it_follows() -> None:
    embedder = FakeEmbedder()
    history = [Turn("grandmother floor limp", "...")]
    plan = plan_route("and she is grey and cold?", history, embedder, SMALL)
    assert plan.follow_up and plan.decision.route is Route.EMERGENCY


def test_vectors_of_another_size_give_no_opinion() -> None:
    verdict = SMALL.classify([1.0, 0.0], FakeEmbedder())
    assert verdict.route is None


def test_an_appointment_by_the_rules_is_still_raised_to_a_stop_route() -> None:
    # "I'm on blood thinners, can I still have a flu jab?" reads as a booking to the rules.
    question = "please book an appointment lump armpit tumour cancer growing"
    assert route_by_rules(question, []).decision.route is Route.APPOINTMENT
    plan = plan_route(question, [], FakeEmbedder(), SMALL)
    assert plan.decision.route is Route.CLINICAL


def test_an_appointment_stays_when_the_exemplars_see_nothing_safer() -> None:
    plan = plan_route("please book an appointment when doctor rahman", [], FakeEmbedder(), SMALL)
    assert plan.decision.route is Route.APPOINTMENT


def test_the_emergency_of_the_question_followed_carries_into_a_long_follow_up() -> None:
    embedder = FakeEmbedder()
    history = [Turn("grandmother floor still cold quiet", "Call 999.")]
    question = "what should we do, the kids are here and we are waiting for a taxi to town"
    joined = f"{history[0].question}\n{question}"
    # The joined text alone is too diluted to reach the emergency exemplar ...
    assert SMALL.classify(embedder.embed_query(joined), embedder).route is None
    # ... but the question it follows is an emergency, so the follow-up stays one.
    plan = plan_route(question, history, embedder, SMALL)
    assert plan.follow_up and plan.decision.route is Route.EMERGENCY
    assert plan.decision.reason.startswith("follow-up:exemplar:emergency/person_down")
    # The same question asked alone is not raised.
    assert plan_route(question, [], embedder, SMALL).decision.route is Route.INFORMATION


def test_a_clinical_verdict_of_the_question_followed_does_not_carry_on_its_own() -> None:
    embedder = FakeEmbedder()
    history = [Turn("lump armpit tumour", "...")]
    assert plan_route(history[0].question, [], embedder, SMALL).decision.route is Route.CLINICAL
    question = "and how much does it cost, which days are you open for the kids and my family then"
    plan = plan_route(question, history, embedder, SMALL)
    assert plan.follow_up and plan.decision.route is Route.INFORMATION
