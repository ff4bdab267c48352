"""Ingest: files -> blocks -> heading-aware chunks -> embeddings -> PostgreSQL, idempotently.

Per document a content hash covers the file's bytes, its resolved audience and slug, the embedding
model and the chunking settings, so an unchanged document is skipped without being parsed or
embedded. A changed document is parsed and embedded first, then its row and all its chunks are
replaced in one transaction: readers see the old version or the new one, never a mix, and an
exception mid-document leaves the previous version intact.

Audience is never guessed: a document must declare it (front matter / document properties), or the
folder (``public/`` or ``staff/``) or ``--audience`` must say it. Conflicting declarations fail.

Hostile files cost one failed document with a reason, never the run and never a traceback:
links that leave the ingested folder, link loops, broken links and special files (FIFOs,
sockets, devices) are reported without being opened; files over ``[ingest] max_file_mb`` are
refused unread; reading and chunking a file has a time budget; a document with more than
``max_chunks_per_document`` passages is refused. File names that are not UTF-8 are stored and
shown with U+FFFD in place of the bad bytes; very long names get a shortened, unique slug. Two
ingests never run at once against one database: a PostgreSQL advisory lock admits one, and
the other stops at once with :class:`IngestBusy`.

Files go through a pipeline, each step in one order (the cheapest file to read first, since
nothing hides its read, then as found): the next file is read and chunked (one reader thread)
while this one is embedded, and the previous one is written (one writer thread, one transaction
per document). Reading and writing then hide behind embedding, which releases
the GIL; results, failures and the report are exactly those of one file after another. What is
stored under the run's slugs is read once, at the start. A document's write (an upsert of its
row, its chunks replaced) goes to the server in one round trip (psycopg's pipeline mode) and its
transaction commits without waiting for its WAL flush; the run's end (removals, audit event,
planner statistics, full-text pending list) is one last transaction, committed synchronously,
which flushes them all before the report is returned.

What it must never do: store a document with no declared audience, show readers a mix of a
document's old and new passages, let one file cost the run, or run two ingests at once against
one database.

The package, by role (names with a leading underscore are the package's own: its modules read
one another's, nothing outside it does, tests aside):

* :mod:`~engine.knowledge.ingest.discovery`: the files a run was given, found without opening
  any (links that leave the folder, link loops, special files reported), and the reading order;
* :mod:`~engine.knowledge.ingest.reading`: one file read and chunked within the size, time and
  passage limits, or found unchanged without being parsed;
* :mod:`~engine.knowledge.ingest.identity`: a document's slug, its audience and its content hash;
* :mod:`~engine.knowledge.ingest.storage`: the ingest lock and the run's statements: what is
  stored under its slugs, one document's write, the run's end (removals, audit, statistics);
* :mod:`~engine.knowledge.ingest.results`: ``IngestResult``, ``IngestReport``, and a failing step
  turned into its document's result;
* this module, the entry point: :class:`Ingester` and its pipeline (one reader thread, the
  embedder, one writer thread), ``remove_document``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import sqlalchemy as sa

from engine.errors import ClinicError
from engine.knowledge.documents import AUDIENCES, display_path
from engine.knowledge.ingest.discovery import _Candidate, _reading_order, discover
from engine.knowledge.ingest.identity import slugify
from engine.knowledge.ingest.reading import _Read, _read_checked, _Run
from engine.knowledge.ingest.results import IngestReport, IngestResult, _guarded
from engine.knowledge.ingest.storage import (
    _audit,
    _exclusive,
    _existing_for,
    _insert_audit,
    _refresh_statistics,
    _remove_missing,
    _write,
)
from engine.knowledge.read_ahead import ReadAhead
from engine.ops import db as dbm
from engine.ops.settings import Settings
from engine.protocols import Embedder

EMBED_BATCH = 32


ProgressCallback = Callable[[str, int, int], None]  # (document slug, chunks done, chunks total)


def _batched(items: Sequence[str], size: int) -> Iterable[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


@dataclass(frozen=True)
class _Files:
    """What a run was given and what :func:`discover` made of it."""

    folders: Sequence[Path]
    candidates: list[_Candidate]  # as found: the report's order
    order: list[int]  # positions in ``candidates`` as read (:func:`_reading_order`)
    problems: list[IngestResult]


def _done(result: IngestResult) -> Future[IngestResult]:
    future: Future[IngestResult] = Future()
    future.set_result(result)
    return future


class Ingester:
    """Ingests files into one database with one embedder."""

    def __init__(
        self,
        database: dbm.Database,
        embedder: Embedder,
        settings: Settings,
        *,
        user: str = "system",
        progress: ProgressCallback | None = None,
    ) -> None:
        self.db = database
        self.embedder = embedder
        self.settings = settings
        self.user = user
        self.progress = progress
        dbm.check_embedding_model(database, embedder.model_name, embedder.dimension)

    def ingest_folders(
        self,
        folders: Sequence[Path],
        *,
        audience: str | None = None,
        remove_missing: bool = True,
    ) -> IngestReport:
        """Ingest every supported file; remove documents whose files left these folders."""
        if audience is not None and audience not in AUDIENCES:
            raise ClinicError(f"--audience must be public or staff, not {audience!r}.")
        candidates, problems = discover(folders)
        order = _reading_order(candidates) if candidates else []
        with ThreadPoolExecutor(1, thread_name_prefix="ingest-read") as reader:
            # The first file is read while the lock is taken and the stored documents are
            # read (engine.knowledge.read_ahead); every later one while the one before it is
            # embedded.
            first = candidates[order[0]] if order else None
            early = ReadAhead(reader, first.path, first.shown, self.settings) if first else None
            try:
                with _exclusive(self.db):
                    run = _Run(
                        known=_existing_for(self.db, [slugify(c.path) for c in candidates]),
                        early=early,
                    )
                    if early is not None and slugify(early.path) in run.known:
                        early.cancel()  # probably unchanged: not worth a parse
                    return self._ingest_folders(
                        _Files(folders, candidates, order, problems),
                        audience,
                        remove_missing,
                        run,
                        reader,
                    )
            finally:
                if early is not None:
                    early.cancel()

    def _ingest_folders(
        self,
        files: _Files,
        audience: str | None,
        remove_missing: bool,
        run: _Run,
        reader: ThreadPoolExecutor,
    ) -> IngestReport:
        folders, candidates, results = files.folders, files.candidates, list(files.problems)

        def read(candidate: _Candidate) -> _Read | IngestResult:
            return self._read(candidate, audience, run)

        # The pipeline (module docstring): one reader, the embedder here, one writer. Files
        # are read one at a time in reading order (``seen_slugs``) and written in that order;
        # the report lists them as found.
        order = files.order
        with ThreadPoolExecutor(1, thread_name_prefix="ingest-write") as writer:
            pending: dict[int, Future[IngestResult]] = {}
            ahead = reader.submit(read, candidates[order[0]]) if order else None
            for step, position in enumerate(order):
                assert ahead is not None
                item = ahead.result()
                if step + 1 < len(order):
                    ahead = reader.submit(read, candidates[order[step + 1]])
                if isinstance(item, IngestResult):
                    pending[position] = _done(item)
                    continue
                vectors = _guarded(item.shown, item.slug, partial(self._embed, item))
                if isinstance(vectors, IngestResult):
                    pending[position] = _done(vectors)
                    continue
                pending[position] = writer.submit(self._store, item, vectors)
            results.extend(pending[position].result() for position in range(len(candidates)))
        roots: list[str] = []
        if remove_missing:
            roots = sorted({display_path(f.resolve()) for f in folders if f.resolve().is_dir()})
        kept = {c.shown for c in candidates}
        # The run's end is one transaction (one commit instead of four): the removals, the
        # audit event and, when something changed, the planner statistics and the full-text
        # pending list. Its commit is synchronous: it flushes every document's earlier
        # asynchronous commit before the report is returned.
        with self.db.session() as session:
            results.extend(_remove_missing(session, roots, kept))
            report = IngestReport(tuple(results))
            _audit(session, self.user, report, [str(f) for f in folders])
            if any(r.status in ("created", "updated", "removed") for r in report.results):
                _refresh_statistics(session)
        return report

    def ingest_files(self, files: Sequence[Path], *, audience: str | None = None) -> IngestReport:
        """Ingest the given files only (dropped on the staff app); removes nothing."""
        return self.ingest_folders(files, audience=audience, remove_missing=False)

    def _read(self, candidate: _Candidate, override: str | None, run: _Run) -> _Read | IngestResult:
        """Read and chunk one file: what to embed and write, or its result (unchanged, failed)."""
        return _guarded(
            candidate.shown,
            slugify(candidate.path),
            lambda: _read_checked(
                candidate, override, run, self.settings, self.embedder.model_name
            ),
        )

    def _store(self, item: _Read, vectors: list[list[float]]) -> IngestResult:
        """Write one embedded document (its own transaction): created or updated, or failed."""
        status = _guarded(item.shown, item.slug, lambda: _write(self.db, self.user, item, vectors))
        if isinstance(status, IngestResult):
            return status
        return IngestResult(
            item.shown, item.slug, item.title, item.audience, status, len(item.chunks)
        )

    def _embed(self, item: _Read) -> list[list[float]]:
        texts = [c.embed_text for c in item.chunks]
        vectors: list[list[float]] = []
        for batch in _batched(texts, EMBED_BATCH):
            vectors.extend(self.embedder.embed_passages(batch))
            if self.progress is not None:
                self.progress(item.slug, len(vectors), len(texts))
        if len(vectors) != len(texts):
            raise ClinicError(f"The embedder returned {len(vectors)} vectors for {len(texts)}.")
        return vectors

    def remove_document(self, slug: str) -> bool:
        with self.db.session() as session:
            deleted = session.execute(
                sa.text("DELETE FROM documents WHERE slug = :s RETURNING id"), {"s": slug}
            ).first()
            if deleted is not None:
                _insert_audit(session, self.user, "remove_document", {"slug": slug})
        return deleted is not None
