"""Chat widgets shared by the kiosk and the staff app: a scrolling list of question/answer bubbles.

Text from documents or a model is only ever shown as plain text (``Qt.PlainText`` labels,
button captions): a passage containing ``<img src=...>`` shows those characters, it never loads
anything. ``font_scale`` lets the kiosk draw everything large and the staff app at normal size.

These widgets never start threads or call the engine; they only display what they are given.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from engine.events import Citation

BASE_POINT_SIZE = 11.0
QUESTION_HEADER = "You asked"
ANSWER_HEADER = "Answer"


def scaled_font(scale: float, factor: float = 1.0, bold: bool = False) -> QFont:
    font = QFont()
    font.setPointSizeF(BASE_POINT_SIZE * scale * factor)
    font.setBold(bold)
    return font


def plain_label(text: str = "", parent: QWidget | None = None) -> QLabel:
    """A word-wrapping label that never interprets its text as HTML."""
    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setText(text)
    return label


def citation_caption(citation: Citation) -> str:
    """``[1] Title > Section`` (the heading path already starts with the title when it has one)."""
    path = citation.heading_path or citation.document_title
    if citation.document_title and not path.startswith(citation.document_title):
        path = f"{citation.document_title} > {path}"
    return f"[{citation.number}] {path}"


class CitationButton(QPushButton):
    """One cited passage under an answer; clicking asks for the passage to be shown."""

    citation_clicked = Signal(object)

    def __init__(self, citation: Citation, scale: float, parent: QWidget | None = None) -> None:
        # QPushButton captions are never rich text. A leading icon-like word says what it is.
        super().__init__(f"Source  {citation_caption(citation)}", parent)
        self.citation = citation
        self.setObjectName("citationButton")
        self.setFont(scaled_font(scale, 0.9))
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setMinimumHeight(int(max(32, 24 * scale)))
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setToolTip("Show the passage this answer came from")
        self.clicked.connect(self._on_clicked)

    @Slot()
    def _on_clicked(self) -> None:
        self.citation_clicked.emit(self.citation)


class Bubble(QFrame):
    """A question or an answer. Answers show a status line, streamed text, then citations."""

    citation_clicked = Signal(object)

    def __init__(self, role: str, scale: float = 1.0, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        if role not in ("question", "answer"):
            raise ValueError(f"unknown bubble role {role!r}")
        self.role = role
        self._scale = scale
        self._text = ""
        self.setObjectName(f"{role}Bubble")
        self.setProperty("role", role)
        self.setFrameShape(QFrame.Shape.StyledPanel)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(int(8 * scale), int(6 * scale), int(8 * scale), int(6 * scale))
        layout.setSpacing(int(4 * scale))
        self.header = plain_label(QUESTION_HEADER if role == "question" else ANSWER_HEADER)
        self.header.setObjectName("bubbleHeader")
        self.header.setFont(scaled_font(scale, 0.8, bold=True))
        self.status_label = plain_label()
        self.status_label.setObjectName("bubbleStatus")
        self.status_label.setFont(scaled_font(scale, 0.9))
        self.status_label.hide()
        self.body = plain_label()
        self.body.setObjectName("bubbleBody")
        self.body.setFont(scaled_font(scale))
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body.hide()
        self.citations = QWidget()
        self.citations.setObjectName("citationList")
        self._citation_layout = QVBoxLayout(self.citations)
        self._citation_layout.setContentsMargins(0, int(4 * scale), 0, 0)
        self._citation_layout.setSpacing(int(4 * scale))
        self.citations.hide()
        for widget in (self.header, self.status_label, self.body, self.citations):
            layout.addWidget(widget)

    @property
    def text(self) -> str:
        return self._text

    def set_status(self, text: str) -> None:
        self.status_label.setText(text)
        self.status_label.setVisible(bool(text))

    def set_text(self, text: str) -> None:
        self._text = text
        self.body.setText(text)
        self.body.setVisible(bool(text))

    def append_text(self, text: str) -> None:
        if text:
            self.set_status("")
            self.set_text(self._text + text)

    def set_citations(self, citations: tuple[Citation, ...] | list[Citation]) -> None:
        while self._citation_layout.count():
            item = self._citation_layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        for citation in citations:
            button = CitationButton(citation, self._scale)
            button.citation_clicked.connect(self.citation_clicked)
            self._citation_layout.addWidget(button)
        self.citations.setVisible(bool(citations))

    def citation_buttons(self) -> list[CitationButton]:
        return self.citations.findChildren(CitationButton)


class ChatView(QScrollArea):
    """A vertical list of bubbles that follows the newest text unless the reader scrolled up."""

    citation_clicked = Signal(object)

    def __init__(self, font_scale: float = 1.0, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.font_scale = font_scale
        self.setObjectName("chatView")
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self._content = QWidget()
        self._content.setObjectName("chatContent")
        self._layout = QVBoxLayout(self._content)
        spacing = int(10 * font_scale)
        self._layout.setContentsMargins(spacing, spacing, spacing, spacing)
        self._layout.setSpacing(spacing)
        self._layout.addStretch(1)
        self.setWidget(self._content)
        self._follow = True
        bar = self.verticalScrollBar()
        bar.rangeChanged.connect(self._on_range_changed)
        bar.valueChanged.connect(self._on_value_changed)

    def bubbles(self) -> list[Bubble]:
        found = []
        for index in range(self._layout.count()):
            item = self._layout.itemAt(index)
            widget = item.widget() if item is not None else None
            if isinstance(widget, Bubble):
                found.append(widget)
        return found

    def add_question(self, text: str) -> Bubble:
        bubble = self._add(Bubble("question", self.font_scale))
        bubble.set_text(text)
        return bubble

    def add_answer(self, status: str = "") -> Bubble:
        bubble = self._add(Bubble("answer", self.font_scale))
        bubble.set_status(status)
        return bubble

    def clear(self) -> None:
        """Remove every bubble (immediately hidden, deleted on the next event-loop turn)."""
        for bubble in self.bubbles():
            self._layout.removeWidget(bubble)
            bubble.hide()
            bubble.setParent(None)
            bubble.deleteLater()
        self._follow = True
        self.verticalScrollBar().setValue(0)

    def scroll_to_end(self) -> None:
        self._follow = True
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())

    def _add(self, bubble: Bubble) -> Bubble:
        bubble.citation_clicked.connect(self.citation_clicked)
        self._layout.insertWidget(self._layout.count() - 1, bubble)
        self.scroll_to_end()
        return bubble

    @Slot(int, int)
    def _on_range_changed(self, _minimum: int, maximum: int) -> None:
        if self._follow:
            self.verticalScrollBar().setValue(maximum)

    @Slot(int)
    def _on_value_changed(self, value: int) -> None:
        self._follow = value >= self.verticalScrollBar().maximum() - 4
