"""The run's first file is read while the run starts, with exactly the results of reading it in
turn: never a file ingest would refuse unread, a loader's failure reported as before, and a
cancelled read never used."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from engine.knowledge import read_ahead
from engine.knowledge.ingest import Ingester
from engine.knowledge.read_ahead import ReadAhead
from engine.ops import db as dbm
from engine.ops.settings import IngestSettings, Settings
from tests.support.fake_embedder import FakeEmbedder

FIDELITY = Path(__file__).resolve().parents[1] / "data" / "fidelity" / "public"
DOC = "---\ntitle: {title}\naudience: public\n---\n# {title}\n\n{body}\n"


class HeldExecutor:
    """Runs what is submitted only when told to, so a test can cancel first."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]] = []

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.jobs.append((future, fn, args))
        return future

    def run(self) -> None:
        for future, fn, args in self.jobs:
            try:
                future.set_result(fn(*args))
            except Exception as exc:
                future.set_exception(exc)


def loads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Record every file the read-ahead loads."""
    seen: list[Path] = []
    original = read_ahead.load_document

    def recording(path: Path, **kwargs: Any) -> Any:
        seen.append(path)
        return original(path, **kwargs)

    monkeypatch.setattr(read_ahead, "load_document", recording)
    return seen


def test_a_read_ahead_is_the_files_document_and_chunks(tmp_path: Path, settings: Settings) -> None:
    path = tmp_path / "hours.md"
    path.write_text(DOC.format(title="Hours", body="Open at 8."), encoding="utf-8")
    executor = HeldExecutor()
    ahead = ReadAhead(executor, path, str(path), settings)  # type: ignore[arg-type]
    executor.run()
    assert ahead.take(tmp_path / "other.md") is None  # another file: not this read
    early = ahead.take(path)
    assert early is not None and early.document.title == "Hours"
    assert [c.text for c in early.chunked()] == ["Open at 8."]
    assert ahead.take(path) is None  # taken once


def test_a_cancelled_read_ahead_stops_at_its_first_time_check_and_is_never_used(
    tmp_path: Path, settings: Settings
) -> None:
    path = tmp_path / "long.md"
    path.write_text(DOC.format(title="Long", body="A line.\n\n" * 5000), encoding="utf-8")
    executor = HeldExecutor()
    ahead = ReadAhead(executor, path, str(path), settings)  # type: ignore[arg-type]
    ahead.cancel()
    executor.run()
    [(future, _, _)] = executor.jobs
    assert "cancelled" in str(future.exception())
    assert ahead.take(path) is None


def test_a_file_over_the_size_limit_is_not_opened_ahead(
    db: dbm.Database, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = loads(monkeypatch)
    folder = tmp_path / "public"
    folder.mkdir()
    (folder / "big.md").write_text("# Big\n\n" + "word " * 300_000, encoding="utf-8")
    tight = settings.replace(ingest=IngestSettings(max_file_mb=1.0))
    [result] = Ingester(db, FakeEmbedder(), tight).ingest_folders([folder]).results
    assert result.status == "failed" and "max_file_mb" in (result.error or "")
    assert seen == []


def test_a_damaged_first_file_fails_as_it_would_in_any_place(
    db: dbm.Database, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = loads(monkeypatch)
    folder = tmp_path / "public"
    folder.mkdir()
    (folder / "a-broken.docx").write_bytes(b"PK\x03\x04 not really a zip")
    (folder / "z-broken.docx").write_bytes(b"PK\x03\x04 not really a zip")
    shutil.copy(FIDELITY / "dispensary.docx", folder / "m-dispensary.docx")  # the larger
    report = Ingester(db, FakeEmbedder(), settings).ingest_folders([folder])
    first, dispensary, last = report.results
    assert seen == [folder / "a-broken.docx"]  # read ahead (the cheapest); the others in turn
    assert (first.status, dispensary.status, last.status) == ("failed", "created", "failed")
    assert first.error == last.error.replace("z-broken", "a-broken")  # type: ignore[union-attr]
