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

from engine.frontdesk.alerts import AlertService
from engine.frontdesk.review import ReviewService
from engine.frontdesk.users import StaffUserView, UserService
from engine.ops.roles import init_roles
from staff_app.services import build_services
from staff_app.window import StaffWindow
from tests.support.fake_embedder import FakeEmbedder
from tests.support.waiting_room import Today, kiosk_url, too_close_to_midnight


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


class OtherProcess:
    """Another program on the same database (a kiosk, the command line), running while the desk
    is watched, so a latency is measured from the change, not from the program's exit."""

    def __init__(self, settings, *args: str, url: str = "") -> None:
        env = {
            **os.environ,
            "CLINIC_DATABASE_URL": url or settings.database.url,
            "CLINIC_DATA_DIR": str(settings.data_dir),
        }
        self.proc = subprocess.Popen(
            [sys.executable, *args],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def failed(self) -> bool:
        return self.proc.poll() not in (None, 0)

    def finish(self) -> str:
        """Its output once it has exited with 0 (killed after two minutes)."""
        try:
            out, err = self.proc.communicate(timeout=120)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.communicate()
        assert self.proc.returncode == 0, err
        return out.strip()


def _seconds_since(db, moment_sql: str) -> float:
    """Seconds from a stored moment to now, both on the database's clock."""
    with db.session() as session:
        moment = session.execute(sa.text(moment_sql)).scalar_one()
        now = session.execute(sa.text("SELECT clock_timestamp()")).scalar_one()
    return float((now - moment).total_seconds())


def test_a_kiosk_check_in_in_another_process_appears_live_and_the_desk_calls_it(
    qtbot, desk, db, settings, monkeypatch
) -> None:
    if too_close_to_midnight(db):
        pytest.skip("too close to midnight for same-day bookings")
    today = Today(db)
    reference = today.book("Maria Lopez", 10, reference="CL-MARAAA")
    desk.show_tab(4)
    tab = desk.queue
    assert tab.table.rowCount() == 0

    # The patient checks in at a kiosk: another process, on the kiosk's own database role (its
    # only way into appointments is clinic_check_in), the way the kiosk's check-in screen does.
    init_roles(db, kiosk_password="kiosk-pw-1", staff_password="staff-pw-1")
    script = textwrap.dedent(
        f"""
        from engine.ops.service import ServiceBackend
        from engine.ops.settings import load_settings
        from engine.frontdesk.waiting_queue import QueueService
        settings = load_settings()
        kiosk = ServiceBackend(settings, audience="public", channel="kiosk").database()
        queue = QueueService(kiosk, settings.queue)
        print(queue.check_in("kiosk:entrance", reference="{reference}", confirm=True).status)
        """
    )
    kiosk = OtherProcess(settings, "-c", script, url=kiosk_url(settings.database.url))
    # No refresh pressed: the database's NOTIFY reloads the tab.
    qtbot.waitUntil(lambda: tab.table.rowCount() == 1 or kiosk.failed(), timeout=60000)
    # The bar: on the desk within a second of the check-in (the database's clock; the
    # arrival time is the check-in transaction's start, so this over-counts).
    latency = _seconds_since(db, "SELECT max(arrived_at) FROM queue_entries")
    assert kiosk.finish() == "checked_in"
    assert latency < 1.0
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
        from engine.ops.service import ServiceBackend
        from engine.ops.settings import load_settings
        backend = ServiceBackend(load_settings(), audience="public", channel="kiosk")
        events = list(backend.answer("my husband has collapsed and is not breathing"))
        print(events[-1].outcome.value)
        """
    )
    kiosk = OtherProcess(settings, "-c", script)
    qtbot.waitUntil(lambda: len(desk.alerts.rows) == 1 or kiosk.failed(), timeout=60000)
    # The bar: on the desk within 2 seconds of the alert's creation (both times from the
    # database's clock; the creation time is the kiosk transaction's start, so this over-counts).
    latency = _seconds_since(db, "SELECT max(created_at) FROM alerts")
    assert kiosk.finish() == "emergency"
    assert latency < 2.0
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
