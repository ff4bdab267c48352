"""The calm screen shown while the database cannot be reached. It retries by itself elsewhere
(``kiosk_app.database``); this module only displays, and never shows technical details."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from kiosk_app import style

HEADLINE = "\N{INFORMATION SOURCE}  The assistant is temporarily unavailable"
BODY = "Please ask at reception: the staff will be glad to help you."
RETRYING = "This screen will come back by itself as soon as it can."


class UnavailableScreen(QWidget):
    def __init__(self, clinic_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("unavailableScreen")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(120, 120, 120, 120)
        layout.setSpacing(36)
        layout.addStretch(1)
        for text, points, bold in (
            (clinic_name, style.BODY_PT + 4, False),
            (HEADLINE, style.TITLE_PT, True),
            (BODY, style.BODY_PT + 6, False),
            (RETRYING, style.BODY_PT, False),
        ):
            label = QLabel(text)
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setWordWrap(True)
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            label.setFont(style.font(points, bold))
            layout.addWidget(label)
        layout.addStretch(2)
