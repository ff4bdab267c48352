"""The smoke tests: the staff one end to end (real model, sample knowledge, a temporary account, a
booking), and the kiosk's waiting-room part (a check-in and a live update) on the kiosk role."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
import sqlalchemy as sa

from engine.frontdesk.booking import seed_schedule
from engine.ops import db as dbm
from engine.ops.roles import init_roles
from engine.ops.settings import Settings
from engine.ops.smoke import run_staff_smoke_test
from engine.ops.smoke_kiosk import kiosk_queue_smoke
from tests.support.fake_embedder import FakeEmbedder
from tests.support.waiting_room import kiosk_url


@pytest.mark.slow
def test_staff_smoke_test_passes_and_leaves_no_live_account_or_booking(
    db: dbm.Database, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_staff_smoke_test(settings) == 0
    out = capsys.readouterr().out
    assert "OK   staff-only question answered from a staff document" in out
    assert "SMOKE TEST PASSED" in out
    with db.engine.connect() as conn:
        active = conn.execute(sa.text("SELECT count(*) FROM staff_users WHERE is_active")).scalar()
        booked_by_smoke = conn.execute(
            sa.text("SELECT count(*) FROM appointments WHERE created_by LIKE 'smoke-%'")
        ).scalar()
        live = conn.execute(
            sa.text(
                "SELECT count(*) FROM appointments WHERE status = 'booked' "
                "AND created_by LIKE 'smoke-%'"
            )
        ).scalar()
    assert active == 0
    assert booked_by_smoke == 2  # one through the booking form, one checked in at the desk
    assert live == 0
    assert (
        "OK   checked in at the desk, called and seen; live updates heard: arrived, called" in out
    )
    assert "OK   walk-in, called and seen" in out


def test_kiosk_smoke_checks_in_and_hears_the_call_through_the_kiosk_role(
    db: dbm.Database, settings: Settings
) -> None:
    """The waiting-room part of the kiosk's --smoke-test, on the kiosk's own role (its only way
    into appointments is clinic_check_in): it must pass, leave no live booking, and never touch
    a patient's booking."""
    init_roles(db, kiosk_password="kiosk-pw-1", staff_password="staff-pw-1")
    kiosk = settings.replace(
        database=dataclasses.replace(settings.database, url=kiosk_url(settings.database.url))
    )
    seed_schedule(db, start=dt.date.today(), weeks=1)
    with db.engine.connect() as conn:
        before = conn.execute(
            sa.text("SELECT reference, status FROM appointments ORDER BY reference")
        ).all()

    checks = kiosk_queue_smoke(kiosk, db, FakeEmbedder())

    assert [ok for _name, ok in checks] == [True, True, True, True], checks
    assert checks[1][0].endswith("arrived, called")
    with db.engine.connect() as conn:
        after = conn.execute(
            sa.text(
                "SELECT reference, status FROM appointments WHERE created_by <> 'smoke-test' "
                "ORDER BY reference"
            )
        ).all()
        smoke = conn.execute(
            sa.text(
                "SELECT a.status, q.state FROM appointments a "
                "JOIN queue_entries q ON q.appointment_id = a.id WHERE a.created_by = 'smoke-test'"
            )
        ).all()
    assert after == before  # nobody else's booking checked in or changed
    assert smoke == [("cancelled", "done")]
