"""Database notifications as Qt signals: the waiting-room queue and reception alerts, live.

:class:`LiveUpdates` runs one :class:`engine.frontdesk.queue_listener.ChangeListener` in a worker
object on its own QThread and re-emits each change on the GUI thread (``changed``), so widgets only
consume a signal. The database URL is asked for on the worker thread (opening the embedded server
can take a moment and must never block the GUI); while it cannot be had, the worker waits and asks
again. :meth:`LiveUpdates.stop` ends the thread within about a second.

This module must never touch a widget from the worker thread and never poll tables.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, QThread, Signal, Slot

from engine.frontdesk.queue_listener import Change, ChangeListener
from engine.qt.worker import retire_worker_thread

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0


class _ListenWorker(QObject):
    changed = Signal(object)

    def __init__(self, url: Callable[[], str], channels: tuple[str, ...]) -> None:
        super().__init__()
        self._url = url
        self._channels = channels
        self._stopped = threading.Event()
        self._listener: ChangeListener | None = None

    @Slot()
    def run(self) -> None:
        url = None
        while url is None and not self._stopped.is_set():
            try:
                url = self._url()
            except Exception as exc:  # database not reachable yet: wait and ask again
                log.info("live updates waiting for the database (%s)", type(exc).__name__)
                self._stopped.wait(RETRY_SECONDS)
        if url is None:
            return
        listener = ChangeListener(url, self._channels, poll_seconds=0.25)
        self._listener = listener
        if self._stopped.is_set():
            return
        for change in listener.changes():
            self.changed.emit(change)

    def stop(self) -> None:
        self._stopped.set()
        if self._listener is not None:
            self._listener.stop()


class LiveUpdates(QObject):
    """``changed(Change)`` on the GUI thread for every notification on ``channels``."""

    changed = Signal(object)

    def __init__(
        self,
        url: Callable[[], str],
        channels: tuple[str, ...],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._url = url
        self._channels = channels
        self._thread: QThread | None = None
        self._worker: _ListenWorker | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.isRunning()

    def start(self) -> None:
        if self.running:
            return
        thread = QThread()
        worker = _ListenWorker(self._url, self._channels)
        worker.moveToThread(thread)
        thread.started.connect(worker.run)
        worker.changed.connect(self._relay)
        self._thread, self._worker = thread, worker
        thread.start()

    def stop(self) -> None:
        if self._worker is not None:
            self._worker.stop()
        thread, worker = self._thread, self._worker
        if (
            thread is not None
            and worker is not None
            and not retire_worker_thread(thread, worker, timeout_ms=5000)
        ):
            # Deleting a running QThread aborts the process: keep it until it ends.
            log.warning("The live-update listener did not stop within 5 s")
            return
        self._thread = self._worker = None

    @Slot(object)
    def _relay(self, change: object) -> None:
        if isinstance(change, Change):
            self.changed.emit(change)
