"""The signed-in session's guards (issue #10 item 4): every write re-checks the account (a
disabled or locked-out account is signed out before its write happens), an idle desk signs out
after a visible countdown that any input cancels, and the sign-in dialog says how long a
locked-out account must wait. Idle times are milliseconds here; the defaults are minutes."""

from datetime import timedelta

import pytest
from PySide6.QtCore import Qt

from engine.errors import AuthenticationFailed
from engine.frontdesk.users import SignInLocked
from engine.ops.settings import SignInSettings
from staff_app.login_dialog import LoginDialog
from staff_app.session_guard import ACCOUNT_CLOSED, WRITES, IdleTimes, SessionGuard
from staff_app.tasks import Tasks
from staff_app.window import StaffWindow
from tests.support.fake_staff import BookingRequest, FakeUsers, StaffUserView

ALICE = StaffUserView("alice", "Alice Moreno", True)


def test_a_write_after_the_account_was_disabled_signs_out_instead(qtbot, window, services):
    services.users.disabled.add("alice")  # IT ran: clinic-assistant users disable alice
    booking = window.appointments.booking
    assert booking.departments()  # reads are not re-checked
    errors: list[BaseException] = []
    slot = services.booking.slots[0].slot_id
    with qtbot.waitSignal(window.signed_out, timeout=5000):
        window.tasks.run(
            lambda: booking.book(BookingRequest(slot, "Ada Lovelace", "07700 900123"), "alice"),
            lambda _view: None,
            errors.append,
        )
    qtbot.waitUntil(lambda: bool(errors), timeout=3000)
    assert isinstance(errors[0], AuthenticationFailed) and str(errors[0]) == ACCOUNT_CLOSED
    assert [name for name, _ in services.booking.calls if name == "book"] == []
    assert window.user is None and window.sign_out_notice == ACCOUNT_CLOSED
    assert services.users.checks == ["alice"]


def test_a_write_by_an_active_account_is_checked_then_done(qtbot, window, services):
    slot = services.booking.slots[0].slot_id
    done: list[object] = []
    window.tasks.run(
        lambda: window.appointments.booking.book(
            BookingRequest(slot, "Ada Lovelace", "07700 900123"), "alice"
        ),
        done.append,
        done.append,
    )
    qtbot.waitUntil(lambda: bool(done), timeout=3000)
    assert getattr(done[0], "reference", "").startswith("RFC-")
    assert services.users.checks == ["alice"] and window.user is not None


class Recorder:
    def __init__(self) -> None:
        self.called: list[str] = []

    def __getattr__(self, name: str):
        def method(*_args, **_kwargs):
            self.called.append(name)

        return method


@pytest.mark.parametrize("kind", sorted(WRITES))
def test_every_write_of_every_backend_is_refused_for_a_closed_account(qtbot, kind):
    users = FakeUsers(disabled={"alice"})
    guard = SessionGuard(users, lambda: "alice")
    inner = Recorder()
    wrapped = guard.wrap(inner, kind)
    for name in sorted(WRITES[kind]):
        with qtbot.waitSignal(guard.closed, timeout=1000), pytest.raises(AuthenticationFailed):
            getattr(wrapped, name)(1, user="alice")
    assert inner.called == []
    signed_out = SessionGuard(FakeUsers(), lambda: "")  # nobody signed in: no write either
    with pytest.raises(AuthenticationFailed):
        getattr(signed_out.wrap(inner, kind), sorted(WRITES[kind])[0])()
    assert inner.called == []


@pytest.fixture
def idle_window(qtbot, services, ui_settings):
    window = StaffWindow(
        services, ui_settings, idle=IdleTimes(idle_ms=600, warning_ms=400, tick_ms=100)
    )
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.sign_in(ALICE)
    yield window
    window.shutdown()


def test_an_idle_desk_counts_down_then_signs_out(qtbot, idle_window):
    warning = idle_window.idle_warning
    qtbot.waitUntil(warning.isVisible, timeout=3000)
    assert "signing out in" in warning.text() and "press a key" in warning.text()
    with qtbot.waitSignal(idle_window.signed_out, timeout=3000):
        pass
    assert idle_window.user is None
    assert idle_window.sign_out_notice.startswith("Signed out after")
    assert not warning.isVisible()


def test_any_key_during_the_countdown_keeps_the_session(qtbot, idle_window):
    warning = idle_window.idle_warning
    qtbot.waitUntil(warning.isVisible, timeout=3000)
    qtbot.keyClick(idle_window.assistant, Qt.Key.Key_Shift)
    assert not warning.isVisible()
    assert idle_window.user is not None
    # The quiet period starts again: the countdown comes back later, it does not sign out now.
    qtbot.waitUntil(warning.isVisible, timeout=3000)
    assert idle_window.user is not None


def test_the_default_idle_time_is_ten_minutes_with_a_minute_of_warning():
    times = IdleTimes.from_policy(SignInSettings())
    assert (times.idle_ms, times.warning_ms) == (10 * 60_000, 60_000)


class LockedUsers(FakeUsers):
    def authenticate(self, username: str, password: str) -> StaffUserView:
        raise SignInLocked(timedelta(minutes=14, seconds=30))


def test_the_sign_in_dialog_says_how_long_a_locked_account_waits(qtbot):
    tasks = Tasks()
    notice = "Signed out after 10 minutes without activity."
    dialog = LoginDialog(LockedUsers(), tasks, notice=notice)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.message.text() == notice
    qtbot.keyClicks(dialog.username, "alice")
    qtbot.keyClicks(dialog.password, "correct horse")
    qtbot.keyClick(dialog.password, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "wait 15 minutes" in dialog.message.text(), timeout=3000)
    assert dialog.user is None
    tasks.wait_all()
