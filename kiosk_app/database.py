"""Watches whether the database can be used, off the GUI thread, and brings it back when it fails.

``available_changed(False)`` sends the kiosk to its "temporarily unavailable" screen. While down,
the check is retried: after ``retry_seconds``, then (``backoff=True``, a shared server we cannot
restart) doubling up to ``MAX_RETRY_SECONDS``; an embedded server is retried at the same short
interval, and before each retry the backend's ``restart_database`` (when it has one: the
:class:`DatabaseRestarter` protocol, implemented over the one server supervisor in
``engine.ops.db``) starts it again through the same path as at launch. While up, a quiet heartbeat
check every ``HEARTBEAT_SECONDS`` notices a server that died under an idle kiosk before a patient's
question does.

Logging is one line per state change: "unavailable" (the reason, no traceback), "still
unavailable" every ``STILL_DOWN_LOG_SECONDS``, "available again"; at DEBUG when a restarter is
given, because the supervisor behind it already logs each state change once. Any failure of
the check counts as unavailable (fail safe). Never blocks the GUI thread.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from engine.qt.worker import BackgroundCall

log = logging.getLogger(__name__)

MAX_RETRY_SECONDS = 60.0
HEARTBEAT_SECONDS = 15.0
STILL_DOWN_LOG_SECONDS = 600.0


@runtime_checkable
class DatabaseRestarter(Protocol):
    """A backend that can start its embedded database server again after it died (a no-op on a
    shared server, which only IT restarts)."""

    def restart_database(self) -> None: ...


def _reason(error: object) -> str:
    """The first line of the error, short: a log line, never a traceback."""
    lines = str(error).strip().splitlines()
    text = " ".join(lines[0].split()) if lines else ""
    return (text or type(error).__name__)[:200]


class DatabaseMonitor(QObject):
    available_changed = Signal(bool)

    def __init__(
        self,
        check: Callable[[], None],
        retry_seconds: float,
        parent: QObject | None = None,
        *,
        backoff: bool = False,
        restart: Callable[[], None] | None = None,
        heartbeat_seconds: float = HEARTBEAT_SECONDS,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(parent)
        self.available = True
        self._retry_seconds = max(0.001, retry_seconds)
        self._backoff = backoff
        self._now = now
        self._down_since: float | None = None
        self._last_down_log = 0.0
        self._failures = 0
        self._check = check
        self._restart = restart
        self._level = logging.DEBUG if restart is not None else logging.INFO
        self._call = BackgroundCall(self._attempt, self)
        self._call.succeeded.connect(self._on_ok)
        self._call.failed.connect(self._on_failed)
        self._call.stopped.connect(self._on_stopped)
        # A retry asked for while the last check's thread is still being retired (its result is
        # in, its ``stopped`` not yet handled): run when it is, not at the next heartbeat.
        self._retry_pending = False
        self.retry_timer = QTimer(self)
        self.retry_timer.setSingleShot(True)
        self.retry_timer.setInterval(self._delay_ms())
        self.retry_timer.timeout.connect(self.check_now)
        self.heartbeat = QTimer(self)
        self.heartbeat.setInterval(max(1, int(heartbeat_seconds * 1000)))
        self.heartbeat.timeout.connect(self.check_now)

    def _delay_ms(self) -> int:
        seconds = self._retry_seconds
        if self._backoff and self._failures > 1:
            seconds = min(MAX_RETRY_SECONDS, seconds * 2 ** (self._failures - 1))
        return max(1, int(seconds * 1000))

    def _attempt(self) -> None:
        """Runs on the worker thread: restart a dead server first (while down), then check."""
        if not self.available and self._restart is not None:
            self._restart()
        self._check()

    @Slot()
    def check_now(self) -> None:
        # A check already running is not doubled; while down, the asked-for retry is kept and
        # runs as soon as that check's thread is retired (a retry timer that fired between the
        # failure and the thread's end used to be lost until the next heartbeat, 15 s later).
        if not self._call.start() and not self.available:
            self._retry_pending = True

    @Slot()
    def _on_stopped(self) -> None:
        if self._retry_pending:
            self._retry_pending = False
            if not self.available:
                self._call.start()

    @property
    def checking(self) -> bool:
        return self._call.is_running()

    def start_heartbeat(self) -> None:
        self.heartbeat.start()

    def stop(self) -> None:
        self.retry_timer.stop()
        self.heartbeat.stop()
        self._retry_pending = False

    def report_unavailable(self, error: object = "an answer failed on the database") -> None:
        """An answer failed because of the database: switch now and keep retrying."""
        self._failed(error)

    def wait(self, timeout_ms: int = 5000) -> bool:
        return self._call.wait(timeout_ms)

    @Slot(object)
    def _on_ok(self, _result: object) -> None:
        if not self.available and self._down_since is not None:
            log.log(
                self._level,
                "Database available again after %.0f s; the kiosk answers again",
                self._now() - self._down_since,
            )
        self._failures = 0
        self._down_since = None
        self.retry_timer.stop()
        self.retry_timer.setInterval(self._delay_ms())
        self._set(True)

    @Slot(object)
    def _on_failed(self, error: object) -> None:
        self._failed(error)

    def _failed(self, error: object) -> None:
        now = self._now()
        self._failures += 1
        if self.available:
            self._down_since = now
            self._last_down_log = now
            log.log(
                max(self._level, logging.WARNING) if self._restart is None else self._level,
                "Database unavailable (%s); the kiosk retries by itself",
                _reason(error),
            )
        elif now - self._last_down_log >= STILL_DOWN_LOG_SECONDS:
            self._last_down_log = now
            minutes = (now - (self._down_since or now)) / 60
            log.log(
                logging.WARNING if self._restart is None else self._level,
                "Database still unavailable after %.0f minutes (%s)",
                minutes,
                _reason(error),
            )
        self.retry_timer.setInterval(self._delay_ms())
        if not self.retry_timer.isActive():
            self.retry_timer.start()
        self._set(False)

    def _set(self, available: bool) -> None:
        if available != self.available:
            self.available = available
            self.available_changed.emit(available)
