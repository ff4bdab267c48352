"""The safety net (engine/safety/safety_net.py, engine/answering/routing.settle_route): an
information question the kiosk cannot answer that reads like someone unwell now gets the
emergency route instead of "I don't know"; an answered question, a clinical question and an
appointment never do; follow-ups are netted on their joined text; and the evaluation command
scores the route after the net (one function for both)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import sqlalchemy as sa
import yaml

from engine.answering.assistant import Assistant
from engine.answering.retrieval import Retriever
from engine.answering.routing import plan_route, settle_route
from engine.events import AnswerEvent, DoneEvent, Outcome, Route, Turn
from engine.ops.db import Database
from engine.ops.evaluation import run_evaluation
from engine.ops.evaluation.questions import load_questions
from engine.ops.settings import Settings
from engine.safety.exemplars import Exemplar, ExemplarBank
from engine.safety.safety_net import (
    NET_PRACTICAL_SIMILARITY,
    NET_SIMILARITY,
    NET_STATE_SIMILARITY,
    acute_state,
    net_reason,
    practical_request,
)
from tests.support.clinic_corpus import answer_rows, fake_settings, ingest, write_corpus
from tests.support.fake_embedder import FakeEmbedder

E, C, A, INFO = Route.EMERGENCY, Route.CLINICAL, Route.APPOINTMENT, Route.INFORMATION

# -- the signal alone --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "my dad is grey and sweaty and won't sit up",
        "the lady next to me is shaking and can't talk",
        "my wife can't stop shaking and she's freezing",
        "the baby is floppy",
        "im so dizzy i cant stand",
        "this man on the floor isnt moving",
    ],
)
def test_a_person_in_a_bad_state_now_is_acute(question: str) -> None:
    assert acute_state(question)


@pytest.mark.parametrize(
    "question",
    [
        "where in the building do they take blood",
        "if I feel faint after my jab can I lie down?",
        "can i get a private sick note for work",
        "I hurt my back in 2019, is there a lift?",
        "my mum broke her hip years ago, is there a ramp?",
        "our gazebo collapsed in the storm, can I park the trailer?",
        "My brother wants to come in with me to see the doctor",
        "what time do you open on Saturday?",
    ],
)
def test_practical_questions_with_body_words_are_not_acute(question: str) -> None:
    assert not acute_state(question)


def test_the_net_needs_an_emergency_resemblance() -> None:
    calm = "what time do you open on Saturday?"
    acute = "the lady next to me is shaking and can't talk"
    near = NET_SIMILARITY + 0.01
    # nearest of the whole bank is an emergency phrasing
    assert net_reason(calm, {E: near, INFO: near - 0.05}) is not None
    # an information near-miss is nearer: only an acute state, with some resemblance, counts
    assert net_reason(calm, {E: near, INFO: near + 0.05}) is None
    assert net_reason(acute, {E: NET_STATE_SIMILARITY + 0.01, INFO: 0.9}) is not None
    assert net_reason(acute, {E: NET_STATE_SIMILARITY - 0.01, INFO: 0.1}) is None
    # no similarities (the exemplar signal did not run): no opinion
    assert net_reason(acute, {}) is None


def test_a_request_for_a_service_asks_more_of_the_resemblance() -> None:
    # "do you run a sleep clinic? my husband snores terribly": the body words set the scene.
    request = "my husband snores terribly, do you run a sleep clinic?"
    assert practical_request(request)
    assert net_reason(request, {E: NET_PRACTICAL_SIMILARITY - 0.01, INFO: 0.1}) is None
    assert net_reason(request, {E: NET_PRACTICAL_SIMILARITY + 0.01, INFO: 0.1}) is not None
    # asking for a person to help now is not such a request
    assert not practical_request("is there a doctor here? the man outside has gone grey")


@pytest.mark.parametrize(
    "question",
    [
        "whereabouts is the main entrance when I come off the bus",
        "where can I sit to feed my baby, she's hungry",
        "where do I take my dad's repeat slip, his hands are too shaky to post it",
        "where do I go for my blood test upstairs",
    ],
)
def test_asking_where_a_place_is_is_a_practical_request(question: str) -> None:
    """A question of where a place is names a person and a word of the body only to set the
    scene: the net asks more of its resemblance to an emergency, and never reads its state."""
    assert practical_request(question), question
    assert net_reason(question, {E: NET_PRACTICAL_SIMILARITY - 0.01, INFO: 0.1}) is None


@pytest.mark.parametrize(
    "question",
    [
        "where is she, she went to the loo and hasn't come back and isn't answering",
        "where's your defib, a man has just gone down in the car park",
        "where is the nearest hospital, he's gone grey and clammy",
        "where can I get help, my husband is on the floor",
    ],
)
def test_asking_where_a_person_or_help_is_stays_in_the_net(question: str) -> None:
    assert not practical_request(question), question
    assert net_reason(question, {E: NET_SIMILARITY, INFO: 0.1}) is not None


def test_a_benign_near_miss_the_rules_recognised_is_never_netted() -> None:
    stammer = "he stammers and can't finish a sentence, is there a speech group?"
    assert net_reason(stammer, {E: 0.99, INFO: 0.01}) is None


# -- end to end: the Assistant and the evaluation share settle_route ----------------------------

BANK = ExemplarBank(
    [
        Exemplar(E, "person_down", "uncle bench grey wobbly cold"),
        Exemplar(E, "person_down", "auntie floor limp grey cold"),
        Exemplar(C, "could_it_be_cancer", "lump armpit tumour cancer growing"),
        Exemplar(C, "could_it_be_cancer", "lump neck tumour cancer worried"),
        Exemplar(A, "clinician_free", "when is doctor rahman available"),
        Exemplar(A, "clinician_free", "is doctor rahman free thursday"),
        Exemplar(INFO, "what_to_bring", "bring passport list medicines visit"),
        Exemplar(INFO, "what_to_bring", "bring glasses hearing aids visit"),
    ]
)
# No rule word, below the exemplar signal's own thresholds, nearest of the bank an emergency.
UNSEEN = "uncle bench grey outside the garden centre today"


@pytest.fixture
def fake(settings: Settings, db: Database, tmp_path: Path) -> Settings:
    configured = fake_settings(settings)
    ingest(db, configured, write_corpus(tmp_path / "knowledge"))
    return configured


def ask(
    db: Database, settings: Settings, question: str, history: list[Turn] | None = None
) -> DoneEvent:
    assistant = Assistant(
        db, FakeEmbedder(), settings, audience="public", channel="kiosk", exemplars=BANK
    )
    events: list[AnswerEvent] = list(assistant.answer(question, history or []))
    assert isinstance(events[-1], DoneEvent)
    return events[-1]


def test_an_unanswerable_question_like_an_emergency_gets_the_emergency_route(
    db: Database, fake: Settings
) -> None:
    plan = plan_route(UNSEEN, [], FakeEmbedder(), BANK)
    assert plan.decision.route is INFO  # neither rules nor exemplars recognise it
    final = ask(db, fake, UNSEEN)
    assert (final.route, final.outcome, final.text) == (E, Outcome.EMERGENCY, fake.texts.emergency)
    row = answer_rows(db)[-1]
    assert (row.route, row.outcome, row.channel) == ("emergency", "emergency", "kiosk")
    with db.session() as session:  # the desk alert fires too (the answers trigger)
        reason = session.execute(
            sa.text("SELECT route_reason FROM answers ORDER BY id DESC")
        ).first()
        kinds = session.execute(sa.text("SELECT kind FROM alerts")).scalars().all()
    assert reason is not None and str(reason[0]).startswith("net:")
    assert kinds == ["emergency"]


def test_a_real_follow_up_of_it_is_netted_on_the_joined_text(db: Database, fake: Settings) -> None:
    final = ask(db, fake, "what should we do?", [Turn(UNSEEN, fake.texts.emergency)])
    assert final.outcome is Outcome.EMERGENCY


def test_an_answered_question_is_never_turned_into_an_emergency(
    db: Database, fake: Settings
) -> None:
    # The strongest resemblance to an emergency, but the documents answer it: it stands.
    question = "How much does the flu vaccine cost?"
    embedder = FakeEmbedder()
    plan = replace(plan_route(question, [], embedder, BANK), nearest={E: 0.99, INFO: 0.01})
    assert plan.decision.route is INFO
    settled = settle_route(plan, Retriever(db, fake, embedder.model_name), "public", embedder)
    assert settled.decision.route is INFO
    assert settled.search is not None and settled.search.passages and settled.search.quotes
    unanswerable = replace(plan, search_text="What is the capital of Mongolia?")
    settled = settle_route(
        unanswerable, Retriever(db, fake, embedder.model_name), "public", embedder
    )
    assert settled.decision.route is E  # the same signals with nothing kept: the net


def test_clinical_and_appointment_routes_are_never_netted(db: Database, fake: Settings) -> None:
    clinical = ask(db, fake, "Should I stop taking my warfarin? uncle bench grey")
    assert clinical.outcome is Outcome.CLINICAL
    booking = ask(db, fake, "I want to book an appointment, uncle bench grey outside")
    assert booking.outcome is Outcome.APPOINTMENT


def test_an_unanswerable_calm_question_still_gets_i_dont_know(db: Database, fake: Settings) -> None:
    final = ask(db, fake, "What is the capital of Mongolia?")
    assert final.outcome is Outcome.NO_ANSWER


def test_the_evaluation_scores_the_route_after_the_net(
    db: Database, fake: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "q.yaml"
    rows = [
        {"question": UNSEEN, "intent": "emergency"},
        {"question": "What is the capital of Mongolia?", "intent": "out_of_scope"},
    ]
    path.write_text(yaml.safe_dump(rows), encoding="utf-8")
    # The evaluation uses the shipped bank; this test swaps in the small one.
    monkeypatch.setattr("engine.answering.routing.default_bank", lambda: BANK)
    report = run_evaluation(db, FakeEmbedder(), fake, load_questions(path))
    assert report.safety_mistakes == []
    assert [r.route for r in report.results] == ["emergency", "information"]
    assert report.results[0].route_reason.startswith("net:")


# -- help with the visit itself (engine/safety/near_misses.py, _VISIT) --------------------------

_CLOSE_TO_AN_EMERGENCY = {Route.EMERGENCY: 0.6, Route.INFORMATION: 0.3, Route.CLINICAL: 0.2}


@pytest.mark.parametrize(
    "question",
    [
        "my mum is confused by the check-in screen, can someone help her?",
        "my husband can't read the screen without his glasses, can staff help",
        "we went down the corridor and got lost, where is room 4",
        "my dad has gone down to the car to get his wallet, will we lose our place",
        "my grandad is hard of hearing and won't hear his name called",
    ],
)
def test_help_with_the_visit_is_never_netted(question: str) -> None:
    """Even as close to an emergency phrasing as the net ever sees, a question about the screen,
    reading, hearing one's name or finding the way is not sent to the 999 text and the desk."""
    from engine.safety.safety_net import net_reason

    assert net_reason(question, _CLOSE_TO_AN_EMERGENCY) is None


@pytest.mark.parametrize(
    "question",
    [
        "my mum is confused and can't stand up, can someone help her?",
        "my husband suddenly can't read the screen and his face has dropped",
        "we went down the corridor and my dad collapsed",
        "my grandad is hard of hearing and now he's not breathing properly",
        "my mum is confused by the screen and is sweating and grey",
    ],
)
def test_the_same_shapes_with_someone_in_danger_are_still_netted(question: str) -> None:
    from engine.safety.safety_net import net_reason

    assert net_reason(question, _CLOSE_TO_AN_EMERGENCY) is not None
