"""The knowledge listing: documents with their on-disk status, and the embedding model in use."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import sqlalchemy as sa

from engine.knowledge.catalog import (
    STATUS_CHANGED,
    STATUS_MISSING,
    STATUS_OK,
    embedding_info,
    list_documents,
)
from engine.knowledge.ingest import Ingester
from engine.ops import db as dbm
from engine.ops.settings import Settings
from tests.support.fake_embedder import FakeEmbedder

PARK = "Parking is behind the building."


def write(folder: Path, name: str, title: str, body: str = PARK) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f"---\naudience: public\nreviewed: 2025-03-01\n---\n# {title}\n\n{body}\n")
    return path


def test_lists_documents_with_chunks_and_disk_status(
    db: dbm.Database, settings: Settings, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    parking = write(docs, "parking.md", "Parking")
    fees = write(docs, "fees.md", "Fees <b>2025</b>", "A repeat prescription costs nothing.")
    hours = write(docs, "hours.md", "Opening hours", "We open at 8:00.")
    Ingester(db, FakeEmbedder(), settings, user="alice").ingest_folders([docs])

    parking.write_text(parking.read_text() + "\nBlue badge bays are by the door.\n")
    hours.unlink()

    listed = {d.slug: d for d in list_documents(db, settings)}
    assert set(listed) == {"parking", "fees", "hours"}
    assert listed["fees"].status == STATUS_OK
    assert listed["fees"].title == "Fees 2025"  # Markdown is read as a reader sees it
    assert listed["fees"].chunks >= 1
    assert listed["fees"].audience == "public"
    assert listed["fees"].ingested_by == "alice"
    assert listed["parking"].status == STATUS_CHANGED
    assert listed["hours"].status == STATUS_MISSING
    assert fees.exists()


def test_without_settings_a_newer_file_counts_as_changed(
    db: dbm.Database, settings: Settings, tmp_path: Path
) -> None:
    path = write(tmp_path / "docs", "parking.md", "Parking")
    Ingester(db, FakeEmbedder(), settings).ingest_folders([tmp_path / "docs"])
    assert [d.status for d in list_documents(db)] == [STATUS_OK]
    with db.session() as session:
        session.execute(sa.text("UPDATE documents SET ingested_at = now() - interval '1 day'"))
    path.touch()
    assert [d.status for d in list_documents(db)] == [STATUS_CHANGED]


def test_embedding_info_prefers_the_measured_floor(db: dbm.Database, settings: Settings) -> None:
    before = embedding_info(db, settings)
    assert before.model_name == settings.embedding.model
    assert before.similarity_floor == settings.similarity_floor  # configured; nothing recorded yet

    dbm.check_embedding_model(db, "fake/hash-embedder", 384)
    assert embedding_info(db, settings).similarity_floor is None  # no floor known for that model

    calibrated = dt.datetime(2025, 3, 1, 9, 30, tzinfo=dt.UTC)
    with db.session() as session:
        session.execute(
            sa.text(
                "UPDATE embedding_config SET similarity_floor = 0.52, floor_calibrated_at = :t"
            ),
            {"t": calibrated},
        )
    info = embedding_info(db, settings)
    assert (info.model_name, info.dimension) == ("fake/hash-embedder", 384)
    assert info.similarity_floor == 0.52
    assert info.calibrated_at == calibrated
