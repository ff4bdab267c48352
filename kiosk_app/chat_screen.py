"""The conversation screen: emergency banner, the chat bubbles, a question box, "Start again".

The emergency banner belongs to the answer that raised it: it is shown whole (never squeezed:
its minimum height is always the height its text needs at its width, at 24 pt or more) and it is
cleared when the next question is asked. "A- / A+" change the answers' text size until the next
wipe. While text continues under the visible part of the conversation, a "More below" button
(a tap pages down) sits in a strip of its own between the conversation and the question box:
the conversation gives up that height while the button is shown, so the button never covers
a word, and at the end the button and its strip go. Under the question box, always: "Very
unwell? Tell reception now, or call 999 in an emergency."

It displays; it never calls the engine or starts threads (the window wires it to the runner).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractSlider,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from engine.qt.chat_view import ChatView
from kiosk_app import style
from kiosk_app.layout import EMERGENCY_TEXT_PT, TALL, Metrics
from kiosk_app.welcome_screen import QuestionInput

EMERGENCY_HEADING = "\N{WARNING SIGN}  EMERGENCY"
EMERGENCY_NOTE = "\N{WARNING SIGN} Very unwell? Tell reception now, or call 999 in an emergency."
START_AGAIN = "\N{ANTICLOCKWISE OPEN CIRCLE ARROW}  Start again"
MORE_BELOW = "\N{BLACK DOWN-POINTING TRIANGLE}  More below"
SMALLER_TEXT = "A\N{MINUS SIGN}"
LARGER_TEXT = "A+"
TEXT_STEPS = (0.8, 1.0, 1.2, 1.4, 1.6)


class EmergencyBanner(QFrame):
    """Full width, red, with a warning sign and the word EMERGENCY: never colour alone."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("emergencyBanner")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(28, 12, 28, 16)
        layout.setSpacing(4)
        self.heading = QLabel(EMERGENCY_HEADING)
        self.heading.setFont(style.font(style.TITLE_PT, bold=True))
        self.text = QLabel()
        self.text.setTextFormat(Qt.TextFormat.PlainText)
        self.text.setWordWrap(True)
        self.text.setFont(style.font(style.BODY_PT + 6, bold=True))
        layout.addWidget(self.heading)
        layout.addWidget(self.text)
        self.hide()

    def apply_metrics(self, m: Metrics) -> None:
        self.heading.setFont(style.font(max(EMERGENCY_TEXT_PT + 4, m.title_pt - 6), bold=True))
        self.text.setFont(style.font(max(EMERGENCY_TEXT_PT, m.body_pt + 6), bold=True))
        self._fit()

    def show_text(self, text: str) -> None:
        self.text.setText(text)
        self.show()
        self._fit()

    def clear(self) -> None:
        self.text.clear()
        self.hide()

    def text_fully_visible(self) -> bool:
        """True when the whole text is drawn (the label is as tall as its wrapped text)."""
        label = self.text
        return label.height() >= label.heightForWidth(label.width()) and (
            label.geometry().bottom() <= self.contentsRect().bottom()
        )

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        # Never squeezed: whatever else shrinks (the chat), the banner keeps its text's height.
        layout = self.layout()
        if layout is not None and self.width() > 0:
            needed = layout.totalHeightForWidth(self.width())
            if needed > 0 and self.minimumHeight() != needed:
                self.setMinimumHeight(needed)


class ChatScreen(QWidget):
    question_submitted = Signal(str)
    start_again = Signal()

    def __init__(self, clinic_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chatScreen")
        self._metrics = TALL
        self._text_step = TEXT_STEPS.index(1.0)
        self._keyboard_open = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 16, 24, 12)
        layout.setSpacing(12)
        self._layout = layout
        self.top_row = QWidget()
        top = QHBoxLayout(self.top_row)
        top.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel(clinic_name)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setFont(style.font(style.BODY_PT + 4, bold=True))
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.smaller_button = self._small_button(SMALLER_TEXT, "Smaller text")
        self.smaller_button.clicked.connect(lambda: self.change_text_size(-1))
        self.larger_button = self._small_button(LARGER_TEXT, "Larger text")
        self.larger_button.clicked.connect(lambda: self.change_text_size(+1))
        self.start_again_button = QPushButton(START_AGAIN)
        self.start_again_button.setFont(style.font(style.BODY_PT))
        self.start_again_button.setMinimumHeight(style.TOUCH_MIN_PX)
        self.start_again_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.start_again_button.clicked.connect(self.start_again)
        top.addSpacing(80)  # keep clear of the staff corner
        top.addWidget(self.title, 1)
        top.addWidget(self.smaller_button)
        top.addWidget(self.larger_button)
        top.addSpacing(12)
        top.addWidget(self.start_again_button)
        layout.addWidget(self.top_row)
        self.banner = EmergencyBanner()
        layout.addWidget(self.banner)
        self.view = ChatView(font_scale=style.CHAT_FONT_SCALE, touch=True)
        self.view.setMinimumHeight(1)  # the chat gives way; the banner and the question box do not
        layout.addWidget(self.view, 1)
        self.more_below = QPushButton(MORE_BELOW)
        self.more_below.setObjectName("moreBelow")
        self.more_below.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.more_below.setMinimumHeight(56)
        self.more_below.clicked.connect(self.page_down)
        self.more_below.hide()  # a hidden widget takes no room in the layout
        layout.addWidget(self.more_below, 0, Qt.AlignmentFlag.AlignHCenter)
        self.input = QuestionInput()
        self.input.submitted.connect(self.question_submitted)
        layout.addWidget(self.input)
        # Under every answer, whatever it is: a missed emergency ("I don't know", or a quote)
        # still meets the way to help. The rules and exemplars route what they recognise; this
        # line does not depend on them.
        self.emergency_note = QLabel(EMERGENCY_NOTE)
        self.emergency_note.setObjectName("emergencyNote")
        self.emergency_note.setTextFormat(Qt.TextFormat.PlainText)
        self.emergency_note.setWordWrap(True)
        layout.addWidget(self.emergency_note)
        bar = self.view.verticalScrollBar()
        bar.rangeChanged.connect(self._update_more_below)
        bar.valueChanged.connect(self._update_more_below)

    def _small_button(self, text: str, name: str) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName("textSize")
        button.setAccessibleName(name)
        button.setToolTip(name)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        return button

    # --- sizes ----------------------------------------------------------------------------
    def apply_metrics(self, m: Metrics) -> None:
        self._metrics = m
        side = max(16, m.margin // 3)
        self._layout.setContentsMargins(side, m.spacing, side, m.spacing)
        self._layout.setSpacing(m.spacing)
        self.title.setFont(style.font(m.body_pt + 4, bold=True))
        for button in (self.smaller_button, self.larger_button, self.start_again_button):
            button.setFont(style.font(m.body_pt, bold=button is not self.start_again_button))
            button.setMinimumHeight(max(48, m.touch_px - 8))
        self.more_below.setFont(style.font(m.body_pt, bold=True))
        self.emergency_note.setFont(style.font(m.body_pt - 2, bold=True))
        self.banner.apply_metrics(m)
        self.input.apply_metrics(m)
        self._apply_text_size()
        self.set_keyboard_open(self._keyboard_open)

    def set_keyboard_open(self, open_: bool) -> None:
        """On short screens the title row folds away while the keyboard is open."""
        self._keyboard_open = open_
        self.top_row.setVisible(not (open_ and self._metrics.fold_title_with_keyboard))

    def text_scale(self) -> float:
        return TEXT_STEPS[self._text_step]

    def change_text_size(self, step: int) -> None:
        self._text_step = max(0, min(len(TEXT_STEPS) - 1, self._text_step + step))
        self._apply_text_size()

    def _apply_text_size(self) -> None:
        self.view.set_font_scale(self._metrics.chat_scale * self.text_scale())
        self.smaller_button.setEnabled(self._text_step > 0)
        self.larger_button.setEnabled(self._text_step < len(TEXT_STEPS) - 1)

    # --- "more below" -----------------------------------------------------------------------
    @Slot()
    def page_down(self) -> None:
        """Most of a page down (its last lines stay in view), as a drag of the scroll bar: the
        reader takes over, so the chat stops holding the question at the top."""
        bar = self.view.verticalScrollBar()
        bar.setSliderPosition(bar.value() + int(bar.pageStep() * 0.8))
        bar.triggerAction(QAbstractSlider.SliderAction.SliderMove)

    @Slot()
    def _update_more_below(self) -> None:
        # Showing the button shrinks the conversation, which only lengthens the scroll range, and
        # it hides only at the end, where the taller conversation still ends at its last line:
        # the button cannot flicker on and off.
        bar = self.view.verticalScrollBar()
        self.more_below.setVisible(bar.value() < bar.maximum() - 4)

    def reset(self) -> None:
        self.banner.clear()
        self.view.clear()
        self.input.edit.clear()
        self._text_step = TEXT_STEPS.index(1.0)
        self._apply_text_size()
        self.more_below.hide()
