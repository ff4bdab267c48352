"""Chat widgets shared by the kiosk and the staff app: a scrolling list of question/answer bubbles.

Text from documents or a model is only ever shown as plain text (``Qt.PlainText`` labels,
button captions): a passage containing ``<img src=...>`` shows those characters, it never loads
anything. ``font_scale`` lets the kiosk draw everything large and the staff app at normal size.

These widgets never start threads or call the engine; they only display what they are given.
"""

from __future__ import annotations

import math
import re

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer, Signal, Slot
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QFont,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
    QTextCursor,
    QTextDocument,
    QTextOption,
)
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QScroller,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from engine.events import Citation

BASE_POINT_SIZE = 11.0
QUESTION_HEADER = "You asked"
ANSWER_HEADER = "Answer"
SIZE_HINT_WIDTH = 400


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


def source_caption(citation: Citation) -> str:
    """``Source: Car park (Parking, travel and accessibility)``: the section, then its document."""
    parts = [p.strip() for p in (citation.heading_path or "").split(">") if p.strip()]
    title = citation.document_title.strip()
    if parts and title and parts[0] == title:
        parts = parts[1:]
    section = parts[-1].rstrip(":").strip() if parts else ""
    if section and title and section != title:
        return f"Source: {section} ({title})"
    return f"Source: {section or title or 'the clinic documents'}"


_LIST_ITEM = re.compile(r"^\s*(?:[-*\u2022]|\d{1,2}[.)])\s+")
_SEPARATOR_CELL = re.compile(r"^:?-{2,}:?$")


def _cells(line: str) -> list[str]:
    """The cells of a table row: ``| a | b |`` (Markdown) or ``a | b`` (as the loaders store it)."""
    row = line.strip()
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") else row
    return [cell.strip() for cell in row.split("|")]


def _is_table_row(line: str) -> bool:
    return "|" in line and len(_cells(line)) >= 2


def table_rows(lines: list[str]) -> list[str]:
    """A table as one line per row, each cell named by its column:
    ``Day: Monday, Building open: 8:00 to 18:30``. The first row is the header; a Markdown
    separator row (``|---|---|``) and a repeated header are dropped; empty cells are skipped.
    Cells are joined with ", ", or "; " when a cell has a comma of its own."""
    rows = [_cells(line) for line in lines]
    rows = [r for r in rows if any(r) and not all(_SEPARATOR_CELL.match(c) for c in r if c)]
    if not rows:
        return []
    header, body = rows[0], [r for r in rows[1:] if r != rows[0]]
    if not body:
        return [", ".join(c for c in header if c)]
    out = []
    for row in body:
        parts = []
        for index, cell in enumerate(row):
            if not cell:
                continue
            name = header[index] if index < len(header) else ""
            parts.append(f"{name}: {cell}" if name and name != cell else cell)
        if parts:
            joiner = "; " if any("," in part for part in parts) else ", "
            out.append(joiner.join(parts))
    return out


def reflow(text: str) -> str:
    """Document text as readable paragraphs: lines broken only by the source's layout are joined,
    blank lines stay paragraph breaks and list items (``-``, ``*``, ``1.``) stay on their own
    line, shown with a bullet. A table (two or more ``a | b`` rows, or Markdown rows) becomes one
    bulleted line per row with each cell named by its column (:func:`table_rows`): never raw
    pipes. Nothing else is added or dropped apart from line breaks and spaces."""
    out: list[str] = []
    current = ""
    raw_lines = text.replace("\r\n", "\n").split("\n")
    index = 0
    while index < len(raw_lines):
        line = raw_lines[index].strip()
        index += 1
        if _is_table_row(line):
            run = [line]
            while index < len(raw_lines) and _is_table_row(raw_lines[index].strip()):
                run.append(raw_lines[index].strip())
                index += 1
            if len(run) >= 2 or line.startswith("|"):
                if current:
                    out.append(current)
                    current = ""
                if out and out[-1] != "":
                    out.append("")
                out += [f"\u2022 {row}" for row in table_rows(run)]
                out.append("")
                continue
        if not line:
            if current:
                out.append(current)
                current = ""
            if out and out[-1] != "":
                out.append("")
            continue
        match = _LIST_ITEM.match(line)
        if match:
            if current:
                out.append(current)
            marker = match.group(0).strip()
            bullet = "\u2022" if marker in ("-", "*", "\u2022") else marker
            current = f"{bullet} {line[match.end() :]}"
        else:
            current = f"{current} {line}" if current else line
    if current:
        out.append(current)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out)


class PlainTextBody(QWidget):
    """Word-wrapped plain text that grows by appending, at a cost independent of what came before.

    A word-wrapping ``QLabel`` re-measures its whole text several times on every ``setText``: a
    2,000-token answer stalled the event loop for 45-80 ms per flush. This widget keeps one
    ``QTextDocument`` and inserts new text at the end with a cursor, so only the last paragraph is
    laid out again; its height always fits its content (height-for-width). The text is inserted
    as plain text, never interpreted as HTML. It takes no mouse input, so a finger dragging over
    an answer scrolls the chat instead of selecting text.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self._heights: dict[int, int] = {}
        self._measure: QTextDocument | None = None  # a copy, laid out at widths not drawn
        self._doc = QTextDocument(self)
        self._doc.setUndoRedoEnabled(False)
        self._doc.setDocumentMargin(0)
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self._doc.setDefaultTextOption(option)
        self._doc.setDefaultFont(self.font())
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)

    def text(self) -> str:
        return self._text

    def textFormat(self) -> Qt.TextFormat:
        return Qt.TextFormat.PlainText

    def document_height(self) -> int:
        return math.ceil(self._doc.size().height())

    def setText(self, text: str) -> None:
        if text == self._text:
            return
        if text.startswith(self._text) and self._text:
            self.appendText(text[len(self._text) :])
            return
        self._text = text
        self._doc.setPlainText(text)
        self._changed()

    def appendText(self, text: str) -> None:
        if not text:
            return
        self._text += text
        cursor = QTextCursor(self._doc)
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(text)  # plain: insertText never parses markup
        self._changed()

    def clear(self) -> None:
        self.setText("")

    def _changed(self) -> None:
        self._heights.clear()
        self._measure = None
        self.updateGeometry()
        self.update()

    # -- size -------------------------------------------------------------------------------
    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        if width <= 0 or not self._text:
            return 0  # an answer's empty body takes no room (it is laid out before text comes)
        cached = self._heights.get(width)
        if cached is None:
            drawn = self._doc.textWidth()
            if drawn <= 0 or drawn == width:
                self._doc.setTextWidth(width)
                cached = math.ceil(self._doc.size().height())
            else:
                # Another width than the one drawn: measure on a copy, so the drawn document is
                # not laid out twice more (there and back) for a size hint.
                if self._measure is None:
                    self._measure = self._doc.clone(self)
                self._measure.setTextWidth(width)
                cached = math.ceil(self._measure.size().height())
            self._heights[width] = cached
        return cached

    def sizeHint(self) -> QSize:
        width = self.width() if self.width() > 0 else SIZE_HINT_WIDTH
        return QSize(width, self.heightForWidth(width))

    def minimumSizeHint(self) -> QSize:
        # The real height comes from heightForWidth; a minimum measured at some earlier, narrower
        # width would leave a tall empty gap under the text.
        return QSize(0, self.fontMetrics().lineSpacing() if self._text else 0)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._doc.textWidth() != event.size().width():
            self._doc.setTextWidth(event.size().width())

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._doc.setDefaultFont(self.font())
            self._changed()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette.setColor(
            QPalette.ColorRole.Text, self.palette().color(QPalette.ColorRole.WindowText)
        )
        context.clip = event.rect().toRectF()
        painter.setClipRect(event.rect())
        self._doc.documentLayout().draw(painter, context)
        painter.end()


def enable_touch_scrolling(area: QAbstractScrollArea) -> None:
    """Kinetic scrolling by dragging a finger (or the mouse) anywhere in ``area``."""
    QScroller.grabGesture(area.viewport(), QScroller.ScrollerGestureType.LeftMouseButtonGesture)


class CitationButton(QPushButton):
    """One cited passage under an answer; clicking asks for the passage to be shown.

    Its caption is elided to the width it is given (never wider than the answer), so a long
    heading cannot push the chat wider than the screen; the full caption is the tooltip and the
    accessible name.
    """

    citation_clicked = Signal(object)

    def __init__(self, citation: Citation, scale: float, parent: QWidget | None = None) -> None:
        # QPushButton captions are never rich text.
        super().__init__(parent)
        self.citation = citation
        self.caption = source_caption(citation)
        self.setObjectName("citationButton")
        self.setFont(scaled_font(scale, 0.9))
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setMinimumHeight(int(max(32, 24 * scale)))
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setToolTip(f"{self.caption}: show the passage this answer came from")
        self.setAccessibleName(self.caption)
        self.setText(self.caption)
        self.clicked.connect(self._on_clicked)

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(min(hint.width(), SIZE_HINT_WIDTH), hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        padding = 2 * int(14 * max(1.0, self.font().pointSizeF() / BASE_POINT_SIZE)) + 12
        room = max(0, event.size().width() - padding)
        self.setText(self.fontMetrics().elidedText(self.caption, Qt.TextElideMode.ElideRight, room))

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
        self.body = PlainTextBody()
        self.body.setObjectName("bubbleBody")
        self.body.setFont(scaled_font(scale))
        # An answer's body is in the layout from the start (0 px high while empty), so the first
        # streamed text is laid out once at the width it is drawn at, not at a hidden widget's
        # default width first.
        self.body.setVisible(role == "answer")
        self.citations = QWidget()
        self.citations.setObjectName("citationList")
        self._citation_layout = QVBoxLayout(self.citations)
        self._citation_layout.setContentsMargins(0, int(4 * scale), 0, 0)
        self._citation_layout.setSpacing(int(4 * scale))
        self.citations.hide()
        # Buttons an app adds under a finished answer (the kiosk's "Read aloud").
        self.action_row = QWidget()
        self.action_row.setObjectName("bubbleActions")
        self._actions_layout = QHBoxLayout(self.action_row)
        self._actions_layout.setContentsMargins(0, int(2 * scale), 0, 0)
        self._actions_layout.addStretch(1)
        self.action_row.hide()
        for widget in (self.header, self.status_label, self.body, self.action_row, self.citations):
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
        self.body.setVisible(bool(text) or self.role == "answer")

    def append_text(self, text: str) -> None:
        """Add streamed text at the end (only the last paragraph is laid out again)."""
        if text:
            self.set_status("")
            self._text += text
            self.body.appendText(text)
            self.body.setVisible(True)

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

    def add_action(self, text: str, accessible_name: str) -> QPushButton:
        """A button under the answer's text (plain caption, at least 48 px high)."""
        button = QPushButton(text)
        button.setObjectName("bubbleAction")
        button.setAccessibleName(accessible_name)
        button.setToolTip(accessible_name)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        button.setFont(scaled_font(self._scale, 0.9))
        button.setMinimumHeight(int(max(48, 24 * self._scale)))
        self._actions_layout.insertWidget(self._actions_layout.count() - 1, button)
        self.action_row.show()
        return button

    def action_buttons(self) -> list[QPushButton]:
        return self.action_row.findChildren(QPushButton)

    def set_font_scale(self, scale: float) -> None:
        """Redraw this bubble's text at another size (the kiosk's A+ / A- buttons)."""
        self._scale = scale
        self.header.setFont(scaled_font(scale, 0.8, bold=True))
        self.status_label.setFont(scaled_font(scale, 0.9))
        self.body.setFont(scaled_font(scale))
        for button in self.citation_buttons():
            button.setFont(scaled_font(scale, 0.9))
            button.setMinimumHeight(int(max(32, 24 * scale)))
        for action in self.action_buttons():
            action.setFont(scaled_font(scale, 0.9))
            action.setMinimumHeight(int(max(48, 24 * scale)))


class ChatView(QScrollArea):
    """A vertical list of bubbles that follows the newest text unless the reader scrolled up."""

    citation_clicked = Signal(object)

    def __init__(
        self, font_scale: float = 1.0, parent: QWidget | None = None, *, touch: bool = False
    ) -> None:
        super().__init__(parent)
        self.font_scale = font_scale
        self.setObjectName("chatView")
        if touch:
            enable_touch_scrolling(self)
            # The kiosk's wide touch scroll bar is always there: when an answer grows past the
            # screen, nothing is wrapped again at a narrower width (a stall, and text that jumps
            # while it is being read).
            self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
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
        self._pinned: Bubble | None = None
        self._scrolling = False
        bar = self.verticalScrollBar()
        bar.rangeChanged.connect(self._on_range_changed)
        bar.valueChanged.connect(self._on_value_changed)
        bar.actionTriggered.connect(self._on_user_scroll)
        self.viewport().installEventFilter(self)

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
        self._pinned = None
        self.verticalScrollBar().setValue(0)

    def scroll_to_end(self) -> None:
        self._follow = True
        self._pinned = None
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())

    def show_from_top(self, bubble: Bubble) -> None:
        """Scroll so ``bubble`` starts at the top of the view and stop following new text
        (a finished long answer is read from its beginning, not from its sources line).

        The bubbles below may not be laid out yet (the scroll range grows a turn later), so the
        bubble stays pinned to the top while the range grows, until the reader scrolls."""
        self._follow = False
        self._pinned = bubble
        self._layout.activate()
        self._scroll_to_pinned()
        QTimer.singleShot(0, self._scroll_to_pinned)

    def set_font_scale(self, scale: float) -> None:
        """Redraw every bubble at another text size; later bubbles use it too."""
        self.font_scale = scale
        for bubble in self.bubbles():
            bubble.set_font_scale(scale)

    def _scroll_to_pinned(self) -> None:
        bubble = self._pinned
        if bubble is None:
            return
        bar = self.verticalScrollBar()
        self._scrolling = True
        try:
            bar.setValue(min(bar.maximum(), max(0, bubble.y() - self._layout.spacing())))
        finally:
            self._scrolling = False

    def _add(self, bubble: Bubble) -> Bubble:
        self._pinned = None
        bubble.citation_clicked.connect(self.citation_clicked)
        self._layout.insertWidget(self._layout.count() - 1, bubble)
        self.scroll_to_end()
        return bubble

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # A finger or the wheel on the chat: the reader takes over from the pinned answer.
        if watched is self.viewport() and event.type() in (
            QEvent.Type.MouseButtonPress,
            QEvent.Type.Wheel,
            QEvent.Type.TouchBegin,
        ):
            self._pinned = None
        return super().eventFilter(watched, event)

    @Slot(int)
    def _on_user_scroll(self, _action: int) -> None:
        self._pinned = None

    @Slot(int, int)
    def _on_range_changed(self, _minimum: int, maximum: int) -> None:
        if self._pinned is not None:
            self._scroll_to_pinned()
        elif self._follow:
            self.verticalScrollBar().setValue(maximum)

    @Slot(int)
    def _on_value_changed(self, value: int) -> None:
        if not self._scrolling:
            self._follow = self._pinned is None and value >= self.verticalScrollBar().maximum() - 4
