"""The doctor's checks of this machine's folders: the log folder writable, the embedded server's
socket in a private 0700 folder (peer sign-in only), and logs, backups and the data folder not
readable by other users, each with the command that fixes it.

It must never change a permission or start the server; it reports, and the fix says what to run.
Its only writes are the log folder, created if missing, and a probe file in it, removed at once.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from engine.ops import private_files
from engine.ops.doctor.report import Check
from engine.ops.settings import Settings


def _check_logs(settings: Settings) -> Check:
    folder = settings.log_dir
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-", delete=True) as probe:
            probe.write(b"ok")
    except OSError as exc:
        return Check(
            "logs",
            False,
            False,
            f"{folder} is not writable: {exc}",
            "Make the folder writable for this user, or move the data with --data-dir.",
        )
    return Check("logs", True, False, f"{folder} is writable", "")


def _check_socket(settings: Settings) -> Check:
    """The embedded server's socket: a 0700 folder owned by its user, peer rules only."""
    name = "database socket"
    if settings.database.url.strip():
        return Check(name, True, False, "a shared server: who connects is its pg_hba.conf's rule")
    if os.name != "posix":  # pragma: no cover
        return Check(name, True, False, "not checked on this system")
    from engine.ops import embedded_pg

    pgdata = settings.pgdata_dir.resolve()
    info = embedded_pg.read_pid_file(pgdata)
    restart = (
        "Close every clinic app on this machine and start one again: the embedded server then "
        "restarts with a private socket (docs/deployment.md)."
    )
    if info is None or not info.socket_dir:
        return Check(name, True, False, "the embedded server is not running (checked at start)")
    folder = Path(info.socket_dir)
    problems = embedded_pg.socket_problems(pgdata, folder)
    if problems:
        return Check(name, False, False, f"{folder}: {'; '.join(problems)}", restart)
    return Check(name, True, False, f"{folder} is 0700, owned by the server; peer sign-in only")


def _check_private_files(settings: Settings) -> list[Check]:
    """Logs and backups: 0600 files in 0700 folders; the data folder not readable by others."""
    checks = []
    for name, folder in (
        ("log files", settings.log_dir),
        ("backups", settings.data_dir / "backups"),
    ):
        loose = private_files.exposed(private_files.tree(folder))
        if loose:
            checks.append(
                Check(
                    name,
                    False,
                    False,
                    f"readable by other users: {', '.join(loose[:3])}"
                    + (f" and {len(loose) - 3} more" if len(loose) > 3 else ""),
                    f"chmod 700 '{folder}' && chmod 600 '{folder}'/*",
                )
            )
        else:
            checks.append(Check(name, True, False, f"{folder}: files 0600 in a 0700 folder"))
    data = settings.data_dir
    try:
        mode = stat.S_IMODE(data.stat().st_mode)
    except OSError:
        return checks
    if mode & 0o066:
        wanted = "711" if os.geteuid() == 0 else "700"
        checks.append(
            Check(
                "data folder",
                False,
                False,
                f"{data} is {mode:04o}: other users can list or change it",
                f"chmod {wanted} '{data}'",
            )
        )
    else:
        checks.append(Check("data folder", True, False, f"{data} is {mode:04o}"))
    return checks
