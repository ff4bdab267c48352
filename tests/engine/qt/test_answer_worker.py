"""The worker/runner pair: events arrive as GUI-thread signals, in order, and cancel is final."""

from __future__ import annotations

import logging
import threading

import pytest
from PySide6.QtCore import QThread, Slot
from PySide6.QtWidgets import QApplication

from engine.errors import DatabaseUnavailable, ModelUnavailable
from engine.events import DoneEvent, Outcome, ReplaceEvent, Route, StatusEvent, TokenEvent
from engine.qt.worker import (
    GENERIC_FAILURE,
    AnswerRunner,
    BackgroundCall,
    describe_for_public,
)
from tests.support.fake_backend import FakeBackend, cited_answer


@pytest.fixture
def runner(qtbot):
    runner = AnswerRunner()
    yield runner
    assert runner.shutdown(5000)


class Recorder:
    def __init__(self, runner: AnswerRunner) -> None:
        self.items: list[tuple[str, object]] = []
        self.threads: set[object] = set()
        for name in ("status", "tokens", "finished"):
            getattr(runner, name).connect(getattr(self, f"on_{name}"))
        runner.replaced.connect(self.on_replaced)
        runner.failed.connect(self.on_failed)

    def _add(self, kind: str, value: object) -> None:
        self.threads.add(QThread.currentThread())
        self.items.append((kind, value))

    def on_status(self, text: str) -> None:
        self._add("status", text)

    def on_tokens(self, text: str) -> None:
        self._add("tokens", text)

    def on_finished(self, done: object) -> None:
        self._add("finished", done)

    def on_replaced(self, text: str, reason: str) -> None:
        self._add("replaced", text)

    def on_failed(self, message: str, error: object) -> None:
        self._add("failed", (message, error))

    def text(self) -> str:
        return "".join(str(v) for k, v in self.items if k == "tokens")


def test_events_arrive_in_order_in_the_gui_thread(qtbot, runner):
    backend = FakeBackend()
    seen = Recorder(runner)
    with qtbot.waitSignal(runner.finished, timeout=5000):
        runner.start(lambda: backend.answer("Where can I park?"))
    kinds = [k for k, _ in seen.items]
    assert kinds[0] == "status"
    assert kinds[-1] == "finished"
    assert set(kinds[1:-1]) == {"tokens"}
    done = seen.items[-1][1]
    assert isinstance(done, DoneEvent)
    assert seen.text() == done.text
    assert seen.threads == {QApplication.instance().thread()}
    assert not runner.is_running()


def test_replace_drops_pending_tokens(qtbot, runner):
    events = [TokenEvent("The fee is £40"), ReplaceEvent("I don't know.", "guard")]
    events.append(DoneEvent("I don't know.", Route.INFORMATION, Outcome.GUARDED))
    seen = Recorder(runner)
    with qtbot.waitSignal(runner.finished, timeout=5000):
        runner.start(lambda: iter(events))
    assert ("replaced", "I don't know.") in seen.items
    replaced_at = seen.items.index(("replaced", "I don't know."))
    assert all(kind != "tokens" for kind, _ in seen.items[replaced_at:])


@pytest.mark.parametrize(
    ("error", "public", "expected"),
    [
        (ModelUnavailable("Ollama at gpu-box:11434 refused"), False, "Ollama at gpu-box:11434"),
        (ModelUnavailable("Ollama at gpu-box:11434 refused"), True, "could not finish"),
        (DatabaseUnavailable("pg down"), True, "temporarily unavailable"),
    ],
)
def test_clinic_errors_become_user_safe_messages(qtbot, error, public, expected):
    runner = AnswerRunner(describe=describe_for_public) if public else AnswerRunner()
    backend = FakeBackend(fail_after=2, stream_error=error)
    with qtbot.waitSignal(runner.failed, timeout=5000) as blocker:
        runner.start(lambda: backend.answer("q"))
    message, raised = blocker.args
    assert expected in message
    assert raised is error
    assert runner.shutdown(5000)


def test_unexpected_error_is_logged_with_traceback_and_shown_generically(qtbot, runner, caplog):
    def explode():
        yield StatusEvent("Searching...")
        raise KeyError("secret internal detail")

    with caplog.at_level(logging.ERROR), qtbot.waitSignal(runner.failed, timeout=5000) as blocker:
        runner.start(explode)
    assert blocker.args[0] == GENERIC_FAILURE
    assert "secret" not in blocker.args[0]
    assert any(record.exc_info for record in caplog.records)


def test_stream_ending_without_done_is_a_failure_not_a_final_answer(qtbot, runner):
    with qtbot.waitSignal(runner.failed, timeout=5000):
        runner.start(lambda: iter([TokenEvent("Half an ans")]))


def test_cancel_closes_the_generator_and_emits_nothing_more(qtbot, runner):
    backend = FakeBackend(block_after=3)
    seen = Recorder(runner)
    with qtbot.waitSignal(runner.status, timeout=5000):
        runner.start(lambda: backend.answer("Where can I park?"))
    assert backend.blocked.wait(5)
    runner.cancel()
    count = len(seen.items)
    with qtbot.assertNotEmitted(runner.tokens, wait=100), qtbot.assertNotEmitted(runner.finished):
        backend.release.set()
        qtbot.waitUntil(lambda: runner.active_threads() == 0, timeout=5000)
    assert backend.closed_early.is_set()
    assert not backend.completed.is_set()
    assert len(seen.items) == count


def test_a_new_answer_cancels_the_previous_one(qtbot, runner):
    slow = FakeBackend(block_after=1)
    fast = FakeBackend()
    runner.start(lambda: slow.answer("first"))
    assert slow.blocked.wait(5)
    seen = Recorder(runner)
    with qtbot.waitSignal(runner.finished, timeout=5000) as blocker:
        runner.start(lambda: fast.answer("second"))
    slow.release.set()
    qtbot.waitUntil(lambda: runner.active_threads() == 0, timeout=5000)
    assert slow.closed_early.is_set()
    assert blocker.args[0].text == seen.text()


def test_background_call_reports_success_and_failure(qtbot):
    backend = FakeBackend(database_up=False)
    call = BackgroundCall(backend.check_database)
    with qtbot.waitSignal(call.failed, timeout=5000) as blocker:
        assert call.start()
    assert isinstance(blocker.args[0], DatabaseUnavailable)
    qtbot.waitUntil(lambda: not call.is_running(), timeout=5000)
    backend.database_up = True
    with qtbot.waitSignal(call.succeeded, timeout=5000):
        call.start()
    qtbot.waitUntil(lambda: not call.is_running(), timeout=5000)


def test_background_call_runs_off_the_gui_thread(qtbot):
    threads: list[object] = []
    gate = threading.Event()

    def check() -> None:
        threads.append(QThread.currentThread())
        gate.wait(5)

    call = BackgroundCall(check)
    with qtbot.waitSignal(call.succeeded, timeout=5000):
        call.start()
        assert not call.start()  # one at a time
        gate.set()
    assert threads and threads[0] is not QApplication.instance().thread()
    qtbot.waitUntil(lambda: not call.is_running(), timeout=5000)


class _Counter:
    def __init__(self) -> None:
        self.count = 0

    @Slot(str)
    def add(self, _text: str) -> None:
        self.count += 1


def test_tokens_are_batched(qtbot, runner):
    events = [TokenEvent("x") for _ in range(500)]
    events.append(DoneEvent("x" * 500, Route.INFORMATION, Outcome.ANSWERED))
    counter = _Counter()
    runner.tokens.connect(counter.add)
    with qtbot.waitSignal(runner.finished, timeout=5000):
        runner.start(lambda: iter(events))
    assert 1 <= counter.count < 100


def test_a_burst_of_tokens_reaches_the_gui_thread_as_one_queued_signal(qtbot, runner):
    """2,000 tokens made while the GUI thread is busy cost it one slot call, not 2,000 (each a
    Python call in one event-loop turn: a stall), and arrive whole and in order."""
    go, made = threading.Event(), threading.Event()
    words = [f"w{i} " for i in range(2000)]

    def events():
        try:
            go.wait(5)
            yield StatusEvent("Searching")
            yield from (TokenEvent(w) for w in words)
            yield DoneEvent("".join(words), Route.INFORMATION, Outcome.ANSWERED)
        finally:
            made.set()  # the worker closes the stream after queuing the DoneEvent

    signals: list[int] = []
    seen = Recorder(runner)
    runner.start(events)
    worker = runner._current
    assert worker is not None
    worker.events_ready.connect(lambda: signals.append(1))  # runs in the worker thread: counts
    go.set()
    assert made.wait(5)  # the GUI thread did not run meanwhile: everything is queued
    with qtbot.waitSignal(runner.finished, timeout=5000):
        pass
    assert len(signals) == 1
    assert [k for k, _ in seen.items] == ["status", "tokens", "finished"]
    assert seen.text() == "".join(words)


def test_cited_answer_helper_round_trips():
    events = cited_answer("one two three four five six seven eight nine ten")
    text = "".join(e.text for e in events if isinstance(e, TokenEvent))
    assert text == "one two three four five six seven eight nine ten"
