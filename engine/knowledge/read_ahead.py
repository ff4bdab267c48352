"""Reads a run's first file while the run takes its lock and reads what is stored.

Every other file is read while the one before it is embedded (:mod:`engine.knowledge.ingest`'s
pipeline); the first had nothing to hide behind, and a run starts with database round trips
(the ingest lock, the stored documents under the run's slugs) during which the reader thread
would idle. :class:`ReadAhead` loads and chunks that file then, in the reader thread, under the
same time budget as any read. Ingest takes the result only where it would have loaded the file
itself, after the same checks in the same order, so results and failures are those of reading
it in turn: a loader's error is raised there, a chunking error after the audience is resolved.

What it must never do: open a file that ingest would refuse unread (unsupported type, over the
size limit), or cost an unchanged re-check a parse: when the file's document is already stored,
the read is cancelled at the loader's next time check and its result never used.
"""

from __future__ import annotations

import threading
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from pathlib import Path

from engine.errors import DocumentUnreadable
from engine.knowledge.chunking import Chunk, chunk_document
from engine.knowledge.documents import LoadedDocument
from engine.knowledge.loaders import SUPPORTED_SUFFIXES, load_document
from engine.knowledge.loaders.limits import check_time, time_limit
from engine.ops.settings import Settings


@dataclass(frozen=True)
class EarlyRead:
    """A file loaded ahead: the document, and its chunks or the error chunking raised."""

    document: LoadedDocument
    chunks: list[Chunk] | DocumentUnreadable

    def chunked(self) -> list[Chunk]:
        if isinstance(self.chunks, DocumentUnreadable):
            raise self.chunks
        return self.chunks


class ReadAhead:
    """One file read ahead in ``executor``; :meth:`take` it or :meth:`cancel` it."""

    def __init__(self, executor: Executor, path: Path, shown: str, settings: Settings) -> None:
        self.path = path
        self._cancel = threading.Event()
        self._future: Future[EarlyRead] | None = None
        limits = settings.ingest
        try:
            size = path.stat().st_size
        except OSError:
            return  # ingest reports it in its own words
        if path.suffix.lower() in SUPPORTED_SUFFIXES and size <= limits.max_file_mb * 1_000_000:
            self._future = executor.submit(self._read, shown, settings)

    def _read(self, shown: str, settings: Settings) -> EarlyRead:
        limits = settings.ingest
        with time_limit(shown, limits.max_seconds_per_file, cancel=self._cancel):
            document = load_document(self.path, ocr=limits.ocr)
            try:
                chunks = chunk_document(document.title, document.blocks, settings.chunking)
                check_time()
            except DocumentUnreadable as exc:
                return EarlyRead(document, exc)
        return EarlyRead(document, chunks)

    def cancel(self) -> None:
        self._cancel.set()

    def take(self, path: Path) -> EarlyRead | None:
        """The early read of ``path`` (raising what loading it raised), or None when there is
        none to use: another file, not read ahead, or cancelled."""
        if path != self.path or self._future is None or self._cancel.is_set():
            return None
        future, self._future = self._future, None
        return future.result()
