"""No patient text in any log, and private files: the failure paths of issue #10 replayed.

Every database write is made to fail with a CHECK constraint, the worst case for privacy: its
error quotes the whole row ("Failing row contains (...)"). A question, a booking (name, phone,
reason) and a document are pushed through the kiosk, the booking service and ingest with logging
at DEBUG, and every log file (the apps' and the database server's) is searched for them.
"""

from __future__ import annotations

import argparse
import datetime as dt
import logging
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from engine.frontdesk.booking import BookingRequest, BookingService, seed_schedule
from engine.knowledge.ingest import Ingester
from engine.ops import db as dbm
from engine.ops.cli import cmd_db
from engine.ops.doctor import run_checks
from engine.ops.logs import configure_logging, remove_logging, scrub
from engine.ops.service import ServiceBackend
from engine.ops.settings import EmbeddingSettings, RetrievalSettings, Settings
from tests.support.fake_embedder import FakeEmbedder

FAKE_MODEL = "fake/hash-embedder"
QUESTION = "Can my neighbour Quillon Vexworth collect my prescription on Tuesday"
EMERGENCY = "Quillon Vexworth has crushing chest pain right now"
NAME = "Zebedee Marchbanks-Oyelaran"
PHONE = "020 7946 0999"
REASON = "follow-up on the strange rash behind my knee"
DOC_TEXT = "The zanzibarian protocol for plinthwort dressings"
PLANTED = (
    "Quillon",
    "Vexworth",
    "Zebedee",
    "Marchbanks",
    "7946 0999",
    "79460999",
    "strange rash",
    "zanzibarian",
    "plinthwort",
)


@pytest.fixture
def clinic(make_data_dir: Callable[[str], Settings]) -> Iterator[Settings]:
    settings = make_data_dir("planted").replace(
        embedding=EmbeddingSettings(model=FAKE_MODEL),
        retrieval=RetrievalSettings(similarity_floors={FAKE_MODEL: 0.3}),
    )
    yield settings
    remove_logging()


def _log_files(settings: Settings) -> list[Path]:
    files = [p for p in settings.log_dir.rglob("*") if p.is_file()]
    return [*files, settings.pgdata_dir / "log"]


def _fail_every_write(db: dbm.Database) -> None:
    with db.engine.begin() as conn:
        for table in ("answers", "appointments", "chunks", "documents"):
            conn.execute(
                sa.text(f"ALTER TABLE {table} ADD CONSTRAINT planted CHECK (false) NOT VALID")
            )


def _uncaught(exc: BaseException) -> None:
    """What the apps' excepthook does with an error nobody caught."""
    logging.getLogger("uncaught").critical("uncaught exception", exc_info=exc)


def test_failed_writes_leave_no_patient_text_in_any_log(clinic: Settings, tmp_path: Path) -> None:
    settings = clinic
    configure_logging(settings, "kiosk", verbose=True)  # DEBUG: "at any level"
    db = dbm.open_database(settings)
    seed_schedule(db, dt.date.today() + dt.timedelta(days=1), weeks=1)
    with db.engine.connect() as conn:
        slot_id = conn.execute(sa.text("SELECT id FROM slots ORDER BY id LIMIT 1")).scalar_one()
    _fail_every_write(db)

    # 1. The kiosk answers (and fails to log) a question and an emergency.
    kiosk = ServiceBackend(
        settings, audience="public", channel="kiosk", embedder=FakeEmbedder(), chat=None
    )
    for question in (QUESTION, EMERGENCY):
        try:
            events = list(kiosk.answer(question))
            assert events  # the person still got an answer
        except Exception as exc:
            _uncaught(exc)
    kiosk.database().dispose()

    # 2. The front desk books (the write fails).
    configure_logging(settings, "staff", verbose=True)
    with pytest.raises(Exception) as booking_error:
        BookingService(db).book(
            BookingRequest(slot_id=slot_id, patient_name=NAME, contact_number=PHONE, reason=REASON),
            user="amy",
        )
    _uncaught(booking_error.value)
    logging.getLogger("staff_app.tasks").warning("booking failed", exc_info=booking_error.value)

    # 3. Ingest of a new document (the write fails).
    configure_logging(settings, "cli", verbose=True)
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "dressings.md").write_text(
        f"---\ntitle: Dressings\naudience: public\n---\n\n# Dressings\n\n{DOC_TEXT}.\n",
        encoding="utf-8",
    )
    try:
        report = Ingester(db, FakeEmbedder(), settings, user="setup").ingest_folders([folder])
        assert report.failed
    except Exception as exc:
        _uncaught(exc)
    db.dispose()
    remove_logging()

    logs = _log_files(settings)
    text = {path: path.read_text(encoding="utf-8", errors="replace") for path in logs}
    all_text = "\n".join(text.values())
    assert "Failing row contains" not in all_text or "Failing row contains (hidden)" in all_text
    assert "uncaught exception" in all_text  # the failures were logged...
    for planted in PLANTED:  # ...without a word of what the patient typed
        found = [str(path) for path, body in text.items() if planted.lower() in body.lower()]
        assert not found, f"{planted!r} in {found}"

    # Files 0600 in a 0700 folder.
    assert stat.S_IMODE(settings.log_dir.stat().st_mode) == 0o700
    for path in logs:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def test_scrub_removes_parameters_details_and_quoted_input() -> None:
    raw = (
        "(psycopg.errors.CheckViolation) new row violates check constraint\n"
        'DETAIL:  Failing row contains (7, Jane Roe, 020 7946 0999, "rash").\n'
        "[SQL: INSERT INTO appointments (name) VALUES (%(name)s)]\n"
        "[parameters: {'name': 'Jane Roe'}]\n"
        'invalid input syntax for type date: "Jane Roe"\n'
        "Key (contact_number)=(020 7946 0999) already exists.\n"
        "CONTEXT:  unnamed portal parameter $1 = '...Jane Roe'"
    )
    cleaned = scrub(raw)
    assert "Jane" not in cleaned and "0999" not in cleaned
    assert "INSERT INTO appointments" in cleaned  # the statement shape stays for IT


def test_backup_is_0600_in_a_0700_folder(clinic: Settings) -> None:
    dbm.open_database(clinic).dispose()
    assert cmd_db(argparse.Namespace(db_command="backup", file=None), clinic) == 0
    folder = clinic.data_dir / "backups"
    (dump,) = list(folder.iterdir())
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(dump.stat().st_mode) == 0o600


def test_doctor_reports_socket_and_file_permissions_with_a_fix(clinic: Settings) -> None:
    configure_logging(clinic, "cli")
    remove_logging()
    checks = {c.name: c for c in run_checks(clinic)}
    assert checks["database socket"].ok, checks["database socket"].detail
    assert checks["log files"].ok

    loose = clinic.log_dir / "cli.log"
    loose.chmod(0o644)
    clinic.log_dir.chmod(0o755)
    checks = {c.name: c for c in run_checks(clinic)}
    assert not checks["log files"].ok
    assert "chmod 700" in checks["log files"].fix and "chmod 600" in checks["log files"].fix
    assert str(loose) in checks["log files"].detail
