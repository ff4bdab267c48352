"""The on-screen keyboard folds away when a question is asked so the answer gets the room."""

from __future__ import annotations

from PySide6.QtCore import Qt

from kiosk_app.keyboard import HIDE_KEYBOARD, SHOW_KEYBOARD


def ask(qtbot, window, question: str = "Where can I park?") -> None:
    window.welcome.input.edit.setText(question)
    qtbot.mouseClick(window.welcome.input.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.chat.view.bubbles()[-1].citation_buttons() != [], timeout=5000)


def test_welcome_screen_starts_with_the_keyboard_open(window):
    assert window.keyboard.isVisible()
    assert window.keyboard_toggle.isVisible()
    assert window.keyboard_toggle.text() == HIDE_KEYBOARD


def test_asking_folds_the_keyboard_and_the_chat_uses_the_room(qtbot, window):
    ask(qtbot, window)
    qtbot.waitUntil(lambda: window.chat.view.height() > 0, timeout=2000)
    assert window.keyboard.isHidden()
    folded = window.chat.view.height()
    toggle = window.keyboard_toggle
    assert toggle.isVisible() and toggle.text() == SHOW_KEYBOARD
    assert "Keyboard" in toggle.text()
    assert toggle.height() >= 48 and toggle.width() >= 48

    qtbot.mouseClick(toggle, Qt.MouseButton.LeftButton)
    assert window.keyboard.isVisible()
    assert toggle.text() == HIDE_KEYBOARD
    qtbot.waitUntil(lambda: window.chat.view.height() < folded, timeout=2000)
    # The keyboard is large: folding it gives the answer a good part of the screen back.
    assert folded - window.chat.view.height() >= window.keyboard.height() * 0.9

    qtbot.mouseClick(toggle, Qt.MouseButton.LeftButton)
    assert window.keyboard.isHidden()
    qtbot.waitUntil(lambda: window.chat.view.height() == folded, timeout=2000)


def test_tapping_the_question_box_brings_the_keyboard_back(qtbot, window):
    ask(qtbot, window)
    assert window.keyboard.isHidden()
    qtbot.mouseClick(window.chat.input.edit, Qt.MouseButton.LeftButton)
    assert window.keyboard.isVisible()
    window.keyboard.press("a")
    assert window.chat.input.edit.text() == "a"  # it types into the chat screen's box


def test_a_follow_up_question_folds_it_again(qtbot, window, backend):
    ask(qtbot, window)
    qtbot.mouseClick(window.chat.input.edit, Qt.MouseButton.LeftButton)
    window.chat.input.edit.setText("Is it free?")
    qtbot.mouseClick(window.chat.input.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(backend.calls) == 2, timeout=5000)
    assert window.keyboard.isHidden()


def test_the_wipe_opens_the_keyboard_for_the_next_patient(qtbot, window, clock, settings):
    ask(qtbot, window)
    assert window.keyboard.isHidden()
    clock.advance(settings.kiosk.idle_seconds + settings.kiosk.warning_seconds)
    window.idle.check()
    window.idle.check()
    assert window.stack.currentWidget() is window.welcome_area
    assert window.keyboard.isVisible()
    assert window.keyboard_toggle.text() == HIDE_KEYBOARD
    window.keyboard.press("x")
    assert window.welcome.input.edit.text() == "x"


def test_start_again_also_reopens_it(qtbot, window):
    ask(qtbot, window)
    qtbot.mouseClick(window.chat.start_again_button, Qt.MouseButton.LeftButton)
    assert window.keyboard.isVisible()
