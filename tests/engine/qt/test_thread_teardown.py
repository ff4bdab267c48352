"""Worker threads end with their run, and thousands of them back to back never hang the app.

Moving a finished worker back to the GUI thread from its own thread deadlocked in about one run of
this test in five (and once in CI, freezing a staff app knowledge tab test): the worker
held the GIL inside ``moveToThread`` while the GUI thread, deleting the previous worker, held Qt's
connection lock and waited for the GIL. A hang cannot be caught inside one process, so the load
runs in a child process with a deadline.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

from PySide6.QtCore import QThread

from engine.events import AnswerEvent, DoneEvent, Outcome, Route
from engine.qt.worker import AnswerRunner, BackgroundCall

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = textwrap.dedent(
    """
    import faulthandler, sys
    from PySide6.QtCore import QObject, QTimer, Slot
    from PySide6.QtWidgets import QApplication
    from engine.events import DoneEvent, Outcome, Route, TokenEvent
    from engine.qt.worker import AnswerRunner, BackgroundCall

    faulthandler.dump_traceback_later(45, exit=True)  # a hang prints every thread's stack
    app = QApplication([])
    WANTED = int(sys.argv[1])

    class Sink(QObject):
        def __init__(self):
            super().__init__()
            self.results = 0
            self.answers = 0

        @Slot(object)
        def on_result(self, _result):
            self.results += 1

        @Slot(object)
        def on_finished(self, _done):
            self.answers += 1

    def stream():
        for _ in range(50):
            yield TokenEvent("x")
        yield DoneEvent("x" * 50, Route.INFORMATION, Outcome.ANSWERED)

    sink = Sink()
    calls = [BackgroundCall(lambda: 1) for _ in range(4)]
    for call in calls:
        call.succeeded.connect(sink.on_result)
    runners = [AnswerRunner() for _ in range(2)]
    for runner in runners:
        runner.finished.connect(sink.on_finished)

    def tick():
        for call in calls:
            call.start()
        runners[0].start(stream)  # cancels the answer before, which may still be streaming
        if not runners[1].is_running():
            runners[1].start(stream)  # this one streams each answer to its end
        if sink.results >= WANTED:
            timer.stop()
            finish()

    def finish():
        if any(call.is_running() for call in calls):
            QTimer.singleShot(20, finish)  # let the last calls end before the app does
        else:
            app.quit()

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(0)
    app.exec()
    stopped = all(runner.shutdown(5000) for runner in runners)
    print("results", sink.results, "answers", sink.answers, "stopped", stopped)
    """
)


def test_back_to_back_workers_never_deadlock(tmp_path):
    script = tmp_path / "load.py"
    script.write_text(SCRIPT, encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    try:
        done = subprocess.run(
            [sys.executable, str(script), "20000"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=90,
        )
    except subprocess.TimeoutExpired as hung:
        raise AssertionError(f"worker threads deadlocked:\n{hung.stderr}") from None
    assert done.returncode == 0, done.stderr[-4000:]
    words = done.stdout.split()
    assert words[:1] == ["results"], done.stdout
    assert int(words[1]) >= 20000  # every call's result reached the GUI thread
    assert int(words[3]) > 0  # answers streamed to the end between the restarts
    assert words[5] == "True"  # every answer thread stopped at the end


def test_worker_threads_end_with_their_run_without_the_gui_event_loop(qtbot):
    """Nobody handles a worker's ``stopped`` once ``app.exec()`` has returned, nor when a test
    ends between ``succeeded`` and ``stopped``: the thread must end by itself. It used to wait for
    the GUI thread, so the kiosk's shutdown timed out with it running, and a parentless
    DatabaseMonitor collected by the GC in the next test aborted the run ("QThread: Destroyed
    while thread is still running")."""
    seen: queue.Queue[QThread] = queue.Queue()

    def stream() -> Iterator[AnswerEvent]:
        seen.put(QThread.currentThread())
        yield DoneEvent("x", Route.INFORMATION, Outcome.ANSWERED)

    call = BackgroundCall(lambda: seen.put(QThread.currentThread()))
    runner = AnswerRunner()
    try:
        call.start()
        runner.start(stream)
        threads = [seen.get(timeout=5), seen.get(timeout=5)]
        # From here no Qt event is handled in the GUI thread, as after app.exec() returned.
        assert [thread.wait(2000) for thread in threads] == [True, True]
        assert call.wait(0)
    finally:
        qtbot.waitUntil(lambda: not call.is_running() and runner.active_threads() == 0)
        runner.shutdown()
