"""The first screen a patient sees: the clinic's name, a large question box, topics to tap.

Topics are the engine's ``suggested_questions`` (section headings of the public leaflets, each
known to find an answer); tapping one asks it as a question.

It only collects a question and emits it; it never calls the engine.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal, Slot
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from kiosk_app import style
from kiosk_app.layout import TALL, Metrics

INTRO = (
    "Ask a question about visiting the clinic: opening hours, parking, what to bring, fees, "
    "getting ready for a test. Answers come from the clinic's own leaflets, with the source shown."
)
INTRO_SHORT = (
    "Ask about visiting the clinic: hours, parking, what to bring, fees, tests. "
    "Answers quote the clinic's own leaflets."
)
PLACEHOLDER = "Type your question here"
TOPICS_TITLE = "Or tap a topic:"
MAX_TOPICS = 6


class TopicButton(QPushButton):
    """A topic to tap whose caption wraps onto a second line instead of being cut off."""

    def __init__(self, question: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("suggestion")
        self.setProperty("question", question)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setAccessibleName(question)
        self.label = QLabel(f"\N{BLACK RIGHT-POINTING TRIANGLE}  {question}")
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setWordWrap(True)
        self.label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.label.setStyleSheet("background: transparent; border: none;")
        inner = QHBoxLayout(self)
        inner.setContentsMargins(18, 4, 12, 4)
        inner.addWidget(self.label)
        policy = QSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Minimum)
        self.setSizePolicy(policy)

    def text(self) -> str:
        return self.label.text()

    def setFont(self, font: QFont) -> None:  # type: ignore[override]
        super().setFont(font)
        self.label.setFont(font)

    def sizeHint(self) -> QSize:
        inner = self.layout()
        hint = inner.sizeHint() if inner is not None else super().sizeHint()
        return QSize(hint.width(), max(self.minimumHeight(), hint.height()))


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
        style.readable_placeholder(self.edit)
        self.edit.returnPressed.connect(self.submit)
        self.button = QPushButton("Ask \N{BLACK RIGHT-POINTING TRIANGLE}")
        self.button.setProperty("primary", True)
        self.button.setFont(style.font(style.BODY_PT, bold=True))
        self.button.setMinimumSize(180, style.TOUCH_MIN_PX + 8)
        self.button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.button.clicked.connect(self.submit)
        row.addWidget(self.edit, 1)
        row.addWidget(self.button)

    def apply_metrics(self, m: Metrics) -> None:
        self.edit.setFont(style.font(m.body_pt + 2))
        self.edit.setMinimumHeight(m.touch_px)
        self.button.setFont(style.font(m.body_pt, bold=True))
        self.button.setMinimumSize(int(m.touch_px * 2.2), m.touch_px)

    @Slot()
    def submit(self) -> None:
        text = self.edit.text().strip()
        if text:
            self.submitted.emit(text)


CHECK_IN = "\N{CHECK MARK}  Check in for my appointment"


class WelcomeScreen(QWidget):
    question_submitted = Signal(str)
    check_in_requested = Signal()

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
        # Shown only where the kiosk can check patients in (see KioskWindow).
        self.check_in_button = QPushButton(CHECK_IN)
        self.check_in_button.setObjectName("checkInButton")
        self.check_in_button.setProperty("primary", True)
        self.check_in_button.setAccessibleName("Check in for my appointment")
        self.check_in_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.check_in_button.clicked.connect(self.check_in_requested)
        self.check_in_button.hide()
        self.suggestions_title = QLabel(TOPICS_TITLE)
        self.suggestions_title.setFont(style.font(style.BODY_PT, bold=True))
        self._suggestions = QGridLayout()
        self._suggestions.setHorizontalSpacing(16)
        self._suggestions.setVerticalSpacing(12)
        self._title_row = QHBoxLayout()
        self._title_row.setSpacing(16)
        self._title_row.addWidget(self.title, 1)
        layout.addLayout(self._title_row)
        for widget in (self.check_in_button, self.intro, self.input, self.suggestions_title):
            layout.addWidget(widget)
        layout.addLayout(self._suggestions)
        layout.addStretch(1)
        self._outer = layout
        self._metrics = TALL
        self.suggestions_title.hide()

    def apply_metrics(self, m: Metrics) -> None:
        """Sizes for one screen class; topics re-flow into its number of columns."""
        self._metrics = m
        self._outer.setContentsMargins(m.margin, m.spacing * 2, m.margin, 0)
        self._outer.setSpacing(m.spacing)
        self.title.setFont(style.font(m.title_pt, bold=True))
        self.title.setWordWrap(True)
        self.intro.setFont(style.font(m.intro_pt or m.body_pt))
        self.intro.setText(INTRO_SHORT if m.name == "short" else INTRO)
        self.input.apply_metrics(m)
        self.check_in_button.setFont(style.font(m.body_pt + 2, bold=True))
        # Short screens: the check-in button sits beside the title instead of a row of its own.
        self._outer.removeWidget(self.check_in_button)
        self._title_row.removeWidget(self.check_in_button)
        if m.check_in_beside_title:
            self._title_row.addWidget(self.check_in_button)
            self.check_in_button.setMinimumHeight(max(48, m.touch_px - 8))
        else:
            self._outer.insertWidget(1, self.check_in_button)
            self.check_in_button.setMinimumHeight(int(m.touch_px * 1.2))
        self.suggestions_title.setFont(style.font(m.body_pt, bold=True))
        self._suggestions.setHorizontalSpacing(m.spacing + 4)
        self._suggestions.setVerticalSpacing(m.spacing)
        buttons = self.suggestion_buttons()
        for button in buttons:
            self._suggestions.removeWidget(button)
        for index, button in enumerate(buttons):
            button.setFont(style.font(m.body_pt + (2 if m.topic_px else 0)))
            button.setMinimumHeight(m.topic_px or m.touch_px)
            row, column = divmod(index, m.topic_columns)
            self._suggestions.addWidget(button, row, column)

    def suggestion_buttons(self) -> list[QPushButton]:
        return [b for b in self.findChildren(QPushButton) if b.objectName() == "suggestion"]

    def set_suggestions(self, questions: list[str]) -> None:
        for button in self.suggestion_buttons():
            self._suggestions.removeWidget(button)
            button.setParent(None)
            button.deleteLater()
        for question in questions[:MAX_TOPICS]:
            button = TopicButton(question, self)
            button.clicked.connect(self._on_suggestion)
            self._suggestions.addWidget(button, 0, 0)
        self.suggestions_title.setVisible(bool(questions))
        self.apply_metrics(self._metrics)

    @Slot()
    def _on_suggestion(self) -> None:
        button = self.sender()
        if isinstance(button, QPushButton):
            self.question_submitted.emit(str(button.property("question")))

    def reset(self) -> None:
        self.input.edit.clear()
