"""Ingest survives hostile files (issue #10, "Hostile files"): every file gets one clean result.

One generated folder holds every trap a tester tried (alias bombs, NUL bytes, UTF-16 without a
mark, a bad date, quadratic Markdown, a 2 MB word, a 5,000-row table, a million lines, long and
non-UTF-8 names, links out of the folder, loops, dangling links, a FIFO). The run must finish,
report each file once (nothing lost), fail the bad ones with words a person can act on, keep the
good ones, bound every chunk, and log no traceback. Concurrent ingests are refused by the lock.
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa

from engine.knowledge.chunking import max_chars
from engine.knowledge.documents import display_path
from engine.knowledge.ingest import Ingester
from engine.knowledge.ingest.storage import INGEST_LOCK_KEY, IngestBusy
from engine.ops import db as dbm
from engine.ops.settings import IngestSettings, Settings
from tests.reliability import hostile_files
from tests.support.fake_embedder import FakeEmbedder


def _chunks(db: dbm.Database) -> list[tuple[str, str, str]]:
    with db.engine.connect() as conn:
        rows = conn.execute(
            sa.text(
                "SELECT d.slug, c.heading_path, c.text FROM chunks c "
                "JOIN documents d ON d.id = c.document_id"
            )
        ).all()
    return [(r[0], r[1], r[2]) for r in rows]


@pytest.fixture
def hostile(tmp_path: Path) -> tuple[Path, dict[bytes, hostile_files.Trap]]:
    folder = tmp_path / "knowledge" / "public"
    return folder, hostile_files.build(folder, tmp_path / "elsewhere")


def test_every_hostile_file_gets_one_clean_result_and_good_ones_are_kept(
    db: dbm.Database,
    settings: Settings,
    hostile: tuple[Path, dict[bytes, hostile_files.Trap]],
    caplog: pytest.LogCaptureFixture,
) -> None:
    folder, traps = hostile
    caplog.set_level(logging.INFO)
    report = Ingester(db, FakeEmbedder(), settings).ingest_folders([folder])

    by_path = {r.path: r for r in report.results}
    assert len(by_path) == len(report.results)  # one result per file
    for name, trap in traps.items():
        shown = display_path(os.fsencode(folder) + b"/" + name)
        assert shown in by_path, f"{shown} was lost: no result at all"
        result = by_path[shown]
        if trap.expect == "created":
            assert result.status == "created", (name, result.error)
        else:
            assert result.status == "failed", name
            assert trap.expect in (result.error or ""), (name, result.error)
    assert len(report.results) == len(traps)  # nothing extra, nothing missing

    # No traceback for any file, and no document text in the log.
    assert not [r for r in caplog.records if r.exc_info]
    assert "Traceback" not in caplog.text
    assert "secret-host-name" not in caplog.text

    chunks = _chunks(db)
    limit = max_chars(settings.chunking)
    assert all(len(text) <= limit for _, _, text in chunks)
    assert all(len(text.split()) <= settings.chunking.max_words for _, _, text in chunks)
    assert not any("secret-host-name" in text for _, _, text in chunks)
    assert all(len(path) < 1_000 for _, path, _ in chunks)  # titles and headings capped

    table = [text for slug, _, text in chunks if slug == "big-table"]
    assert len(table) > 10
    assert all(text.startswith("Item | Price\n") for text in table)


def test_the_alias_bomb_is_refused_with_a_message_not_expanded(
    db: dbm.Database, settings: Settings, tmp_path: Path
) -> None:
    folder = tmp_path / "public"
    folder.mkdir()
    bomb = hostile_files._alias_bomb()
    assert len(bomb.encode()) < 600
    (folder / "bomb.md").write_text(bomb, encoding="utf-8")
    (folder / "good.md").write_text(
        hostile_files.GOOD.format(title="Good", body="Kept."), encoding="utf-8"
    )
    report = Ingester(db, FakeEmbedder(), settings).ingest_folders([folder])
    statuses = {r.slug: (r.status, r.error) for r in report.results}
    assert statuses["good"] == ("created", None)
    assert statuses["bomb"][0] == "failed"
    assert "anchors or aliases" in (statuses["bomb"][1] or "")


def test_file_size_time_and_passage_limits_fail_one_file_with_the_setting_named(
    db: dbm.Database, settings: Settings, tmp_path: Path
) -> None:
    folder = tmp_path / "public"
    folder.mkdir()
    (folder / "big.md").write_text("# Big\n\n" + "word " * 300_000, encoding="utf-8")
    tight = settings.replace(ingest=IngestSettings(max_file_mb=1.0))
    [result] = Ingester(db, FakeEmbedder(), tight).ingest_folders([folder]).results
    assert result.status == "failed" and "max_file_mb" in (result.error or "")

    slow = settings.replace(ingest=IngestSettings(max_seconds_per_file=1e-9))
    [result] = Ingester(db, FakeEmbedder(), slow).ingest_folders([folder]).results
    assert result.status == "failed" and "max_seconds_per_file" in (result.error or "")

    few = settings.replace(ingest=IngestSettings(max_chunks_per_document=3))
    [result] = Ingester(db, FakeEmbedder(), few).ingest_folders([folder]).results
    assert result.status == "failed" and "max_chunks_per_document" in (result.error or "")

    [result] = Ingester(db, FakeEmbedder(), settings).ingest_folders([folder]).results
    assert result.status == "created"


def test_a_second_ingest_while_one_runs_is_refused_with_a_clear_message(
    db: dbm.Database, settings: Settings, tmp_path: Path
) -> None:
    folder = tmp_path / "public"
    folder.mkdir()
    (folder / "hours.md").write_text(
        hostile_files.GOOD.format(title="Hours", body="Open at 8."), encoding="utf-8"
    )
    with db.engine.connect() as other:  # another process holding the ingest lock
        other.execute(sa.text("SELECT pg_advisory_lock(:k)"), {"k": INGEST_LOCK_KEY})
        with pytest.raises(IngestBusy, match="Another ingest is running"):
            Ingester(db, FakeEmbedder(), settings).ingest_folders([folder])
        other.execute(sa.text("SELECT pg_advisory_unlock(:k)"), {"k": INGEST_LOCK_KEY})
    report = Ingester(db, FakeEmbedder(), settings).ingest_folders([folder])
    assert [r.status for r in report.results] == ["created"]


def test_two_ingests_of_a_new_folder_at_once_never_raise_integrity_errors(
    db: dbm.Database, settings: Settings, tmp_path: Path
) -> None:
    folder = tmp_path / "public"
    folder.mkdir()
    for i in range(20):
        (folder / f"doc{i}.md").write_text(
            hostile_files.GOOD.format(title=f"Doc {i}", body=f"Fact {i}."), encoding="utf-8"
        )
    outcomes: list[str] = []
    start = threading.Barrier(2)

    def run() -> None:
        start.wait()
        try:
            report = Ingester(db, FakeEmbedder(), settings).ingest_folders([folder])
            outcomes.append("failed" if report.failed else "ok")
        except IngestBusy:
            outcomes.append("busy")

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert "failed" not in outcomes and "ok" in outcomes
    with db.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM documents")).scalar() == 20
