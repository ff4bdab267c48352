"""Shows one cited passage: document title, heading path, review date and the text, all plain.

A widget, not a window: the kiosk lays it over its own screen, the staff app may put it in a
dialog or a side panel. It never renders document text as rich text and never fetches anything.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from engine.events import Citation
from engine.qt.chat_view import enable_touch_scrolling, plain_label, reflow, scaled_font

NO_REVIEW_DATE = "Review date not recorded"


def reviewed_caption(citation: Citation) -> str:
    return f"Last reviewed: {citation.reviewed_display}" if citation.reviewed_on else NO_REVIEW_DATE


class PassageViewer(QFrame):
    """The text of a cited passage, with a large Close button."""

    closed = Signal()

    def __init__(
        self, font_scale: float = 1.0, parent: QWidget | None = None, *, touch: bool = False
    ) -> None:
        super().__init__(parent)
        self.citation: Citation | None = None
        self.setObjectName("passageViewer")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QVBoxLayout(self)
        margin = int(12 * font_scale)
        layout.setContentsMargins(margin, margin, margin, margin)
        layout.setSpacing(int(6 * font_scale))

        top = QHBoxLayout()
        self.title = plain_label()
        self.title.setObjectName("passageTitle")
        self.title.setFont(scaled_font(font_scale, 1.1, bold=True))
        self.close_button = QPushButton("\N{MULTIPLICATION SIGN}  Close")
        self.close_button.setObjectName("passageClose")
        self.close_button.setFont(scaled_font(font_scale))
        self.close_button.setMinimumHeight(int(max(32, 28 * font_scale)))
        self.close_button.clicked.connect(self.close_passage)
        top.addWidget(self.title, 1)
        top.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(top)

        self.heading = plain_label()
        self.heading.setObjectName("passageHeading")
        self.heading.setFont(scaled_font(font_scale, 0.9))
        self.reviewed = plain_label()
        self.reviewed.setObjectName("passageReviewed")
        self.reviewed.setFont(scaled_font(font_scale, 0.8))
        self.text = QPlainTextEdit()
        self.text.setObjectName("passageText")
        self.text.setReadOnly(True)
        self.text.setFont(scaled_font(font_scale))
        if touch:  # a finger drag scrolls; it does not select
            self.text.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
            enable_touch_scrolling(self.text)
        else:
            self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        for widget in (self.heading, self.reviewed, self.text):
            layout.addWidget(widget)
        layout.setStretchFactor(self.text, 1)

    def show_citation(self, citation: Citation) -> None:
        self.citation = citation
        self.title.setText(f"[{citation.number}] {citation.document_title}")
        self.heading.setText(citation.heading_path)
        self.heading.setVisible(bool(citation.heading_path))
        self.reviewed.setText(reviewed_caption(citation))
        self.text.setPlainText(reflow(citation.text))  # paragraphs and lists, not PDF lines
        self.show()
        if self.parentWidget() is not None:  # an overlay: bring it above its siblings
            self.raise_()

    def clear(self) -> None:
        self.citation = None
        for label in (self.title, self.heading, self.reviewed):
            label.setText("")
        self.text.setPlainText("")

    def close_passage(self) -> None:
        """Hide and forget the passage (nothing of it stays in a hidden widget)."""
        self.clear()
        self.hide()
        self.closed.emit()
