"""An on-screen keyboard made of ordinary buttons inside the kiosk window.

It types into one target ``QLineEdit`` by inserting text (no synthetic key events, no input
method, no separate window), so it works the same on every platform. It never keeps what was
typed; ``reset()`` drops the shift state for the next person.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from kiosk_app import style
from kiosk_app.layout import Metrics

ROWS = ("1234567890", "qwertyuiop", "asdfghjkl'", "zxcvbnm,.?")
SHOW_KEYBOARD = "\N{KEYBOARD}  Keyboard  \N{BLACK UP-POINTING TRIANGLE}"
HIDE_KEYBOARD = "\N{KEYBOARD}  Hide keyboard  \N{BLACK DOWN-POINTING TRIANGLE}"
SHIFT = "\N{UPWARDS WHITE ARROW} Shift"
BACKSPACE = "\N{ERASE TO THE LEFT} Delete"
SPACE = "Space"
ENTER = "Ask \N{BLACK RIGHT-POINTING TRIANGLE}"


class OnScreenKeyboard(QWidget):
    submitted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("onScreenKeyboard")
        self._target: QLineEdit | None = None
        self.shifted = False
        self.letter_keys: dict[str, QPushButton] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 6, 12, 6)
        layout.setSpacing(6)
        for row in ROWS:
            line = QHBoxLayout()
            line.setSpacing(6)
            for char in row:
                self.letter_keys[char] = self._key(char, line)
            layout.addLayout(line)
        bottom = QHBoxLayout()
        bottom.setSpacing(6)
        self.shift_key = self._key(SHIFT, bottom, 2)
        self.shift_key.setCheckable(True)
        self.space_key = self._key(SPACE, bottom, 6)
        self.backspace_key = self._key(BACKSPACE, bottom, 2)
        self.backspace_key.setAutoRepeat(True)
        self.enter_key = self._key(ENTER, bottom, 2)
        self.enter_key.setProperty("primary", True)
        layout.addLayout(bottom)
        self._layout = layout

    def keys(self) -> list[QPushButton]:
        special = [self.shift_key, self.space_key, self.backspace_key, self.enter_key]
        return [*self.letter_keys.values(), *special]

    def apply_metrics(self, m: Metrics) -> None:
        """Key height and type size for one screen class (bigger keys in portrait)."""
        gap = max(5, m.key_px // 12)
        self._layout.setSpacing(gap)
        self._layout.setContentsMargins(12, gap, 12, gap)
        for index in range(self._layout.count()):
            row = self._layout.itemAt(index)
            if row is not None and row.layout() is not None:
                row.layout().setSpacing(gap)  # type: ignore[union-attr]
        for button in self.keys():
            button.setFont(style.font(m.body_pt, bold=len(button.text()) == 1))
            button.setMinimumHeight(m.key_px)

    def _key(self, text: str, row: QHBoxLayout, stretch: int = 1) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName("key")
        button.setFont(style.font(style.BODY_PT, bold=len(text) == 1))
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the input keeps focus and its cursor
        button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        button.setMinimumHeight(style.KEY_PX)
        button.clicked.connect(self._on_key)
        row.addWidget(button, stretch)
        return button

    def set_target(self, target: QLineEdit) -> None:
        self._target = target

    def press(self, label: str) -> None:
        """Act as if the key with this caption (or character) was tapped."""
        if label == SHIFT:
            self._set_shift(not self.shifted)
            return
        target = self._target
        if target is None:
            return
        if label == BACKSPACE:
            target.backspace()
        elif label == SPACE:
            target.insert(" ")
        elif label == ENTER:
            self.submitted.emit()
        else:
            target.insert(label.upper() if self.shifted else label)
            if self.shifted:
                self._set_shift(False)  # one-shot, like a phone keyboard

    def reset(self) -> None:
        self._set_shift(False)

    def _set_shift(self, on: bool) -> None:
        self.shifted = on
        self.shift_key.setChecked(on)
        self.shift_key.setProperty("active", on)
        self.shift_key.style().unpolish(self.shift_key)
        self.shift_key.style().polish(self.shift_key)
        for char, button in self.letter_keys.items():
            button.setText(char.upper() if on else char)

    @Slot()
    def _on_key(self) -> None:
        button = self.sender()
        if not isinstance(button, QPushButton):
            return
        if button is self.shift_key:
            self.press(SHIFT)
        else:
            text = button.text()
            self.press(text.lower() if len(text) == 1 and self.shifted else text)


class KeyboardToggle(QPushButton):
    """A large labelled button that shows or hides the on-screen keyboard.

    The keyboard takes about 40% of a 1080 px screen; after a question is asked the window folds
    it away so the answer gets the room, and this button (or a tap on the question box) brings it
    back. The caption always says in words what a tap will do.
    """

    def __init__(self, keyboard: OnScreenKeyboard, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.keyboard = keyboard
        self.setObjectName("keyboardToggle")
        self.setFont(style.font(style.BODY_PT, bold=True))
        self.setMinimumHeight(style.TOUCH_MIN_PX)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.clicked.connect(self.toggle)
        self._refresh()

    @Slot()
    def toggle(self) -> None:
        self.set_keyboard_open(self.keyboard.isHidden())

    def set_keyboard_open(self, open_: bool) -> None:
        self.keyboard.setVisible(open_)
        self._refresh()

    def apply_metrics(self, m: Metrics) -> None:
        self.setFont(style.font(m.body_pt, bold=True))
        self.setMinimumHeight(max(48, m.touch_px - 8))

    def _refresh(self) -> None:
        self.setText(SHOW_KEYBOARD if self.keyboard.isHidden() else HIDE_KEYBOARD)
