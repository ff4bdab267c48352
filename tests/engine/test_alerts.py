"""Reception alerts on the real database: a kiosk emergency in the answer log becomes an alert by
itself (even through the kiosk role), "call staff" does not flood, the first responder is kept,
and notifications carry no question text."""

from __future__ import annotations

import socket
import threading
import time

import sqlalchemy as sa

from engine.answering.answer_log import AnswerLogEntry, record_answer
from engine.events import DoneEvent, Outcome
from engine.frontdesk.alerts import ALERT_CHANNEL, AlertService, kiosk_source, source_label
from engine.frontdesk.queue_listener import ChangeListener
from engine.ops.db import Database
from engine.ops.roles import KIOSK_ROLE, init_roles
from engine.ops.service import ServiceBackend
from engine.ops.settings import KioskSettings, Settings
from tests.support.fake_embedder import FakeEmbedder


def _log(db: Database, question: str, outcome: str, channel: str = "kiosk") -> None:
    record_answer(
        db,
        AnswerLogEntry(
            channel=channel,
            audience="public",
            question=question,
            route=outcome if outcome != "answered" else "information",
            route_reason="test",
            outcome=outcome,
            shown_text="Call 999 now." if outcome == "emergency" else "Opening hours...",
        ),
    )


def test_a_kiosk_emergency_raises_an_alert_and_nothing_else_does(db: Database) -> None:
    alerts = AlertService(db)
    _log(db, "what time do you open", "answered")
    _log(db, "my husband collapsed and is not breathing", "emergency")
    _log(db, "colleague fainted", "emergency", channel="staff")  # staff are already at the desk
    [alert] = alerts.open_alerts()
    assert (
        alert.kind == "emergency" and alert.question == "my husband collapsed and is not breathing"
    )
    first = alerts.respond(alert.alert_id, "amy")
    assert first.responded_by == "amy"
    second = alerts.respond(alert.alert_id, "ben")  # too late: Amy is already going
    assert second.responded_by == "amy"
    assert alerts.open_alerts() == []


def test_call_staff_is_one_open_request_per_kiosk(db: Database) -> None:
    alerts = AlertService(db)
    first = alerts.call_staff("kiosk-entrance")
    assert alerts.call_staff("kiosk-entrance") == first
    other = alerts.call_staff("kiosk-upstairs")
    assert other != first
    alerts.respond(first, "amy")
    assert alerts.call_staff("kiosk-entrance") not in (first, other)
    assert {a.kind for a in alerts.open_alerts()} == {"help"}


def test_the_kiosk_role_raises_alerts_but_cannot_read_them(db: Database) -> None:
    init_roles(db, kiosk_password="kiosk-pw-1", staff_password="staff-pw-1")
    url = (
        sa.engine.make_url(db.url)
        .set(username=KIOSK_ROLE, password="kiosk-pw-1")
        .update_query_dict({"application_name": "kiosk-3"})
        .render_as_string(hide_password=False)
    )
    kiosk = Database(url)
    try:
        _log(kiosk, "chest pain and my arm is numb", "emergency")
        assert AlertService(kiosk).call_staff("kiosk-3") > 0
        with kiosk.engine.connect() as conn:
            try:
                conn.execute(sa.text("SELECT * FROM alerts"))
            except sa.exc.ProgrammingError as exc:
                assert "permission denied" in str(exc)
            else:
                raise AssertionError("the kiosk role read the alerts table")
    finally:
        kiosk.dispose()
    open_alerts = AlertService(db).open_alerts()
    assert {(a.kind, a.source) for a in open_alerts} == {
        ("emergency", "kiosk-3"),
        ("help", "kiosk-3"),
    }


def test_desks_are_notified_without_the_question(db: Database) -> None:
    listener = ChangeListener(db.url, (ALERT_CHANNEL,), poll_seconds=0.1)
    seen = []
    got = threading.Event()

    def run() -> None:
        for change in listener.changes():
            seen.append(change)
            got.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    time.sleep(0.5)
    try:
        started = time.monotonic()
        _log(db, "she is bleeding heavily", "emergency")
        assert got.wait(5)
        assert time.monotonic() - started < 2  # the bar: every desk within 2 seconds
        assert seen[0].channel == ALERT_CHANNEL and seen[0].payload["kind"] == "emergency"
        assert "bleeding" not in str(seen[0].payload)
    finally:
        listener.stop()
        thread.join(timeout=5)


def test_a_kiosk_is_named_by_its_setting_or_its_host(tmp_path) -> None:
    unnamed = Settings(data_dir=tmp_path)
    named = unnamed.replace(kiosk=KioskSettings(name="  Entrance   2 "))
    assert kiosk_source(named, host="pc-17") == "kiosk:Entrance 2"
    assert kiosk_source(unnamed, host="pc-17") == "kiosk:pc-17"
    assert kiosk_source(unnamed) == f"kiosk:{socket.gethostname()}"
    # PostgreSQL keeps 63 bytes of an application_name and shows non-ASCII as '?': say it first.
    cafe = unnamed.replace(kiosk=KioskSettings(name="Caf\u00e9 " + "x" * 100))
    assert kiosk_source(cafe) == "kiosk:Caf? " + "x" * 55
    assert source_label("kiosk:Entrance 2") == "kiosk Entrance 2"
    assert source_label("kiosk") == "kiosk"  # alerts raised before kiosks had names


def test_a_kiosk_emergency_alert_says_which_kiosk(db: Database, settings: Settings) -> None:
    """Through the kiosk's real backend (its own connection): the alert names the kiosk from
    ``[kiosk] name``, and without one from the host name, never just "kiosk"."""
    for name, expected in (
        ("entrance-2", "kiosk:entrance-2"),
        ("", "kiosk:" + socket.gethostname()),
    ):
        configured = settings.replace(kiosk=KioskSettings(name=name))
        kiosk = ServiceBackend(
            configured, audience="public", channel="kiosk", embedder=FakeEmbedder()
        )
        try:
            final = list(kiosk.answer("my husband collapsed and is not breathing"))[-1]
            assert isinstance(final, DoneEvent) and final.outcome is Outcome.EMERGENCY
        finally:
            kiosk.database().dispose()
        newest = AlertService(db).open_alerts()[0]
        assert (newest.kind, newest.source) == ("emergency", expected)
        AlertService(db).respond(newest.alert_id, "amy")


def test_the_kiosk_name_can_come_from_the_environment(tmp_path) -> None:
    """One system-wide config file for a fleet: each machine may name itself."""
    from engine.ops.settings import load_settings

    settings = load_settings(data_dir=tmp_path, environ={"CLINIC_KIOSK_NAME": "first floor"})
    assert kiosk_source(settings, host="pc-17") == "kiosk:first floor"
