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
guess an audience. A PDF without a text layer, an encrypted PDF and a damaged PDF are
``DocumentUnreadable`` with a reason a person can act on.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pypdf
from pypdf.errors import PdfReadError

from engine.documents import (
    Block,
    LoadedDocument,
    metadata_fields,
    normalise_space,
    parse_metadata_pairs,
    title_from_filename,
)
from engine.errors import DocumentUnreadable
from engine.loaders.limits import check_time

NO_TEXT_LAYER = "no text layer: it looks like a scanned image; export it with text or use the .docx"
ENCRYPTED = "the PDF is password-protected: save or export a copy without a password"

_BOLD = re.compile(r"bold|black|heavy|semibold|demi", re.IGNORECASE)
_PAGE_NUMBER = re.compile(r"^(?:page\s+)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$", re.IGNORECASE)
_BULLET = re.compile(r"^\s*(?:[-*•▪◦‣–]|\d{1,3}[.)])\s+")
_SENTENCE_END = re.compile(r"[.!?:;][\"'”’)\]]*$")
_FINAL_PUNCTUATION = re.compile(r"[.!?:;,][\"'”’)\]]*$")
_SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to"}
# Hyphenated words whose hyphen is real ("pre-booked"), kept when the word wraps at the hyphen.
_HYPHEN_PREFIXES = {
    "pre", "post", "non", "self", "co", "re", "anti", "multi", "well", "out", "day", "walk",
    "drop", "follow", "check", "e", "x", "half", "full", "part", "long", "short", "one", "two",
}  # fmt: skip


@dataclass
class _Line:
    text: str
    page: int
    y: float | None = None
    size: float = 0.0  # dominant font size in points; 0 when unknown
    bold: bool = False
    heading_level: int = 0


@dataclass
class _LineBuilder:
    page: int
    lines: list[_Line] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)
    sizes: Counter[float] = field(default_factory=Counter)
    bold_chars: int = 0
    chars: int = 0
    y: float | None = None

    def end_line(self) -> None:
        text = normalise_space("".join(self.parts))
        if text:
            size = self.sizes.most_common(1)[0][0] if self.sizes else 0.0
            bold = self.chars > 0 and self.bold_chars * 2 > self.chars
            self.lines.append(_Line(text, self.page, self.y, size, bold))
        self.parts, self.sizes, self.bold_chars, self.chars, self.y = [], Counter(), 0, 0, None

    def add(self, text: str, y: float, size: float, bold: bool) -> None:
        for index, piece in enumerate(text.split("\n")):
            if index:
                self.end_line()
            if not piece:
                continue
            if piece.strip():
                if self.y is not None and self.chars and abs(y - self.y) > max(2.0, size * 0.5):
                    self.end_line()
                count = len(piece.strip())
                self.sizes[round(size * 2) / 2] += count
                self.chars += count
                self.bold_chars += count if bold else 0
                if self.y is None:
                    self.y = y
            self.parts.append(piece)


def _page_lines(page: Any, number: int) -> list[_Line]:
    builder = _LineBuilder(page=number)

    def visit(text: str, cm: Any, tm: Any, font: Any, font_size: Any) -> None:
        if not text:
            return
        try:
            c = [float(v) for v in cm]
            t = [float(v) for v in tm]
            scale = math.hypot(t[2] * c[0] + t[3] * c[2], t[2] * c[1] + t[3] * c[3])
            y = t[4] * c[1] + t[5] * c[3] + c[5]
            size = float(font_size) * (scale or 1.0)
            name = str(font.get("/BaseFont", "")) if font is not None else ""
        except (TypeError, ValueError, IndexError, AttributeError):
            y, size, name = 0.0, 0.0, ""
        builder.add(text, y, size, bool(_BOLD.search(name)))

    plain = page.extract_text(visitor_text=visit) or ""
    builder.end_line()
    visited = builder.lines
    if [w for line in visited for w in line.text.split()] != plain.split():
        # The visitor saw the words differently (spacing, order): keep the words, lose the fonts.
        visited = [_Line(normalise_space(t), number) for t in plain.split("\n") if t.strip()]
    for edge in (0, -1):  # page numbers at the top or bottom of a page
        if visited and _PAGE_NUMBER.match(visited[edge].text):
            visited.pop(edge)
    return visited


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
            if line.size >= body * 1.15 and unpunctuated_short(line, 20):
                line.heading_level = -1  # sized heading; level set below
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


def _join(text: str, line: str, short: bool) -> str:
    match = re.search(r"([A-Za-z]+)-$", text[-64:])  # the tail only: linear in the paragraph
    if match and line[:1].islower():
        if match.group(1).lower() in _HYPHEN_PREFIXES:
            return text + line
        return text[:-1] + line
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

    blocks: list[Block] = []
    paragraph = ""
    is_list = False
    previous: _Line | None = None

    def flush() -> None:
        nonlocal paragraph, is_list
        if paragraph:
            blocks.append(Block("text", paragraph))
        paragraph, is_list = "", False

    for line in lines:
        if line.heading_level:
            flush()
            if blocks and blocks[-1].kind == "heading" and _continues_heading(previous, line):
                blocks[-1] = Block("heading", f"{blocks[-1].text} {line.text}", blocks[-1].level)
            else:
                blocks.append(Block("heading", line.text, line.heading_level))
            previous = line
            continue
        bullet = bool(_BULLET.match(line.text))
        if bullet and is_list:
            paragraph += "\n" + line.text  # the next item of the same list
        elif (
            paragraph
            and previous is not None
            and not bullet
            and not _new_paragraph(previous, line, typical, line_gap)
        ):
            paragraph = _join(paragraph, line.text, len(previous.text) < 0.6 * typical)
        else:
            flush()
            paragraph, is_list = line.text, bullet
        previous = line
    flush()
    return blocks


def _new_paragraph(previous: _Line, line: _Line, typical: float, line_gap: float) -> bool:
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


def load_pdf(path: Path) -> LoadedDocument:
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
        lines: list[_Line] = []
        for number, page in enumerate(reader.pages):
            check_time()
            lines.extend(_page_lines(page, number))
    except DocumentUnreadable:
        raise
    except (PdfReadError, Exception) as exc:
        raise DocumentUnreadable(
            str(path), f"not a readable PDF ({type(exc).__name__}); is it damaged?"
        ) from None
    if not lines:
        raise DocumentUnreadable(str(path), NO_TEXT_LAYER)
    pairs = parse_metadata_pairs(str(metadata.get("/Keywords", "") or "")) if metadata else {}
    audience, reviewed_on = metadata_fields(pairs, path)
    blocks = _blocks(lines)
    title = _metadata_title(metadata)
    if not title:
        title = next((b.text for b in blocks if b.kind == "heading"), title_from_filename(path))
    return LoadedDocument(
        title=title,
        audience=audience,
        reviewed_on=reviewed_on,
        blocks=tuple(blocks),
        source_path=str(path),
    )
