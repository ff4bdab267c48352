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
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import stat
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import psycopg
import sqlalchemy as sa

from engine.errors import ClinicError, DocumentUnreadable
from engine.knowledge.chunking import Chunk, chunk_document
from engine.knowledge.documents import AUDIENCES, Block, display_path
from engine.knowledge.loaders import SUPPORTED_SUFFIXES, load_document
from engine.knowledge.loaders.limits import check_time, time_limit
from engine.knowledge.read_ahead import ReadAhead
from engine.ops import db as dbm
from engine.ops.settings import Settings
from engine.protocols import Embedder

log = logging.getLogger(__name__)

# Empties the full-text index's pending list into the index (see ``_refresh_statistics``).
_CLEAN_PENDING_SQL = "SELECT gin_clean_pending_list('chunks_tsv_gin')"

# A document's write (``Ingester._write``): its row inserted or updated (a file re-ingested on
# its own stays owned by the folder it came from, so a later run over that folder still removes
# it when it is deleted), then its chunks replaced. ``xmax = 0`` only on a freshly inserted row.
_UPSERT_DOCUMENT_SQL = (
    "INSERT INTO documents (slug, title, audience, source_path, source_folder, content_hash, "
    "reviewed_on, ingested_by, loader_warnings) VALUES (%(slug)s, %(title)s, %(audience)s, "
    "%(path)s, %(folder)s, %(hash)s, %(reviewed)s, %(user)s, CAST(%(warnings)s AS jsonb)) "
    "ON CONFLICT (slug) DO UPDATE SET title = EXCLUDED.title, audience = EXCLUDED.audience, "
    "source_folder = CASE WHEN documents.source_path = EXCLUDED.source_path "
    "THEN documents.source_folder ELSE EXCLUDED.source_folder END, "
    "source_path = EXCLUDED.source_path, content_hash = EXCLUDED.content_hash, "
    "reviewed_on = EXCLUDED.reviewed_on, ingested_at = now(), "
    "ingested_by = EXCLUDED.ingested_by, loader_warnings = EXCLUDED.loader_warnings "
    "RETURNING (xmax = 0)"
)
_DELETE_CHUNKS_SQL = (
    "DELETE FROM chunks WHERE document_id = (SELECT id FROM documents WHERE slug = %(slug)s)"
)
_INSERT_CHUNKS_SQL = (
    "INSERT INTO chunks (document_id, ordinal, heading_path, text, token_estimate, embedding) "
    "SELECT d.id, c.ordinal, c.heading, c.body, c.tokens, CAST(c.embedding AS vector) "
    "FROM documents d, unnest(CAST(%(ordinals)s AS integer[]), CAST(%(headings)s AS text[]), "
    "CAST(%(texts)s AS text[]), CAST(%(tokens)s AS integer[]), CAST(%(embeddings)s AS text[])) "
    "AS c(ordinal, heading, body, tokens, embedding) WHERE d.slug = %(slug)s"
)

#: Bump when the chunker's rules change, so every document is re-chunked once.
CHUNKER_VERSION = "2"
EMBED_BATCH = 32
#: Longest slug made from a file name; a longer name is cut and given a short hash to stay unique.
MAX_SLUG_CHARS = 100
#: pg_try_advisory_lock key shared by every ingest against one database ("CLINGEST").
INGEST_LOCK_KEY = 0x434C494E47455354


class IngestBusy(ClinicError):
    """Another ingest holds the database's ingest lock."""


ProgressCallback = Callable[[str, int, int], None]  # (document slug, chunks done, chunks total)


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


def slugify(path: Path) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-") or "document"
    if len(slug) > MAX_SLUG_CHARS:
        digest = hashlib.sha256(os.fsencode(path.stem)).hexdigest()[:8]
        slug = f"{slug[: MAX_SLUG_CHARS - 9].rstrip('-')}-{digest}"
    return slug


def _folder_audience(path: Path, root: Path) -> str | None:
    """``public`` or ``staff`` when the file sits under a folder of that name (root included)."""
    try:
        parts = path.parent.relative_to(root).parts
    except ValueError:
        parts = ()
    names = [root.name.lower(), *(p.lower() for p in parts)]
    found = [n for n in names if n in AUDIENCES]
    return found[-1] if found else None


def resolve_audience(
    declared: str | None, folder: str | None, override: str | None, path: Path
) -> str:
    """The one audience a document gets, or an error. Never defaults to public."""
    sources = {
        "the document": declared,
        "its folder": folder,
        "--audience": override,
    }
    given = {name: value for name, value in sources.items() if value is not None}
    values = set(given.values())
    if len(values) > 1:
        described = ", ".join(f"{name} says {value}" for name, value in given.items())
        raise DocumentUnreadable(str(path), f"conflicting audiences ({described}); make them agree")
    if not values:
        raise DocumentUnreadable(
            str(path),
            "no audience declared: add 'audience: public' or 'audience: staff' to the document, "
            "put it under a public/ or staff/ folder, or use --audience",
        )
    return values.pop()


def content_hash(
    data: bytes, *, slug: str, audience: str, settings: Settings, model_name: str
) -> str:
    digest = hashlib.sha256()
    digest.update(data)
    for part in (
        slug,
        audience,
        model_name,
        f"chunker={CHUNKER_VERSION}",
        f"target={settings.chunking.target_words}",
        f"max={settings.chunking.max_words}",
    ):
        digest.update(b"\x00" + part.encode())
    return digest.hexdigest()


@dataclass(frozen=True)
class _Candidate:
    path: Path
    root: Path

    @property
    def shown(self) -> str:
        return display_path(self.path)


def _refused(path: Path, reason: str) -> IngestResult:
    log.warning("ingest skipped %s: %s", display_path(path), reason)
    return IngestResult(display_path(path), slugify(path), "", "", "failed", 0, reason)


_SPECIAL = "not a regular file (a pipe, socket or device); skipped without opening it"


def _link_problem(link: Path, root: Path) -> str | None:
    """Why the symbolic link ``link`` may not be ingested, or None when it is a file in ``root``."""
    try:
        target = link.resolve(strict=True)
    except FileNotFoundError:
        return "a broken link: the file it points to does not exist"
    except (OSError, RuntimeError):
        return "a link loop: the link points back to itself"
    if not target.is_relative_to(root):
        return (
            "a link to a file outside the ingested folder: refused (copy the file into the "
            "folder instead)"
        )
    try:
        mode = target.stat().st_mode
    except OSError as exc:
        return f"cannot read the file the link points to ({exc.strerror})"
    if stat.S_ISDIR(mode):
        return "a link to a folder: links to folders are not followed"
    if not stat.S_ISREG(mode):
        return _SPECIAL
    return None


def _walk(folder: Path, root: Path) -> Iterator[_Candidate | IngestResult]:
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        yield _refused(folder, f"cannot read the folder ({exc.strerror})")
        return
    for entry in entries:
        path = Path(entry.path)
        if entry.name.startswith(".") or entry.name.lower() == "readme.md":
            continue
        try:
            if entry.is_symlink():
                problem = _link_problem(path, root)
                yield _refused(path, problem) if problem else _Candidate(path, root)
            elif entry.is_dir(follow_symlinks=False):
                yield from _walk(path, root)
            elif entry.is_file(follow_symlinks=False):
                yield _Candidate(path, root)
            else:
                yield _refused(path, _SPECIAL)
        except OSError as exc:
            yield _refused(path, f"cannot read it ({exc.strerror})")


def discover(folders: Sequence[Path]) -> tuple[list[_Candidate], list[IngestResult]]:
    """Every file under the folders (or the files themselves); problems reported, never opened."""
    found: list[_Candidate] = []
    problems: list[IngestResult] = []
    for folder in folders:
        given = Path(os.path.abspath(folder))
        try:
            if given.is_dir():
                root = given.resolve()
                for item in _walk(root, root):
                    if isinstance(item, _Candidate):
                        found.append(item)
                    else:
                        problems.append(item)
                continue
            if given.is_symlink():
                problem = _link_problem(given, given.parent.resolve())
                if problem:
                    problems.append(_refused(given, problem))
                    continue
                parent = given.parent.resolve()
                found.append(_Candidate(parent / given.name, parent))
            elif given.is_file():
                resolved = given.resolve()
                found.append(_Candidate(resolved, resolved.parent))
            elif given.exists():
                problems.append(_refused(given, _SPECIAL))
            else:
                problems.append(_refused(given, "no such file or folder"))
        except OSError as exc:
            problems.append(_refused(given, f"cannot read it ({exc.strerror})"))
    return found, problems


def _batched(items: Sequence[str], size: int) -> Iterable[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


_T = TypeVar("_T")


@dataclass(frozen=True)
class _Read:
    """One file read and chunked, waiting to be embedded and written."""

    shown: str
    slug: str
    root: Path
    title: str
    audience: str
    digest: str
    reviewed_on: object
    warnings: tuple[str, ...]
    chunks: tuple[Chunk, ...]


@dataclass(frozen=True)
class _Existing:
    """A stored document, as the unchanged check needs it."""

    source_path: str
    content_hash: str
    audience: str
    title: str
    chunks: int


@dataclass
class _Run:
    """One run's bookkeeping: the stored documents under its slugs (read once at the start) and
    the slugs its files have taken so far."""

    known: dict[str, _Existing]
    early: ReadAhead | None = None  # the first file, read while the run started
    seen_slugs: dict[str, Path] = field(default_factory=dict)


@dataclass(frozen=True)
class _Files:
    """What a run was given and what :func:`discover` made of it."""

    folders: Sequence[Path]
    candidates: list[_Candidate]  # as found: the report's order
    order: list[int]  # positions in ``candidates`` as read (:func:`_reading_order`)
    problems: list[IngestResult]


# Formats whose loaders parse a container (a zip of XML parts, PDF content streams): byte for
# byte many times the cost of reading text (benchmarks/README.md: the 38 KB Word file of the
# fidelity corpus 5.7 ms, its 0.6 KB Markdown file 0.3 ms).
_PARSED_SUFFIXES = frozenset({".docx", ".pdf"})


def _reading_order(candidates: Sequence[_Candidate]) -> list[int]:
    """The candidates' positions in the order the pipeline reads them: the cheapest to read
    first, then the others in the order they were found.

    Nothing hides the first file's read: embedding starts when it is done, and on a small
    folder the Word file found first cost more than a tenth of the run. Only a supported file
    whose slug no other candidate shares may move: of two files with the same name, the later
    one found is still the one refused. The report keeps the order found either way."""
    slugs = Counter(slugify(c.path) for c in candidates)
    best: tuple[bool, int] | None = None
    first = 0
    for index, candidate in enumerate(candidates):
        suffix = candidate.path.suffix.lower()
        if suffix not in SUPPORTED_SUFFIXES or slugs[slugify(candidate.path)] > 1:
            continue
        try:
            size = candidate.path.stat().st_size
        except OSError:
            continue  # reported in its turn, in the reader's own words
        cost = (suffix in _PARSED_SUFFIXES, size)
        if best is None or cost < best:
            best, first = cost, index
    return [first, *range(first), *range(first + 1, len(candidates))]


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
                with self._exclusive():
                    run = _Run(
                        known=self._existing_for([slugify(c.path) for c in candidates]),
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

    @contextmanager
    def _exclusive(self) -> Iterator[None]:
        """Hold the database's ingest lock for the run, or raise :class:`IngestBusy` at once.

        Two ingests of a new folder at once both inserted the same slugs (IntegrityError); one
        at a time is also what a person expects from "ingest"."""
        with self.db.engine.connect() as conn:
            locked = conn.execute(
                sa.text("SELECT pg_try_advisory_lock(:key)"), {"key": INGEST_LOCK_KEY}
            ).scalar()
            conn.commit()
            if not locked:
                raise IngestBusy(
                    "Another ingest is running on this database (from the staff app or the "
                    "command line); try again when it has finished."
                )
            try:
                yield
            finally:
                conn.execute(sa.text("SELECT pg_advisory_unlock(:key)"), {"key": INGEST_LOCK_KEY})
                conn.commit()

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
                vectors = self._guarded(item.shown, item.slug, partial(self._embed, item))
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
            results.extend(self._remove_missing(session, roots, kept))
            report = IngestReport(tuple(results))
            self._audit(session, report, [str(f) for f in folders])
            if any(r.status in ("created", "updated", "removed") for r in report.results):
                _refresh_statistics(session)
        return report

    def ingest_files(self, files: Sequence[Path], *, audience: str | None = None) -> IngestReport:
        """Ingest the given files only (dropped on the staff app); removes nothing."""
        return self.ingest_folders(files, audience=audience, remove_missing=False)

    def _read(self, candidate: _Candidate, override: str | None, run: _Run) -> _Read | IngestResult:
        """Read and chunk one file: what to embed and write, or its result (unchanged, failed)."""
        return self._guarded(
            candidate.shown,
            slugify(candidate.path),
            lambda: self._read_checked(candidate, override, run),
        )

    def _read_checked(
        self, candidate: _Candidate, override: str | None, run: _Run
    ) -> _Read | IngestResult:
        path = candidate.path
        shown = candidate.shown
        slug = slugify(path)
        limits = self.settings.ingest
        if path.suffix.lower() not in SUPPORTED_SUFFIXES:
            raise DocumentUnreadable(
                shown,
                f"unsupported file type {path.suffix or '(none)'}; "
                f"use {', '.join(SUPPORTED_SUFFIXES)}",
            )
        if slug in run.seen_slugs:
            raise DocumentUnreadable(
                shown,
                "another file in this run "
                f"({display_path(run.seen_slugs[slug].name)}) has the same name",
            )
        run.seen_slugs[slug] = path
        size = path.stat().st_size
        if size > limits.max_file_mb * 1_000_000:
            raise DocumentUnreadable(
                shown,
                f"the file is {size / 1_000_000:.1f} MB, over the limit of "
                f"{limits.max_file_mb:g} MB ([ingest] max_file_mb); split it",
            )
        data = path.read_bytes()
        if not data.strip():
            raise DocumentUnreadable(shown, "the file is empty")
        existing = run.known.get(slug)
        if (
            existing is not None
            and existing.source_path != shown
            and Path(existing.source_path).exists()
        ):
            raise DocumentUnreadable(
                shown,
                f"the name {slug!r} is already used by {existing.source_path}; rename one",
            )
        folder_audience = _folder_audience(path, candidate.root)
        # Fast path: same bytes, same settings -> unchanged, without parsing the file.
        if existing is not None:
            quick = content_hash(
                data,
                slug=slug,
                audience=existing.audience,
                settings=self.settings,
                model_name=self.embedder.model_name,
            )
            if (
                quick == existing.content_hash
                and existing.source_path == shown
                and override in (None, existing.audience)
                and folder_audience in (None, existing.audience)
            ):
                return IngestResult(
                    shown, slug, existing.title, existing.audience, "unchanged", existing.chunks
                )
        early = run.early.take(path) if run.early is not None else None
        if early is not None:  # read ahead (engine.knowledge.read_ahead): same order of errors
            document = early.document
            audience = resolve_audience(document.audience, folder_audience, override, Path(shown))
            chunks = early.chunked()
        else:
            with time_limit(shown, limits.max_seconds_per_file):
                document = load_document(path, ocr=limits.ocr)
                audience = resolve_audience(
                    document.audience, folder_audience, override, Path(shown)
                )
                chunks = chunk_document(document.title, document.blocks, self.settings.chunking)
                check_time()
        if not chunks:
            raise DocumentUnreadable(shown, "no text was found in the document")
        if len(chunks) > limits.max_chunks_per_document:
            raise DocumentUnreadable(
                shown,
                f"it would make {len(chunks):,} passages, over the limit of "
                f"{limits.max_chunks_per_document:,} ([ingest] max_chunks_per_document); "
                "split it into smaller documents",
            )
        digest = content_hash(
            data,
            slug=slug,
            audience=audience,
            settings=self.settings,
            model_name=self.embedder.model_name,
        )
        return _Read(
            shown=shown,
            slug=slug,
            root=candidate.root,
            title=document.title,
            audience=audience,
            digest=digest,
            reviewed_on=document.reviewed_on,
            warnings=(*document.warnings, *_split_warnings(document.blocks, chunks)),
            chunks=tuple(chunks),
        )

    def _store(self, item: _Read, vectors: list[list[float]]) -> IngestResult:
        """Write one embedded document (its own transaction): created or updated, or failed."""
        status = self._guarded(item.shown, item.slug, lambda: self._write(item, vectors))
        if isinstance(status, IngestResult):
            return status
        return IngestResult(
            item.shown, item.slug, item.title, item.audience, status, len(item.chunks)
        )

    def _guarded(self, shown: str, slug: str, step: Callable[[], _T]) -> _T | IngestResult:
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

    def _existing_for(self, slugs: Sequence[str]) -> dict[str, _Existing]:
        """What is stored under these slugs, in one query for the whole run (no other ingest
        can change it meanwhile: the run holds the ingest lock, and a run's slugs are unique)."""
        if not slugs:
            return {}
        with self.db.session() as session:
            rows = session.execute(
                sa.text(
                    "SELECT d.slug, d.source_path, d.content_hash, d.audience, d.title, "
                    "(SELECT count(*) FROM chunks c WHERE c.document_id = d.id) AS n "
                    "FROM documents d WHERE d.slug = ANY(:slugs)"
                ),
                {"slugs": list(dict.fromkeys(slugs))},
            ).all()
        return {row[0]: _Existing(row[1], row[2], row[3], row[4], int(row[5])) for row in rows}

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

    def _write(self, item: _Read, vectors: Sequence[Sequence[float]]) -> str:
        """Replace the document's row and chunks in one transaction, its statements sent in
        one round trip (psycopg's pipeline mode: none needs an earlier one's answer)."""
        with self.db.session() as session:
            connection = session.connection().connection.driver_connection
            assert connection is not None
            try:
                row = _replace_document(connection, self.user, item, vectors)
            except psycopg.Error as exc:  # as SQLAlchemy raises it (a lost server: "unreachable")
                raise sa.exc.DBAPIError.instance(None, None, exc, psycopg.Error) from exc
        assert row is not None
        return "created" if row[0] else "updated"

    def _remove_missing(
        self, session: sa.orm.Session, roots: Sequence[str], kept: set[str]
    ) -> list[IngestResult]:
        if not roots:
            return []
        removed: list[IngestResult] = []
        rows = session.execute(
            sa.text(
                "SELECT id, slug, title, audience, source_path FROM documents "
                "WHERE source_folder = ANY(:roots)"
            ),
            {"roots": list(roots)},
        ).all()
        for row in rows:
            if row.source_path in kept:
                continue
            session.execute(sa.text("DELETE FROM documents WHERE id = :id"), {"id": row.id})
            removed.append(
                IngestResult(row.source_path, row.slug, row.title, row.audience, "removed", 0)
            )
        return removed

    def remove_document(self, slug: str) -> bool:
        with self.db.session() as session:
            deleted = session.execute(
                sa.text("DELETE FROM documents WHERE slug = :s RETURNING id"), {"s": slug}
            ).first()
            if deleted is not None:
                _insert_audit(session, self.user, "remove_document", {"slug": slug})
        return deleted is not None

    def _audit(self, session: sa.orm.Session, report: IngestReport, sources: list[str]) -> None:
        changed = [r for r in report.results if r.status != "unchanged"]
        _insert_audit(
            session,
            self.user,
            "ingest",
            {
                "sources": sources,
                "changes": [
                    {"slug": r.slug, "status": r.status, "error": r.error} for r in changed
                ],
                "unchanged": report.count("unchanged"),
            },
        )


def _replace_document(
    connection: psycopg.Connection[Any], user: str, item: _Read, vectors: Sequence[Sequence[float]]
) -> Any:
    """Send a document's statements in one round trip; the upsert's row ``(created,)``."""
    chunks = item.chunks
    with connection.pipeline(), connection.cursor() as upsert, connection.cursor() as rest:
        # A document's commit does not wait for its WAL flush (2-3 ms each, most of a
        # write): the run's last transaction, committed synchronously, flushes them all,
        # so a finished run is as durable as before. A crash mid-run can lose only
        # documents not yet reported, and their files re-ingest on the next run.
        rest.execute("SET LOCAL synchronous_commit = off")
        upsert.execute(
            _UPSERT_DOCUMENT_SQL,
            {
                "slug": item.slug,
                "title": item.title,
                "audience": item.audience,
                "path": item.shown,
                "folder": display_path(item.root),
                "hash": item.digest,
                "reviewed": item.reviewed_on,
                "user": user,
                "warnings": json.dumps(list(item.warnings)),
            },
        )
        rest.execute(_DELETE_CHUNKS_SQL, {"slug": item.slug})
        rest.execute(
            _INSERT_CHUNKS_SQL,
            {
                "slug": item.slug,
                "ordinals": [c.ordinal for c in chunks],
                "headings": [c.heading_label for c in chunks],
                "texts": [c.text for c in chunks],
                "tokens": [c.token_estimate for c in chunks],
                "embeddings": [dbm.vector_literal(v) for v in vectors],
            },
        )
        return upsert.fetchone()


def _refresh_statistics(session: sa.orm.Session) -> None:
    """Refresh the planner's statistics after a change. Autovacuum never analyzes a table of
    fewer than 50 rows, and without statistics for ``documents`` the planner misjudges the
    audience filter and sorts every chunk instead of using the HNSW index (10k chunks:
    53 ms instead of 3 ms per question, see benchmarks/README.md). Each step runs in a
    savepoint of the run's last transaction: a failure costs the optimisation, never the
    audit event or the removals."""
    try:
        with session.begin_nested():
            session.execute(sa.text("ANALYZE documents, chunks"))
    except Exception:  # statistics are an optimisation: never fail an ingest over them
        log.warning("could not refresh planner statistics", exc_info=True)
    # New chunks wait in the full-text index's pending list (GIN fastupdate, up to 4 MB),
    # which only VACUUM or autovacuum empties: every keyword lookup scans it, and its size
    # makes the planner cost the index so high that it reads every chunk's tsvector instead
    # (10k chunks: a 45 ms keyword arm instead of 1 ms; benchmarks/README.md). Moved into
    # the index proper here, once per ingest that changed something.
    try:
        with session.begin_nested():
            session.execute(sa.text(_CLEAN_PENDING_SQL))
    except Exception:  # an optimisation too
        log.info("could not flush the full-text index's pending list", exc_info=True)


def _split_warnings(blocks: Sequence[Block], chunks: Sequence[Chunk]) -> list[str]:
    """A warning when a paragraph, list or table was too long for one chunk and was split."""
    texts = {" ".join(b.text.split()) for b in blocks if b.kind == "text"}
    pieces = sum(
        1
        for chunk in chunks
        for part in chunk.text.split("\n\n")
        if part.strip() and part != chunk.heading_path[-1] and " ".join(part.split()) not in texts
    )
    return (
        [f"{pieces} passages are pieces of paragraphs or tables too long for one"] if pieces else []
    )


def _insert_audit(session: sa.orm.Session, user: str, action: str, details: object) -> None:
    session.execute(
        sa.text(
            "INSERT INTO audit_events (username, action, details) "
            "VALUES (:u, :a, CAST(:d AS jsonb))"
        ),
        {"u": user, "a": action, "d": json.dumps(details)},
    )
