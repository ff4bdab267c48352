"""Hostile input outside ingest (issue #10 item 6): NUL, lone surrogates, control characters and
non-UTF-8 bytes in questions, booking fields and CLI arguments become one-sentence validation
errors; an emergency question with a NUL is still redirected and logged; an unwritable data
folder, a malformed DSN and an unreachable server end the CLI and the apps with one sentence."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.answering.assistant import Assistant
from engine.errors import ValidationError
from engine.events import DoneEvent, Outcome, Route
from engine.frontdesk.booking import BookingRequest
from engine.ops import service
from engine.ops.db import Database
from engine.ops.service import ServiceBackend
from engine.ops.settings import Settings
from engine.validation import BadText, checked_question, loggable
from tests.support.booking_clinic import Clinic, build_clinic
from tests.support.clinic_corpus import answer_rows, fake_settings
from tests.support.fake_embedder import FakeEmbedder

BAD_PIECES = {
    "NUL": "\x00",
    "lone surrogate": "\ud800",
    "non-UTF-8 byte (surrogateescape)": "\udcff",
    "escape control": "\x1b[2J",
}
CLI = [sys.executable, "-m", "engine.ops.cli"]


@pytest.mark.parametrize("piece", BAD_PIECES.values(), ids=BAD_PIECES.keys())
def test_a_question_with_a_bad_character_is_one_validation_error(
    settings: Settings, db: Database, piece: str
) -> None:
    assistant = Assistant(db, FakeEmbedder(), fake_settings(settings), audience="public")
    with pytest.raises(BadText) as caught:
        list(assistant.answer(f"When are you open{piece} on Saturday?"))
    message = str(caught.value)
    assert message.startswith("The question contains a character that cannot be stored")
    assert message.count(". ") == 0  # one sentence
    assert caught.value.public_message.endswith("Please type it again.")
    assert answer_rows(db) == []  # nothing half-written


def test_an_emergency_with_a_nul_is_redirected_and_logged_cleaned(
    settings: Settings, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    configured = fake_settings(settings)
    monkeypatch.setattr(service, "load_embedder", lambda _settings: FakeEmbedder())
    backend = ServiceBackend(configured, audience="public", channel="cli", db=db)
    events = list(backend.answer("I have crushing chest\x00 pain and cannot breathe\ud800"))
    done = events[-1]
    assert isinstance(done, DoneEvent)
    assert done.route is Route.EMERGENCY and done.outcome is Outcome.EMERGENCY
    assert done.text == configured.texts.emergency
    (row,) = answer_rows(db)
    assert row.route == "emergency"
    assert "chest" in row.question and "cannot breathe" in row.question
    assert "\x00" not in row.question and "\ud800" not in row.question


def test_the_assistant_itself_redirects_an_emergency_with_a_nul(
    settings: Settings, db: Database
) -> None:
    assistant = Assistant(db, FakeEmbedder(), fake_settings(settings), audience="public")
    done = list(assistant.answer("my husband is unconscious\x00 and not breathing"))[-1]
    assert isinstance(done, DoneEvent) and done.route is Route.EMERGENCY
    assert [r.route for r in answer_rows(db)] == ["emergency"]


def test_clean_questions_pass_untouched() -> None:
    text = "Can I bring my child?\nShe is 4 -\tand café-shy 😊"
    assert checked_question(text) == text
    assert loggable("a\x00b\udcff") == "a\ufffdb\ufffd"


@pytest.fixture
def clinic(db: Database) -> Clinic:
    return build_clinic(db)


@pytest.mark.parametrize("field", ["patient_name", "contact_number", "reason"])
@pytest.mark.parametrize("piece", ["\x00", "\ud83d", "\udce9"], ids=["NUL", "surrogate", "byte"])
def test_booking_fields_with_bad_characters_are_refused_by_name(
    clinic: Clinic, field: str, piece: str
) -> None:
    values = {"patient_name": "Ada Lovelace", "contact_number": "07700 900123", "reason": "rash"}
    values[field] = values[field][:3] + piece + values[field][3:]
    request = BookingRequest(clinic.slots["hughes_mon_0930"], **values)
    with pytest.raises(ValidationError) as caught:
        clinic.service.book(request, "meera")
    label = {"patient_name": "Patient name", "contact_number": "Contact number"}.get(
        field, "Reason"
    )
    assert str(caught.value).startswith(f"{label} contains a character")
    free = [s.slot_id for s in clinic.service.find_free_slots(limit=100)]
    assert clinic.slots["hughes_mon_0930"] in free  # nothing was booked


def test_searching_appointments_with_a_nul_is_a_validation_error(clinic: Clinic) -> None:
    with pytest.raises(ValidationError, match="The search contains a character"):
        clinic.service.search("Ada\x00")


# ----- the command line and the apps -------------------------------------------------------


def run_cli(
    args: list[bytes | str], env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("CLINIC_")}
    done = subprocess.run(
        [*CLI, *args],
        capture_output=True,
        env={**clean, **(env or {})},
        cwd=Path(__file__).parents[2],
        timeout=120,
        check=False,
    )
    return subprocess.CompletedProcess(
        done.args,
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )


def assert_one_sentence(done: subprocess.CompletedProcess[str], starts: str) -> None:
    assert done.returncode != 0
    assert "Traceback" not in done.stderr + done.stdout
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: " + starts), lines[0]


def test_cli_non_utf8_byte_in_a_question_is_one_sentence(tmp_path: Path) -> None:
    done = run_cli(["--data-dir", str(tmp_path / "d"), "ask", b"opening hours\xff?"])
    assert_one_sentence(done, "The argument question contains a character")


def test_cli_control_character_in_a_username_is_one_sentence(tmp_path: Path) -> None:
    done = run_cli(["--data-dir", str(tmp_path / "d"), "users", "disable", "bob\x1b"])
    assert_one_sentence(done, "The argument username contains a character")


BAD_DSNS = {
    "words": "not a dsn",
    "port": "postgresql://clinic:pw@127.0.0.1:notaport/clinic",
    "scheme": "mysql://clinic:pw@127.0.0.1/clinic",
    "no database": "postgresql://clinic:s3cret@127.0.0.1:5432",
}


@pytest.mark.parametrize("dsn", BAD_DSNS.values(), ids=BAD_DSNS.keys())
def test_cli_malformed_dsn_is_one_sentence_without_the_password(tmp_path: Path, dsn: str) -> None:
    done = run_cli(
        ["--data-dir", str(tmp_path / "d"), "db", "status"], {"CLINIC_DATABASE_URL": dsn}
    )
    assert_one_sentence(done, "The database URL ([database] url or CLINIC_DATABASE_URL)")
    assert "pw" not in done.stderr and "s3cret" not in done.stderr


def test_cli_unreachable_server_is_one_sentence(tmp_path: Path) -> None:
    done = run_cli(
        ["--data-dir", str(tmp_path / "d"), "db", "upgrade"],
        {"CLINIC_DATABASE_URL": "postgresql://clinic:s3cret@127.0.0.1:1/clinic"},
    )
    assert_one_sentence(done, "The database at")
    assert "cannot be reached" in done.stderr and "s3cret" not in done.stderr


def unwritable_dirs(tmp_path: Path) -> list[Path]:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    found = [blocker / "data"]
    if os.geteuid() != 0:  # root writes through 0555; the file case covers it then
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o555)
        found.append(locked / "data")
    return found


def test_cli_unwritable_data_folder_is_one_sentence(tmp_path: Path) -> None:
    for folder in unwritable_dirs(tmp_path):
        done = run_cli(["--data-dir", str(folder), "db", "status"])
        assert_one_sentence(done, f"The data folder {folder} cannot be written")


@pytest.mark.parametrize("app", ["staff_app.main", "kiosk_app.main"])
def test_apps_refuse_an_unwritable_data_folder_and_a_bad_dsn_in_one_sentence(
    tmp_path: Path, app: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib

    main = importlib.import_module(app).main
    for folder in unwritable_dirs(tmp_path):
        assert main(["--data-dir", str(folder)]) == 2
        err = capsys.readouterr().err.strip()
        assert f"The data folder {folder} cannot be written" in err, err
        assert "\n" not in err
    monkeypatch.setenv("CLINIC_DATABASE_URL", "postgresql://u:s3cret@host:port/x")
    assert main(["--data-dir", str(tmp_path / "ok")]) == 2
    err = capsys.readouterr().err.strip()
    assert "is not a PostgreSQL URL" in err and "s3cret" not in err and "\n" not in err


def test_review_comments_account_names_and_walk_ins_refuse_bad_characters(db: Database) -> None:
    from engine.frontdesk.review import ReviewService
    from engine.frontdesk.users import UserService
    from engine.frontdesk.waiting_queue import QueueService

    with pytest.raises(ValidationError, match="The comment contains a character"):
        ReviewService(db).decide(1, "other", "fine\x00", "meera")
    users = UserService(db)
    with pytest.raises(ValidationError, match="The display name contains a character"):
        users.add("meera", "correct horse battery", "Meera\udcff")
    with pytest.raises(ValidationError, match="The username contains a character"):
        users.disable("meera\x00")
    with pytest.raises(ValidationError, match="The name contains a character"):
        QueueService(db).walk_in("Cardiology", "meera", name="Ada\x00")
    assert users.list() == []
