"""The admin subcommands: staff accounts and the demo schedule, through a real parser."""

from __future__ import annotations

import argparse
import io

import pytest
import sqlalchemy as sa

from engine.errors import AuthenticationFailed, ValidationError
from engine.frontdesk.users import UserService
from engine.ops import cli_admin
from engine.ops.db import Database
from engine.ops.settings import Settings


def run(settings: Settings, argv: list[str], stdin: str = "", *, mp: pytest.MonkeyPatch) -> int:
    parser = argparse.ArgumentParser(prog="clinic-assistant")
    sub = parser.add_subparsers(dest="command", required=True)
    handlers = cli_admin.register(sub)
    args = parser.parse_args(argv)
    mp.setattr("sys.stdin", io.StringIO(stdin))
    return handlers[args.command](args, settings)


def test_users_add_list_reset_disable(
    settings: Settings,
    db: Database,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["users", "add", "meera", "--display-name", "Meera Shah", "--password-stdin"]
    assert run(settings, argv, "first secret 123\n", mp=monkeypatch) == 0
    assert "Added staff account meera (Meera Shah)" in capsys.readouterr().out
    users = UserService(db)
    assert users.authenticate("meera", "first secret 123").display_name == "Meera Shah"

    argv = ["users", "reset-password", "meera", "--password-stdin", "--by", "boss"]
    assert run(settings, argv, "second secret 456\n", mp=monkeypatch) == 0
    assert users.authenticate("meera", "second secret 456").username == "meera"

    assert run(settings, ["users", "disable", "meera"], mp=monkeypatch) == 0
    with pytest.raises(AuthenticationFailed):
        users.authenticate("meera", "second secret 456")

    capsys.readouterr()
    assert run(settings, ["users", "list"], mp=monkeypatch) == 0
    assert capsys.readouterr().out.split() == ["meera", "disabled", "Meera", "Shah"]

    assert run(settings, ["users", "enable", "meera"], mp=monkeypatch) == 0
    assert "Enabled staff account meera" in capsys.readouterr().out
    assert users.authenticate("meera", "second secret 456").username == "meera"
    with db.engine.connect() as conn:
        who = conn.execute(sa.text("SELECT username, action FROM audit_events ORDER BY id")).all()
    assert [tuple(r) for r in who] == [
        ("cli", "user_add"),
        ("meera", "sign_in"),
        ("boss", "user_reset_password"),
        ("meera", "sign_in"),
        ("cli", "user_disable"),
        ("meera", "sign_in_failed"),
        ("cli", "user_enable"),
        ("meera", "sign_in"),
    ]


def test_interactive_passwords_must_match(
    settings: Settings, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = iter(["a long password", "a different one"])
    monkeypatch.setattr(cli_admin.getpass, "getpass", lambda prompt="": next(answers))
    with pytest.raises(ValidationError, match="do not match"):
        run(settings, ["users", "add", "tom"], mp=monkeypatch)
    answers = iter(["a long password", "a long password"])
    assert run(settings, ["users", "add", "tom"], mp=monkeypatch) == 0
    assert UserService(db).authenticate("tom", "a long password").username == "tom"


def test_short_or_missing_stdin_password_is_refused(
    settings: Settings, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(ValidationError, match="at least 10 characters"):
        run(settings, ["users", "add", "tom", "--password-stdin"], "short\n", mp=monkeypatch)
    with pytest.raises(ValidationError, match="No password"):
        run(settings, ["users", "add", "tom", "--password-stdin"], "", mp=monkeypatch)
    assert UserService(db).list() == []


def test_seed_schedule_command_is_idempotent(
    settings: Settings,
    db: Database,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["seed-schedule", "--weeks", "1", "--start", "2030-06-03"]
    assert run(settings, argv, mp=monkeypatch) == 0
    assert "slots over 1 weeks from 2030-06-03" in capsys.readouterr().out
    assert run(settings, argv, mp=monkeypatch) == 0
    assert "already exists" in capsys.readouterr().out
    with db.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM departments")).scalar_one() == 6


@pytest.mark.parametrize(
    "argv", [["seed-schedule", "--start", "June"], ["seed-schedule", "--weeks", "0"]]
)
def test_bad_seed_arguments_are_usage_errors(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        run(settings, argv, mp=monkeypatch)
    assert caught.value.code == 2
