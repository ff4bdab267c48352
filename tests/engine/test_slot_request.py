"""Free-slot questions in the staff assistant: what they ask for (clinician, department, none),
and the read-only slot list they get (issue #9 item 5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.events import DoneEvent, Outcome
from engine.frontdesk.slot_query import slot_request
from engine.ops import service
from engine.ops.db import Database
from engine.ops.service import build_backend
from engine.ops.settings import Settings
from tests.support.booking_clinic import build_clinic
from tests.support.clinic_corpus import fake_settings, ingest, write_corpus
from tests.support.fake_embedder import FakeEmbedder

DEPARTMENTS = ["Cardiology", "Dermatology", "General Practice", "Physiotherapy", "Women's Health"]
CLINICIANS = [
    (1, "Dr Priya Patel", "General Practice"),
    (2, "Dr Oliver Hughes", "Cardiology"),
    (3, "Sarah Jenkins", "Physiotherapy"),
    (4, "Dr Hannah O'Brien", "Paediatrics"),
]


@pytest.mark.parametrize(
    ("question", "wanted"),
    [
        ("is there a free physio appointment tomorrow morning?", "Physiotherapy"),
        ("next free cardiology slot", "Cardiology"),
        ("free heart clinic slot on Friday", "Cardiology"),
        ("When is Dr Patel free next week?", "Dr Priya Patel"),
        ("what slots does Sarah Jenkins have on Monday?", "Sarah Jenkins"),
        ("any slots with dr o'brien", "Dr Hannah O'Brien"),
        ("womens health slot friday", "Women's Health"),
        ("any free slots tomorrow", ""),
        ("heartburn slot", ""),  # a whole word only: no department named
    ],
)
def test_what_a_free_slot_question_asks_for(question: str, wanted: str) -> None:
    assert slot_request(question, DEPARTMENTS, CLINICIANS) == wanted


@pytest.fixture
def fake(
    settings: Settings, db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Settings:
    configured = fake_settings(settings)
    ingest(db, configured, write_corpus(tmp_path / "knowledge"))
    monkeypatch.setattr(service, "load_embedder", lambda _settings: FakeEmbedder())
    return configured


def test_the_staff_assistant_lists_a_named_clinicians_free_slots(
    db: Database, fake: Settings
) -> None:
    build_clinic(db)
    desk = build_backend(fake, audience="staff", channel="staff", username="amy")
    try:
        final = list(desk.answer("When is Dr Hughes free?"))[-1]
        assert isinstance(final, DoneEvent) and final.outcome is Outcome.APPOINTMENT
        assert "Next free slots" in final.text
        listed = [line for line in final.text.splitlines() if line.startswith("- ")]
        assert listed and all("Dr Oliver Hughes" in line for line in listed)
        other = list(desk.answer("is there a free dermatology appointment?"))[-1]
        assert isinstance(other, DoneEvent) and "Dr Eleanor Shaw" in other.text
        # The kiosk gets the booking sentence, never the slot list.
        kiosk = build_backend(fake, audience="public", channel="kiosk")
        try:
            public = list(kiosk.answer("When is Dr Hughes free?"))[-1]
            assert isinstance(public, DoneEvent) and "Next free slots" not in public.text
        finally:
            kiosk.database().dispose()
    finally:
        desk.database().dispose()
