"""Privacy, lockdown, keyboard and availability on the kiosk."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QLabel, QLineEdit, QPlainTextEdit, QTextEdit

from engine.errors import DatabaseUnavailable
from kiosk_app import main as kiosk_main
from kiosk_app.idle_warning import STILL_HERE
from kiosk_app.keyboard import BACKSPACE, ENTER, SHIFT, SPACE
from kiosk_app.lockdown import WRONG_PIN, pin_matches
from kiosk_app.window import KioskWindow
from tests.support.fake_backend import FakeBackend

SECRET = "Where do I take my HIV test results"


def all_texts(window: KioskWindow) -> list[str]:
    texts = []
    for widget in window.findChildren(QLabel):
        texts.append(widget.text())
    for widget in window.findChildren(QLineEdit):
        texts.append(widget.text())
    for kind in (QTextEdit, QPlainTextEdit):
        for widget in window.findChildren(kind):
            texts.append(widget.toPlainText())
    for widget in window.findChildren(QAbstractButton):
        texts.append(widget.text())
    return texts


def ask_and_finish(qtbot, window: KioskWindow, question: str) -> None:
    window.welcome.input.edit.setText(question)
    qtbot.mouseClick(window.welcome.input.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.chat.view.bubbles()[-1].citation_buttons() != [], timeout=5000)


def test_idle_warning_then_wipe_leaves_nothing_of_the_patient(qtbot, window, clock, settings):
    ask_and_finish(qtbot, window, SECRET)
    qtbot.mouseClick(
        window.chat.view.bubbles()[-1].citation_buttons()[0], Qt.MouseButton.LeftButton
    )
    window.chat.input.edit.setText("and also my private follow-up")
    window.keyboard.press(SHIFT)
    assert window.passage_overlay.isVisible()

    clock.advance(settings.kiosk.idle_seconds - 1)
    window.idle.check()
    assert window.idle_warning.isHidden()
    clock.advance(1)
    window.idle.check()
    assert window.idle_warning.isVisible()
    assert f"{settings.kiosk.warning_seconds} seconds" in window.idle_warning.countdown.text()
    assert window.idle_warning.button.text() == STILL_HERE
    clock.advance(10)
    window.idle.check()
    assert f"{settings.kiosk.warning_seconds - 10} seconds" in window.idle_warning.countdown.text()
    clock.advance(settings.kiosk.warning_seconds - 10)
    window.idle.check()

    assert window.idle_warning.isHidden()
    assert window.stack.currentWidget() is window.welcome_area
    assert not window.keyboard.shifted
    assert not window.passage_overlay.isVisible()
    assert window.chat.view.bubbles() == []
    assert window.chat.view.verticalScrollBar().value() == 0
    joined = "\n".join(all_texts(window))
    for fragment in ("HIV", "private follow-up", "Mill Lane", "Free parking", "[1]"):
        assert fragment not in joined
    assert window.passage.citation is None


def test_im_still_here_keeps_the_conversation(qtbot, window, clock, settings):
    ask_and_finish(qtbot, window, SECRET)
    clock.advance(settings.kiosk.idle_seconds)
    window.idle.check()
    assert window.idle_warning.isVisible()
    qtbot.mouseClick(window.idle_warning.button, Qt.MouseButton.LeftButton)
    assert window.idle_warning.isHidden()
    clock.advance(settings.kiosk.warning_seconds + 1)
    window.idle.check()
    assert window.stack.currentWidget() is window.chat
    assert window.chat.view.bubbles()[0].text == SECRET


def test_any_touch_restarts_the_idle_time(qtbot, window, clock, settings):
    ask_and_finish(qtbot, window, SECRET)
    clock.advance(settings.kiosk.idle_seconds - 5)
    qtbot.mouseClick(window.chat.input.edit, Qt.MouseButton.LeftButton)
    clock.advance(10)
    window.idle.check()
    assert window.idle_warning.isHidden()


def test_no_warning_on_an_untouched_welcome_screen(window, clock, settings):
    clock.advance(settings.kiosk.idle_seconds * 3)
    window.idle.check()
    assert window.idle_warning.isHidden()


def test_close_escape_and_alt_f4_are_ignored(qtbot, window):
    assert not window.close()
    assert window.isVisible()
    qtbot.keyClick(window.welcome.input.edit, Qt.Key.Key_F4, Qt.KeyboardModifier.AltModifier)
    qtbot.keyClick(window.welcome.input.edit, Qt.Key.Key_Escape)
    assert window.isVisible()


def test_staff_exit_needs_a_long_press_and_the_right_pin(qtbot, make_window, backend, clock):
    window = make_window(backend, long_press_ms=50)
    qtbot.mouseClick(window.hotspot, Qt.MouseButton.LeftButton)  # a short tap does nothing
    assert window.pin_pad.isHidden()
    qtbot.mousePress(window.hotspot, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(window.pin_pad.isVisible, timeout=2000)
    qtbot.mouseRelease(window.hotspot, Qt.MouseButton.LeftButton)
    for digit in "1111":
        qtbot.mouseClick(window.pin_pad.digit_buttons[digit], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(window.pin_pad.ok_button, Qt.MouseButton.LeftButton)
    assert "Try again in 1 s" in window.pin_pad.message.text()
    assert window.isVisible()
    assert window.pin_pad.entry.text() == ""
    clock.advance(1)
    qtbot.waitUntil(lambda: window.pin_pad.message.text() == WRONG_PIN, timeout=2000)
    for digit in "2468":
        qtbot.mouseClick(window.pin_pad.digit_buttons[digit], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(window.pin_pad.ok_button, Qt.MouseButton.LeftButton)
    assert not window.isVisible()


def test_pin_comparison():
    assert pin_matches("2468", "2468")
    assert not pin_matches("246", "2468")
    assert not pin_matches("", "")


def test_on_screen_keyboard_types_into_the_input(qtbot, window, backend):
    keyboard = window.keyboard
    qtbot.mouseClick(keyboard.shift_key, Qt.MouseButton.LeftButton)
    for char in "wherr":
        qtbot.mouseClick(keyboard.letter_keys[char], Qt.MouseButton.LeftButton)
    keyboard.press(BACKSPACE)
    keyboard.press("e")
    keyboard.press(SPACE)
    for char in "is":
        keyboard.press(char)
    assert window.welcome.input.edit.text() == "Where is"
    assert not keyboard.shifted  # shift is one-shot
    assert all(key.height() >= 48 and key.width() >= 48 for key in keyboard.letter_keys.values())
    keyboard.press(ENTER)
    qtbot.waitUntil(lambda: len(backend.calls) == 1, timeout=5000)
    assert backend.calls[0][0] == "Where is"
    assert window.welcome.input.edit.text() == ""


def test_database_down_shows_unavailable_then_recovers(qtbot, make_window, settings):
    backend = FakeBackend(database_up=False)
    window = make_window(backend)
    qtbot.waitUntil(lambda: window.stack.currentWidget() is window.unavailable, timeout=5000)
    assert window.keyboard.isHidden()
    assert window.database.retry_timer.isActive()
    assert window.database.retry_timer.interval() == settings.kiosk.db_retry_seconds * 1000
    window.database.check_now()  # what the retry timer does
    qtbot.waitUntil(lambda: not window.database.checking, timeout=5000)
    assert window.stack.currentWidget() is window.unavailable
    backend.database_up = True
    window.database.check_now()
    qtbot.waitUntil(lambda: window.stack.currentWidget() is window.welcome_area, timeout=5000)
    assert window.keyboard.isVisible()
    assert not window.database.retry_timer.isActive()


def test_answer_failing_on_the_database_goes_to_unavailable(qtbot, make_window):
    backend = FakeBackend(fail_after=1, stream_error=DatabaseUnavailable("connection refused"))
    window = make_window(backend)
    window.welcome.input.edit.setText(SECRET)
    qtbot.mouseClick(window.welcome.input.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.stack.currentWidget() is window.unavailable, timeout=5000)
    assert "HIV" not in "\n".join(all_texts(window))


def test_main_smoke_test_with_a_fake_backend(tmp_path, capsys):
    code = kiosk_main.main(
        ["--smoke-test", "--data-dir", str(tmp_path)], backend_factory=lambda _s: FakeBackend()
    )
    assert code == 0
    assert "Mill Lane" in capsys.readouterr().out


def test_main_smoke_test_fails_when_the_database_is_down(tmp_path):
    code = kiosk_main.main(
        ["--smoke-test", "--data-dir", str(tmp_path)],
        backend_factory=lambda _s: FakeBackend(database_up=False),
    )
    assert code == 1


def test_main_reports_a_missing_config_file(tmp_path, capsys):
    assert kiosk_main.main(["--config", str(tmp_path / "nope.toml")]) == 2
    assert "does not exist" in capsys.readouterr().err
