"""``clinic-assistant queue``: seed a busy day, check in by birth date and by reference, call,
start, finish and mark a no-show, as IT or a test script would, through the real parser."""

from __future__ import annotations

import datetime as dt

import pytest
import sqlalchemy as sa

from engine.frontdesk.demo_schedule import seed_schedule
from engine.ops import cli
from engine.ops.db import Database
from engine.ops.settings import Settings


def run(settings: Settings, argv: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(cli, "load_settings", lambda *_args: settings)
    return cli.main(argv)


def todays_bookings(db: Database) -> list[tuple[str, str, dt.date]]:
    with db.session() as s:
        rows = s.execute(
            sa.text(
                "SELECT a.reference, a.patient_name, a.date_of_birth FROM appointments a "
                "JOIN slots s ON s.id = a.slot_id WHERE a.status = 'booked' AND "
                "(s.starts_at AT TIME ZONE 'Europe/London')::date = "
                "(now() AT TIME ZONE 'Europe/London')::date ORDER BY s.starts_at"
            )
        ).all()
    return [(str(r[0]), str(r[1]), r[2]) for r in rows]


def test_a_seeded_day_can_be_checked_in_called_and_finished(
    settings: Settings, db: Database, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    with db.session() as s:
        today = s.execute(sa.text("SELECT (now() AT TIME ZONE 'Europe/London')::date")).scalar_one()
    seed_schedule(db, today - dt.timedelta(days=today.weekday()), weeks=1)
    bookings = todays_bookings(db)
    if today.weekday() >= 5 or len(bookings) < 3:
        pytest.skip("the seeded clinic is closed today")
    # Patients who share a birth date and initial would be asked for their reference instead.
    unique = [
        b
        for b in bookings
        if sum(1 for o in bookings if o[2] == b[2] and o[1].split()[-1][0] == b[1].split()[-1][0])
        == 1
    ]
    assert all(b[2] is not None for b in bookings)  # the seed records dates of birth
    first, second = unique[0], bookings[-1]
    initial = first[1].split()[-1][0]
    argv = ["queue", "check-in", "--dob", first[2].isoformat(), "--initial", initial.lower()]
    assert run(settings, argv, monkeypatch) == 0
    assert "Checked in: ticket 1" in capsys.readouterr().out
    assert run(settings, ["queue", "check-in", "--reference", second[0]], monkeypatch) == 0
    assert "ticket 2" in capsys.readouterr().out

    assert run(settings, ["queue", "list"], monkeypatch) == 0
    listing = capsys.readouterr().out
    assert first[1] in listing and "2 listed" in listing
    entry = int(listing.split()[0].lstrip("#"))
    assert run(settings, ["queue", "call", str(entry), "--room", "Room 3"], monkeypatch) == 0
    assert "-> Room 3" in capsys.readouterr().out
    assert run(settings, ["queue", "start", str(entry), "--user", "amy"], monkeypatch) == 0
    assert run(settings, ["queue", "done", str(entry), "--user", "amy"], monkeypatch) == 0
    capsys.readouterr()
    # Finishing twice is refused with a sentence, not a traceback.
    assert run(settings, ["queue", "done", str(entry)], monkeypatch) == 2
    assert "cannot become done" in capsys.readouterr().err
    assert run(settings, ["queue", "walk-in", "physio", "--name", "Dan Drew"], monkeypatch) == 0
    assert run(settings, ["queue", "list", "--all"], monkeypatch) == 0
    out = capsys.readouterr().out
    assert "1 seen" in out and "Dan Drew" in out


def test_bad_dates_and_missing_details_are_sentences(
    settings: Settings, db: Database, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    argv = ["queue", "check-in", "--dob", "09/04/1961", "--initial", "L"]
    assert run(settings, argv, monkeypatch) == 2
    assert "--dob must be a date like 1961-04-09" in capsys.readouterr().err
    assert run(settings, ["queue", "check-in", "--initial", "L"], monkeypatch) == 2
    assert "Give --reference, or both --dob and --initial" in capsys.readouterr().err
