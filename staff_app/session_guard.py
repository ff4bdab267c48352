"""The signed-in session's two guards: the account is re-checked before every write, and an idle
desk signs itself out after a visible countdown.

``SessionGuard.wrap(backend, kind)`` returns the backend with its writing methods (booking, cancel,
reschedule, ingest, remove, review decision, queue moves, alert responses) preceded by
``users.check_active(username)`` on the same worker thread. A disabled or locked-out account gets
``AccountClosed`` instead of the write, and ``closed`` is emitted so the window signs out.

``IdleSignOut`` watches every key press, click, wheel turn and mouse move in the application. After
``idle_ms - warning_ms`` without input it shows a countdown (``warning`` label, updated every
``tick_ms``); any input cancels it; at zero it emits ``expired``. Times are parameters so a test
can run it in milliseconds.

This module must never let a write through for an account it could not check (a failed check
raises), and never touch engine data itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QEvent, QObject, QTimer, Signal, Slot
from PySide6.QtWidgets import QApplication, QLabel

from engine.errors import AuthenticationFailed
from engine.ops.settings import SignInSettings

# Methods that change something, per backend kind (reads are not re-checked).
WRITES: dict[str, frozenset[str]] = {
    "booking": frozenset({"book", "cancel", "reschedule"}),
    "review": frozenset({"decide"}),
    "knowledge": frozenset({"ingest_folders", "ingest_files", "remove_document"}),
    "queue": frozenset(
        {"check_in_at_desk", "walk_in", "call", "start", "finish", "no_show", "call_next"}
    ),
    "alerts": frozenset({"respond"}),
}
ACCOUNT_CLOSED = "Your account was disabled or locked; you have been signed out."
_INPUT = frozenset(
    {
        QEvent.Type.KeyPress,
        QEvent.Type.MouseButtonPress,
        QEvent.Type.MouseMove,
        QEvent.Type.Wheel,
        QEvent.Type.TouchBegin,
    }
)


class _Rechecked:
    """``inner`` with ``check()`` run before each method named in ``writes``."""

    def __init__(self, inner: Any, writes: frozenset[str], check: Callable[[], None]) -> None:
        self._inner = inner
        self._writes = writes
        self._check = check

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._inner, name)
        if name not in self._writes:
            return target

        def checked(*args: Any, **kwargs: Any) -> Any:
            self._check()
            return target(*args, **kwargs)

        return checked


class SessionGuard(QObject):
    """Re-checks the signed-in account before writes; ``closed`` when it may no longer act."""

    closed = Signal()

    def __init__(
        self, users: Any, current_user: Callable[[], str], parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._users = users
        self._current_user = current_user

    def check(self) -> None:
        """Runs on the worker thread that is about to write."""
        username = self._current_user()
        if not username:
            self.closed.emit()
            raise AuthenticationFailed(ACCOUNT_CLOSED)
        check_active = getattr(self._users, "check_active", None)
        if check_active is None:  # a backend without accounts (never the real one)
            return
        try:
            check_active(username)
        except AuthenticationFailed:
            self.closed.emit()  # queued to the window's slot in the GUI thread
            raise AuthenticationFailed(ACCOUNT_CLOSED) from None

    def wrap(self, backend: Any, kind: str) -> Any:
        if backend is None:
            return None
        return _Rechecked(backend, WRITES[kind], self.check)


@dataclass(frozen=True)
class IdleTimes:
    idle_ms: int
    warning_ms: int
    tick_ms: int = 1000

    @classmethod
    def from_policy(cls, policy: SignInSettings) -> IdleTimes:
        return cls(int(policy.idle_minutes * 60_000), policy.idle_warning_seconds * 1000)


class IdleSignOut(QObject):
    """Emits ``expired`` after ``idle_ms`` without input, showing a countdown in ``warning``."""

    expired = Signal()

    def __init__(
        self,
        warning: QLabel,
        idle_ms: int,
        warning_ms: int,
        tick_ms: int = 1000,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.warning = warning
        self.warning.hide()
        self.warning_ms = min(warning_ms, idle_ms)
        self.tick_ms = tick_ms
        self.remaining_ms = 0
        self.quiet = QTimer(self)
        self.quiet.setSingleShot(True)
        self.quiet.setInterval(max(1, idle_ms - self.warning_ms))
        self.quiet.timeout.connect(self._start_countdown)
        self.countdown = QTimer(self)
        self.countdown.setInterval(max(1, tick_ms))
        self.countdown.timeout.connect(self._tick)
        self.active = False

    def start(self) -> None:
        self.active = True
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)
        self.reset()

    def stop(self) -> None:
        self.active = False
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)
        self.quiet.stop()
        self.countdown.stop()
        self.warning.hide()

    def reset(self) -> None:
        """Input: hide any countdown and start the quiet period again."""
        if not self.active:
            return
        self.countdown.stop()
        self.warning.hide()
        self.quiet.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self.active and event.type() in _INPUT:
            self.reset()
        return False

    @Slot()
    def _start_countdown(self) -> None:
        self.remaining_ms = self.warning_ms
        self._show()
        self.countdown.start()

    @Slot()
    def _tick(self) -> None:
        self.remaining_ms -= self.tick_ms
        if self.remaining_ms <= 0:
            self.stop()
            self.expired.emit()
            return
        self._show()

    def _show(self) -> None:
        seconds = max(1, (self.remaining_ms + 999) // 1000)
        self.warning.setText(
            f"No activity: signing out in {seconds} s to protect patient details. "
            "Move the mouse or press a key to stay signed in."
        )
        self.warning.show()
