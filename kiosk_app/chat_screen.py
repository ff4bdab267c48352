"""The conversation screen: emergency banner, the chat bubbles, a question box, "Start again".

It displays; it never calls the engine or starts threads (the window wires it to the runner).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from engine.qt.chat_view import ChatView
from kiosk_app import style
from kiosk_app.welcome_screen import QuestionInput

EMERGENCY_HEADING = "\N{WARNING SIGN}  EMERGENCY"
START_AGAIN = "\N{ANTICLOCKWISE OPEN CIRCLE ARROW}  Start again"


class EmergencyBanner(QFrame):
    """Full width, red, with a warning sign and the word EMERGENCY: never colour alone."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("emergencyBanner")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(36, 20, 36, 24)
        self.heading = QLabel(EMERGENCY_HEADING)
        self.heading.setFont(style.font(style.TITLE_PT, bold=True))
        self.text = QLabel()
        self.text.setTextFormat(Qt.TextFormat.PlainText)
        self.text.setWordWrap(True)
        self.text.setFont(style.font(style.BODY_PT + 6, bold=True))
        layout.addWidget(self.heading)
        layout.addWidget(self.text)
        self.hide()

    def show_text(self, text: str) -> None:
        self.text.setText(text)
        self.show()

    def clear(self) -> None:
        self.text.clear()
        self.hide()


class ChatScreen(QWidget):
    question_submitted = Signal(str)
    start_again = Signal()

    def __init__(self, clinic_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chatScreen")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 16, 24, 12)
        layout.setSpacing(12)
        top = QHBoxLayout()
        self.title = QLabel(clinic_name)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setFont(style.font(style.BODY_PT + 4, bold=True))
        self.start_again_button = QPushButton(START_AGAIN)
        self.start_again_button.setFont(style.font(style.BODY_PT))
        self.start_again_button.setMinimumHeight(style.TOUCH_MIN_PX)
        self.start_again_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.start_again_button.clicked.connect(self.start_again)
        top.addSpacing(80)  # keep clear of the staff corner
        top.addWidget(self.title, 1)
        top.addWidget(self.start_again_button)
        layout.addLayout(top)
        self.banner = EmergencyBanner()
        layout.addWidget(self.banner)
        self.view = ChatView(font_scale=style.CHAT_FONT_SCALE, touch=True)
        layout.addWidget(self.view, 1)
        self.input = QuestionInput()
        self.input.submitted.connect(self.question_submitted)
        layout.addWidget(self.input)

    def reset(self) -> None:
        self.banner.clear()
        self.view.clear()
        self.input.edit.clear()
