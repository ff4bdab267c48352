"""Fixtures for the fault tests: each test gets its own embedded server in its own data folder.

A data folder is copied (``cp -a``, keeping the server user's ownership) from one cluster made
once per session, so a test pays a server start (~0.3 s), not an initdb (~3 s).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engine.ops import db as dbm
from engine.ops.settings import Settings
from tests.support.pg_faults import postmaster

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the private socket is POSIX only")


@pytest.fixture(scope="session")
def reliability_root() -> Iterator[Path]:
    root = Path(tempfile.mkdtemp(prefix="clinic-rel-"))
    root.chmod(0o755)  # as root, the server's own user must traverse to the data folder
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def template_pgdata(reliability_root: Path) -> Path:
    """A stopped, initialized data folder (made by the product's own start path)."""
    settings = Settings(data_dir=reliability_root / "template")
    dbm.start_embedded_server(settings)
    dbm.embedded_server(settings).release()
    assert postmaster(settings) is None
    return settings.pgdata_dir


@pytest.fixture
def make_data_dir(
    reliability_root: Path, template_pgdata: Path
) -> Iterator[Callable[[str], Settings]]:
    """``make_data_dir(name)``: a data folder ``name`` (may hold spaces, non-ASCII, many
    characters) with an initialized but stopped cluster; its server is stopped afterwards."""
    made: list[Settings] = []

    def make(name: str) -> Settings:
        data_dir = reliability_root / name
        data_dir.mkdir(parents=True)
        subprocess.run(["cp", "-a", str(template_pgdata), str(data_dir / "pgdata")], check=True)
        settings = Settings(data_dir=data_dir)
        made.append(settings)
        return settings

    yield make
    for settings in made:
        server = dbm.embedded_server(settings)
        server.release()
        server.stop()
        shutil.rmtree(settings.data_dir, ignore_errors=True)
