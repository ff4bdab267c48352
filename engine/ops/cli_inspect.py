"""``clinic-assistant inspect FILE``: the blocks and chunks a document becomes, before ingesting.

Staff and IT can see exactly what the assistant will read from a file: its title, audience and
review date, every heading (with its level) and text block in reading order, the loader's
warnings, and the chunks with their heading paths and sizes. It reads the file only: it never
touches the database and never embeds anything.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from engine.knowledge.chunking import chunk_document, max_chars
from engine.knowledge.documents import display_path
from engine.knowledge.loaders import load_document
from engine.ops.settings import Settings

Handler = Callable[[argparse.Namespace, Settings], int]


def describe(path: Path, settings: Settings) -> Iterator[str]:
    """Lines describing what ``path`` becomes. Raises ``DocumentUnreadable`` like ingest."""
    document = load_document(path, ocr=settings.ingest.ocr)
    chunks = chunk_document(document.title, document.blocks, settings.chunking)
    yield f"File:      {display_path(path)}"
    yield f"Title:     {document.title}"
    yield f"Audience:  {document.audience or '(not declared: set by folder or --audience)'}"
    yield f"Reviewed:  {document.reviewed_on or '-'}"
    for warning in document.warnings:
        yield f"Warning:   {warning}"
    yield ""
    yield f"Blocks ({len(document.blocks)}), in reading order:"
    for block in document.blocks:
        if block.kind == "heading":
            yield f"  {'#' * max(1, block.level)} {block.text}"
        else:
            for line in block.text.split("\n"):
                yield f"    {line}"
            yield ""
    limit = max_chars(settings.chunking)
    words = settings.chunking.max_words
    yield f"Chunks ({len(chunks)}; at most {words} words, {limit} characters):"
    for chunk in chunks:
        yield ""
        yield (
            f"[{chunk.ordinal}] {chunk.heading_label}  "
            f"({len(chunk.text.split())} words, {len(chunk.text)} characters)"
        )
        for line in chunk.text.split("\n"):
            yield f"    {line}"


def cmd_inspect(args: argparse.Namespace, settings: Settings) -> int:
    for line in describe(Path(args.file), settings):
        print(line)
    return 0


def register(sub: argparse._SubParsersAction[Any]) -> dict[str, Handler]:
    """Add ``inspect`` to ``sub``; return ``{command name: handler}``."""
    inspect = sub.add_parser(
        "inspect",
        help="show the blocks and chunks a document becomes (reads the file only)",
        description="Print what the assistant would read from FILE: title, audience, "
        "headings and text blocks in reading order, loader warnings, and the chunks.",
    )
    inspect.add_argument("file", help="a .md, .txt, .html, .docx or .pdf file")
    return {"inspect": cmd_inspect}
