"""The service wiring the apps use: the kiosk is public whatever it is told, an emergency is
answered with the database down, database failures are user-safe errors, suggestions respect
audience."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.errors import DatabaseUnavailable
from engine.events import AnswerEvent, DoneEvent, Outcome, Route
from engine.ops import service
from engine.ops.db import Database
from engine.ops.service import ServiceBackend, build_backend
from engine.ops.settings import DatabaseSettings, Settings
from tests.support.clinic_corpus import (
    COURIER_TEXT,
    answer_rows,
    fake_settings,
    ingest,
    write_corpus,
)
from tests.support.fake_embedder import FakeEmbedder

EMERGENCY = "I have crushing chest pain and cannot breathe"
PUBLIC_HEADINGS = {
    "Vaccinations",
    "Sick notes",
    "Opening hours",
    "Telephone",
    "Car park",
    "Blood tests",
    "MRI scans",
}
STAFF_HEADINGS = {"Supplier accounts", "Cash handling"}
BAD_URL = "postgresql+psycopg://clinic:s3cret-pw@127.0.0.1:1/clinic_assistant"


@pytest.fixture
def fake(
    settings: Settings, db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Settings:
    configured = fake_settings(settings)
    ingest(db, configured, write_corpus(tmp_path / "knowledge"))
    # build_backend loads the configured embedder; the hash embedder stands in for fastembed.
    monkeypatch.setattr(service, "load_embedder", lambda _settings: FakeEmbedder())
    return configured


@pytest.fixture
def unreachable(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Settings:
    def no_embedder(_settings: Settings) -> FakeEmbedder:
        raise AssertionError("the embedder must not be loaded for this")

    monkeypatch.setattr(service, "load_embedder", no_embedder)
    return fake_settings(settings).replace(
        database=DatabaseSettings(url=BAD_URL, connect_timeout=1.0)
    )


@pytest.fixture(autouse=True)
def close_backends(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every backend a test builds has its connection pool closed at the end of the test."""
    built: list[ServiceBackend] = []
    original_init = ServiceBackend.__init__

    def tracking_init(self: ServiceBackend, *args: Any, **kwargs: Any) -> None:
        original_init(self, *args, **kwargs)
        built.append(self)

    monkeypatch.setattr(ServiceBackend, "__init__", tracking_init)
    yield
    for backend in built:
        with contextlib.suppress(DatabaseUnavailable):
            backend.database().dispose()


def final(events: Sequence[AnswerEvent]) -> DoneEvent:
    assert isinstance(events[-1], DoneEvent)
    return events[-1]


def test_kiosk_is_public_even_when_asked_for_staff(db: Database, fake: Settings) -> None:
    kiosk = build_backend(fake, audience="staff", channel="kiosk")
    assert kiosk.audience == "public"
    answer = final(list(kiosk.answer(COURIER_TEXT)))
    assert all(c.document_slug != "desk" for c in answer.citations)
    assert "PX-4471" not in answer.text and "0199" not in answer.text
    assert (answer_rows(db)[-1].channel, answer_rows(db)[-1].audience) == ("kiosk", "public")

    # The same question on a staff desk does reach the staff passage: the test can fail.
    desk = build_backend(fake, audience="staff", channel="staff", username="amy")
    staff_answer = final(list(desk.answer(COURIER_TEXT)))
    assert staff_answer.citations[0].document_slug == "desk"
    assert "PX-4471" in staff_answer.text


@pytest.mark.parametrize("audience", ["", "admin", "STAFF", "public"])
def test_only_exact_staff_on_a_staff_channel_sees_staff(fake: Settings, audience: str) -> None:
    assert build_backend(fake, audience=audience, channel="staff").audience == "public"


def test_emergency_is_answered_while_the_database_is_unreachable(unreachable: Settings) -> None:
    backend = build_backend(unreachable, channel="kiosk")
    events = list(backend.answer(EMERGENCY))
    assert len(events) == 1
    answer = final(events)
    assert (answer.text, answer.route, answer.outcome) == (
        unreachable.texts.emergency,
        Route.EMERGENCY,
        Outcome.EMERGENCY,
    )


def test_an_information_question_with_the_database_down_is_a_user_safe_error(
    unreachable: Settings,
) -> None:
    backend = build_backend(unreachable, channel="kiosk")
    with pytest.raises(DatabaseUnavailable) as caught:
        list(backend.answer("Where can I park?"))
    assert "s3cret-pw" not in str(caught.value)


def test_check_database_raises_on_a_bad_dsn_and_a_good_one_works(
    unreachable: Settings, fake: Settings
) -> None:
    down = build_backend(unreachable, channel="kiosk")
    for _ in range(2):  # a failed attempt is not cached as a working connection
        with pytest.raises(DatabaseUnavailable) as caught:
            down.check_database()
        assert "s3cret-pw" not in str(caught.value)
    up = build_backend(fake, channel="kiosk")
    up.check_database()
    assert final(list(up.answer("Where is the free parking for patients?"))).citations


def test_check_database_recovers_after_the_pool_is_broken(fake: Settings, db: Database) -> None:
    backend = ServiceBackend(fake, audience="public", channel="kiosk", embedder=FakeEmbedder())
    backend.check_database()
    broken = backend.database()
    broken.dispose()
    backend.check_database()  # the pool reconnects; no stale connection is handed out
    assert final(list(backend.answer("Where is the free parking for patients?"))).citations


def test_suggested_questions_are_public_headings_on_the_kiosk(fake: Settings) -> None:
    kiosk = build_backend(fake, audience="staff", channel="kiosk").suggested_questions()
    assert kiosk and set(kiosk) <= PUBLIC_HEADINGS, kiosk
    desk = build_backend(fake, audience="staff", channel="staff").suggested_questions()
    assert set(desk) & STAFF_HEADINGS, desk  # the desk does see staff topics: the test can fail


def test_suggestions_are_capped(fake: Settings, db: Database, tmp_path: Path) -> None:
    extra = {
        f"public/extra-{i}.md": f"---\ntitle: Extra {i}\naudience: public\n---\n# Extra {i}\n\n"
        f"## Topic {i}\n\nSome words about topic {i}.\n"
        for i in range(8)
    }
    ingest(db, fake, write_corpus(tmp_path / "more", extra))
    assert (
        len(build_backend(fake, channel="kiosk").suggested_questions()) == service.MAX_SUGGESTIONS
    )


def test_extractive_setting_means_no_chat_model(fake: Settings) -> None:
    extractive = fake.replace(
        ollama=dataclasses.replace(
            fake.ollama, hosts=("http://127.0.0.1:1",), generation="extractive"
        )
    )
    assert service.build_chat(extractive) is None
    assert service.build_chat(fake) is None  # no hosts configured
    with_host = fake.replace(ollama=dataclasses.replace(fake.ollama, hosts=("http://127.0.0.1:1",)))
    chat = service.build_chat(with_host)
    assert chat is not None and chat.model == fake.ollama.model
