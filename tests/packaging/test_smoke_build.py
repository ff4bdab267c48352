"""The frozen kiosk really starts from its bundle: embedded database, ingest, one cited answer.

Slow (a PyInstaller build, ~80-120 s on 2 cores, then a ~7 s smoke run), so it only runs with
CLINIC_TEST_PACKAGING=1: ``CLINIC_TEST_PACKAGING=1 .venv/bin/pytest -m packaging``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.packaging,
    pytest.mark.skipif(
        os.environ.get("CLINIC_TEST_PACKAGING") != "1", reason="set CLINIC_TEST_PACKAGING=1"
    ),
]


def test_built_kiosk_answers_from_the_bundle(tmp_path: Path) -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    # Root runs the embedded server as user pgserver, which must reach both the bundle's
    # binaries and the data folder: build and run in a 0755 folder, as an install under /opt
    # would be (pytest's tmp_path parents are 0700).
    shared = Path(tempfile.mkdtemp(prefix="clinic-smoke-"))
    shared.chmod(0o755)
    try:
        dist = shared / "dist"
        started = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "PyInstaller",
                "--noconfirm",
                "--log-level",
                "WARN",
                "--distpath",
                str(dist),
                "--workpath",
                str(tmp_path / "work"),
                str(ROOT / "packaging" / "kiosk.spec"),
            ],
            check=True,
            cwd=ROOT,
            timeout=900,
        )
        built = time.perf_counter() - started
        exe = dist / f"clinic-kiosk-{version}" / "clinic-kiosk"
        assert exe.is_file()

        home = shared / "home"
        home.mkdir()
        env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "QT_QPA_PLATFORM": "offscreen"}
        started = time.perf_counter()
        result = subprocess.run(
            [str(exe), "--smoke-test", "--data-dir", str(shared / "data")],
            env=env,  # no PYTHONPATH, no venv: only what the bundle holds
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )
        ran = time.perf_counter() - started
        print(f"build {built:.0f} s, smoke run {ran:.1f} s")
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
        assert "Q: What are the clinic's opening hours?" in result.stdout
        assert "route=information" in result.stdout
        assert "[1] Opening hours" in result.stdout  # a citation from the bundled sample knowledge
        # The waiting room from the bundle: a check-in and a live update on the kiosk's role.
        assert "OK   checked in at the kiosk by reference" in result.stdout
        assert "OK   live update heard on the kiosk's connection" in result.stdout
    finally:
        shutil.rmtree(shared, ignore_errors=True)
