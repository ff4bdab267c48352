"""Ingest against the real PostgreSQL: idempotency, atomic replacement, audience rules, errors."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest
import sqlalchemy as sa

from engine.knowledge.ingest import Ingester, storage
from engine.ops import db as dbm
from engine.ops.settings import Settings
from tests.support.fake_embedder import FakeEmbedder

DOC = """---
title: {title}
audience: {audience}
reviewed_on: 2026-10-01
owner: practice manager
---
# {title}

## Opening hours

We are open Monday to Friday from 8:00 to 18:30. {extra}

## Parking

The car park costs £2.50 per hour. Blue badge holders park free.
"""


def write(folder: Path, name: str, title: str, audience: str = "public", extra: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(DOC.format(title=title, audience=audience, extra=extra), encoding="utf-8")
    return path


def chunk_rows(db: dbm.Database) -> list[tuple[str, int, str, str]]:
    with db.engine.connect() as conn:
        return [
            tuple(r)
            for r in conn.execute(
                sa.text(
                    "SELECT d.slug, c.ordinal, c.heading_path, c.text FROM chunks c "
                    "JOIN documents d ON d.id = c.document_id ORDER BY d.slug, c.ordinal"
                )
            ).all()
        ]


@pytest.fixture
def embedder() -> FakeEmbedder:
    return FakeEmbedder()


def test_first_run_creates_second_run_embeds_nothing(
    db: dbm.Database, settings: Settings, tmp_path: Path, embedder: FakeEmbedder
) -> None:
    root = tmp_path / "knowledge"
    write(root / "public", "hours.md", "Opening hours")
    write(root / "staff", "desk.md", "Front desk", audience="staff")
    first = Ingester(db, embedder, settings).ingest_folders([root])
    assert sorted((r.slug, r.status) for r in first.results) == [
        ("desk", "created"),
        ("hours", "created"),
    ]
    embedded = embedder.passage_calls
    assert embedded > 0
    second = Ingester(db, embedder, settings).ingest_folders([root])
    assert {r.status for r in second.results} == {"unchanged"}
    assert embedder.passage_calls == embedded
    assert [r.chunks for r in second.results] == [r.chunks for r in first.results]


def test_heading_path_and_front_matter(
    db: dbm.Database, settings: Settings, tmp_path: Path
) -> None:
    write(tmp_path / "k" / "public", "hours.md", "Opening hours")
    Ingester(db, FakeEmbedder(), settings).ingest_folders([tmp_path / "k"])
    rows = chunk_rows(db)
    assert [r[1] for r in rows] == list(range(len(rows)))
    assert any(r[2] == "Opening hours > Parking" and "£2.50" in r[3] for r in rows)
    assert not any("owner:" in r[3] or "reviewed_on" in r[3] for r in rows)
    with db.engine.connect() as conn:
        reviewed = conn.execute(sa.text("SELECT reviewed_on::text FROM documents")).scalar()
    assert reviewed == "2026-10-01"


def test_editing_one_document_reembeds_only_that_one(
    db: dbm.Database, settings: Settings, tmp_path: Path, embedder: FakeEmbedder
) -> None:
    root = tmp_path / "k"
    write(root / "public", "hours.md", "Opening hours")
    write(root / "public", "fees.md", "Fees")
    Ingester(db, embedder, settings).ingest_folders([root])
    before = embedder.passage_calls
    write(root / "public", "fees.md", "Fees", extra="Saturday clinics run from 9:00 to 12:00.")
    report = Ingester(db, embedder, settings).ingest_folders([root])
    statuses = {r.slug: r.status for r in report.results}
    assert statuses == {"fees": "updated", "hours": "unchanged"}
    fees_chunks = next(r.chunks for r in report.results if r.slug == "fees")
    assert embedder.passage_calls - before == fees_chunks
    assert any("Saturday clinics" in r[3] for r in chunk_rows(db))


def test_deleting_a_file_removes_its_document_but_not_other_folders(
    db: dbm.Database, settings: Settings, tmp_path: Path
) -> None:
    a, b = tmp_path / "a" / "public", tmp_path / "b" / "public"
    write(a, "hours.md", "Opening hours")
    gone = write(a, "old.md", "Old leaflet")
    write(b, "fees.md", "Fees")
    ingester = Ingester(db, FakeEmbedder(), settings)
    ingester.ingest_folders([tmp_path / "a"])
    ingester.ingest_folders([tmp_path / "b"])
    gone.unlink()
    report = ingester.ingest_folders([tmp_path / "a"])
    assert {r.slug: r.status for r in report.results} == {"hours": "unchanged", "old": "removed"}
    assert {r[0] for r in chunk_rows(db)} == {"hours", "fees"}


def test_exception_mid_document_leaves_previous_version_intact(
    db: dbm.Database, settings: Settings, tmp_path: Path, embedder: FakeEmbedder
) -> None:
    root = tmp_path / "k"
    write(root / "public", "hours.md", "Opening hours")
    Ingester(db, embedder, settings).ingest_folders([root])
    before = chunk_rows(db)
    write(root / "public", "hours.md", "Opening hours", extra="NEW-TEXT We now open at 7:30.")
    embedder.fail_on = "NEW-TEXT"
    report = Ingester(db, embedder, settings).ingest_folders([root])
    assert [r.status for r in report.results] == ["failed"]
    assert chunk_rows(db) == before
    embedder.fail_on = None
    retry = Ingester(db, embedder, settings).ingest_folders([root])
    assert [r.status for r in retry.results] == ["updated"]


def test_a_write_failing_after_its_row_was_replaced_leaves_the_previous_version_intact(
    db: dbm.Database, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A document's statements go to the server in one round trip; one failing late (here
    the chunks' insert) rolls back the row written before it, and the next file still goes."""
    root = tmp_path / "k"
    write(root / "public", "hours.md", "Opening hours")
    Ingester(db, FakeEmbedder(), settings).ingest_folders([root])
    with db.engine.connect() as conn:
        stored = conn.execute(sa.text("SELECT title, content_hash FROM documents")).all()
    before = chunk_rows(db)
    write(root / "public", "hours.md", "Opening times", extra="We now open at 7:30.")
    write(root / "public", "parking.md", "Parking")
    monkeypatch.setattr(
        storage,
        "_INSERT_CHUNKS_SQL",
        "SELECT CAST(CASE WHEN %(slug)s = 'hours' THEN 'x' ELSE '1' END AS integer)",
    )
    report = Ingester(db, FakeEmbedder(), settings).ingest_folders([root])
    assert {r.slug: r.status for r in report.results} == {"hours": "failed", "parking": "created"}
    assert report.results[0].error == "unexpected error: DataError"  # as SQLAlchemy named it
    with db.engine.connect() as conn:
        assert (
            conn.execute(
                sa.text("SELECT title, content_hash FROM documents WHERE slug = 'hours'")
            ).all()
            == stored
        )
    assert [row for row in chunk_rows(db) if row[0] == "hours"] == before
    monkeypatch.undo()
    retry = Ingester(db, FakeEmbedder(), settings).ingest_folders([root])
    assert {r.slug: r.status for r in retry.results} == {"hours": "updated", "parking": "unchanged"}


def test_document_without_audience_is_refused_unless_told(
    db: dbm.Database, settings: Settings, tmp_path: Path
) -> None:
    folder = tmp_path / "loose"
    folder.mkdir()
    (folder / "memo.md").write_text("# Memo\n\nThe lift is out of order.\n", encoding="utf-8")
    ingester = Ingester(db, FakeEmbedder(), settings)
    report = ingester.ingest_folders([folder])
    assert report.results[0].status == "failed"
    assert "no audience declared" in (report.results[0].error or "")
    assert chunk_rows(db) == []
    told = ingester.ingest_folders([folder], audience="staff")
    assert told.results[0].status == "created"
    assert told.results[0].audience == "staff"


def test_conflicting_audience_fails_closed(
    db: dbm.Database, settings: Settings, tmp_path: Path
) -> None:
    write(tmp_path / "k" / "public", "rates.md", "Internal rates", audience="staff")
    report = Ingester(db, FakeEmbedder(), settings).ingest_folders([tmp_path / "k"])
    assert report.results[0].status == "failed"
    assert "conflicting audiences" in (report.results[0].error or "")


def test_bad_files_are_reported_and_the_rest_still_ingest(
    db: dbm.Database, settings: Settings, tmp_path: Path
) -> None:
    root = tmp_path / "k" / "public"
    write(root, "hours.md", "Opening hours")
    (root / "empty.md").write_text("", encoding="utf-8")
    (root / "notes.rtf").write_text("hello", encoding="utf-8")
    (root / "broken.pdf").write_bytes(b"%PDF-1.4 this is not really a pdf")
    report = Ingester(db, FakeEmbedder(), settings).ingest_folders([tmp_path / "k"])
    by_slug = {r.slug: r for r in report.results}
    assert by_slug["hours"].status == "created"
    for slug in ("empty", "notes", "broken"):
        assert by_slug[slug].status == "failed", slug
        assert by_slug[slug].error
    assert "empty" in (by_slug["empty"].error or "")
    assert ".rtf" in (by_slug["notes"].error or "")


def test_changing_the_chunking_settings_reembeds(
    db: dbm.Database, settings: Settings, tmp_path: Path
) -> None:
    write(tmp_path / "k" / "public", "hours.md", "Opening hours")
    Ingester(db, FakeEmbedder(), settings).ingest_folders([tmp_path / "k"])
    from engine.ops.settings import ChunkingSettings

    other = settings.replace(chunking=ChunkingSettings(target_words=100, max_words=200))
    report = Ingester(db, FakeEmbedder(), other).ingest_folders([tmp_path / "k"])
    assert [r.status for r in report.results] == ["updated"]


def test_ingest_is_audited(db: dbm.Database, settings: Settings, tmp_path: Path) -> None:
    write(tmp_path / "k" / "public", "hours.md", "Opening hours")
    Ingester(db, FakeEmbedder(), settings, user="amy").ingest_folders([tmp_path / "k"])
    with db.engine.connect() as conn:
        row = conn.execute(sa.text("SELECT username, action, details FROM audit_events")).one()
    assert row.username == "amy" and row.action == "ingest"
    assert row.details["changes"][0]["slug"] == "hours"


def test_a_failing_statistics_step_loses_neither_the_audit_event_nor_the_removals(
    db: dbm.Database, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run's end is one transaction; its optimisations run in savepoints, so one that
    fails (here the pending-list flush) leaves the removals and the audit event committed."""
    root = tmp_path / "k"
    write(root / "public", "hours.md", "Opening hours")
    fees = write(root / "public", "fees.md", "Fees")
    Ingester(db, FakeEmbedder(), settings).ingest_folders([root])
    fees.unlink()
    monkeypatch.setattr(storage, "_CLEAN_PENDING_SQL", "SELECT no_such_function()")
    report = Ingester(db, FakeEmbedder(), settings, user="amy").ingest_folders([root])
    assert [(r.slug, r.status) for r in report.results] == [
        ("hours", "unchanged"),
        ("fees", "removed"),
    ]
    assert {row[0] for row in chunk_rows(db)} == {"hours"}
    with db.engine.connect() as conn:
        audits = conn.execute(
            sa.text("SELECT username, details FROM audit_events ORDER BY id")
        ).all()
        analyzed = conn.execute(
            sa.text(
                "SELECT count(*) FROM pg_stat_user_tables WHERE relname = 'documents' "
                "AND last_analyze IS NOT NULL"
            )
        ).scalar_one()
    assert audits[-1].username == "amy"
    assert audits[-1].details["changes"] == [{"slug": "fees", "status": "removed", "error": None}]
    assert analyzed == 1  # the step before the failing one still took effect


def test_a_file_reingested_alone_is_still_removed_with_its_folder(
    db: dbm.Database, settings: Settings, tmp_path: Path
) -> None:
    root = tmp_path / "k"
    hours = write(root / "public", "hours.md", "Opening hours")
    write(root / "public", "fees.md", "Fees")
    ingester = Ingester(db, FakeEmbedder(), settings)
    ingester.ingest_folders([root])
    write(root / "public", "hours.md", "Opening hours", extra="Late opening on Thursdays.")
    alone = ingester.ingest_files([hours])
    assert [r.status for r in alone.results] == ["updated"]
    hours.unlink()
    report = ingester.ingest_folders([root])
    assert {r.slug: r.status for r in report.results} == {"fees": "unchanged", "hours": "removed"}


class _RecordingEmbedder(FakeEmbedder):
    """The fake embedder, remembering the first text of each batch in the order embedded."""

    def __init__(self) -> None:
        super().__init__()
        self.first_texts: list[str] = []

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        self.first_texts.append(texts[0])
        return super().embed_passages(texts)


FIDELITY = Path(__file__).resolve().parents[1] / "data" / "fidelity" / "public"


def test_the_cheapest_file_is_embedded_first_and_the_report_keeps_the_order_found(
    db: dbm.Database, settings: Settings, tmp_path: Path
) -> None:
    # Nothing hides the first file's read: a Word file found first held up the embedder for
    # its whole parse. The smallest text file goes first; the report still lists files as found.
    root = tmp_path / "k" / "public"
    root.mkdir(parents=True)
    shutil.copy(FIDELITY / "dispensary.docx", root / "a-dispensary.docx")
    write(root, "b-hours.md", "Opening hours", extra="Late opening on Thursdays. " * 40)
    write(root, "c-fees.md", "Fees")
    embedder = _RecordingEmbedder()
    report = Ingester(db, embedder, settings).ingest_folders([tmp_path / "k"])

    assert [r.slug for r in report.results] == ["a-dispensary", "b-hours", "c-fees"]
    assert [r.status for r in report.results] == ["created"] * 3
    assert embedder.first_texts[0].startswith("Fees")  # then the others as found
    assert "Dispensary" in embedder.first_texts[1]
    assert embedder.first_texts[2].startswith("Opening hours")
    assert {row[0] for row in chunk_rows(db)} == {"a-dispensary", "b-hours", "c-fees"}


def test_of_two_files_with_one_name_the_later_found_is_refused_even_when_it_is_cheaper(
    db: dbm.Database, settings: Settings, tmp_path: Path
) -> None:
    root = tmp_path / "k" / "public"
    write(root / "a", "fees.md", "Fees", extra="Our full price list follows. " * 40)
    write(root / "b", "fees.md", "Fees")  # the smaller: it would be read first if it could move
    report = Ingester(db, FakeEmbedder(), settings).ingest_folders([tmp_path / "k"])

    assert [(r.path.split("/public/")[1], r.status) for r in report.results] == [
        ("a/fees.md", "created"),
        ("b/fees.md", "failed"),
    ]
    assert "(fees.md) has the same name" in (report.results[1].error or "")


def test_the_same_file_given_twice_gets_two_results_and_one_document(
    db: dbm.Database, settings: Settings, tmp_path: Path
) -> None:
    hours = write(tmp_path / "k" / "public", "hours.md", "Opening hours")
    report = Ingester(db, FakeEmbedder(), settings).ingest_files([hours, hours])
    assert [r.status for r in report.results] == ["created", "failed"]
    assert {row[0] for row in chunk_rows(db)} == {"hours"}
