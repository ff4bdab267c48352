"""A database left by every released version upgrades to the current schema without data loss.

Each ``tests/data/release-<version>.sql`` is a pg_dump of that release's schema with sample rows
(written by ``scripts/snapshot_release_schema.py``); add one per release.
"""

from __future__ import annotations

import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from engine.models import Base
from engine.ops import db as dbm

SNAPSHOTS = sorted((Path(__file__).parent.parent / "data").glob("release-*.sql"))
TABLES = (
    "documents",
    "chunks",
    "answers",
    "staff_users",
    "departments",
    "clinicians",
    "slots",
    "appointments",
)


@pytest.fixture
def empty_database(pg_admin_url: str) -> Iterator[str]:
    name = f"m_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(pg_admin_url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    yield sa.engine.make_url(pg_admin_url).set(database=name).render_as_string(hide_password=False)
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def restore(url: str, snapshot: Path) -> None:
    parsed = sa.engine.make_url(url)
    subprocess.run(
        [
            str(dbm.pg_tool("psql")),
            "--quiet",
            "-v",
            "ON_ERROR_STOP=1",
            "--host",
            str(parsed.query["host"]),
            "--username",
            parsed.username or "postgres",
            "--dbname",
            str(parsed.database),
            "--file",
            str(snapshot),
        ],
        check=True,
        capture_output=True,
    )


def counts(database: dbm.Database) -> dict[str, int]:
    with database.engine.connect() as conn:
        return {
            t: int(conn.execute(sa.text(f"SELECT count(*) FROM {t}")).scalar_one()) for t in TABLES
        }


def test_there_is_a_snapshot_of_the_current_release() -> None:
    assert any(p.name == "release-0.1.0.sql" for p in SNAPSHOTS)


@pytest.mark.parametrize("snapshot", SNAPSHOTS, ids=lambda p: p.stem)
def test_release_database_upgrades_without_data_loss(empty_database: str, snapshot: Path) -> None:
    restore(empty_database, snapshot)
    database = dbm.Database(empty_database)
    before = counts(database)
    assert all(before[t] > 0 for t in TABLES), before
    dbm.upgrade(database)
    assert dbm.current_revision(database) == dbm.head_revision()
    assert counts(database) == before
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    with database.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
        reference = conn.execute(sa.text("SELECT reference FROM appointments")).scalar()
        hnsw = conn.execute(
            sa.text("SELECT indexdef FROM pg_indexes WHERE indexname = 'chunks_embedding_hnsw'")
        ).scalar()
    assert reference == "CL-7K2M9Q"
    assert hnsw and "hnsw" in hnsw
    database.dispose()
