"""The data folder the product creates holds the database, logs and backups: other local users
can neither list nor change it. A folder IT chose and made keeps its mode."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from engine.errors import ConfigError
from engine.ops.preflight import check_data_dir


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_data_folder_is_closed_to_other_users(tmp_path: Path) -> None:
    target = tmp_path / "share" / "clinic-assistant"
    check_data_dir(target)
    assert target.is_dir()
    assert mode(target) & 0o066 == 0, oct(mode(target))  # no read/list, no write for others
    assert mode(target) & 0o700 == 0o700


def test_an_existing_folder_keeps_the_mode_it_was_given(tmp_path: Path) -> None:
    shared = tmp_path / "clinic-data"
    shared.mkdir()
    shared.chmod(0o750)
    check_data_dir(shared)
    assert mode(shared) == 0o750


def test_a_file_where_the_folder_should_be_is_one_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("not a folder", encoding="utf-8")
    with pytest.raises(ConfigError, match="cannot be written"):
        check_data_dir(blocker)
    assert blocker.read_text(encoding="utf-8") == "not a folder"
