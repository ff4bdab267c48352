"""Uncaught exceptions are logged and turned into one sentence, never a traceback on screen."""

from __future__ import annotations

import logging
import logging.handlers
import sys
import threading

import pytest

from engine.errors import DatabaseUnavailable
from engine.ops.logs import install_excepthooks


@pytest.fixture
def restore_hooks() -> object:
    saved = sys.excepthook, threading.excepthook
    yield None
    sys.excepthook, threading.excepthook = saved


def test_uncaught_error_is_logged_and_shown_once(
    restore_hooks: object, caplog: pytest.LogCaptureFixture
) -> None:
    shown: list[BaseException] = []
    install_excepthooks(shown.append)
    error = DatabaseUnavailable("The database cannot be reached.")
    with caplog.at_level(logging.CRITICAL, logger="uncaught"):
        sys.excepthook(type(error), error, None)
    assert shown == [error]
    assert "uncaught exception" in caplog.text


def test_a_failing_show_does_not_raise(restore_hooks: object) -> None:
    def broken(_error: BaseException) -> None:
        raise RuntimeError("the window is gone")

    install_excepthooks(broken)
    error = ValueError("x")
    sys.excepthook(type(error), error, None)  # must not raise


def test_thread_errors_are_logged(restore_hooks: object, caplog: pytest.LogCaptureFixture) -> None:
    install_excepthooks()

    def boom() -> None:
        raise RuntimeError("worker failed")

    with caplog.at_level(logging.CRITICAL, logger="uncaught"):
        thread = threading.Thread(target=boom, name="answer-worker")
        thread.start()
        thread.join(timeout=5)
    assert "answer-worker" in caplog.text and "worker failed" in caplog.text


def test_configure_logging_rotates_in_the_log_folder_and_can_be_called_again(
    tmp_path: object,
) -> None:
    from pathlib import Path

    from engine.ops import logs
    from engine.ops.settings import Settings

    assert isinstance(tmp_path, Path)
    root = logging.getLogger()
    level = root.level
    try:
        first = logs.configure_logging(Settings(data_dir=tmp_path), "kiosk")
        second = logs.configure_logging(Settings(data_dir=tmp_path), "kiosk")
        assert not any(h in root.handlers for h in first)
        files = [h for h in second if isinstance(h, logging.handlers.RotatingFileHandler)]
        assert len(files) == 1 and files[0].maxBytes > 0 and files[0].backupCount >= 3
        assert Path(files[0].baseFilename) == tmp_path / "logs" / "kiosk.log"
    finally:
        logs.remove_logging()
        root.setLevel(level)
    assert not any(h in root.handlers for h in second)
