"""Word (.docx) loader: real heading styles become headings, tables become text rows.

The body is read in document order, paragraphs and tables interleaved, so a table lands under
the heading it sits under. Headings are paragraphs styled ``Title`` or ``Heading 1..6`` (or a
custom style based on one of them, or a paragraph with an outline level). Consecutive list
paragraphs are kept together as one block with ``- `` bullets. A table becomes one block of
``cell | cell | cell`` rows (merged cells written once).

Metadata: the title is ``core_properties.title``, else the ``Title`` paragraph, else the first
heading, else the file name. Audience and review date come from ``core_properties.keywords``
written as ``audience=public;reviewed_on=2026-10-01`` (``key: value`` lines also work).

This module must never guess an audience, and never drop visible text.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import docx
from docx.document import Document as DocxDocument
from docx.oxml.ns import qn
from docx.table import Table
from docx.text.paragraph import Paragraph

from engine.documents import (
    Block,
    LoadedDocument,
    display_path,
    metadata_fields,
    normalise_space,
    parse_metadata_pairs,
    title_from_filename,
)
from engine.errors import DocumentUnreadable
from engine.loaders.limits import check_time

_HEADING_NAME = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)
_LIST_NAME = re.compile(r"^list", re.IGNORECASE)


def _heading_level(paragraph: Paragraph) -> int | None:
    """0 for the Title style, 1..6 for headings, None for body text."""
    style = paragraph.style
    seen = 0
    while style is not None and seen < 10:
        for name in (style.name or "", style.style_id or ""):
            if name.lower() == "title":
                return 0
            match = _HEADING_NAME.match(name.replace("Heading", "Heading "))
            if match:
                return min(6, int(match.group(1)))
        style = style.base_style
        seen += 1
    ppr = paragraph._p.pPr
    if ppr is not None:
        outline = ppr.find(qn("w:outlineLvl"))
        if outline is not None:
            value = outline.get(qn("w:val"))
            if value is not None and value.isdigit() and int(value) < 9:
                return min(6, int(value) + 1)
    return None


def _is_list(paragraph: Paragraph) -> bool:
    name = paragraph.style.name if paragraph.style is not None else ""
    if name and _LIST_NAME.match(name):
        return True
    ppr = paragraph._p.pPr
    return ppr is not None and ppr.numPr is not None


def _table_text(table: Table) -> str:
    rows: list[str] = []
    for row in table.rows:
        cells: list[str] = []
        seen: set[int] = set()
        for cell in row.cells:
            if id(cell._tc) in seen:
                continue  # a merged cell is repeated by python-docx; write it once
            seen.add(id(cell._tc))
            cells.append(normalise_space(cell.text))
        if any(cells):
            rows.append(" | ".join(cells))
    return "\n".join(rows)


def _blocks(document: DocxDocument) -> tuple[list[Block], str]:
    """Blocks in document order, and the text of the ``Title`` paragraph (or "")."""
    blocks: list[Block] = []
    title_paragraph = ""
    items: list[str] = []

    def flush_list() -> None:
        if items:
            blocks.append(Block("text", "\n".join(f"- {item}" for item in items)))
            items.clear()

    for part in document.iter_inner_content():
        check_time()
        if isinstance(part, Table):
            flush_list()
            text = _table_text(part)
            if text:
                blocks.append(Block("text", text))
            continue
        text = part.text.strip()
        if not text:
            continue
        level = _heading_level(part)
        if level == 0:
            flush_list()
            heading = normalise_space(text)
            title_paragraph = title_paragraph or heading
            blocks.append(Block("heading", heading, 0))  # settled in _settle_title_paragraphs
        elif level is not None:
            flush_list()
            blocks.append(Block("heading", normalise_space(text), level))
        elif _is_list(part):
            items.append(text)
        else:
            flush_list()
            blocks.append(Block("text", text))
    flush_list()
    return blocks, title_paragraph


def _settle_title_paragraphs(blocks: list[Block], title: str) -> list[Block]:
    """A ``Title`` paragraph that is the title goes (it heads every path); another stays text."""
    settled: list[Block] = []
    for block in blocks:
        if block.kind == "heading" and block.level == 0:
            if block.text.casefold() != title.casefold():
                settled.append(Block("text", block.text))
        else:
            settled.append(block)
    return settled


#: A .docx is a zip; refuse one that would unpack to more than this (a "zip bomb").
MAX_UNPACKED_BYTES = 300_000_000


def _check_unpacked_size(path: Path) -> None:
    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError):
        return  # python-docx reports a damaged file in its own words below
    if unpacked > MAX_UNPACKED_BYTES:
        raise DocumentUnreadable(
            display_path(path),
            f"the Word file would unpack to {unpacked / 1e6:,.0f} MB; it is damaged or hostile",
        )


def load_docx(path: Path) -> LoadedDocument:
    _check_unpacked_size(path)
    try:
        document = docx.Document(str(path))
        document.core_properties.keywords  # noqa: B018 (a damaged core.xml fails here)
    except Exception as exc:  # python-docx raises many kinds for a damaged file
        raise DocumentUnreadable(
            str(path), f"not a readable Word .docx file ({type(exc).__name__}); is it damaged?"
        ) from None
    properties = document.core_properties
    pairs = parse_metadata_pairs(properties.keywords or "")
    audience, reviewed_on = metadata_fields(pairs, path)
    blocks, title_paragraph = _blocks(document)
    title = normalise_space(properties.title or "") or title_paragraph
    if not title:
        title = next((b.text for b in blocks if b.kind == "heading"), title_from_filename(path))
    return LoadedDocument(
        title=title,
        audience=audience,
        reviewed_on=reviewed_on,
        blocks=tuple(_settle_title_paragraphs(blocks, title)),
        source_path=str(path),
    )
