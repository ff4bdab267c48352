"""Emit a few thousand signals across threads: PySide6 6.12.0 on Python 3.11 aborted after ~1,000
(`Fatal Python error: bool_dealloc`). Keep this passing before moving the PySide6 pin."""

from __future__ import annotations

from PySide6.QtCore import QObject, QThread, Signal, Slot

from engine.events import DoneEvent, Outcome, Route, TokenEvent
from engine.qt.worker import AnswerRunner

COUNT = 5000


class Emitter(QObject):
    value = Signal(int)
    flag = Signal(bool)
    done = Signal()

    @Slot()
    def run(self) -> None:
        for i in range(COUNT):
            self.value.emit(i)
            self.flag.emit(i % 2 == 0)
        self.done.emit()


class Sink(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.values = 0
        self.flags = 0
        self.total = 0

    @Slot(int)
    def on_value(self, value: int) -> None:
        self.values += 1
        self.total += value

    @Slot(bool)
    def on_flag(self, _flag: bool) -> None:
        self.flags += 1


def test_thousands_of_cross_thread_emits(qtbot):
    thread = QThread()
    emitter = Emitter()
    sink = Sink()
    emitter.moveToThread(thread)
    emitter.value.connect(sink.on_value)
    emitter.flag.connect(sink.on_flag)
    thread.started.connect(emitter.run)
    # Wait on GUI-thread state, not on emitter.done: a waitSignal blocker connected to a
    # worker-thread signal would run (and stop its timer) in the worker thread.
    thread.start()
    qtbot.waitUntil(lambda: sink.flags == COUNT, timeout=20000)
    thread.quit()
    assert thread.wait(5000)
    assert sink.values == COUNT
    assert sink.total == COUNT * (COUNT - 1) // 2


def test_thousands_of_token_events_through_the_runner(qtbot):
    events = [TokenEvent(str(i % 10)) for i in range(COUNT)]
    text = "".join(e.text for e in events)
    events.append(DoneEvent(text, Route.INFORMATION, Outcome.ANSWERED))
    runner = AnswerRunner()
    received: list[str] = []

    class Collector(QObject):
        @Slot(str)
        def add(self, chunk: str) -> None:
            received.append(chunk)

    collector = Collector()
    runner.tokens.connect(collector.add)
    with qtbot.waitSignal(runner.finished, timeout=20000):
        runner.start(lambda: iter(events))
    assert "".join(received) == text
    assert runner.shutdown(5000)
