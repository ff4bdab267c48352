"""What is indexed: the documents table with on-disk status, and the embedding model in use.

A small, Qt-free query helper for the staff app's Knowledge tab and the command line. It only
reads: ingesting and removing documents is ``engine.knowledge.ingest``'s job. Rows never leave this
module; it returns frozen dataclasses.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import sqlalchemy as sa

from engine.errors import ConfigError
from engine.knowledge.ingest.identity import content_hash
from engine.ops import db as dbm
from engine.ops.settings import Settings

STATUS_OK = "ok"
STATUS_MISSING = "file missing"
STATUS_CHANGED = "changed on disk"


@dataclass(frozen=True)
class DocumentInfo:
    slug: str
    title: str
    audience: str
    chunks: int
    reviewed_on: dt.date | None
    ingested_at: dt.datetime
    source_path: str
    status: str  # STATUS_OK | STATUS_MISSING | STATUS_CHANGED
    ingested_by: str | None = None
    warnings: tuple[str, ...] = ()  # what the loader changed or guessed, stored at ingest


class EmbeddingInfo(NamedTuple):
    model_name: str
    dimension: int
    similarity_floor: float | None
    calibrated_at: dt.datetime | None


def list_documents(db: dbm.Database, settings: Settings | None = None) -> list[DocumentInfo]:
    """Every document, by title. With ``settings``, "changed on disk" compares content hashes
    exactly as ingest would; without, it compares the file's modification time."""
    with db.session() as session:
        rows = session.execute(
            sa.text(
                "SELECT d.slug, d.title, d.audience, d.reviewed_on, d.ingested_at, d.source_path, "
                "d.content_hash, d.ingested_by, d.loader_warnings, "
                "(SELECT count(*) FROM chunks c WHERE c.document_id = d.id) AS n "
                "FROM documents d ORDER BY lower(d.title), d.slug"
            )
        ).all()
        model = session.execute(
            sa.text("SELECT model_name FROM embedding_config WHERE id = 1")
        ).scalar()
    return [
        DocumentInfo(
            slug=row.slug,
            title=row.title,
            audience=row.audience,
            chunks=int(row.n),
            reviewed_on=row.reviewed_on,
            ingested_at=row.ingested_at,
            source_path=row.source_path,
            status=_disk_status(row, settings, model),
            ingested_by=row.ingested_by,
            warnings=tuple(str(w) for w in (row.loader_warnings or [])),
        )
        for row in rows
    ]


def _disk_status(row: sa.Row[tuple[object, ...]], settings: Settings | None, model: object) -> str:
    path = Path(str(row.source_path))
    try:
        if not path.is_file():
            return STATUS_MISSING
        if settings is not None and isinstance(model, str):
            digest = content_hash(
                path.read_bytes(),
                slug=str(row.slug),
                audience=str(row.audience),
                settings=settings,
                model_name=model,
            )
            return STATUS_OK if digest == row.content_hash else STATUS_CHANGED
        modified = dt.datetime.fromtimestamp(path.stat().st_mtime, tz=dt.UTC)
        ingested = row.ingested_at
        if isinstance(ingested, dt.datetime) and modified > ingested:
            return STATUS_CHANGED
        return STATUS_OK
    except OSError:
        return STATUS_MISSING


def embedding_info(db: dbm.Database, settings: Settings) -> EmbeddingInfo:
    """The model the stored vectors were made with, and the similarity floor answers use.

    The floor measured by the evaluation command (stored in the database) wins; otherwise the
    configured floor for that model; ``None`` when neither exists.
    """
    with db.session() as session:
        row = session.execute(
            sa.text(
                "SELECT model_name, dimension, similarity_floor, floor_calibrated_at "
                "FROM embedding_config WHERE id = 1"
            )
        ).first()
    if row is None:
        model = settings.embedding.model
        return EmbeddingInfo(model, 0, _configured_floor(settings, model), None)
    floor = row.similarity_floor
    if floor is None:
        floor = _configured_floor(settings, row.model_name)
    return EmbeddingInfo(row.model_name, int(row.dimension), floor, row.floor_calibrated_at)


def _configured_floor(settings: Settings, model: str) -> float | None:
    try:
        return settings.retrieval.similarity_floor(model)
    except ConfigError:
        return None
