"""Idle detection for the kiosk: after a quiet spell, warn with a countdown, then ask for a wipe.

The clock is injectable (``Clock.now``) so tests move time without sleeping: they advance a
``FakeClock`` and call :meth:`IdleMonitor.check`. Any key, mouse or touch input resets the quiet
spell (an application-wide event filter), except while the warning is up: then only the
"I'm still here" button (``still_here``) keeps the session. This module never touches patient
data itself; the window decides what a wipe means.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QEvent, QObject, QTimer, Signal, Slot

ACTIVITY_EVENTS = frozenset(
    {
        QEvent.Type.KeyPress,
        QEvent.Type.MouseButtonPress,
        QEvent.Type.MouseButtonRelease,
        QEvent.Type.MouseMove,
        QEvent.Type.TouchBegin,
        QEvent.Type.TouchUpdate,
        QEvent.Type.Wheel,
    }
)


class Clock(Protocol):
    def now(self) -> float: ...


class MonotonicClock:
    def now(self) -> float:
        return time.monotonic()


class FakeClock:
    """A clock tests move by hand."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += seconds


class IdleMonitor(QObject):
    warning_started = Signal(int)  # seconds left
    countdown_changed = Signal(int)
    warning_cancelled = Signal()
    expired = Signal()

    def __init__(
        self,
        idle_seconds: float,
        warning_seconds: float,
        clock: Clock | None = None,
        has_state: Callable[[], bool] = lambda: True,
        tick_ms: int = 250,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.idle_seconds = idle_seconds
        self.warning_seconds = warning_seconds
        self.clock: Clock = clock or MonotonicClock()
        self._has_state = has_state
        self._last_activity = self.clock.now()
        self._warning = False
        self._shown_remaining = -1
        self.timer = QTimer(self)
        self.timer.setInterval(tick_ms)
        self.timer.timeout.connect(self.check)

    @property
    def warning(self) -> bool:
        return self._warning

    def start(self) -> None:
        self.poke()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def poke(self) -> None:
        """Input happened: the quiet spell starts again (ignored while warning)."""
        if not self._warning:
            self._last_activity = self.clock.now()

    def still_here(self) -> None:
        self._last_activity = self.clock.now()
        if self._warning:
            self._warning = False
            self.warning_cancelled.emit()

    def reset(self) -> None:
        """After a wipe: no warning, quiet spell restarted."""
        self._warning = False
        self._last_activity = self.clock.now()

    def seconds_left(self) -> int:
        total = self.idle_seconds + self.warning_seconds
        return max(0, math.ceil(total - (self.clock.now() - self._last_activity)))

    @Slot()
    def check(self) -> None:
        quiet = self.clock.now() - self._last_activity
        if not self._warning:
            if quiet < self.idle_seconds:
                return
            if not self._has_state():
                self._last_activity = self.clock.now()
                return
            self._warning = True
            self._shown_remaining = self.seconds_left()
            self.warning_started.emit(self._shown_remaining)
            return
        remaining = self.seconds_left()
        if remaining <= 0:
            self.reset()
            self.expired.emit()
        elif remaining != self._shown_remaining:
            self._shown_remaining = remaining
            self.countdown_changed.emit(remaining)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in ACTIVITY_EVENTS:
            self.poke()
        return False
