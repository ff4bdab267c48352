"""Private files: logs, backups and exports readable by this installation's user only.

Decides the modes: folders we create for such files are 0700, the files in them 0600 (a backup
holds password hashes and every appointment; a log may hold an error about a booking). Also
reports, for ``doctor``, any such folder or file that other users can read, with the command
that fixes it.

Must never: loosen a mode, or change the mode of a folder it did not create except the ones
this module names as private (logs, backups).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

FOLDER_MODE = 0o700
FILE_MODE = 0o600


def private_folder(path: Path) -> Path:
    """Create ``path`` (and missing parents) and make it 0700. Returns it."""
    path.mkdir(parents=True, exist_ok=True, mode=FOLDER_MODE)
    if stat.S_IMODE(path.stat().st_mode) & 0o077:
        path.chmod(FOLDER_MODE)
    return path


def open_private(path: Path, flags: int = os.O_WRONLY | os.O_APPEND | os.O_CREAT) -> int:
    """Open (creating 0600) a file descriptor; an existing file is narrowed to 0600 too."""
    fd = os.open(path, flags, FILE_MODE)
    os.fchmod(fd, FILE_MODE)
    return fd


def narrow(path: Path) -> None:
    """Make an existing file 0600 (after a tool such as pg_dump wrote it)."""
    path.chmod(FILE_MODE)


def exposed(paths: Iterable[Path]) -> list[str]:
    """``path mode`` for each folder or file other users can read, write or enter."""
    found = []
    for path in paths:
        try:
            mode = stat.S_IMODE(path.lstat().st_mode)
        except OSError:
            continue
        if mode & 0o077:
            found.append(f"{path} {mode:04o}")
    return found


def tree(folder: Path) -> list[Path]:
    """A folder and the files directly in it (logs and backups are flat)."""
    if not folder.is_dir():
        return []
    return [folder, *sorted(p for p in folder.iterdir() if p.is_file())]
