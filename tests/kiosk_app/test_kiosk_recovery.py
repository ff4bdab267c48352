"""Self-healing, the exit PIN's lockout, and a second answer brought into view."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import Qt

from engine.errors import DatabaseUnavailable
from kiosk_app import main as kiosk_main
from kiosk_app.database import DatabaseMonitor
from kiosk_app.lockdown import MAX_LOCK_SECONDS, lock_seconds
from tests.support.fake_backend import FakeBackend, cited_answer

LONG = " ".join(["Fasting blood tests need 10 to 12 hours without food [1]."] * 30)


def test_lock_doubles_from_one_second_to_five_minutes():
    assert [lock_seconds(n) for n in range(1, 6)] == [1, 2, 4, 8, 16]
    assert lock_seconds(9) == 256
    assert lock_seconds(10) == MAX_LOCK_SECONDS
    assert lock_seconds(10_000) == MAX_LOCK_SECONDS


def test_wrong_pins_lock_the_pad_and_each_lockout_is_logged(qtbot, window, clock, caplog):
    pad = window.pin_pad
    pad.open()
    caplog.set_level(logging.WARNING, logger="kiosk_app.lockdown")
    for attempt in range(1, 4):
        for digit in "9999":
            pad.digit_buttons[digit].click()
        pad.ok_button.click()
        assert pad.is_locked()
        assert not pad.ok_button.isEnabled()
        pad.digit_buttons["2"].click()  # ignored while locked
        assert pad.entry.text() == ""
        clock.advance(lock_seconds(attempt))
        pad._refresh_lock()
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 3 and "locked for 4 s" in lines[-1]
    assert "9999" not in " ".join(lines)
    pad.dismiss()
    pad.open()  # closing the pad does not reset the count
    for digit in "1111":
        pad.digit_buttons[digit].click()
    pad.ok_button.click()
    assert pad.locked_until - clock.now() == lock_seconds(4)


def test_an_untouched_pin_pad_closes_by_itself(qtbot, make_window, settings):
    window = make_window(FakeBackend())
    window.pin_pad.idle_timer.setInterval(100)
    window.pin_pad.open()
    assert window.pin_pad.isVisible()
    qtbot.waitUntil(window.pin_pad.isHidden, timeout=2000)


def test_full_screen_with_the_default_pin_is_refused(tmp_path, capsys):
    code = kiosk_main.main(["--data-dir", str(tmp_path)], backend_factory=lambda _s: FakeBackend())
    assert code == 2
    assert "--allow-default-pin" in capsys.readouterr().err


def test_a_second_long_answer_is_shown_from_its_question(qtbot, make_window):
    backend = FakeBackend(default=cited_answer(LONG))
    window = make_window(backend)
    for question in ("How long do I fast?", "And for a cholesterol test?"):
        window.ask(question)
        qtbot.waitUntil(
            lambda: bool(window.chat.view.bubbles()[-1].citation_buttons()), timeout=5000
        )
    qtbot.wait(100)
    view = window.chat.view
    question = [b for b in view.bubbles() if b.role == "question"][-1]
    bar = view.verticalScrollBar()
    assert bar.maximum() > 0
    top = question.y() - bar.value()
    assert 0 <= top < 60  # the second question sits at the top, its answer below it
    assert window.chat.more_below.isVisible()  # the answer continues under the fold
    qtbot.mouseClick(window.chat.more_below, Qt.MouseButton.LeftButton)
    assert bar.value() > question.y() - 60


def test_text_size_grows_and_the_wipe_resets_it(qtbot, window):
    window.ask("Where can I park?")
    qtbot.waitUntil(lambda: bool(window.chat.view.bubbles()[-1].citation_buttons()), timeout=5000)
    body = window.chat.view.bubbles()[-1].body
    before = body.font().pointSizeF()
    window.chat.larger_button.click()
    assert body.font().pointSizeF() > before
    window.ask("What time does the clinic open?")
    qtbot.waitUntil(lambda: not window.runner.is_running(), timeout=5000)
    assert window.chat.view.bubbles()[-1].body.font().pointSizeF() > before  # kept in session
    window.wipe()
    window.ask("Where can I park?")
    qtbot.waitUntil(lambda: not window.runner.is_running(), timeout=5000)
    assert window.chat.view.bubbles()[-1].body.font().pointSizeF() == before


def test_a_question_the_database_failed_on_is_answered_when_it_is_back(qtbot, make_window):
    backend = FakeBackend(fail_after=0, stream_error=DatabaseUnavailable("server gone"))
    window = make_window(backend)
    window.welcome.input.edit.setText("Where can I park?")
    qtbot.mouseClick(window.welcome.input.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.stack.currentWidget() is window.unavailable, timeout=5000)
    assert window.unavailable.kept.isVisible()
    assert "park" not in window.unavailable.kept.text()  # said, never shown on a public screen
    assert "999" in window.unavailable.emergency_text.text()
    backend.fail_after = None
    window.database.check_now()
    qtbot.waitUntil(lambda: window.stack.currentWidget() is window.chat, timeout=5000)
    qtbot.waitUntil(lambda: bool(window.chat.view.bubbles()[-1].citation_buttons()), timeout=5000)
    assert [q for q, _h in backend.calls] == ["Where can I park?", "Where can I park?"]


def test_the_idle_wipe_forgets_a_kept_question(qtbot, make_window, clock, settings):
    backend = FakeBackend(fail_after=0, stream_error=DatabaseUnavailable("server gone"))
    window = make_window(backend)
    window.ask("Where can I park?")
    qtbot.waitUntil(lambda: window.stack.currentWidget() is window.unavailable, timeout=5000)
    clock.advance(settings.kiosk.idle_seconds)
    window.idle.check()
    clock.advance(settings.kiosk.warning_seconds)
    window.idle.check()
    backend.fail_after = None
    window.database.check_now()
    qtbot.waitUntil(lambda: window.stack.currentWidget() is window.welcome_area, timeout=5000)
    assert len(backend.calls) == 1


@pytest.fixture
def make_monitor() -> Iterator[Callable[..., DatabaseMonitor]]:
    """DatabaseMonitors without a window: stopped, and their check's thread waited for, at the end
    (as ``KioskWindow.shutdown`` does); never left running for the garbage collector."""
    monitors: list[DatabaseMonitor] = []

    def make(*args, **kwargs) -> DatabaseMonitor:
        monitors.append(DatabaseMonitor(*args, **kwargs))
        return monitors[-1]

    yield make
    for monitor in monitors:
        monitor.stop()
        assert monitor.wait()


class Flaky:
    def __init__(self) -> None:
        self.up = True

    def __call__(self) -> None:
        if not self.up:
            raise DatabaseUnavailable("connection refused\nTraceback (most recent call last): ...")


def test_one_log_line_per_state_change_and_backoff_on_a_shared_server(qtbot, caplog, make_monitor):
    caplog.set_level(logging.INFO, logger="kiosk_app.database")
    now = [0.0]
    check = Flaky()
    monitor = make_monitor(check, 2, backoff=True, now=lambda: now[0])
    check.up = False
    intervals = []
    for _ in range(6):
        monitor.check_now()
        qtbot.waitUntil(lambda: not monitor.checking, timeout=2000)
        qtbot.wait(10)
        intervals.append(monitor.retry_timer.interval())
        now[0] += 30
    assert intervals == [2000, 4000, 8000, 16000, 32000, 60000]
    now[0] += 600
    monitor.check_now()
    qtbot.waitUntil(lambda: not monitor.checking, timeout=2000)
    qtbot.wait(10)
    check.up = True
    monitor.check_now()
    qtbot.waitUntil(lambda: monitor.available, timeout=2000)
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 3, lines  # down, still down (10 minutes), back
    assert "unavailable" in lines[0] and "still" in lines[1] and "again" in lines[2]
    assert not any(r.exc_info for r in caplog.records)
    assert "Traceback" not in lines[0]


class RestartableServer:
    """A backend's database that dies and comes back only when restarted."""

    def __init__(self) -> None:
        self.running = True
        self.restarts = 0

    def check(self) -> None:
        if not self.running:
            raise DatabaseUnavailable("connection refused")

    def restart_database(self) -> None:
        self.restarts += 1
        self.running = True


def test_a_dead_embedded_server_is_restarted_before_the_retry(qtbot, make_monitor):
    server = RestartableServer()
    monitor = make_monitor(server.check, 0.05, restart=server.restart_database)
    monitor.check_now()
    qtbot.waitUntil(lambda: not monitor.checking, timeout=2000)
    assert server.restarts == 0  # never while the server is up
    server.running = False
    monitor.check_now()
    qtbot.waitUntil(lambda: not monitor.available, timeout=2000)
    qtbot.waitUntil(lambda: monitor.available, timeout=2000)  # the retry timer restarted it
    assert server.restarts == 1


class HeldCheck:
    """A database check that fails, and whose first run holds until released."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.calls = 0

    def __call__(self) -> None:
        self.calls += 1
        if self.calls == 1:
            self.release.wait(5)
        raise DatabaseUnavailable("connection refused")


def test_a_retry_asked_for_while_the_last_check_ends_is_not_lost(qtbot, make_monitor):
    # The retry timer may fire after a failed check reported but before its thread was retired;
    # the retry must still run then, not wait for the next heartbeat (an hour here).
    check = HeldCheck()
    monitor = make_monitor(check, 3600, heartbeat_seconds=3600)
    monitor.report_unavailable("an answer failed on the database")
    assert not monitor.available
    monitor.check_now()
    qtbot.waitUntil(lambda: check.calls == 1, timeout=2000)
    monitor.check_now()  # as the retry timer firing while the first check still runs
    check.release.set()
    qtbot.waitUntil(lambda: check.calls == 2, timeout=2000)
    qtbot.waitUntil(lambda: not monitor.checking, timeout=2000)
    qtbot.wait(50)
    assert check.calls == 2  # the one retry asked for, not a loop
