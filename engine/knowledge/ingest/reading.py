"""One file read and chunked for ingest, or found unchanged without being parsed.

``_read_checked`` runs in the pipeline's reader thread, one file at a time, in this order: the
file type is supported, no other file of the run has its slug, it is under ``[ingest]
max_file_mb`` (refused unread) and not empty, and its slug is not a stored document of another
file; when the stored document's hash matches (same bytes, audience and settings) it is unchanged
and never parsed. Otherwise it is loaded (or taken from the early read of
engine.knowledge.read_ahead) and chunked within ``max_seconds_per_file``, its audience resolved,
and refused with no text or over ``max_chunks_per_document`` passages. A ``_Read`` is what is
left to embed and write; ``_Run`` is a run's bookkeeping (what is stored under its slugs, the
slugs taken so far).

What it must never do: embed or write (the embedding model's name is all it knows of the
embedder), parse a file whose stored version is unchanged, or open a file over the size limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import DocumentUnreadable
from engine.knowledge.chunking import Chunk, chunk_document
from engine.knowledge.documents import Block, display_path
from engine.knowledge.ingest.discovery import _Candidate
from engine.knowledge.ingest.identity import (
    _folder_audience,
    content_hash,
    resolve_audience,
    slugify,
)
from engine.knowledge.ingest.results import IngestResult
from engine.knowledge.loaders import SUPPORTED_SUFFIXES, load_document
from engine.knowledge.loaders.limits import check_time, time_limit
from engine.knowledge.read_ahead import ReadAhead
from engine.ops.settings import Settings


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


def _read_checked(
    candidate: _Candidate, override: str | None, run: _Run, settings: Settings, model_name: str
) -> _Read | IngestResult:
    path = candidate.path
    shown = candidate.shown
    slug = slugify(path)
    limits = settings.ingest
    if path.suffix.lower() not in SUPPORTED_SUFFIXES:
        raise DocumentUnreadable(
            shown,
            f"unsupported file type {path.suffix or '(none)'}; use {', '.join(SUPPORTED_SUFFIXES)}",
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
            settings=settings,
            model_name=model_name,
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
            audience = resolve_audience(document.audience, folder_audience, override, Path(shown))
            chunks = chunk_document(document.title, document.blocks, settings.chunking)
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
        settings=settings,
        model_name=model_name,
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
