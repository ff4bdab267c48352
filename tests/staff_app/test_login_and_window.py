"""Sign-in, tab shortcuts, sign-out, the health banner and remembered geometry."""

from PySide6.QtCore import QSettings, Qt

from engine.errors import DatabaseUnavailable
from staff_app.login_dialog import WRONG_PASSWORD, LoginDialog
from staff_app.tasks import Tasks
from staff_app.window import GEOMETRY_KEY, StaffWindow
from tests.support.fake_staff import FakeUsers


def make_login(qtbot):
    tasks = Tasks()
    dialog = LoginDialog(FakeUsers(), tasks)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog, tasks


def test_sign_in_with_enter_accepts_and_returns_the_user(qtbot):
    dialog, tasks = make_login(qtbot)
    qtbot.keyClicks(dialog.username, "alice")
    qtbot.keyClicks(dialog.password, "correct horse")
    with qtbot.waitSignal(dialog.accepted, timeout=3000):
        qtbot.keyClick(dialog.password, Qt.Key.Key_Return)
    assert dialog.user.username == "alice"
    assert dialog.password.text() == ""
    tasks.wait_all()


def test_wrong_password_shows_a_message_and_stays_open(qtbot):
    dialog, tasks = make_login(qtbot)
    qtbot.keyClicks(dialog.username, "alice")
    qtbot.keyClicks(dialog.password, "wrong")
    qtbot.keyClick(dialog.password, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dialog.message.isVisible(), timeout=3000)
    assert dialog.message.text() == WRONG_PASSWORD
    assert dialog.isVisible() and dialog.user is None
    assert dialog.password.text() == ""
    assert dialog.sign_in_button.isEnabled()
    tasks.wait_all()


def test_ctrl_1_to_4_switch_tabs(qtbot, window):
    for key, index in ((Qt.Key.Key_2, 1), (Qt.Key.Key_3, 2), (Qt.Key.Key_4, 3), (Qt.Key.Key_1, 0)):
        qtbot.keyClick(window, key, Qt.KeyboardModifier.ControlModifier)
        assert window.tabs.currentIndex() == index


def test_ctrl_f_focuses_the_slot_search(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentWidget() is window.appointments
    qtbot.waitUntil(lambda: window.appointments.query.hasFocus(), timeout=2000)


def test_the_signed_in_user_gets_their_own_assistant(window, services):
    assert services.assistants_made == ["alice"]
    assert window.appointments.user == "alice"
    assert "Alice Moreno" in window.user_label.text()


def test_sign_out_clears_the_conversation(qtbot, window, backend):
    window.assistant.input.setText("Where can I park?")
    window.assistant.ask()
    qtbot.waitUntil(lambda: window.assistant.history != [], timeout=3000)
    with qtbot.waitSignal(window.signed_out, timeout=1000):
        window.sign_out()
    assert window.assistant.chat.bubbles() == []
    assert window.assistant.history == []
    assert window.appointments.user == ""


def test_banner_shows_when_database_is_down_and_recovers(qtbot, window, backend):
    assert not window.banner.isVisible()
    backend.database_up = False
    checks = window.health_checks
    window.check_health()
    qtbot.waitUntil(lambda: window.health_checks > checks, timeout=3000)
    assert window.banner.isVisible()
    assert "database cannot be reached" in window.banner.text()
    assert "Traceback" not in window.banner.text()

    backend.database_up = True
    checks = window.health_checks
    window.check_health()
    qtbot.waitUntil(lambda: window.health_checks > checks, timeout=3000)
    assert not window.banner.isVisible()


def test_health_is_checked_periodically(qtbot, services, ui_settings):
    window = StaffWindow(services, ui_settings, health_interval_ms=20)
    qtbot.addWidget(window)
    services.check_health = lambda: (_ for _ in ()).throw(DatabaseUnavailable("gone"))
    from tests.staff_app.conftest import ALICE

    window.sign_in(ALICE)
    qtbot.waitUntil(lambda: window.health_checks >= 3, timeout=5000)
    assert window.banner.text().startswith("The database cannot be reached.")
    window.shutdown()


def test_geometry_is_remembered_in_the_given_settings(qtbot, services, tmp_path):
    path = str(tmp_path / "geometry.ini")
    first = StaffWindow(services, QSettings(path, QSettings.Format.IniFormat))
    qtbot.addWidget(first)
    first.resize(760, 540)
    first.show()
    qtbot.waitExposed(first)
    first.close()
    assert QSettings(path, QSettings.Format.IniFormat).value(GEOMETRY_KEY) is not None
    second = StaffWindow(services, QSettings(path, QSettings.Format.IniFormat))
    qtbot.addWidget(second)
    assert (second.width(), second.height()) == (760, 540)
