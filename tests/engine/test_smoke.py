"""The staff smoke test end to end: real model, sample knowledge, a temporary account, a booking."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from engine import db as dbm
from engine.settings import Settings
from engine.smoke import run_staff_smoke_test


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
    assert booked_by_smoke == 1
    assert live == 0
