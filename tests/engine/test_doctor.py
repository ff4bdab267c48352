"""`clinic-assistant doctor`: what IT sees when the machine is healthy, and when it is not."""

from __future__ import annotations

import argparse
import datetime as dt
import socket
from pathlib import Path

import pytest
import sqlalchemy as sa

from engine.ops import cli_ops
from engine.ops.db import Database
from engine.ops.doctor import run_checks
from engine.ops.doctor.report import Check, healthy
from engine.ops.settings import DatabaseSettings, OllamaSettings, RetrievalSettings, Settings
from tests.support.fake_ollama import DEFAULT_MODEL, FakeOllama


def _doctor(settings: Settings, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    handlers = cli_ops.register(sub)
    args = parser.parse_args(["doctor"])
    code = handlers[args.command](args, settings)
    return code, capsys.readouterr().out


def _by_name(checks: list[Check]) -> dict[str, Check]:
    return {c.name: c for c in checks}


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_healthy_machine_passes_with_extractive_answers(
    db: Database, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _doctor(settings, capsys)
    assert code == 0, out
    assert "OK   database: reachable" in out
    assert "OK   schema: at revision" in out
    assert "OK   embedding model: sentence-transformers/all-MiniLM-L6-v2 (384" in out
    assert "answers are extractive" in out
    assert "FAIL" not in out
    # Never calibrated: a warning with the command that fixes it, not a failure.
    assert "WARN similarity floor" in out
    assert "fix: Run 'clinic-assistant evaluate'" in out


def test_unreachable_database_fails_with_a_fix_hint(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = settings.replace(
        database=DatabaseSettings(
            url=f"postgresql://clinic:secret@127.0.0.1:{_closed_port()}/clinic",
            connect_timeout=1.0,
        )
    )
    code, out = _doctor(bad, capsys)
    assert code == 1
    assert "FAIL database: cannot connect" in out
    assert "fix: Check [database] url" in out
    assert "secret" not in out  # the password is never printed
    assert "Not ready" in out


def test_database_built_with_another_model_is_blocking(db: Database, settings: Settings) -> None:
    with db.engine.begin() as conn:
        conn.execute(
            sa.text("INSERT INTO embedding_config (id, model_name, dimension) VALUES (1, 'x', 768)")
        )
    checks = run_checks(settings)
    model = _by_name(checks)["embedding model"]
    assert not model.ok and model.blocking
    assert "768" in model.detail and "db reembed" in model.fix
    assert not healthy(checks)


def test_calibrated_floor_that_differs_from_config_warns(db: Database, settings: Settings) -> None:
    with db.engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO embedding_config (id, model_name, dimension, similarity_floor, "
                "floor_calibrated_at) VALUES (1, :m, 384, 0.52, :at)"
            ),
            {"m": settings.embedding.model, "at": dt.datetime(2026, 1, 5, tzinfo=dt.UTC)},
        )
    floor = _by_name(run_checks(settings))["similarity floor"]
    assert not floor.ok and not floor.blocking
    assert "recommended 0.52" in floor.detail and "2026-01-05" in floor.detail
    calibrated = settings.replace(
        retrieval=RetrievalSettings(similarity_floors={settings.embedding.model: 0.52})
    )
    assert _by_name(run_checks(calibrated))["similarity floor"].ok


def test_model_without_a_floor_blocks(db: Database, settings: Settings) -> None:
    no_floor = settings.replace(retrieval=RetrievalSettings(similarity_floors={}))
    floor = _by_name(run_checks(no_floor))["similarity floor"]
    assert not floor.ok and floor.blocking


def test_schema_behind_is_reported_with_the_upgrade_command(
    db: Database, settings: Settings
) -> None:
    with db.engine.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = 'ffff'"))
    schema = _by_name(run_checks(settings))["schema"]
    assert not schema.ok and schema.blocking
    assert "newer version" in schema.detail
    with db.engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM alembic_version"))
    schema = _by_name(run_checks(settings))["schema"]
    assert not schema.ok and not schema.blocking  # the admin role can upgrade
    assert "db upgrade" in schema.fix


def test_ollama_with_the_model_pulled(
    db: Database, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    with FakeOllama(models=[DEFAULT_MODEL]) as server:
        url = server.url
        configured = settings.replace(
            ollama=OllamaSettings(hosts=(server.url,), model=DEFAULT_MODEL)
        )
        code, out = _doctor(configured, capsys)
    assert code == 0, out
    assert f"OK   ollama {url}: reachable; {DEFAULT_MODEL} is present" in out


def test_a_base_model_without_a_chat_template_is_not_called_present(
    db: Database, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    # Seen: doctor said "model is present" for Gemma 270M base, which answers "emergency" to
    # everything and never stops: present is not the same as fit to answer.
    with FakeOllama(models=[DEFAULT_MODEL], base_models=[DEFAULT_MODEL]) as server:
        configured = settings.replace(
            ollama=OllamaSettings(hosts=(server.url,), model=DEFAULT_MODEL)
        )
        code, out = _doctor(configured, capsys)
    assert code == 0, out  # a warning: answers still work, extractively if need be
    line = next(
        line for line in out.splitlines() if line.startswith(("OK", "WARN")) and "ollama" in line
    )
    assert line.startswith("WARN") and "no chat template (a base model)" in line
    assert "instruct" in out


def test_ollama_without_the_model_or_down_warns_but_does_not_block(
    db: Database, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    down = f"http://127.0.0.1:{_closed_port()}"
    with FakeOllama(models=["other:latest"]) as server:
        url = server.url
        configured = settings.replace(
            ollama=OllamaSettings(
                hosts=(server.url, down), model=DEFAULT_MODEL, connect_timeout=1.0
            )
        )
        code, out = _doctor(configured, capsys)
    assert code == 0, out
    assert f"WARN ollama {url}: reachable, but the model {DEFAULT_MODEL} is not pulled" in out
    assert f"fix: On {url}: ollama pull {DEFAULT_MODEL}" in out
    assert f"WARN ollama {down}: not reachable" in out


def test_unwritable_log_folder_warns(db: Database, settings: Settings) -> None:
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    settings.log_dir.write_text("a file where the folder should be")
    logs = _by_name(run_checks(settings))["logs"]
    assert not logs.ok and not logs.blocking and "not writable" in logs.detail


def test_invalid_config_file_is_blocking(tmp_path: Path, settings: Settings) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[kiosk]\nidle_secs = 3\n")
    config_check = _by_name(run_checks(settings.replace(config_file=config)))["config"]
    assert not config_check.ok and config_check.blocking
    assert "line 2" in config_check.detail and "idle_secs" in config_check.detail


def test_default_kiosk_pin_is_a_warning_not_a_blocker(tmp_path: Path) -> None:
    from engine.ops.doctor.configuration import _check_kiosk_pin
    from engine.ops.settings import KioskSettings, Settings

    default = _check_kiosk_pin(Settings(data_dir=tmp_path))
    assert not default.ok and not default.blocking and "exit_pin" in default.fix
    letters = _check_kiosk_pin(Settings(data_dir=tmp_path, kiosk=KioskSettings(exit_pin="ab")))
    assert not letters.ok
    good = _check_kiosk_pin(Settings(data_dir=tmp_path, kiosk=KioskSettings(exit_pin="90317")))
    assert good.ok
