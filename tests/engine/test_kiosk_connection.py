"""On the embedded server the kiosk reads through its own role, so row-level security hides staff
rows even from a query that forgets the audience filter."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from engine.events import DoneEvent
from engine.knowledge.ingest import Ingester
from engine.ops.db import Database, open_database
from engine.ops.service import ServiceBackend
from engine.ops.settings import RetrievalSettings, Settings
from tests.support.fake_embedder import FakeEmbedder

STAFF_LINE = "The courier collects specimens at 11:30 and 16:00 from the back office."


@pytest.fixture
def embedded_settings() -> Iterator[Settings]:
    root = Path(tempfile.mkdtemp(prefix="clinic-kiosk-role-"))
    root.chmod(0o755)
    yield Settings(
        data_dir=root,
        retrieval=RetrievalSettings(similarity_floors={"fake/hash-embedder": 0.3}),
    )
    shutil.rmtree(root, ignore_errors=True)


def test_kiosk_reads_as_clinic_kiosk_and_never_sees_staff_rows(
    embedded_settings: Settings, tmp_path: Path
) -> None:
    knowledge = tmp_path / "knowledge"
    (knowledge / "public").mkdir(parents=True)
    (knowledge / "staff").mkdir()
    (knowledge / "public" / "hours.md").write_text(
        "# Opening hours\n\nWe open at 8:00 and close at 18:30 on weekdays.\n", encoding="utf-8"
    )
    (knowledge / "staff" / "courier.md").write_text(
        f"# Courier\n\n{STAFF_LINE}\n", encoding="utf-8"
    )
    embedder = FakeEmbedder()
    owner = open_database(embedded_settings)
    Ingester(owner, embedder, embedded_settings).ingest_folders([knowledge])
    owner.dispose()

    backend = ServiceBackend(
        embedded_settings, audience="staff", channel="kiosk", embedder=embedder
    )
    db = backend.database()
    with db.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT current_user")).scalar() == "clinic_kiosk"
        # A hand-written query with no audience filter at all still sees public rows only.
        texts = [r[0] for r in conn.execute(sa.text("SELECT text FROM chunks"))]
        assert texts and not any("courier" in t.lower() for t in texts)
        assert (
            conn.execute(
                sa.text("SELECT count(*) FROM documents WHERE audience = 'staff'")
            ).scalar()
            == 0
        )

    final = [e for e in backend.answer(STAFF_LINE) if isinstance(e, DoneEvent)][-1]
    assert STAFF_LINE not in final.text
    assert all(c.document_slug != "courier" for c in final.citations)
    hours = [e for e in backend.answer("When do you open on weekdays?") if isinstance(e, DoneEvent)]
    assert hours[-1].citations and hours[-1].citations[0].document_slug == "hours"
    db.dispose()


def test_named_day_finds_the_next_such_day() -> None:
    import datetime as dt

    from engine.ops.service import named_day

    sunday = dt.datetime(2026, 11, 29, 10, 0)
    assert named_day("next free slot on tuesday morning", sunday) == dt.date(2026, 12, 1)
    assert named_day("anything sunday", sunday) == dt.date(2026, 11, 29)
    assert named_day("tomorrow please", sunday) == dt.date(2026, 11, 30)
    assert named_day("today", sunday) == dt.date(2026, 11, 29)
    assert named_day("next free cardiology slot", sunday) is None


def test_kiosk_on_a_shared_server_answers_through_the_clinic_kiosk_dsn(
    db: Database, settings: Settings, tmp_path: Path
) -> None:
    """IT's set-up: `db init-roles`, then the kiosk's DSN names clinic_kiosk. It must answer,
    log its answers, and never migrate or read staff rows."""
    from engine.ops.roles import init_roles
    from engine.ops.settings import DatabaseSettings

    knowledge = tmp_path / "knowledge"
    (knowledge / "public").mkdir(parents=True)
    (knowledge / "staff").mkdir()
    (knowledge / "public" / "hours.md").write_text(
        "# Opening hours\n\nWe open at 8:00 and close at 18:30 on weekdays.\n", encoding="utf-8"
    )
    (knowledge / "staff" / "courier.md").write_text(
        f"# Courier\n\n{STAFF_LINE}\n", encoding="utf-8"
    )
    fake = settings.replace(
        retrieval=RetrievalSettings(similarity_floors={"fake/hash-embedder": 0.3})
    )
    embedder = FakeEmbedder()
    Ingester(db, embedder, fake).ingest_folders([knowledge])
    init_roles(db, kiosk_password="kiosk-pw-1", staff_password="staff-pw-1")
    kiosk_url = (
        sa.engine.make_url(db.url)
        .set(username="clinic_kiosk", password="kiosk-pw-1")
        .render_as_string(hide_password=False)
    )
    kiosk_settings = fake.replace(database=DatabaseSettings(url=kiosk_url))
    backend = ServiceBackend(kiosk_settings, audience="staff", channel="kiosk", embedder=embedder)
    backend.check_database()
    with backend.database().engine.connect() as conn:
        assert conn.execute(sa.text("SELECT current_user")).scalar() == "clinic_kiosk"
    hours = [e for e in backend.answer("When do you open on weekdays?") if isinstance(e, DoneEvent)]
    assert hours[-1].citations and hours[-1].citations[0].document_slug == "hours"
    final = [e for e in backend.answer(STAFF_LINE) if isinstance(e, DoneEvent)][-1]
    assert all(c.document_slug != "courier" for c in final.citations)
    with db.engine.connect() as conn:  # the owner sees both answers logged by the kiosk
        assert (
            conn.execute(sa.text("SELECT count(*) FROM answers WHERE channel = 'kiosk'")).scalar()
            == 2
        )
    backend.database().dispose()
