"""The calm screen shown while the database cannot be reached.

It shows only static text that needs no database: the fixed emergency advice from settings, the
clinic's phone number, and, when a patient's question could not be answered, that it is kept and
will be answered as soon as the assistant is back (never the question's words: anyone walking
up can read this screen). It retries by itself elsewhere
(``kiosk_app.database``); this module only displays, and never shows technical details.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from kiosk_app import style
from kiosk_app.chat_screen import EMERGENCY_HEADING
from kiosk_app.layout import EMERGENCY_TEXT_PT, TALL, Metrics

HEADLINE = "\N{INFORMATION SOURCE}  The assistant is temporarily unavailable"
BODY = "Please ask at reception: the staff will be glad to help you."
PHONE = "You can also call the clinic on {phone}."
RETRYING = "This screen will come back by itself as soon as it can."
KEPT = "Your question is kept: it will be answered here as soon as the assistant is back."


def _label(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    return label


class UnavailableScreen(QScrollArea):
    def __init__(
        self,
        clinic_name: str,
        emergency_text: str = "",
        clinic_phone: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("unavailableArea")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        page = QWidget()
        page.setObjectName("unavailableScreen")
        self.setWidget(page)
        layout = QVBoxLayout(page)
        self._layout = layout
        self.name = _label(clinic_name)
        self.headline = _label(HEADLINE)
        self.body = _label(BODY + (" " + PHONE.format(phone=clinic_phone) if clinic_phone else ""))
        self.kept = _label()
        self.kept.setObjectName("keptQuestion")
        self.kept.hide()
        self.retrying = _label(RETRYING)
        self.emergency = QFrame()
        self.emergency.setObjectName("emergencyBanner")
        box = QVBoxLayout(self.emergency)
        box.setContentsMargins(28, 12, 28, 16)
        self.emergency_heading = QLabel(EMERGENCY_HEADING)
        self.emergency_text = _label(emergency_text)
        self.emergency_text.setAlignment(Qt.AlignmentFlag.AlignLeft)
        box.addWidget(self.emergency_heading)
        box.addWidget(self.emergency_text)
        self.emergency.setVisible(bool(emergency_text))
        layout.addStretch(1)
        for widget in (self.name, self.headline, self.body, self.kept, self.retrying):
            layout.addWidget(widget)
        layout.addWidget(self.emergency)
        layout.addStretch(1)
        self.apply_metrics(TALL)

    def apply_metrics(self, m: Metrics) -> None:
        self._layout.setContentsMargins(m.margin, m.spacing * 2, m.margin, m.spacing * 2)
        self._layout.setSpacing(m.spacing * 2)
        self.name.setFont(style.font(m.body_pt + 4))
        self.headline.setFont(style.font(m.title_pt - 4, bold=True))
        self.body.setFont(style.font(m.body_pt + 4))
        self.kept.setFont(style.font(m.body_pt))
        self.retrying.setFont(style.font(m.body_pt))
        self.emergency_heading.setFont(style.font(EMERGENCY_TEXT_PT + 4, bold=True))
        self.emergency_text.setFont(style.font(EMERGENCY_TEXT_PT, bold=True))

    def show_kept_question(self, kept: bool) -> None:
        """Say that a question is waiting, without showing its words (the screen is public)."""
        self.kept.setText(KEPT if kept else "")
        self.kept.setVisible(kept)
