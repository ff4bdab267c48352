"""`clinic-assistant db backup` writes a dump that pg_restore can read back."""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

import pytest

from engine.ops import db as dbm
from engine.ops.cli import cmd_db
from engine.ops.settings import Settings


def test_backup_writes_a_restorable_dump(
    db: dbm.Database, settings: Settings, tmp_path: Path
) -> None:
    target = tmp_path / "backup.dump"
    status = cmd_db(argparse.Namespace(db_command="backup", file=str(target)), settings)
    assert status == 0
    listing = subprocess.run(
        [str(dbm.pg_tool("pg_restore")), "--list", str(target)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert "TABLE public chunks" in listing
    assert "INDEX public chunks_embedding_hnsw" in listing


def test_backup_to_an_unwritable_place_fails_with_words(
    db: dbm.Database, settings: Settings, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    status = cmd_db(
        argparse.Namespace(db_command="backup", file=str(blocker / "sub" / "b.dump")), settings
    )
    assert status == 1
    assert "cannot write the backup" in capsys.readouterr().err
