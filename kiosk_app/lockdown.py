"""Keeps patients inside the kiosk: swallowed escape keys, a hidden corner, a staff PIN pad.

The only way out is a long press in the top-left corner followed by the staff PIN from
settings (compared in constant time). After each wrong PIN the pad locks for longer (1 s, 2 s,
4 s ... at most 5 minutes; the count survives closing the pad) and each lockout is logged; an
untouched pad closes after 30 s so it never blocks the kiosk. This module never stores or logs
the PIN or what was typed.
"""

from __future__ import annotations

import hmac
import logging
import time
from collections.abc import Callable

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
from kiosk_app.layout import TALL, Metrics

log = logging.getLogger(__name__)

LONG_PRESS_MS = 3000
HOTSPOT_PX = 96
WRONG_PIN = "That PIN is not right. Please try again."
LOCKED = "Too many wrong PINs. Try again in {seconds} s."
PAD_IDLE_MS = 30_000
FIRST_LOCK_SECONDS = 1.0
MAX_LOCK_SECONDS = 300.0


def lock_seconds(wrong_attempts: int) -> float:
    """1 s after the first wrong PIN, doubling with each one, at most 5 minutes."""
    if wrong_attempts <= 0:
        return 0.0
    return float(min(MAX_LOCK_SECONDS, FIRST_LOCK_SECONDS * 2 ** min(wrong_attempts - 1, 20)))


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

    def __init__(
        self,
        expected_pin: str,
        parent: QWidget,
        *,
        now: Callable[[], float] = time.monotonic,
        idle_ms: int = PAD_IDLE_MS,
    ) -> None:
        super().__init__(parent)
        self._expected = expected_pin
        self._now = now
        self.wrong_attempts = 0
        self.locked_until = 0.0
        self.setObjectName("pinOverlay")
        outer = QVBoxLayout(self)
        outer.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.card = QFrame()
        self.card.setObjectName("pinCard")
        self.card.setFixedWidth(560)
        outer.addWidget(self.card)
        layout = QVBoxLayout(self.card)
        layout.setContentsMargins(28, 28, 28, 28)
        self.title = QLabel("Staff only: enter the exit PIN")
        self.title.setFont(style.font(style.BODY_PT, bold=True))
        self.title.setWordWrap(True)
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
        layout.addWidget(self.title)
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
        self.idle_timer = QTimer(self)
        self.idle_timer.setSingleShot(True)
        self.idle_timer.setInterval(idle_ms)
        self.idle_timer.timeout.connect(self.dismiss)
        self.lock_timer = QTimer(self)
        self.lock_timer.setInterval(250)
        self.lock_timer.timeout.connect(self._refresh_lock)
        self._reserve_message_room()
        self.hide()

    def _button(self, text: str, grid: QGridLayout, row: int, column: int) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName("key")
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        button.clicked.connect(self._on_key)
        grid.addWidget(button, row, column)
        return button

    def _reserve_message_room(self) -> None:
        # The message line always takes the room of its longest text: no shift when it appears.
        width = self.card.width() - 56
        longest = max((WRONG_PIN, LOCKED.format(seconds=300)), key=len)
        lines = max(1, -(-self.message.fontMetrics().horizontalAdvance(longest) // max(1, width)))
        self.message.setFixedHeight(self.message.fontMetrics().lineSpacing() * (lines + 1))

    def apply_metrics(self, m: Metrics = TALL) -> None:
        self.card.setFixedWidth(min(560, max(460, int(m.key_px * 7))))
        for label in (self.title, self.entry, self.message):
            label.setFont(style.font(m.body_pt, bold=label is self.title))
        for button in self.buttons():
            button.setMinimumHeight(max(56, m.key_px))
        self._reserve_message_room()

    def buttons(self) -> list[QPushButton]:
        return [*self.digit_buttons.values(), self.clear_button, self.ok_button]

    @Slot()
    def _on_key(self) -> None:
        button = self.sender()
        if not isinstance(button, QPushButton):
            return
        self.idle_timer.start()
        if self.is_locked():
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
        self._refresh_lock()
        self.show()
        self.raise_()
        self.idle_timer.start()

    def is_locked(self) -> bool:
        return self._now() < self.locked_until

    def submit(self) -> None:
        entered = self.entry.text()
        self.entry.clear()
        if self.is_locked():
            return
        if pin_matches(entered, self._expected):
            self.wrong_attempts = 0
            self.locked_until = 0.0
            self.idle_timer.stop()
            self.hide()
            self.accepted.emit()
            return
        self.wrong_attempts += 1
        seconds = lock_seconds(self.wrong_attempts)
        self.locked_until = self._now() + seconds
        log.warning(
            "Kiosk exit PIN: %d wrong in a row; the pad is locked for %.0f s",
            self.wrong_attempts,
            seconds,
        )
        self._refresh_lock()

    @Slot()
    def _refresh_lock(self) -> None:
        locked = self.is_locked()
        for button in self.buttons():
            button.setEnabled(not locked)
        if locked:
            left = max(1, int(self.locked_until - self._now() + 0.999))
            self.message.setText(LOCKED.format(seconds=left))
            if not self.lock_timer.isActive():
                self.lock_timer.start()
        else:
            self.lock_timer.stop()
            self.message.setText(WRONG_PIN if self.wrong_attempts else "")

    def dismiss(self) -> None:
        self.entry.clear()
        self.message.clear()
        self.idle_timer.stop()
        self.lock_timer.stop()
        self.hide()
