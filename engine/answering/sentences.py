"""Passages -> the sentences, list-item sentences and table rows a quote is made of.

Decides where a sentence ends (not after "e.g.", "Dr." or "ext."), which lines belong to one
list item or paragraph (wrapped lines are joined), and how a Markdown table reads as text
("Day: Monday, Building open: 8:00 to 18:30": the header names each cell). Each unit keeps what
it is about beyond its own words (its section's title, the line that introduces its list or
table) for scoring.

It must never change a word (only whitespace is joined and Markdown emphasis markers dropped),
produce a raw table pipe or separator row, or raise on any text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Unit:
    """One sentence, list-item sentence or table row of a passage, as it is shown.

    ``near`` is what the unit is directly about beyond its own words (its section's title, the
    line that introduces its list or table); ``context`` adds the heading path and the sentence
    before it. Both are scored, never shown."""

    text: str
    near: str
    context: str
    position: int  # order within its passage
    follow: str = ""  # the next sentence of the same list item, shown with it when there is room
    # For the line that introduces a list ("Please bring the following:"): the list's items,
    # word for word, so a quoted lead-in is never shown without what it introduces.
    items: tuple[str, ...] = ()


_EMPHASIS = re.compile(r"(\*\*|__)(.+?)\1")
_LIST_MARK = re.compile(r"^\s*(?:[-*\u2022\u2013]|\d{1,2}[.)])\s+")
_SEPARATOR_CELL = re.compile(r"^:?-{2,}:?$")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"\u201d\u2019)]?\s+(?=[\"\u201c(]?[A-Z0-9\u00a3])")
_ABBREVIATIONS = ("e.g.", "i.e.", "dr.", "mr.", "mrs.", "ms.", "st.", "no.", "ext.", "approx.")


def _clean(text: str) -> str:
    return " ".join(_EMPHASIS.sub(r"\2", text).split())


def _sentences(text: str) -> list[str]:
    parts: list[str] = []
    for piece in _SENTENCE_END.split(text):
        piece = piece.strip()
        if not piece:
            continue
        if parts and parts[-1].lower().rsplit(None, 1)[-1] in _ABBREVIATIONS:
            parts[-1] = f"{parts[-1]} {piece}"
        else:
            parts.append(piece)
    return parts


def _is_table_line(line: str) -> bool:
    stripped = line.strip()
    return stripped.count("|") >= 1 and (stripped.startswith("|") or " | " in stripped)


def _cells(line: str) -> list[str]:
    stripped = line.strip()
    if stripped.startswith("|"):
        stripped = stripped[1:]
    if stripped.endswith("|"):
        stripped = stripped[:-1]
    return [_clean(c) for c in stripped.split("|")]


def table_rows(lines: Sequence[str]) -> list[str]:
    """Markdown table lines -> "Header: value, Header: value" lines (never a raw pipe)."""
    rows = [_cells(line) for line in lines]
    rows = [r for r in rows if not all(_SEPARATOR_CELL.match(c) or not c for c in r)]
    if not rows:
        return []
    header, body = rows[0], rows[1:]
    if not body:
        return [", ".join(c for c in header if c)]
    rendered = []
    for row in body:
        pairs = []
        for index, cell in enumerate(row):
            if not cell:
                continue
            name = header[index] if index < len(header) else ""
            pairs.append(f"{name}: {cell}" if name else cell)
        if pairs:
            rendered.append(", ".join(pairs))
    return rendered


def _blocks(text: str) -> list[tuple[str, list[str]]]:
    """Lines grouped into paragraphs, list items and tables (wrapped lines joined)."""
    blocks: list[tuple[str, list[str]]] = []
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line.strip():
            blocks.append(("blank", []))
        elif _is_table_line(line):
            if blocks and blocks[-1][0] == "table":
                blocks[-1][1].append(line)
            else:
                blocks.append(("table", [line]))
        elif _LIST_MARK.match(line):
            blocks.append(("item", [_LIST_MARK.sub("", line, count=1)]))
        elif blocks and blocks[-1][0] in ("para", "item") and blocks[-1][1]:
            blocks[-1][1].append(line)
        else:
            blocks.append(("para", [line]))
    return [b for b in blocks if b[0] != "blank"]


MAX_LIST_ITEMS = 12  # a lead-in quoted with more items than this would be a wall of text


def _list_after(blocks: list[tuple[str, list[str]]], index: int) -> tuple[str, ...]:
    """The items of the list right after block ``index`` (empty when none or too long)."""
    items = []
    for kind, lines in blocks[index + 1 :]:
        if kind != "item":
            break
        items.append(_clean(" ".join(lines)))
    return tuple(items) if len(items) <= MAX_LIST_ITEMS else ()


def split_units(text: str, headings: str = "") -> list[Unit]:
    """A passage's sentences, list-item sentences and table rows, in reading order."""
    section = headings.rsplit(">", 1)[-1].strip()
    units: list[Unit] = []
    lead_in = ""
    blocks = _blocks(text)
    for block, (kind, lines) in enumerate(blocks):
        near = f"{section} {lead_in}" if kind in ("item", "table") else section
        texts = table_rows(lines) if kind == "table" else _sentences(_clean(" ".join(lines)))
        previous = ""
        for index, sentence in enumerate(texts):
            context = f"{headings} {near} {previous}".strip()
            follow = texts[index + 1] if kind == "item" and index + 1 < len(texts) else ""
            last = index == len(texts) - 1
            items = _list_after(blocks, block) if kind == "para" and last else ()
            items = items if sentence.endswith(":") else ()
            units.append(Unit(sentence, near.strip(), context, len(units), follow, items))
            if kind != "table":
                previous = sentence
        if kind == "para":
            joined = _clean(" ".join(lines))
            lead_in = joined if joined.endswith(":") else ""
    return units
