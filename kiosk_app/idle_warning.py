"""The "Are you still there?" overlay with a visible countdown and a large "I'm still here" button.

It only displays the countdown it is given; the timing lives in ``kiosk_app.idle``.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QVBoxLayout, QWidget

from kiosk_app import style

STILL_HERE = "I'm still here"


def countdown_text(seconds: int) -> str:
    unit = "second" if seconds == 1 else "seconds"
    return f"For your privacy, this screen will be cleared in {seconds} {unit}."


class IdleWarning(QFrame):
    still_here = Signal()

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("idleOverlay")
        outer = QVBoxLayout(self)
        outer.setAlignment(Qt.AlignmentFlag.AlignCenter)
        card = QFrame()
        card.setObjectName("idleCard")
        card.setFixedWidth(1000)
        outer.addWidget(card)
        layout = QVBoxLayout(card)
        layout.setContentsMargins(48, 40, 48, 40)
        layout.setSpacing(28)
        self.heading = QLabel("Are you still there?")
        self.heading.setFont(style.font(style.TITLE_PT, bold=True))
        self.heading.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.countdown = QLabel()
        self.countdown.setObjectName("countdown")
        self.countdown.setWordWrap(True)
        self.countdown.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.countdown.setFont(style.font(style.BODY_PT + 8, bold=True))
        self.button = QPushButton(STILL_HERE)
        self.button.setProperty("primary", True)
        self.button.setFont(style.font(style.TITLE_PT - 4, bold=True))
        self.button.setMinimumHeight(140)
        self.button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.button.clicked.connect(self.still_here)
        for widget in (self.heading, self.countdown, self.button):
            layout.addWidget(widget)
        self.hide()

    def show_countdown(self, seconds: int) -> None:
        self.countdown.setText(countdown_text(seconds))
        if self.isHidden():
            self.show()
            self.raise_()
