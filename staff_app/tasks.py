"""Run engine calls off the GUI thread with ``engine.qt.BackgroundCall``; results come back here.

Widgets call ``tasks.run(call, on_ok, on_error)``; they never start threads themselves. The
callbacks run in the GUI thread (BackgroundCall re-emits from GUI-thread slots). ``ProgressRelay``
carries progress callbacks from a worker thread to a GUI-thread slot through a queued signal.
This module never touches a widget.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from engine.qt import BackgroundCall

log = logging.getLogger(__name__)

OnResult = Callable[[Any], None]
OnError = Callable[[BaseException], None]


class Tasks(QObject):
    """Starts one BackgroundCall per piece of work and tidies finished ones away."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._calls: list[BackgroundCall] = []

    def run(self, call: Callable[[], Any], on_ok: OnResult, on_error: OnError) -> BackgroundCall:
        self._prune()
        background = BackgroundCall(call, self)
        # BackgroundCall emits these from GUI-thread slots, so plain callables run in the GUI.
        background.succeeded.connect(on_ok)
        background.failed.connect(on_error)
        self._calls.append(background)
        background.start()
        return background

    def running(self) -> int:
        return sum(1 for c in self._calls if c.is_running())

    def wait_all(self, timeout_ms: int = 5000) -> bool:
        ok = True
        for call in self._calls:
            ok = call.wait(timeout_ms) and ok
        return ok

    def _prune(self) -> None:
        finished = [c for c in self._calls if not c.is_running()]
        self._calls = [c for c in self._calls if c.is_running()]
        for call in finished:
            call.deleteLater()


class ProgressRelay(QObject):
    """``relay.report`` may be called from any thread; ``progress`` arrives in the GUI thread
    when connected to a ``@Slot`` of a GUI-thread object."""

    progress = Signal(str, int, int)

    def report(self, slug: str, done: int, total: int) -> None:
        self.progress.emit(slug, done, total)
