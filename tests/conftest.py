"""Session-wide fixtures: one real embedded PostgreSQL + pgvector per test session.

Each test that asks for ``db`` gets its own database cloned from a migrated template, so tests can
use several connections (booking races) and still start clean. Settings always point at a
temporary data folder: no test touches the user's real data or config.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from engine.ops import db as dbm
from engine.ops.settings import DatabaseSettings, Settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Never read a developer's own config file or data folder during tests (CLINIC_TEST_* are
# switches for the test run itself, e.g. CLINIC_TEST_PACKAGING=1).
for _name in list(os.environ):
    if _name.startswith("CLINIC_") and not _name.startswith("CLINIC_TEST_"):
        del os.environ[_name]

TEMPLATE_DB = "clinic_template"


@pytest.fixture(scope="session")
def pg_server_root() -> Iterator[Path]:
    root = Path(tempfile.mkdtemp(prefix="clinic-pg-"))
    root.chmod(0o755)  # the embedded server refuses private parents when run as root
    yield root
    dbm.embedded_server(Settings(data_dir=root)).release()  # the last client stops it
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_admin_url(pg_server_root: Path) -> str:
    """Admin URL of the session's embedded server, with a migrated template database."""
    settings = Settings(data_dir=pg_server_root)
    url = dbm.start_embedded_server(settings)
    admin_url = _with_db(url, "postgres")
    engine = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with engine.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{TEMPLATE_DB}"'))
        conn.execute(sa.text(f'CREATE DATABASE "{TEMPLATE_DB}"'))
    engine.dispose()
    template = dbm.Database(_with_db(admin_url, TEMPLATE_DB))
    dbm.upgrade(template)
    template.dispose()
    return admin_url


def _with_db(url: str, name: str) -> str:
    return sa.engine.make_url(url).set(database=name).render_as_string(hide_password=False)


@pytest.fixture
def database_url(pg_admin_url: str) -> Iterator[str]:
    """A fresh, migrated, empty database for one test."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(pg_admin_url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE_DB}"'))
    yield _with_db(pg_admin_url, name)
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def settings(tmp_path: Path, database_url: str) -> Settings:
    """Settings on a temporary data folder and this test's own database."""
    return Settings(data_dir=tmp_path / "data", database=DatabaseSettings(url=database_url))


@pytest.fixture
def db(settings: Settings) -> Iterator[dbm.Database]:
    database = dbm.open_database(settings)
    yield database
    database.dispose()


@pytest.fixture(scope="session")
def model_cache_dir() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="clinic-models-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)
