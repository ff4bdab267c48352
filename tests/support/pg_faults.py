"""Fault injection for the embedded server: crash it, find it, add client processes."""

from __future__ import annotations

import subprocess
import sys
import time

import psutil

from engine.ops import embedded_pg
from engine.ops.settings import Settings

#: A child process that joins (or starts) the embedded server and stays until killed or done.
CHILD = (
    "import sys, time\n"
    "from pathlib import Path\n"
    "from engine.ops import db\n"
    "from engine.ops.settings import Settings\n"
    "db.start_embedded_server(Settings(data_dir=Path(sys.argv[1])))\n"
    "print('ready', flush=True)\n"
    "time.sleep(float(sys.argv[2]))\n"
)


def postmaster(settings: Settings) -> psutil.Process | None:
    """The data folder's live postmaster, identity-checked, or None."""
    pgdata = settings.pgdata_dir.resolve()
    uid = embedded_pg.server_user().uid
    return embedded_pg.postmaster_process(pgdata, embedded_pg.read_pid_file(pgdata), uid)


def kill_postmaster(settings: Settings) -> None:
    """Crash the server as a power cut would: SIGKILL the postmaster, wait for it to go."""
    proc = postmaster(settings)
    assert proc is not None
    proc.kill()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if proc.status() == psutil.STATUS_ZOMBIE:
                break
        except psutil.NoSuchProcess:
            break
        time.sleep(0.05)
    # Backends notice the postmaster's death and exit; wait until none holds the data folder.
    while time.monotonic() < deadline and _backends(settings):
        time.sleep(0.05)


def _backends(settings: Settings) -> list[psutil.Process]:
    path = str(settings.pgdata_dir.resolve())
    found = []
    for proc in psutil.process_iter(["name", "cmdline"]):
        if proc.info["name"] == "postgres" and path in (proc.info["cmdline"] or []):
            found.append(proc)
    return found


def start_child(settings: Settings, seconds: float) -> subprocess.Popen[str]:
    """A separate client process that joins the server; returns once it has."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(settings.data_dir), str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    line = child.stdout.readline().strip()
    child.stdout.close()
    assert line == "ready"
    return child
