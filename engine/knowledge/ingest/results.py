"""What an ingest run reports, and how one document's failure becomes its result.

One :class:`IngestResult` per file (created, updated, unchanged, removed or failed with a reason),
collected in the order found into an :class:`IngestReport`. ``_guarded`` runs one step of one
document (reading, embedding, writing) and turns any failure into that document's failed result.

What it must never do: let one document's failure escape to the run, or put into a result or the
log a traceback (it would carry document text) or anything but a reason a person can act on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from engine.errors import ClinicError, DocumentUnreadable

# The package's one logger: log lines name engine.knowledge.ingest, whichever module wrote them.
log = logging.getLogger(__package__)


@dataclass(frozen=True)
class IngestResult:
    path: str
    slug: str
    title: str
    audience: str
    status: str  # created | updated | unchanged | removed | failed
    chunks: int
    error: str | None = None


@dataclass(frozen=True)
class IngestReport:
    results: tuple[IngestResult, ...]

    @property
    def failed(self) -> tuple[IngestResult, ...]:
        return tuple(r for r in self.results if r.status == "failed")

    def count(self, status: str) -> int:
        return sum(1 for r in self.results if r.status == status)

    @property
    def embedded_chunks(self) -> int:
        return sum(r.chunks for r in self.results if r.status in ("created", "updated"))


_T = TypeVar("_T")


def _guarded(shown: str, slug: str, step: Callable[[], _T]) -> _T | IngestResult:
    """Run one step for one document; any failure costs this document only, as a result
    with a reason a person can act on (never a traceback per file: it would carry text)."""
    try:
        return step()
    except DocumentUnreadable as exc:
        log.warning("ingest failed for %s: %s", shown, exc.reason)
        return IngestResult(shown, slug, "", "", "failed", 0, exc.reason)
    except ClinicError as exc:
        log.warning("ingest failed for %s: %s", shown, exc)
        return IngestResult(shown, slug, "", "", "failed", 0, str(exc))
    except OSError as exc:
        reason = f"cannot read it ({exc.strerror or type(exc).__name__})"
        log.warning("ingest failed for %s: %s", shown, reason)
        return IngestResult(shown, slug, "", "", "failed", 0, reason)
    except Exception as exc:  # a bug or a failing embedder: this document only
        log.warning("unexpected %s while ingesting %s", type(exc).__name__, shown)
        log.debug("traceback for %s", shown, exc_info=True)
        return IngestResult(
            shown, slug, "", "", "failed", 0, f"unexpected error: {type(exc).__name__}"
        )
