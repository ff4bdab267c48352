"""The doctor's database checks: reachable (the password never printed), PostgreSQL and pgvector
recent enough, the schema at this version's revision (or upgradable by this role), and the
embedding model the database was built with (read for the embedding and floor checks).

It must never change the database: no migrations, no writes, one short-lived connection pool
disposed of before it returns.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic.script import ScriptDirectory

from engine.errors import ClinicError
from engine.ops import db as dbm
from engine.ops.doctor.report import Check
from engine.ops.settings import Settings

MIN_POSTGRES = 15
MIN_PGVECTOR = (0, 5, 0)  # HNSW indexes


def _version_tuple(text: str) -> tuple[int, ...]:
    parts = []
    for piece in text.split("."):
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


def _check_server(conn: sa.Connection) -> list[Check]:
    checks: list[Check] = []
    number = int(conn.execute(sa.text("SHOW server_version_num")).scalar_one())
    shown: str = conn.execute(sa.text("SHOW server_version")).scalar_one()
    major = number // 10000
    checks.append(
        Check(
            "postgresql",
            major >= MIN_POSTGRES,
            major < MIN_POSTGRES,
            f"PostgreSQL {shown}",
            "" if major >= MIN_POSTGRES else f"Upgrade the server to PostgreSQL {MIN_POSTGRES}+.",
        )
    )
    installed = conn.execute(
        sa.text("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
    ).scalar()
    available = conn.execute(
        sa.text("SELECT default_version FROM pg_available_extensions WHERE name = 'vector'")
    ).scalar()
    version = installed or available
    if version is None:
        checks.append(
            Check(
                "pgvector",
                False,
                True,
                "the pgvector extension is not available on this server",
                "Install pgvector 0.5+ on the database server (package postgresql-NN-pgvector).",
            )
        )
    else:
        good = _version_tuple(str(version)) >= MIN_PGVECTOR
        state = "installed" if installed else "available, not yet created"
        checks.append(
            Check(
                "pgvector",
                good,
                not good,
                f"pgvector {version} ({state})",
                "" if good else "Upgrade pgvector to 0.5 or later (HNSW indexes).",
            )
        )
    return checks


def _can_migrate(conn: sa.Connection) -> bool:
    return bool(
        conn.execute(
            sa.text(
                "SELECT rolsuper OR has_schema_privilege('public', 'CREATE') "
                "FROM pg_roles WHERE rolname = current_user"
            )
        ).scalar()
    )


def _check_schema(db: dbm.Database) -> Check:
    head = dbm.head_revision()
    current = dbm.current_revision(db)
    if current == head:
        return Check("schema", True, False, f"at revision {head} (latest)", "")
    known = {
        script.revision
        for script in ScriptDirectory.from_config(dbm.alembic_config()).walk_revisions()
    }
    if current is not None and current not in known:
        return Check(
            "schema",
            False,
            True,
            f"the database is at revision {current}, which this version does not know "
            f"(its latest is {head}): the database was upgraded by a newer version",
            "Install the same Clinic Assistant version on this machine as on the others.",
        )
    with db.engine.connect() as conn:
        upgradable = _can_migrate(conn)
    detail = f"at revision {current or 'nothing'}, this version needs {head}"
    if upgradable:
        return Check(
            "schema",
            False,
            False,
            detail + " (applied automatically when an app starts)",
            "Run 'clinic-assistant db upgrade' now to apply it once, as IT.",
        )
    return Check(
        "schema",
        False,
        True,
        detail + "; this database role cannot apply migrations",
        "Run 'clinic-assistant db upgrade' with the owner's DSN, then 'db init-roles' again.",
    )


def _recorded_model(db: dbm.Database) -> Any:
    with db.engine.connect() as conn:
        return conn.execute(
            sa.text(
                "SELECT model_name, dimension, similarity_floor, floor_calibrated_at "
                "FROM embedding_config WHERE id = 1"
            )
        ).first()


def _database_checks(settings: Settings) -> tuple[list[Check], Any]:
    try:
        url = dbm.database_url(settings)
        database = dbm.Database(url, pool_size=1, connect_timeout=settings.database.connect_timeout)
    except ClinicError as exc:
        return [_database_down(settings, str(exc))], None
    except Exception as exc:  # a malformed DSN
        return [_database_down(settings, f"the database URL is not valid: {exc}")], None
    try:
        try:
            database.ping()
        except ClinicError as exc:
            cause = exc.__cause__
            reason = getattr(cause, "orig", cause) or exc
            return [_database_down(settings, f"{dbm.redact(url)}: {reason}".strip())], None
        checks = [Check("database", True, True, f"reachable at {dbm.redact(url)}", "")]
        with database.engine.connect() as conn:
            checks.extend(_check_server(conn))
        schema = _check_schema(database)
        checks.append(schema)
        recorded = None
        if schema.ok or not schema.blocking:
            try:
                recorded = _recorded_model(database)
            except sa.exc.ProgrammingError:
                recorded = None  # no schema yet
        return checks, recorded
    finally:
        database.dispose()


def _database_down(settings: Settings, detail: str) -> Check:
    if settings.database.url:
        fix = (
            "Check [database] url (or CLINIC_DATABASE_URL): host, port, database name, user and "
            "password; that the server is running; and that pg_hba.conf admits this machine."
        )
    else:
        fix = (
            f"The embedded database in {settings.pgdata_dir} did not start: read "
            f"{settings.pgdata_dir / 'log'}, and check the folder is writable."
        )
    return Check("database", False, True, f"cannot connect: {detail}", fix)
