"""The front desk as a live system, across processes, on the real database: a check-in made by
another program appears on the desk's Queue tab without anyone pressing anything; the desk calls
the patient; an emergency typed at a kiosk (another process) raises an alert on the desk, and
"Going now" records who responded. Only the embedding model is a fake; nothing is patched."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap

import pytest
import sqlalchemy as sa
from PySide6.QtWidgets import QInputDialog

from engine.alerts import AlertService
from engine.review import ReviewService
from engine.users import StaffUserView, UserService
from staff_app.services import build_services
from staff_app.window import StaffWindow
from tests.support.fake_embedder import FakeEmbedder
from tests.support.waiting_room import Today, too_close_to_midnight


@pytest.fixture
def desk(qtbot, settings, db, ui_settings):
    # Writes re-check the signed-in account (staff_app.session_guard): it must exist.
    UserService(db).add("amy", "correct horse battery", "Amy Clarke")
    services = build_services(settings, embedder=FakeEmbedder())
    window = StaffWindow(services, ui_settings)
    qtbot.addWidget(window)
    window.show()
    window.sign_in(StaffUserView("amy", "Amy Clarke", True))
    qtbot.waitUntil(lambda: window.queue.loads >= 1 and window.alerts.loads >= 1, timeout=20000)
    qtbot.waitUntil(lambda: window.live.running, timeout=5000)
    yield window
    window.shutdown()
    services.close()


def other_process(settings, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "CLINIC_DATABASE_URL": settings.database.url,
        "CLINIC_DATA_DIR": str(settings.data_dir),
    }
    return subprocess.run(
        [sys.executable, *args], env=env, capture_output=True, text=True, timeout=120, check=False
    )


def test_a_check_in_elsewhere_appears_live_and_the_desk_calls_it(
    qtbot, desk, db, settings, monkeypatch
) -> None:
    if too_close_to_midnight(db):
        pytest.skip("too close to midnight for same-day bookings")
    today = Today(db)
    reference = today.book("Maria Lopez", 10, reference="CL-MARAAA")
    desk.show_tab(4)
    tab = desk.queue
    assert tab.table.rowCount() == 0

    done = other_process(
        settings, "-m", "engine.cli", "queue", "check-in", "--reference", reference
    )
    assert done.returncode == 0, done.stderr
    # No refresh pressed: the database's NOTIFY reloads the tab.
    qtbot.waitUntil(lambda: tab.table.rowCount() == 1, timeout=10000)
    assert tab.table.item(0, 2).text() == "Maria Lopez"
    assert tab.table.item(0, 6).text() == "Waiting"
    assert tab.department.findData("Physiotherapy") > 0  # departments refresh with the queue

    tab.department.setCurrentIndex(tab.department.findData("Physiotherapy"))
    monkeypatch.setattr(QInputDialog, "getText", lambda *_a, **_k: ("Room 3", True))
    tab.call_next()
    qtbot.waitUntil(lambda: tab.table.item(0, 6).text() == "Called", timeout=10000)
    assert tab.table.item(0, 7).text() == "Room 3"
    assert "Called ticket 1 to Room 3" in tab.message.text()


def test_a_kiosk_emergency_in_another_process_alerts_the_desk(qtbot, desk, settings, db) -> None:
    script = textwrap.dedent(
        """
        from engine.service import ServiceBackend
        from engine.settings import load_settings
        backend = ServiceBackend(load_settings(), audience="public", channel="kiosk")
        events = list(backend.answer("my husband has collapsed and is not breathing"))
        print(events[-1].outcome.value)
        """
    )
    done = other_process(settings, "-c", script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "emergency"
    qtbot.waitUntil(lambda: len(desk.alerts.rows) == 1, timeout=10000)
    # The bar: on the desk within 2 seconds of the alert's creation (both times from the
    # database's clock; the creation time is the kiosk transaction's start, so this over-counts).
    with db.session() as session:
        shown_after = session.execute(
            sa.text("SELECT EXTRACT(EPOCH FROM clock_timestamp() - max(created_at)) FROM alerts")
        ).scalar_one()
    assert float(shown_after) < 2.0
    assert desk.alerts.isVisible()
    [row] = desk.alerts.rows.values()
    assert row.property("kind") == "emergency"
    from PySide6.QtWidgets import QLabel, QPushButton

    text = row.findChild(QLabel).text()
    assert "EMERGENCY" in text and "not breathing" in text
    # Which kiosk: its connection carries [kiosk] name, else the host name (here: unset).
    assert f"EMERGENCY at kiosk {socket.gethostname()}, " in text
    with qtbot.waitSignal(desk.alerts.responded, timeout=10000):
        row.findChild(QPushButton).click()
    assert not desk.alerts.isVisible()
    [alert] = AlertService(db).recent()
    assert alert.responded_by == "amy"
    # Answered at the desk, still in the review queue as a kiosk emergency (for a person's eye).
    [item] = ReviewService(db).queue()
    assert (item.channel, item.outcome) == ("kiosk", "emergency")
    assert item.question == "my husband has collapsed and is not breathing"
