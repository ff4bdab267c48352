"""Turn the engine's answer iterators into Qt signals, off the GUI thread.

``AnswerWorker`` consumes one ``Iterator[AnswerEvent]`` on a ``QThread`` and puts each event, in
order, on a small locked queue; it signals ``events_ready`` only when the queue was empty, so a
stream of 2,000 fast tokens costs the GUI a few queued signals, not 2,000 (each one a Python slot
call in a single event-loop turn). ``AnswerRunner`` lives in the GUI thread, owns the threads
(widgets never start threads), drains the queue in order from a GUI-thread slot, coalesces tokens
into ~30 ms batches so a fast stream cannot stall the event loop, and drops everything from an
answer once it is cancelled.
``BackgroundCall`` runs one plain callable (such as ``check_database``) the same way.
Every worker thread ends as its run returns, whether or not the GUI thread still handles events
(see ``end_worker_thread``): a thread left running is fatal when its QThread is deleted.

This module must never touch a widget, and never connect a worker signal to a lambda: such a
connection runs in the worker thread (see STYLE.md).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from typing import Any

from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot

from engine.errors import ClinicError
from engine.events import AnswerEvent, DoneEvent, ReplaceEvent, StatusEvent, TokenEvent

log = logging.getLogger(__name__)

GENERIC_FAILURE = "Something went wrong. Please ask at reception."
TOKEN_FLUSH_MS = 30

EventsFactory = Callable[[], Iterator[AnswerEvent]]
Describe = Callable[[BaseException], str]


def describe_for_staff(error: BaseException) -> str:
    """The detailed but user-safe wording of a ``ClinicError``; a generic one for anything else."""
    if isinstance(error, ClinicError):
        return str(error) or error.public_message
    return GENERIC_FAILURE


def describe_for_public(error: BaseException) -> str:
    """The short, calm kiosk wording of an error."""
    return error.public_message if isinstance(error, ClinicError) else GENERIC_FAILURE


def end_worker_thread() -> None:
    """Called last in a worker's run, in its thread: the thread ends as soon as the run returns.

    (``quit`` before the thread's event loop starts makes the loop return at once.) Otherwise the
    thread waited for the GUI thread to handle ``stopped``, which it never does once
    ``app.exec()`` has returned or when a test ends between ``succeeded`` and ``stopped``:
    ``BackgroundCall.wait`` then timed out with the thread still running, and the garbage
    collector deleting that QThread aborted the process ("QThread: Destroyed while thread is
    still running"; once in five CI runs, a parentless ``DatabaseMonitor`` of the previous test).
    """
    QThread.currentThread().quit()


def retire_worker_thread(thread: QThread, worker: QObject, timeout_ms: int | None = None) -> bool:
    """End a worker's thread once its run has returned, so both can be deleted from the GUI thread.

    The worker stays in its own thread to the end: moving it back from there (``moveToThread``
    while holding the GIL) deadlocked against the GUI thread deleting the previous worker (PySide
    releases the GIL in the C++ destructor, which then waits for it again while holding Qt's
    connection lock). For the same reason the thread's ``started`` connection is cut here, with
    the GIL held, so that deleting the worker never has a connection left to tear down.
    """
    thread.quit()
    stopped = thread.wait() if timeout_ms is None else thread.wait(timeout_ms)
    thread.disconnect(worker)
    return stopped


class AnswerWorker(QObject):
    """Consumes one answer iterator in a worker thread. Use through :class:`AnswerRunner`."""

    events_ready = Signal()  # the queue was empty and has events now: drain it (take_events)
    failed = Signal(str, object)  # user-safe message, the exception
    stopped = Signal()  # always last: the thread may quit

    def __init__(self, events: EventsFactory, describe: Describe = describe_for_staff) -> None:
        super().__init__()
        self._events = events
        self._describe = describe
        self._cancelled = threading.Event()
        self._lock = threading.Lock()
        self._queue: list[AnswerEvent] = []

    def take_events(self) -> list[AnswerEvent]:
        """Thread-safe: every event queued so far, in order (the runner calls it)."""
        with self._lock:
            taken, self._queue = self._queue, []
        return taken

    def cancel(self) -> None:
        """Thread-safe: no further answer signals; the iterator is closed at the next event."""
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    @Slot()
    def run(self) -> None:
        iterator: Iterator[AnswerEvent] | None = None
        try:
            if not self.cancelled:
                iterator = self._events()
                for event in iterator:
                    if self.cancelled:
                        break
                    self._emit(event)
                    if isinstance(event, DoneEvent):
                        break
        except ClinicError as error:
            log.warning("Answer failed: %s", error)
            if not self.cancelled:
                self.failed.emit(self._describe(error), error)
        except Exception as error:
            log.exception("Unexpected error while answering")
            if not self.cancelled:
                self.failed.emit(self._describe(error), error)
        finally:
            self._close(iterator)
            self.stopped.emit()
            end_worker_thread()

    def _emit(self, event: AnswerEvent) -> None:
        with self._lock:
            was_empty = not self._queue
            self._queue.append(event)
        if was_empty:
            self.events_ready.emit()

    @staticmethod
    def _close(iterator: Iterator[AnswerEvent] | None) -> None:
        close = getattr(iterator, "close", None)
        if close is None:
            return
        try:
            close()
        except Exception:
            log.exception("Closing the answer stream failed")


class AnswerRunner(QObject):
    """Runs answers one at a time on worker threads; all its signals arrive in the GUI thread.

    ``tokens`` carries batches of text (flushed every ``flush_ms``); status, replace, finish and
    failure always flush pending tokens first, so the order of what a person sees is preserved.
    A DoneEvent or a failure ends the answer; ``cancel()`` ends it silently.
    """

    status = Signal(str)
    tokens = Signal(str)
    replaced = Signal(str, str)
    finished = Signal(object)
    failed = Signal(str, object)

    def __init__(
        self,
        parent: QObject | None = None,
        describe: Describe = describe_for_staff,
        flush_ms: int = TOKEN_FLUSH_MS,
    ) -> None:
        super().__init__(parent)
        self._describe = describe
        self._current: AnswerWorker | None = None
        self._threads: dict[AnswerWorker, QThread] = {}
        self._pending: list[str] = []
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(flush_ms)
        self._flush_timer.timeout.connect(self._flush)

    def is_running(self) -> bool:
        return self._current is not None

    def active_threads(self) -> int:
        return len(self._threads)

    def start(self, events: EventsFactory) -> None:
        """Cancel any running answer and start consuming ``events()`` on a new thread."""
        self.cancel()
        worker = AnswerWorker(events, self._describe)
        thread = QThread()
        thread.setObjectName("answer-worker")
        worker.moveToThread(thread)
        worker.events_ready.connect(self._on_events_ready)
        worker.failed.connect(self._on_failed)
        worker.stopped.connect(self._on_stopped)
        thread.started.connect(worker.run)
        self._threads[worker] = thread
        self._current = worker
        thread.start()

    def cancel(self) -> None:
        """Stop the current answer: pending tokens are dropped and no further signal is emitted."""
        worker = self._current
        self._current = None
        self._pending.clear()
        self._flush_timer.stop()
        if worker is not None:
            worker.cancel()

    def shutdown(self, timeout_ms: int = 2000) -> bool:
        """Cancel and wait for every worker thread (at application exit). True if all stopped."""
        self.cancel()
        ok = True
        for thread in list(self._threads.values()):
            thread.quit()
            ok = thread.wait(timeout_ms) and ok
        return ok

    def _from_current(self) -> bool:
        sender = self.sender()
        return sender is not None and sender is self._current

    @Slot()
    def _on_events_ready(self) -> None:
        sender = self.sender()
        if isinstance(sender, AnswerWorker) and sender is self._current:
            self._drain(sender)

    def _drain(self, worker: AnswerWorker) -> None:
        """Handle the worker's queued events in order (GUI thread)."""
        for event in worker.take_events():
            if worker is not self._current:
                return  # cancelled, or finished, by an earlier event or a slot it triggered
            if isinstance(event, TokenEvent):
                self._pending.append(event.text)
                if not self._flush_timer.isActive():
                    self._flush_timer.start()
            elif isinstance(event, StatusEvent):
                self._flush()
                self.status.emit(event.text)
            elif isinstance(event, ReplaceEvent):
                self._pending.clear()
                self._flush_timer.stop()
                self.replaced.emit(event.text, event.reason)
            elif isinstance(event, DoneEvent):
                self._flush()
                self._current = None
                self.finished.emit(event)

    @Slot(str, object)
    def _on_failed(self, message: str, error: object) -> None:
        sender = self.sender()
        if isinstance(sender, AnswerWorker) and sender is self._current:
            self._drain(sender)  # what came before the failure, in order (a replace, say)
        if self._from_current():
            self._pending.clear()
            self._flush_timer.stop()
            self._current = None
            self.failed.emit(message, error)

    @Slot()
    def _flush(self) -> None:
        self._flush_timer.stop()
        if self._pending:
            text = "".join(self._pending)
            self._pending.clear()
            self.tokens.emit(text)

    @Slot()
    def _on_stopped(self) -> None:
        sender = self.sender()
        if not isinstance(sender, AnswerWorker):
            return
        if sender is self._current:
            self._drain(sender)  # the last events (their events_ready may still be queued)
        if sender is self._current:
            # The iterator ended without a DoneEvent: never leave a half answer looking final.
            self._pending.clear()
            self._flush_timer.stop()
            self._current = None
            self.failed.emit(self._describe(ClinicError()), None)
        thread = self._threads.pop(sender, None)
        if thread is not None:
            retire_worker_thread(thread, sender)


class _CallWorker(QObject):
    succeeded = Signal(object)
    failed = Signal(object)
    stopped = Signal()

    def __init__(self, call: Callable[[], Any]) -> None:
        super().__init__()
        self._call = call

    @Slot()
    def run(self) -> None:
        try:
            result = self._call()
        except Exception as error:
            if not isinstance(error, ClinicError):
                log.exception("Background call failed")
            self.failed.emit(error)
        else:
            self.succeeded.emit(result)
        finally:
            self.stopped.emit()
            end_worker_thread()


class BackgroundCall(QObject):
    """Runs a plain callable on a worker thread; one at a time. Signals arrive in the GUI thread.

    ``succeeded`` or ``failed`` comes first; ``stopped`` follows once the thread is retired and
    ``start`` will accept the next call (``is_running`` is true until then).
    """

    succeeded = Signal(object)
    failed = Signal(object)
    stopped = Signal()

    def __init__(self, call: Callable[[], Any], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._call = call
        self._worker: _CallWorker | None = None
        self._thread: QThread | None = None

    def is_running(self) -> bool:
        return self._worker is not None

    def start(self) -> bool:
        """Start the call unless one is already running. Returns whether it started."""
        if self._worker is not None:
            return False
        worker = _CallWorker(self._call)
        thread = QThread()
        thread.setObjectName("background-call")
        worker.moveToThread(thread)
        worker.succeeded.connect(self._on_succeeded)
        worker.failed.connect(self._on_failed)
        worker.stopped.connect(self._on_stopped)
        thread.started.connect(worker.run)
        self._worker, self._thread = worker, thread
        thread.start()
        return True

    def wait(self, timeout_ms: int = 2000) -> bool:
        """Wait for the running call's thread to end (it ends with the call). True if it did."""
        return True if self._thread is None else self._thread.wait(timeout_ms)

    @Slot(object)
    def _on_succeeded(self, result: object) -> None:
        self.succeeded.emit(result)

    @Slot(object)
    def _on_failed(self, error: object) -> None:
        self.failed.emit(error)

    @Slot()
    def _on_stopped(self) -> None:
        thread, worker = self._thread, self._worker
        if thread is not None and worker is not None:
            retire_worker_thread(thread, worker)
        self._worker, self._thread = None, None
        self.stopped.emit()
