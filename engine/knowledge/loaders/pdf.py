"""PDF loader (pypdf): rebuilds the paragraphs and headings a PDF does not mark.

A PDF is a list of positioned lines. This module:

1. reads each line's text, font size (through the text and transformation matrices) and
   boldness (the font's base name) with pypdf's ``visitor_text``; when that does not give the
   same words as the plain extraction, it falls back to the plain lines without font facts;
2. finds headings: by font (clearly larger than the body size, or bold at body size, short and
   unpunctuated) when the fonts tell anything; otherwise by shape (a short Title Case line
   without a final full stop, followed by a longer line);
3. joins wrapped lines into paragraphs: a paragraph ends at a bigger vertical gap, at a heading,
   or after a line that is clearly shorter than the typical line and ends a sentence; a word
   hyphenated across a line end is joined again; short lines inside a paragraph (tables,
   addresses) keep their line breaks; bullet lines form one list block.

Title: metadata ``/Title`` (unless it is just a file name), else the first heading, else the file
name. Audience and review date: metadata ``/Keywords`` such as ``audience=public``.

It must never drop words other than page numbers at the top or bottom of a page, and never
guess an audience. A PDF without a text layer is read by OCR when ``tesseract`` is installed
(:mod:`engine.knowledge.loaders.ocr`, marked with an "OCR used" warning), else it is refused; an
encrypted PDF and a damaged PDF are ``DocumentUnreadable`` with a reason a person can act on.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pypdf
from pypdf.errors import PdfReadError
from pypdf.generic._font import Font

from engine.errors import DocumentUnreadable
from engine.knowledge.documents import (
    Block,
    LoadedDocument,
    metadata_fields,
    normalise_space,
    parse_metadata_pairs,
    title_from_filename,
)
from engine.knowledge.loaders.limits import check_time
from engine.knowledge.loaders.ocr import ocr_pages, tesseract_path
from engine.knowledge.loaders.text import parse_text_blocks

NO_TEXT_LAYER = "no text layer: it looks like a scanned image; export it with text or use the .docx"
ENCRYPTED = "the PDF is password-protected: save or export a copy without a password"

_BOLD = re.compile(r"bold|black|heavy|semibold|demi", re.IGNORECASE)
_PAGE_NUMBER = re.compile(r"^(?:page\s+)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$", re.IGNORECASE)
_BULLET = re.compile(r"^\s*(?:[-*•▪◦‣–]|\d{1,3}[.)])\s+")
_SENTENCE_END = re.compile(r"[.!?:;][\"'”’)\]]*$")
_FINAL_PUNCTUATION = re.compile(r"[.!?:;,][\"'”’)\]]*$")
_SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to"}
# With no evidence in the document, a hyphen after these at a line end is kept ("self-", "walk-").
_HYPHEN_PREFIXES = {
    "pre", "post", "non", "self", "co", "anti", "multi", "well", "out", "day", "walk", "drop",
    "follow", "check", "e", "x", "half", "full", "part", "long", "short", "one", "two",
}  # fmt: skip
_WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")


# pypdf builds every font of a page (widths, ToUnicode CMap) again for each page that uses it:
# a quarter of a three-page leaflet's reading. While one document is read (and only in the
# thread reading it), a font resource already built for an earlier page is reused: the same
# indirect object (pypdf resolves each once per reader) gives the same Font, which text
# extraction only reads.
_FONTS: ContextVar[dict[int, tuple[Any, Any]] | None] = ContextVar("pdf_fonts", default=None)
_build_font = Font.from_font_resource.__func__  # type: ignore[attr-defined]


def _font_from_resource(cls: Any, resource: Any) -> Any:
    fonts = _FONTS.get()
    if fonts is None:
        return _build_font(cls, resource)
    known = fonts.get(id(resource))
    if known is not None and known[0] is resource:
        return known[1]
    font = _build_font(cls, resource)
    fonts[id(resource)] = (resource, font)  # the resource is kept: its id stays its own
    return font


Font.from_font_resource = classmethod(_font_from_resource)  # type: ignore[method-assign,assignment]


@contextmanager
def _fonts_per_document() -> Iterator[None]:
    token = _FONTS.set({})
    try:
        yield
    finally:
        _FONTS.reset(token)


@dataclass
class _Line:
    text: str
    page: int
    y: float | None = None
    size: float = 0.0  # dominant font size in points; 0 when unknown
    bold: bool = False
    heading_level: int = 0
    table: bool = False  # a row of cells drawn apart on one baseline


@dataclass
class _Piece:
    """One run of text drawn by one text operator, where the PDF put it."""

    text: str
    x: float
    y: float
    size: float
    bold: bool

    @property
    def width(self) -> float:
        """Estimated: 0.5 em per character (no font metrics needed)."""
        return len(self.text) * (self.size or 10.0) * 0.5


def _visited_pieces(page: Any) -> tuple[list[_Piece], str]:
    pieces: list[_Piece] = []

    def visit(text: str, cm: Any, tm: Any, font: Any, font_size: Any) -> None:
        if not text or not text.strip():
            return
        try:
            c = [float(v) for v in cm]
            t = [float(v) for v in tm]
            scale = math.hypot(t[2] * c[0] + t[3] * c[2], t[2] * c[1] + t[3] * c[3])
            x = t[4] * c[0] + t[5] * c[2] + c[4]
            y = t[4] * c[1] + t[5] * c[3] + c[5]
            size = float(font_size) * (scale or 1.0)
            name = str(font.get("/BaseFont", "")) if font is not None else ""
        except (TypeError, ValueError, IndexError, AttributeError):
            x, y, size, name = 0.0, 0.0, 0.0, ""
        for piece in text.split("\n"):
            if piece.strip():
                pieces.append(_Piece(piece, x, y, round(size * 2) / 2, bool(_BOLD.search(name))))

    plain = page.extract_text(visitor_text=visit) or ""
    return pieces, plain


def _rows(pieces: list[_Piece]) -> list[list[_Piece]]:
    """Pieces on one baseline (within a third of the font size), top to bottom, left to right."""
    rows: list[list[_Piece]] = []
    for piece in sorted(pieces, key=lambda p: (-p.y, p.x)):
        if rows and abs(rows[-1][0].y - piece.y) <= max(1.5, 0.3 * (piece.size or 10.0)):
            rows[-1].append(piece)
        else:
            rows.append([piece])
    return [sorted(row, key=lambda p: p.x) for row in rows]


def _row_text(row: list[_Piece]) -> tuple[str, bool]:
    """The row's text, and whether it is a table row (cells joined with `` | ``)."""
    parts: list[str] = [row[0].text.strip()]
    cells = False
    for previous, piece in itertools.pairwise(row):
        gap = piece.x - (previous.x + previous.width)
        if gap > max(2.0 * (piece.size or 10.0), 0.25 * previous.width):
            parts.append(" | ")
            cells = True
        elif piece.text[:1] in ",.:;)]!?" and not previous.text[-1:].isspace():
            parts.append("")  # "3 days before" + ": eat" drawn in two fonts
        else:
            parts.append(" ")
        parts.append(piece.text.strip())
    return normalise_space("".join(parts)).replace(" |  | ", " | "), cells


def _gutter(pages: list[list[list[_Piece]]]) -> float | None:
    """The x where a second text column starts, when the document is set in two columns: many
    rows have a piece starting there after a long piece on the left (a table's cells are short)."""
    starts: Counter[float] = Counter()
    left_words: dict[float, list[int]] = {}
    for rows in pages:
        for row in rows:
            for previous, piece in itertools.pairwise(row):
                key = float(round(piece.x / 4) * 4)
                starts[key] += 1
                left_words.setdefault(key, []).append(len(previous.text.split()))
    for key, count in starts.most_common(3):
        words = sorted(left_words[key])
        if count >= 3 and words[len(words) // 2] >= 5:
            return key - 2.0
    return None


def _column_order(rows: list[list[_Piece]], gutter: float | None) -> list[list[_Piece]]:
    """Rows in reading order: in the stretch of the page set in columns, the whole left column,
    then the whole right column; full-width rows above and below stay where they are."""
    if gutter is None:
        return rows
    split = [i for i, row in enumerate(rows) if any(p.x >= gutter for p in row[1:])]
    if not split:
        return rows
    first, last = split[0], split[-1]
    margin = min(p.x for row in rows for p in row)

    def one_column(row: list[_Piece]) -> bool:
        if all(p.x >= gutter for p in row):
            return True
        end = row[-1].x + row[-1].width
        return all(p.x < gutter for p in row) and end <= gutter + 0.35 * (gutter - margin)

    while last + 1 < len(rows) and one_column(rows[last + 1]):
        last += 1  # the longer column goes on below the shorter one's end
    left: list[list[_Piece]] = []
    right: list[list[_Piece]] = []
    for row in rows[first : last + 1]:
        left_part = [p for p in row if p.x < gutter]
        right_part = [p for p in row if p.x >= gutter]
        if left_part:
            left.append(left_part)
        if right_part:
            right.append(right_part)
    return rows[:first] + left + right + rows[last + 1 :]


_DIGITS = re.compile(r"\d+")


def _running_keys(
    pages: list[list[list[_Piece]]], bands: list[tuple[float, float]]
) -> set[tuple[int, str]]:
    """Rows in the top or bottom 12 % of a page that repeat at the same height on most pages
    (numbers ignored): running headers and footers such as "Leaflet RC-12 · Page 2 of 3"."""
    if len(pages) < 2:
        return set()
    seen: Counter[tuple[int, str]] = Counter()
    for rows, (low, high) in zip(pages, bands, strict=True):
        edges = [
            row
            for row in rows
            if not low < row[0].y < high and sum(len(p.text.split()) for p in row) <= 12
        ]
        keys = {
            (round(row[0].y / 3), _DIGITS.sub("#", _row_text(row)[0].casefold())) for row in edges
        }
        seen.update(keys)
    needed = max(2, math.ceil(0.6 * len(pages)))
    return {key for key, count in seen.items() if count >= needed}


def _layout_lines(reader_pages: list[Any], warnings: list[str]) -> list[_Line]:
    """Every page's lines in reading order, without running headers, footers or page numbers."""
    pages: list[list[list[_Piece]]] = []
    plains: list[str] = []
    bands: list[tuple[float, float]] = []
    for page in reader_pages:
        check_time()
        try:
            box = page.mediabox
            bottom, height = float(box.bottom), float(box.height)
        except (AttributeError, TypeError, ValueError, KeyError):
            bottom, height = 0.0, 842.0
        bands.append((bottom + 0.12 * height, bottom + 0.88 * height))
        pieces, plain = _visited_pieces(page)
        plains.append(plain)
        pages.append(_rows(pieces))
    visited_chars = Counter("".join(p.text for rows in pages for row in rows for p in row))
    plain_chars = Counter("".join(plains))
    for counts in (visited_chars, plain_chars):
        for blank in (" ", "\n", "\t"):
            counts.pop(blank, None)
    if visited_chars != plain_chars:
        # The visitor saw other characters than the plain extraction: keep the words, lose the
        # positions and fonts.
        warnings.append("text positions unreadable: read as plain lines (no columns, headings)")
        return _plain_lines(plains)
    running = _running_keys(pages, bands)
    gutter = _gutter(pages)
    if gutter is not None:
        warnings.append("set in two columns: read column by column")
    dropped: list[str] = []
    lines: list[_Line] = []
    for number, rows in enumerate(pages):
        page_lines: list[_Line] = []
        for row in _column_order(rows, gutter):
            text, cells = _row_text(row)
            key = (round(row[0].y / 3), _DIGITS.sub("#", text.casefold()))
            if key in running or not text:
                if text:
                    dropped.append(text)
                continue
            sizes: Counter[float] = Counter()
            for piece in row:
                sizes[piece.size] += len(piece.text)
            bold = sum(len(p.text) for p in row if p.bold) * 2 > sum(len(p.text) for p in row)
            line = _Line(text, number, row[0].y, sizes.most_common(1)[0][0], bold)
            line.table = cells
            page_lines.append(line)
        for edge in (0, -1):  # page numbers at the top or bottom of a page
            if page_lines and _PAGE_NUMBER.match(page_lines[edge].text):
                page_lines.pop(edge)
        lines.extend(page_lines)
    if dropped:
        warnings.append(
            f"{len(dropped)} running header/footer lines dropped (such as {dropped[0][:60]!r})"
        )
    tables = sum(1 for line in lines if line.table)
    if tables:
        warnings.append(f"{tables} table rows rebuilt from cells drawn apart")
    return lines


def _plain_lines(plains: list[str]) -> list[_Line]:
    lines: list[_Line] = []
    for number, plain in enumerate(plains):
        page_lines = [_Line(normalise_space(t), number) for t in plain.split("\n") if t.strip()]
        for edge in (0, -1):
            if page_lines and _PAGE_NUMBER.match(page_lines[edge].text):
                page_lines.pop(edge)
        lines.extend(page_lines)
    return lines


def _is_title_case(text: str) -> bool:
    words = [w for w in re.findall(r"[A-Za-z][\w'’-]*", text)]
    if not words or not words[0][0].isupper():
        return False
    significant = [w for w in words if w.lower() not in _SMALL_WORDS]
    capitalised = sum(1 for w in significant if w[0].isupper())
    return capitalised >= 0.6 * len(significant)


def _typical_length(lines: list[_Line]) -> float:
    lengths = sorted(len(line.text) for line in lines)
    return float(lengths[int(0.9 * (len(lengths) - 1))]) if lengths else 0.0


def _mark_headings(lines: list[_Line]) -> None:
    sizes: Counter[float] = Counter()
    for line in lines:
        if line.size:
            sizes[line.size] += len(line.text)
    body = sizes.most_common(1)[0][0] if sizes else 0.0
    typical = _typical_length(lines)

    def unpunctuated_short(line: _Line, words: int) -> bool:
        return (
            len(line.text.split()) <= words
            and not _FINAL_PUNCTUATION.search(line.text)
            and not _BULLET.match(line.text)
        )

    if body:
        for index, line in enumerate(lines):
            following = lines[index + 1] if index + 1 < len(lines) else None
            if line.table:
                continue
            larger = line.size >= body * 1.15 or (line.bold and line.size >= body + 0.5)
            if larger and unpunctuated_short(line, 20):
                line.heading_level = -1  # sized heading (or bold and a little larger)
            elif (
                line.bold
                and abs(line.size - body) < 0.5
                and unpunctuated_short(line, 12)
                and following is not None
                and not following.bold
            ):
                line.heading_level = -2  # bold heading at body size
        heading_sizes = sorted({ln.size for ln in lines if ln.heading_level == -1}, reverse=True)
        levels = {size: i + 1 for i, size in enumerate(heading_sizes)}
        for line in lines:
            if line.heading_level == -1:
                line.heading_level = min(6, levels[line.size])
            elif line.heading_level == -2:
                line.heading_level = min(6, len(levels) + 1)
        if any(line.heading_level for line in lines):
            return
    # No font evidence: headings by shape.
    for index, line in enumerate(lines):
        previous = lines[index - 1] if index else None
        following = lines[index + 1] if index + 1 < len(lines) else None
        if (
            following is not None
            and unpunctuated_short(line, 10)
            and len(line.text) < 0.6 * typical
            and _is_title_case(line.text)
            and len(following.text) >= max(len(line.text), 0.5 * typical)
            and (
                previous is None
                or previous.heading_level
                or bool(_SENTENCE_END.search(previous.text))
            )
        ):
            line.heading_level = 1


def _ends_paragraph(line: _Line, typical: float) -> bool:
    return len(line.text) < 0.85 * typical and bool(_SENTENCE_END.search(line.text))


def _join(text: str, line: str, short: bool, words: set[str]) -> str:
    """Join a wrapped line. A word hyphenated across the line end is rejoined by evidence from
    the same document: kept hyphenated when that form appears elsewhere ("pre-booked"), joined
    when the joined word appears; with no evidence, kept only after a prefix that is usually
    hyphenated ("self-", "pre-"), else joined ("re-" + "quired" is "required")."""
    match = re.search(r"([A-Za-z]+)-$", text[-64:])  # the tail only: linear in the paragraph
    following = re.match(r"[A-Za-z]+", line)
    if match and following and line[:1].islower():
        head, tail = match.group(1).lower(), following.group(0).lower()
        if f"{head}-{tail}" in words:
            return text + line
        if f"{head}{tail}" in words or head not in _HYPHEN_PREFIXES:
            return text[:-1] + line
        return text + line
    return f"{text}{chr(10) if short else ' '}{line}"


def _blocks(lines: list[_Line]) -> list[Block]:
    _mark_headings(lines)
    body_lines = [line for line in lines if not line.heading_level]
    typical = _typical_length(body_lines)
    gaps = [
        a.y - b.y
        for a, b in itertools.pairwise(body_lines)
        if a.page == b.page and a.y is not None and b.y is not None and a.y - b.y > 0
    ]
    # The lower quartile is the plain line spacing even when most gaps are paragraph gaps.
    line_gap = sorted(gaps)[len(gaps) // 4] if gaps else 0.0

    words = {w.lower() for line in lines for w in _WORD.findall(line.text.rstrip("-"))}
    blocks: list[Block] = []
    paragraph = ""
    is_list = False
    is_table = False
    previous: _Line | None = None

    def flush() -> None:
        nonlocal paragraph, is_list, is_table
        if paragraph:
            blocks.append(Block("text", paragraph))
        paragraph, is_list, is_table = "", False, False

    for line in lines:
        if line.heading_level:
            flush()
            if blocks and blocks[-1].kind == "heading" and _continues_heading(previous, line):
                blocks[-1] = Block("heading", f"{blocks[-1].text} {line.text}", blocks[-1].level)
            else:
                blocks.append(Block("heading", line.text, line.heading_level))
            previous = line
            continue
        if line.table:
            if not is_table:
                flush()
                paragraph, is_table = line.text, True
            else:
                paragraph += "\n" + line.text  # the next row of the same table
            previous = line
            continue
        if is_table:
            flush()
        bullet = bool(_BULLET.match(line.text))
        if bullet and is_list:
            paragraph += "\n" + line.text  # the next item of the same list
        elif (
            paragraph
            and previous is not None
            and not bullet
            and not _new_paragraph(previous, line, typical, line_gap)
        ):
            paragraph = _join(paragraph, line.text, len(previous.text) < 0.6 * typical, words)
        else:
            flush()
            paragraph, is_list = line.text, bullet
        previous = line
    flush()
    return blocks


def _new_paragraph(previous: _Line, line: _Line, typical: float, line_gap: float) -> bool:
    if previous.page != line.page and _SENTENCE_END.search(previous.text):
        return True  # a new page after a finished sentence: a new paragraph
    same_page = previous.page == line.page and previous.y is not None and line.y is not None
    if same_page and line_gap and previous.y - line.y > line_gap * 1.3:  # type: ignore[operator]
        return True
    return _ends_paragraph(previous, typical)


def _continues_heading(previous: _Line | None, line: _Line) -> bool:
    """A heading wrapped over two lines: same size, same page, one line-height apart."""
    if previous is None or previous.heading_level != line.heading_level or not line.size:
        return False
    if previous.page != line.page or previous.y is None or line.y is None:
        return False
    return 0 < previous.y - line.y <= line.size * 1.6


def _metadata_title(metadata: Any) -> str:
    title = normalise_space(str(metadata.get("/Title", "") or "")) if metadata else ""
    if re.search(r"\.(docx?|pdf|odt|rtf|txt)$", title, re.IGNORECASE) or title.lower() in {
        "untitled",
        "untitled document",
    }:
        return ""  # "Microsoft Word - leaflet.docx" is a file name, not a title
    return title


def _ocr_blocks(reader: Any, path: Path, warnings: list[str]) -> list[Block]:
    """Blocks read by OCR from a PDF without a text layer (empty when OCR is unavailable)."""
    texts = ocr_pages(list(reader.pages))
    blocks = [block for text in texts if text.strip() for block in parse_text_blocks(text)]
    if blocks:
        read = sum(1 for text in texts if text.strip())
        warnings.append(
            f"OCR used: {read} of {len(texts)} pages read from scanned images; check the text"
        )
    return blocks


def load_pdf(path: Path, *, ocr: bool = True) -> LoadedDocument:
    try:
        reader = pypdf.PdfReader(str(path))
        if reader.is_encrypted:
            try:
                opened = reader.decrypt("")
            except Exception:
                raise DocumentUnreadable(str(path), ENCRYPTED) from None
            if opened == pypdf.PasswordType.NOT_DECRYPTED:
                raise DocumentUnreadable(str(path), ENCRYPTED)
        metadata = reader.metadata
        warnings: list[str] = []
        with _fonts_per_document():
            lines = _layout_lines(list(reader.pages), warnings)
    except DocumentUnreadable:
        raise
    except (PdfReadError, Exception) as exc:
        raise DocumentUnreadable(
            str(path), f"not a readable PDF ({type(exc).__name__}); is it damaged?"
        ) from None
    if lines:
        blocks = _blocks(lines)
    else:
        blocks = _ocr_blocks(reader, path, warnings) if ocr and tesseract_path() else []
        if not blocks:
            raise DocumentUnreadable(str(path), NO_TEXT_LAYER)
    pairs = parse_metadata_pairs(str(metadata.get("/Keywords", "") or "")) if metadata else {}
    audience, reviewed_on = metadata_fields(pairs, path)
    title = _metadata_title(metadata)
    if not title:
        title = next((b.text for b in blocks if b.kind == "heading"), title_from_filename(path))
    return LoadedDocument(
        title=title,
        audience=audience,
        reviewed_on=reviewed_on,
        blocks=tuple(blocks),
        source_path=str(path),
        warnings=tuple(warnings),
    )
