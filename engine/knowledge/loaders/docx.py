"""Word (.docx) loader: headings, lists with their numbers, tables, notes, boxes, headers.

The body is read in document order, paragraphs and tables interleaved, so a table lands under
the heading it sits under. Headings are paragraphs styled ``Title`` or ``Heading 1..6`` (or a
custom style based on one of them, or a paragraph with an outline level), and paragraphs typed
as headings by hand (bold, larger than the body, short, unpunctuated). Consecutive list
paragraphs are kept together as one block, each with the number Word shows (``1.``, ``a)``) or
``- `` for bullets. Text boxes are read where they are anchored; footnotes and endnotes go,
labelled, at the end of the section that cites them; headers and footers once, in a last section
"Page headers and footers"; table-of-contents fields are skipped (:mod:`docx_parts`).
A table becomes one block of
``cell | cell | cell`` rows (merged cells written once).

Metadata: the title is ``core_properties.title``, else the ``Title`` paragraph, else the first
heading, else the file name. Audience and review date come from ``core_properties.keywords``
written as ``audience=public;reviewed_on=2026-10-01`` (``key: value`` lines also work).

This module must never guess an audience, and never drop visible text.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from docx.document import Document as DocxDocument
from docx.oxml.ns import qn
from docx.table import Table
from docx.text.paragraph import Paragraph

from engine.errors import DocumentUnreadable
from engine.knowledge.documents import (
    Block,
    LoadedDocument,
    display_path,
    metadata_fields,
    normalise_space,
    parse_metadata_pairs,
    title_from_filename,
)
from engine.knowledge.loaders.docx_package import UnpackedTooLarge, WordFile
from engine.knowledge.loaders.docx_parts import (
    ListNumbers,
    TocFilter,
    header_footer_texts,
    note_references,
    notes,
    numbering_of,
    text_boxes,
)
from engine.knowledge.loaders.limits import check_time

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


_FINAL_PUNCTUATION = re.compile(r"[.,;:!?]['\"”’)]*$")


def _body_size(document: DocxDocument) -> float:
    """The most common font size of body text, in points (11 when the file never says)."""
    sizes: Counter[float] = Counter()
    default = 11.0
    try:
        normal = document.styles["Normal"].font.size
        if normal is not None:
            default = normal.pt
    except KeyError:
        pass
    for paragraph in document.paragraphs[:2000]:
        for run in paragraph.runs:
            size = run.font.size.pt if run.font.size is not None else default
            sizes[size] += len(run.text)
    return sizes.most_common(1)[0][0] if sizes else default


def _manual_heading(paragraph: Paragraph, text: str, body: float) -> bool:
    """Bold, larger than the body, short, unpunctuated, on its own: a heading typed by hand."""
    runs = [run for run in paragraph.runs if run.text.strip()]
    if not runs or len(text.split()) > 12 or len(text) > 100 or _FINAL_PUNCTUATION.search(text):
        return False
    style_font = paragraph.style.font if paragraph.style is not None else None
    style_bold = bool(style_font.bold) if style_font is not None else False
    if not all(run.bold or (run.bold is None and style_bold) for run in runs):
        return False
    sizes = [run.font.size.pt for run in runs if run.font.size is not None]
    if not sizes and style_font is not None and style_font.size is not None:
        sizes = [style_font.size.pt]
    return bool(sizes) and min(sizes) >= body + 1.0


@dataclass
class _Reading:
    """What :func:`_blocks` gathers while it walks the body."""

    blocks: list[Block] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: Counter[str] = field(default_factory=Counter)
    title_paragraph: str = ""

    def flush_list(self) -> None:
        if self.items:
            self.blocks.append(Block("text", "\n".join(self.items)))
            self.items.clear()

    def flush_notes(self) -> None:
        self.flush_list()
        if self.notes:
            self.blocks.append(Block("text", "\n".join(self.notes)))
            self.notes.clear()


def _blocks(word: WordFile) -> tuple[list[Block], str, list[str]]:
    """Blocks in document order, the text of the ``Title`` paragraph (or ""), and warnings."""
    document = word.document
    reading = _Reading()
    numbers = ListNumbers(word)
    toc = TocFilter()
    note_texts = notes(word)
    labels = {"footnote": 0, "endnote": 0}
    body = _body_size(document)
    styled = any(_heading_level(p) for p in document.paragraphs[:2000])

    for part in document.iter_inner_content():
        check_time()
        if isinstance(part, Table):
            reading.flush_list()
            text = _table_text(part)
            if text:
                reading.blocks.append(Block("text", text))
            continue
        if toc.skip(part):
            reading.warnings["table-of-contents lines skipped"] += 1
            continue
        text = part.text.strip()
        for kind, note_id in note_references(part._p):
            if (kind, note_id) in note_texts:
                labels[kind] += 1
                label = f"{kind.capitalize()} {labels[kind]}"
                reading.notes.append(f"{label}: {note_texts[(kind, note_id)]}")
                reading.warnings[f"{kind}s kept at the end of their section"] += 1
        boxes = text_boxes(part._p)
        if text:
            _add_paragraph(reading, part, text, (numbers, body, styled))
        if boxes:
            reading.flush_list()
            reading.warnings["text boxes read in place"] += len(boxes)
            reading.blocks.extend(Block("text", box) for box in boxes)
    reading.flush_notes()
    extra = header_footer_texts(word)
    if extra:
        reading.blocks.append(Block("heading", "Page headers and footers", 1))
        reading.blocks.extend(Block("text", line) for line in extra)
        reading.warnings["header/footer lines kept once"] += len(extra)
    warnings = [f"{count} {what}" for what, count in reading.warnings.items()]
    return reading.blocks, reading.title_paragraph, warnings


def _add_paragraph(
    reading: _Reading, part: Paragraph, text: str, context: tuple[ListNumbers, float, bool]
) -> None:
    numbers, body, styled = context
    level = _heading_level(part)
    if level is None and _manual_heading(part, text, body):
        level = 2 if styled else 1
        reading.warnings["bold larger lines read as headings"] += 1
    if level == 0:
        reading.flush_notes()
        heading = normalise_space(text)
        reading.title_paragraph = reading.title_paragraph or heading
        reading.blocks.append(Block("heading", heading, 0))  # settled in _settle_title_paragraphs
    elif level is not None:
        reading.flush_notes()
        reading.blocks.append(Block("heading", normalise_space(text), level))
    elif (numbering := numbering_of(part)) is not None:
        marker = numbers.marker(*numbering)
        reading.items.append(f"{'  ' * numbering[1]}{marker} {text}")
    elif _is_list(part):
        reading.items.append(f"- {text}")
    else:
        reading.flush_list()
        reading.blocks.append(Block("text", text))


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


def load_docx(path: Path) -> LoadedDocument:
    try:
        word = WordFile(path, max_unpacked_bytes=MAX_UNPACKED_BYTES)
    except UnpackedTooLarge as exc:
        raise DocumentUnreadable(
            display_path(path),
            f"the Word file would unpack to {exc.unpacked / 1e6:,.0f} MB; it is damaged or hostile",
        ) from None
    except Exception as exc:  # a damaged package fails in many ways
        raise DocumentUnreadable(
            str(path), f"not a readable Word .docx file ({type(exc).__name__}); is it damaged?"
        ) from None
    pairs = parse_metadata_pairs(word.keywords)
    audience, reviewed_on = metadata_fields(pairs, path)
    blocks, title_paragraph, warnings = _blocks(word)
    title = normalise_space(word.title) or title_paragraph
    if not title:
        title = next((b.text for b in blocks if b.kind == "heading"), title_from_filename(path))
    return LoadedDocument(
        title=title,
        audience=audience,
        reviewed_on=reviewed_on,
        blocks=tuple(_settle_title_paragraphs(blocks, title)),
        source_path=str(path),
        warnings=tuple(warnings),
    )
