"""Checks run once at start, before anything is opened: a writable data folder, a well-formed DSN.

The command line and both apps call :func:`check_start` right after the settings load. A data
folder that cannot be written (read-only, not a folder, no permission) or a database URL that is
not a PostgreSQL URL ends the program with ONE sentence and a non-zero exit, instead of a
traceback from deep inside logging, the embedded server or SQLAlchemy. An unreachable server is
not checked here: that is ``DatabaseUnavailable`` when the database is first used (the apps retry).

This module must never print or put a password into a message, and never start a server.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import sqlalchemy as sa

from engine.errors import ConfigError
from engine.ops.settings import Settings

DSN_EXAMPLE = "postgresql://user:password@host:5432/clinic_assistant"


def check_data_dir(path: Path) -> None:
    """ConfigError unless ``path`` is (or can be made) a folder this process can write.

    A folder this creates is private (0700; 0711 as root, so the embedded server's own user can
    pass through to its database folder): it holds the database, logs and backups. A folder that
    already exists keeps its mode (``doctor`` reports one other users can read, with the fix)."""
    try:
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.mkdir(mode=0o711 if _is_root() else 0o700, exist_ok=True)
        handle, probe = tempfile.mkstemp(prefix=".write-check-", dir=path)
        os.close(handle)
        os.unlink(probe)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ConfigError(
            f"The data folder {path} cannot be written ({reason}); choose another with "
            "--data-dir or CLINIC_DATA_DIR, or fix its permissions."
        ) from None


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def check_database_url(url: str) -> None:
    """ConfigError unless ``url`` is empty (embedded server) or a parseable PostgreSQL URL."""
    url = url.strip()
    if not url:
        return
    problem = "is not a PostgreSQL URL"
    try:
        parsed = sa.engine.make_url(url)
        if parsed.drivername.split("+")[0] in ("postgresql", "postgres"):
            _ = parsed.port  # may raise for a non-numeric port
            if parsed.database or parsed.query.get("dbname"):
                return
            problem = "names no database"
    except (sa.exc.ArgumentError, ValueError, TypeError):
        pass
    raise ConfigError(
        f"The database URL ([database] url or CLINIC_DATABASE_URL) {problem}; use the form "
        f"{DSN_EXAMPLE}."
    )


def check_start(settings: Settings) -> None:
    """Both checks, data folder first (the log goes there)."""
    check_data_dir(settings.data_dir)
    if settings.log_folder is not None and settings.log_folder != settings.data_dir / "logs":
        check_data_dir(settings.log_folder)
    check_database_url(settings.database.url)
