"""Keeps patients inside the kiosk: swallowed escape keys, a hidden corner, a staff PIN pad.

The only way out is a long press in the top-left corner followed by the staff PIN from
settings (compared in constant time). This module never stores or logs the PIN or what was typed.
"""

from __future__ import annotations

import hmac

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from kiosk_app import style

LONG_PRESS_MS = 3000
HOTSPOT_PX = 96
WRONG_PIN = "That PIN is not right. Please try again."


def pin_matches(entered: str, expected: str) -> bool:
    """Constant-time comparison; an empty configured PIN never matches."""
    return bool(expected) and hmac.compare_digest(entered.encode(), expected.encode())


class KeyGuard(QObject):
    """Application event filter swallowing keys that would leave or close the kiosk."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride) and isinstance(
            event, QKeyEvent
        ):
            key = event.key()
            mods = event.modifiers()
            if key == Qt.Key.Key_Escape:
                return True
            if key == Qt.Key.Key_F4 and mods & Qt.KeyboardModifier.AltModifier:
                return True
            if key in (Qt.Key.Key_W, Qt.Key.Key_Q) and mods & Qt.KeyboardModifier.ControlModifier:
                return True
        return False


class CornerHotspot(QWidget):
    """An invisible square in the top-left corner that reports a long press."""

    long_pressed = Signal()

    def __init__(self, parent: QWidget, long_press_ms: int = LONG_PRESS_MS) -> None:
        super().__init__(parent)
        self.setObjectName("cornerHotspot")
        self.setFixedSize(HOTSPOT_PX, HOTSPOT_PX)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(long_press_ms)
        self.timer.timeout.connect(self.long_pressed)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.timer.start()
        event.accept()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self.timer.stop()
        event.accept()


class PinPad(QFrame):
    """A full-window overlay with a digit pad; ``accepted`` only for the right PIN."""

    accepted = Signal()

    def __init__(self, expected_pin: str, parent: QWidget) -> None:
        super().__init__(parent)
        self._expected = expected_pin
        self.setObjectName("pinOverlay")
        outer = QVBoxLayout(self)
        outer.setAlignment(Qt.AlignmentFlag.AlignCenter)
        card = QFrame()
        card.setObjectName("pinCard")
        card.setFixedWidth(560)
        outer.addWidget(card)
        layout = QVBoxLayout(card)
        layout.setContentsMargins(28, 28, 28, 28)
        title = QLabel("Staff only: enter the exit PIN")
        title.setFont(style.font(style.BODY_PT, bold=True))
        title.setWordWrap(True)
        self.entry = QLineEdit()
        self.entry.setObjectName("pinEntry")
        self.entry.setEchoMode(QLineEdit.EchoMode.Password)
        self.entry.setReadOnly(True)
        self.entry.setFont(style.font(style.BODY_PT))
        self.entry.setMinimumHeight(style.TOUCH_MIN_PX)
        self.message = QLabel("")
        self.message.setObjectName("pinMessage")
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setWordWrap(True)
        layout.addWidget(title)
        layout.addWidget(self.entry)
        layout.addWidget(self.message)
        grid = QGridLayout()
        self.digit_buttons: dict[str, QPushButton] = {}
        for index, digit in enumerate("123456789"):
            self.digit_buttons[digit] = self._button(digit, grid, index // 3, index % 3)
        self.clear_button = self._button("Clear", grid, 3, 0)
        self.digit_buttons["0"] = self._button("0", grid, 3, 1)
        self.ok_button = self._button("OK", grid, 3, 2)
        self.ok_button.setProperty("primary", True)
        layout.addLayout(grid)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setMinimumHeight(style.TOUCH_MIN_PX)
        self.cancel_button.clicked.connect(self.dismiss)
        layout.addWidget(self.cancel_button)
        self.hide()

    def _button(self, text: str, grid: QGridLayout, row: int, column: int) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName("key")
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        button.clicked.connect(self._on_key)
        grid.addWidget(button, row, column)
        return button

    @Slot()
    def _on_key(self) -> None:
        button = self.sender()
        if not isinstance(button, QPushButton):
            return
        text = button.text()
        if text == "Clear":
            self.entry.clear()
        elif text == "OK":
            self.submit()
        elif len(self.entry.text()) < 12:
            self.entry.setText(self.entry.text() + text)

    def open(self) -> None:
        self.entry.clear()
        self.message.clear()
        self.show()
        self.raise_()

    def submit(self) -> None:
        entered = self.entry.text()
        self.entry.clear()
        if pin_matches(entered, self._expected):
            self.hide()
            self.accepted.emit()
        else:
            self.message.setText(WRONG_PIN)

    def dismiss(self) -> None:
        self.entry.clear()
        self.message.clear()
        self.hide()
