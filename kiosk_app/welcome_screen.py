"""The first screen a patient sees: the clinic's name, a large question box, topics to tap.

Topics are the engine's ``suggested_questions`` (section headings of the public leaflets, each
known to find an answer); tapping one asks it as a question.

It only collects a question and emits it; it never calls the engine.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from kiosk_app import style

INTRO = (
    "Ask a question about visiting the clinic: opening hours, parking, what to bring, fees, "
    "getting ready for a test. Answers come from the clinic's own leaflets, with the source shown."
)
PLACEHOLDER = "Type your question here"
TOPICS_TITLE = "Or tap a topic:"
MAX_TOPICS = 6
TOPIC_COLUMNS = 2


class QuestionInput(QWidget):
    """A large line edit with an Ask button (used on the welcome and the chat screen)."""

    submitted = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(12)
        self.edit = QLineEdit()
        self.edit.setObjectName("questionInput")
        self.edit.setPlaceholderText(PLACEHOLDER)
        self.edit.setMaxLength(300)
        self.edit.setFont(style.font(style.BODY_PT + 2))
        self.edit.setMinimumHeight(style.TOUCH_MIN_PX + 8)
        self.edit.returnPressed.connect(self.submit)
        self.button = QPushButton("Ask \N{BLACK RIGHT-POINTING TRIANGLE}")
        self.button.setProperty("primary", True)
        self.button.setFont(style.font(style.BODY_PT, bold=True))
        self.button.setMinimumSize(180, style.TOUCH_MIN_PX + 8)
        self.button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.button.clicked.connect(self.submit)
        row.addWidget(self.edit, 1)
        row.addWidget(self.button)

    @Slot()
    def submit(self) -> None:
        text = self.edit.text().strip()
        if text:
            self.submitted.emit(text)


class WelcomeScreen(QWidget):
    question_submitted = Signal(str)

    def __init__(self, clinic_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("welcomeScreen")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(80, 24, 80, 8)
        layout.setSpacing(14)
        self.title = QLabel(clinic_name)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setFont(style.font(style.TITLE_PT, bold=True))
        self.intro = QLabel(INTRO)
        self.intro.setTextFormat(Qt.TextFormat.PlainText)
        self.intro.setWordWrap(True)
        self.intro.setFont(style.font(style.BODY_PT))
        self.input = QuestionInput()
        self.input.submitted.connect(self.question_submitted)
        self.suggestions_title = QLabel(TOPICS_TITLE)
        self.suggestions_title.setFont(style.font(style.BODY_PT, bold=True))
        self._suggestions = QGridLayout()
        self._suggestions.setHorizontalSpacing(16)
        self._suggestions.setVerticalSpacing(12)
        for widget in (self.title, self.intro, self.input, self.suggestions_title):
            layout.addWidget(widget)
        layout.addLayout(self._suggestions)
        layout.addStretch(1)
        self.suggestions_title.hide()

    def suggestion_buttons(self) -> list[QPushButton]:
        return [b for b in self.findChildren(QPushButton) if b.objectName() == "suggestion"]

    def set_suggestions(self, questions: list[str]) -> None:
        for button in self.suggestion_buttons():
            self._suggestions.removeWidget(button)
            button.setParent(None)
            button.deleteLater()
        for index, question in enumerate(questions[:MAX_TOPICS]):
            button = QPushButton(f"\N{BLACK RIGHT-POINTING TRIANGLE}  {question}")
            button.setObjectName("suggestion")
            button.setProperty("question", question)
            button.setFont(style.font(style.BODY_PT))
            button.setMinimumHeight(style.TOUCH_MIN_PX)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.clicked.connect(self._on_suggestion)
            row, column = divmod(index, TOPIC_COLUMNS)
            self._suggestions.addWidget(button, row, column)
        self.suggestions_title.setVisible(bool(questions))

    @Slot()
    def _on_suggestion(self) -> None:
        button = self.sender()
        if isinstance(button, QPushButton):
            self.question_submitted.emit(str(button.property("question")))

    def reset(self) -> None:
        self.input.edit.clear()
