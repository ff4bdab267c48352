"""The Assistant tab: the shared streaming chat, a sources panel and copy-with-citations.

Answers stream through ``engine.qt.AnswerRunner`` (the one worker); this widget only consumes its
signals. Follow-ups pass the finished turns as history. Every text from documents or the model is
plain text. The conversation is kept until Clear or sign-out.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from engine.events import Citation, DoneEvent, Outcome, Route, Turn
from engine.protocols import AssistantBackend
from engine.qt import AnswerRunner, Bubble, ChatView, PassageViewer, citation_caption
from staff_app.errors import describe

GUARDED_NOTE = (
    "The model's draft did not pass the citation check, so it was replaced by the documents' own "
    "sentences. The draft is in the Review tab."
)
NO_SOURCES = "Sources for the latest answer appear here."
EMERGENCY_HEADER = "\N{WARNING SIGN} EMERGENCY: the fixed emergency advice"
# Red on pale red, 7.9:1 contrast, with a heading in words: never colour alone.
EMERGENCY_STYLE = (
    "QFrame#answerBubble { background: #fdecea; border: 3px solid #b00020; }"
    " QLabel#bubbleHeader { color: #b00020; }"
    " QWidget#bubbleBody, QTextEdit#bubbleBody { color: #5f0010; font-weight: bold; }"
)


def answer_with_citations(text: str, citations: tuple[Citation, ...] | list[Citation]) -> str:
    """What Copy puts on the clipboard: the answer, then one line per cited passage."""
    if not citations:
        return text
    lines = [text, "", "Sources:"]
    for citation in citations:
        reviewed = f" (reviewed {citation.reviewed_display})" if citation.reviewed_on else ""
        lines.append(f"{citation_caption(citation)}{reviewed}")
    return "\n".join(lines)


def mark_emergency(bubble: Bubble) -> None:
    """Make an emergency answer unmistakable at a glance (not plain grey text)."""
    bubble.setProperty("emergency", True)
    bubble.header.setText(EMERGENCY_HEADER)
    bubble.setStyleSheet(EMERGENCY_STYLE)


class AssistantTab(QWidget):
    open_appointments = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.backend: AssistantBackend | None = None
        self.history: list[Turn] = []
        self.runner = AnswerRunner(self, describe=describe)
        self._bubble: Bubble | None = None
        self._question = ""
        self._last: DoneEvent | None = None

        self.chat = ChatView(font_scale=1.0)
        self.chat.setAccessibleName("Conversation")
        self.input = QLineEdit()
        self.input.setObjectName("questionInput")
        self.input.setAccessibleName("Question")
        self.input.setPlaceholderText("Ask about procedures, fees, hours... (Ctrl+N)")
        self.input.returnPressed.connect(self.ask)
        self.ask_button = QPushButton("Ask")
        self.ask_button.setAccessibleName("Ask")
        self.ask_button.clicked.connect(self.ask)
        self.copy_button = QPushButton("Copy answer")
        self.copy_button.setAccessibleName("Copy the latest answer with its sources")
        self.copy_button.setEnabled(False)
        self.copy_button.clicked.connect(self.copy_answer)
        self.clear_button = QPushButton("Clear")
        self.clear_button.setAccessibleName("Clear the conversation")
        self.clear_button.clicked.connect(self.clear)
        self.appointments_button = QPushButton("Open Appointments (Ctrl+2)")
        self.appointments_button.setAccessibleName("Open the Appointments tab")
        self.appointments_button.clicked.connect(self.open_appointments)
        self.appointments_button.hide()

        ask_row = QHBoxLayout()
        ask_row.addWidget(self.input, 1)
        for button in (self.ask_button, self.copy_button, self.clear_button):
            ask_row.addWidget(button)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.chat, 1)
        left_layout.addWidget(self.appointments_button, 0, Qt.AlignmentFlag.AlignLeft)
        left_layout.addLayout(ask_row)

        self.sources = QListWidget()
        self.sources.setObjectName("sourcesList")
        self.sources.setAccessibleName("Sources of the latest answer")
        self.sources.currentItemChanged.connect(self._on_source_selected)
        self.sources.setWordWrap(True)
        self.sources.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.sources.setMaximumHeight(150)
        self.passage = PassageViewer(font_scale=1.0)
        self.passage.close_button.hide()  # a side panel, not an overlay
        self.passage.setAccessibleName("Full text of the selected source")
        self.sources_hint = QLabel(NO_SOURCES)
        self.sources_hint.setTextFormat(Qt.TextFormat.PlainText)
        self.sources_hint.setWordWrap(True)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        title = QLabel("Sources")
        title.setStyleSheet("font-weight: bold;")
        right_layout.addWidget(title)
        right_layout.addWidget(self.sources_hint)
        right_layout.addWidget(self.sources)
        right_layout.addWidget(self.passage, 1)
        self.sources_filler = QWidget()  # keeps the title and hint at the top when empty
        right_layout.addWidget(self.sources_filler, 1)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)
        self.setTabOrder(self.input, self.ask_button)
        self.setTabOrder(self.ask_button, self.copy_button)
        self.setTabOrder(self.copy_button, self.clear_button)
        self.setTabOrder(self.clear_button, self.sources)

        self.chat.citation_clicked.connect(self.show_citation)
        self.runner.status.connect(self._on_status)
        self.runner.tokens.connect(self._on_tokens)
        self.runner.replaced.connect(self._on_replaced)
        self.runner.finished.connect(self._on_finished)
        self.runner.failed.connect(self._on_failed)
        self._show_sources(())

    # ----- actions -----------------------------------------------------------------------

    def set_backend(self, backend: AssistantBackend | None) -> None:
        self.clear()
        self.backend = backend

    def focus_input(self) -> None:
        self.input.setFocus()
        self.input.selectAll()

    def ask(self) -> None:
        question = self.input.text().strip()
        backend = self.backend
        if not question or backend is None or self.runner.is_running():
            return
        self.input.clear()
        self._question = question
        self.appointments_button.hide()
        self.chat.add_question(question)
        self._bubble = self.chat.add_answer("Searching the clinic's documents...")
        history = tuple(self.history)
        self.ask_button.setEnabled(False)
        self.runner.start(lambda: backend.answer(question, history))

    def clear(self) -> None:
        self.runner.cancel()
        self.chat.clear()
        self.history = []
        self._bubble = None
        self._last = None
        self.copy_button.setEnabled(False)
        self.ask_button.setEnabled(True)
        self.appointments_button.hide()
        self._show_sources(())
        self.input.clear()

    def copy_answer(self) -> None:
        if self._last is not None:
            text = answer_with_citations(self._last.text, self._last.citations)
            QGuiApplication.clipboard().setText(text)

    def shutdown(self) -> None:
        self.runner.shutdown()

    # ----- runner signals ----------------------------------------------------------------

    @Slot(str)
    def _on_status(self, text: str) -> None:
        if self._bubble is not None:
            self._bubble.set_status(text)

    @Slot(str)
    def _on_tokens(self, text: str) -> None:
        if self._bubble is not None:
            self._bubble.append_text(text)

    @Slot(str, str)
    def _on_replaced(self, text: str, _reason: str) -> None:
        if self._bubble is not None:
            self._bubble.set_text(text)

    @Slot(object)
    def _on_finished(self, done: object) -> None:
        self.ask_button.setEnabled(True)
        if not isinstance(done, DoneEvent) or self._bubble is None:
            return
        self._bubble.set_status(GUARDED_NOTE if done.outcome is Outcome.GUARDED else "")
        self._bubble.set_text(done.text)
        if done.outcome is Outcome.EMERGENCY:
            mark_emergency(self._bubble)
        self._bubble.set_citations(done.citations)
        self._last = done
        self.copy_button.setEnabled(True)
        self.history.append(Turn(self._question, done.text, done.route))
        self._show_sources(done.citations)
        if done.route is Route.APPOINTMENT or done.outcome is Outcome.APPOINTMENT:
            self.appointments_button.show()

    @Slot(str, object)
    def _on_failed(self, message: str, _error: object) -> None:
        self.ask_button.setEnabled(True)
        if self._bubble is not None:
            self._bubble.set_status("")
            self._bubble.set_text(message)
            self._bubble.setProperty("failed", True)

    # ----- sources panel -----------------------------------------------------------------

    def _show_sources(self, citations: tuple[Citation, ...]) -> None:
        self.sources.clear()
        for citation in citations:
            item = QListWidgetItem(citation_caption(citation))
            item.setData(Qt.ItemDataRole.UserRole, citation)
            item.setToolTip(citation.document_title)
            self.sources.addItem(item)
        self.sources_hint.setVisible(not citations)
        self.sources_filler.setVisible(not citations)
        self.sources.setVisible(bool(citations))
        if citations:
            self.sources.setCurrentRow(0)
        else:
            self.passage.clear()
            self.passage.hide()

    @Slot(object)
    def show_citation(self, citation: object) -> None:
        for row in range(self.sources.count()):
            item = self.sources.item(row)
            if item.data(Qt.ItemDataRole.UserRole) == citation:
                self.sources.setCurrentRow(row)
                return
        if isinstance(citation, Citation):
            self.passage.show_citation(citation)

    @Slot(QListWidgetItem, QListWidgetItem)
    def _on_source_selected(self, current: QListWidgetItem | None, _previous: object) -> None:
        citation = current.data(Qt.ItemDataRole.UserRole) if current is not None else None
        if isinstance(citation, Citation):
            self.passage.show_citation(citation)
