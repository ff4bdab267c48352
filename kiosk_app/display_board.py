"""``clinic-kiosk --display``: the waiting-room board on a TV. Read-only, no names.

It shows the ticket being called now in very large type ("Ticket 14 - Room 3") and the few
before it, reloads when the database announces a queue change (``engine.qt.LiveUpdates``) and
chimes (``kiosk_app.chime``) and flashes when a new ticket is called. It reads only through
``clinic_called_tickets`` (tickets, rooms, times), so it works under the kiosk's database role
and can never show a patient's name. Database calls run on worker threads (``BackgroundCall``);
while the database is away the board says so in words and keeps the last calls on screen.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, QTimer, Slot
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget

from engine.qt.worker import BackgroundCall
from kiosk_app.chime import Chime

log = logging.getLogger(__name__)

WAITING = "Please wait to be called."
AWAY = "Calls will appear here again shortly."
NOW_STYLE = "background: #003a70; color: white; border-radius: 24px; padding: 24px;"
FLASH_STYLE = "background: #ffd21f; color: #1a1a1a; border-radius: 24px; padding: 24px;"


def call_text(ticket: Any) -> str:
    return f"Ticket {ticket.ticket} - {ticket.room}" if ticket.room else f"Ticket {ticket.ticket}"


class DisplayBoard(QWidget):
    """``load`` returns the latest calls, newest first (runs on a worker thread)."""

    def __init__(
        self,
        clinic_name: str,
        load: Callable[[], list[Any]],
        *,
        chime: Chime | None = None,
        flash_ms: int = 6000,
    ) -> None:
        super().__init__()
        self.setObjectName("displayBoard")
        self.setWindowTitle(f"{clinic_name}: waiting room")
        self.setStyleSheet("QWidget#displayBoard { background: #f4f6f8; }")
        self._load = load
        self._chime = chime or Chime()
        self._last_call: tuple[int, Any] | None = None
        self.calls: list[Any] = []
        self.chimes = 0
        self.loads = 0  # finished loads, successful or not (tests wait on it)
        self.title = QLabel(f"{clinic_name}\nNow calling")
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.now = QLabel(WAITING)
        self.now.setObjectName("nowCalling")
        self.now.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.now.setWordWrap(True)
        self.now.setStyleSheet(NOW_STYLE)
        self.earlier = QLabel("")
        self.earlier.setObjectName("earlierCalls")
        self.earlier.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.status = QLabel("")
        self.status.setAlignment(Qt.AlignmentFlag.AlignCenter)
        for label in (self.title, self.now, self.earlier, self.status):
            label.setTextFormat(Qt.TextFormat.PlainText)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(48, 32, 48, 32)
        layout.addWidget(self.title)
        layout.addWidget(self.now, 3)
        layout.addWidget(self.earlier, 2)
        layout.addWidget(self.status)
        self._call = BackgroundCall(self._load, self)
        self._call.succeeded.connect(self._on_loaded)
        self._call.failed.connect(self._on_failed)
        self._call.stopped.connect(self._load_again)
        self._again = False
        self._flash = QTimer(self)
        self._flash.setSingleShot(True)
        self._flash.setInterval(flash_ms)
        self._flash.timeout.connect(lambda: self.now.setStyleSheet(NOW_STYLE))
        self._fonts(1080)

    def _fonts(self, height: int) -> None:
        scale = max(0.5, height / 1080)
        for label, points, bold in (
            (self.title, 40, True),
            (self.now, 96, True),
            (self.earlier, 44, False),
            (self.status, 24, False),
        ):
            font = QFont(label.font())
            font.setPointSizeF(points * scale)
            font.setBold(bold)
            label.setFont(font)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._fonts(self.height())

    @Slot(object)
    def on_change(self, _change: object) -> None:
        self.reload()

    def reload(self) -> None:
        if self._call.is_running():
            self._again = True  # one more load after this one, so no change is missed
            return
        self._call.start()

    @Slot(object)
    def _on_loaded(self, calls: object) -> None:
        self.loads += 1
        self.calls = list(calls) if isinstance(calls, list) else []
        self.status.setText("")
        if not self.calls:
            self.now.setText(WAITING)
            self.earlier.setText("")
        else:
            newest = self.calls[0]
            self.now.setText(call_text(newest))
            self.earlier.setText("\n".join(call_text(c) for c in self.calls[1:5]))
            key = (newest.ticket, newest.called_at)
            # No chime for what was already called when the board started.
            if self.loads > 1 and key != self._last_call:
                self._announce()
            self._last_call = key

    @Slot()
    def _load_again(self) -> None:
        # Only once the call has stopped can the next one start (a reload from the result's
        # own slot would find it still running, and the change that asked for it would be lost).
        if self._again:
            self._again = False
            self.reload()

    def _announce(self) -> None:
        self.chimes += 1
        self.now.setStyleSheet(FLASH_STYLE)
        self._flash.start()
        if not self._chime.play():
            QApplication.beep()

    @Slot(object)
    def _on_failed(self, _error: object) -> None:
        self.loads += 1
        log.info("display board: could not load the calls")
        self.status.setText(AWAY)

    def shutdown(self) -> None:
        self._call.wait(5000)
        self._chime.close()
