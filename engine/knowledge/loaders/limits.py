"""Per-file limits for reading documents: a time budget that loaders check as they go.

A hostile or broken file must cost one failed document, never the whole ingest. Size is checked
before a file is opened (in :mod:`engine.knowledge.ingest`); time is checked here, cooperatively:
the ingest step opens a :func:`time_limit` around reading and chunking one file, and loaders call
:func:`check_time` inside their loops (per line batch, per page, per paragraph). Every parser
they call is linear in its input, so a check between steps is enough to bound a file.

This module never kills threads or uses signals (ingest also runs in the staff app's worker
thread), and it never swallows the error it raises: that is :class:`DocumentUnreadable` with a
reason a person can act on.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from engine.errors import DocumentUnreadable


@dataclass(frozen=True)
class _Budget:
    path: str
    seconds: float
    deadline: float
    cancel: threading.Event | None = None


_BUDGET: ContextVar[_Budget | None] = ContextVar("document_time_budget", default=None)


@contextmanager
def time_limit(
    path: str, seconds: float, *, cancel: threading.Event | None = None
) -> Iterator[None]:
    """Within the block, :func:`check_time` fails once ``seconds`` have passed (0: no limit),
    or once ``cancel`` is set (a read whose result is no longer wanted)."""
    deadline = time.monotonic() + seconds if seconds > 0 else float("inf")
    budget = _Budget(path, seconds, deadline, cancel) if seconds > 0 or cancel else None
    token = _BUDGET.set(budget)
    try:
        yield
    finally:
        _BUDGET.reset(token)


def check_time() -> None:
    """Raise ``DocumentUnreadable`` when the current file's time budget is spent."""
    budget = _BUDGET.get()
    if budget is None:
        return
    if budget.cancel is not None and budget.cancel.is_set():
        raise DocumentUnreadable(budget.path, "reading it was cancelled")
    if time.monotonic() > budget.deadline:
        raise DocumentUnreadable(
            budget.path,
            f"reading it took longer than the limit of {budget.seconds:g} s "
            "([ingest] max_seconds_per_file); split it into smaller documents",
        )
