"""Watches whether the database can be used, off the GUI thread, and retries while it cannot.

``available_changed(False)`` sends the kiosk to its calm "temporarily unavailable" screen; a
retry timer runs every ``db_retry_seconds`` until a check succeeds: ``available_changed(True)``.
Any failure of the check counts as unavailable (fail safe). Never blocks the GUI thread.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from engine.qt.worker import BackgroundCall

log = logging.getLogger(__name__)


class DatabaseMonitor(QObject):
    available_changed = Signal(bool)

    def __init__(
        self, check: Callable[[], None], retry_seconds: float, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.available = True
        self._call = BackgroundCall(check, self)
        self._call.succeeded.connect(self._on_ok)
        self._call.failed.connect(self._on_failed)
        self.retry_timer = QTimer(self)
        self.retry_timer.setInterval(max(1, int(retry_seconds * 1000)))
        self.retry_timer.timeout.connect(self.check_now)

    @Slot()
    def check_now(self) -> None:
        self._call.start()  # a check already running is not doubled

    @property
    def checking(self) -> bool:
        return self._call.is_running()

    def report_unavailable(self) -> None:
        """An answer failed because of the database: switch now and keep retrying."""
        self._set(False)

    def wait(self, timeout_ms: int = 5000) -> bool:
        return self._call.wait(timeout_ms)

    @Slot(object)
    def _on_ok(self, _result: object) -> None:
        self._set(True)

    @Slot(object)
    def _on_failed(self, error: object) -> None:
        log.warning("Database check failed: %s", error)
        self._set(False)

    def _set(self, available: bool) -> None:
        if available:
            self.retry_timer.stop()
        elif not self.retry_timer.isActive():
            self.retry_timer.start()
        if available != self.available:
            self.available = available
            self.available_changed.emit(available)
