"""Plain-text loader (.txt): notices as clinics type them, read as paragraphs with guessed headings.

Optional front matter as in Markdown (``---`` / ``title``, ``audience``, ``reviewed_on`` / ``---``)
gives the metadata. Paragraphs are separated by blank lines; the lines of a paragraph are joined
with spaces, except bullet or numbered lines, which keep their line breaks. A heading is guessed
only from shape, and conservatively: a line underlined with ``===`` (level 1) or ``---`` (level 2),
or a paragraph of one short line (at most 10 words and 80 characters) without a final full stop
that is followed by more text (ALL CAPS: level 1, otherwise level 2), or such a line (at most
six words, capitalised) directly above a paragraph whose next line starts a sentence.

Title: front matter ``title``, else the first guessed heading at the very start, else the file
name. It never drops a word (a guessed heading is still text, in every chunk's heading path) and
never guesses an audience.
"""

from __future__ import annotations

import re
from pathlib import Path

from engine.knowledge.documents import (
    Block,
    LoadedDocument,
    metadata_fields,
    normalise_space,
    title_from_filename,
)
from engine.knowledge.loaders.limits import check_time
from engine.knowledge.loaders.markdown import split_front_matter

_BULLET = re.compile(r"^\s*(?:[-*•–]|\(?\d{1,3}[.)]|[a-z][.)])\s+")
_UNDERLINE = re.compile(r"^\s*(=+|-+)\s*$")
_FINAL_STOP = re.compile(r"[.,;!?]['\"”’)]*$")


def _paragraphs(body: str) -> list[list[str]]:
    paragraphs: list[list[str]] = []
    current: list[str] = []
    for number, line in enumerate(body.split("\n")):
        if number % 2_000 == 0:
            check_time()
        if line.strip():
            current.append(line.rstrip())
        elif current:
            paragraphs.append(current)
            current = []
    if current:
        paragraphs.append(current)
    return paragraphs


def _heading_level(lines: list[str], has_next: bool) -> int:
    if len(lines) == 2 and (underline := _UNDERLINE.match(lines[1])):
        return 1 if underline.group(1)[0] == "=" else 2
    if len(lines) != 1 or not has_next:
        return 0
    text = lines[0].strip()
    if len(text) > 80 or len(text.split()) > 10 or _FINAL_STOP.search(text) or _BULLET.match(text):
        return 0
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return 0
    return 1 if all(c.isupper() for c in letters) and len(letters) > 1 else 2


def _leading_heading(lines: list[str]) -> bool:
    """ "Opening times" directly above "The dispensary closes...": a heading line on top of its
    paragraph (short, no final punctuation, and the next line starts a new sentence)."""
    first, second = lines[0].strip(), lines[1].strip()
    return (
        len(first.split()) <= 6
        and len(first) <= 60
        and first[:1].isupper()
        and second[:1].isupper()
        and not _FINAL_STOP.search(first)
        and not first.endswith(":")
        and not _BULLET.match(first)
        and not _BULLET.match(second)
    )


def parse_text_blocks(body: str) -> list[Block]:
    paragraphs = _paragraphs(body)
    blocks: list[Block] = []
    for index, lines in enumerate(paragraphs):
        underlined = len(lines) == 2 and _UNDERLINE.match(lines[1])
        if len(lines) > 1 and not underlined and _leading_heading(lines):
            blocks.append(Block("heading", normalise_space(lines[0]), 2))
            lines = lines[1:]
        level = _heading_level(lines, index + 1 < len(paragraphs))
        if level:
            blocks.append(Block("heading", normalise_space(lines[0]), level))
        elif any(_BULLET.match(line) for line in lines):
            blocks.append(Block("text", "\n".join(line.strip() for line in lines)))
        else:
            blocks.append(Block("text", " ".join(line.strip() for line in lines)))
    return blocks


def load_text(path: Path, text: str) -> LoadedDocument:
    front, body = split_front_matter(text, path)
    audience, reviewed_on = metadata_fields(front, path)
    blocks = parse_text_blocks(body)
    title_value = front.get("title")
    title = normalise_space(str(title_value)) if title_value is not None else ""
    if not title:
        first = blocks[0] if blocks else None
        title = first.text if first and first.kind == "heading" else title_from_filename(path)
    return LoadedDocument(
        title=title,
        audience=audience,
        reviewed_on=reviewed_on,
        blocks=tuple(blocks),
        source_path=str(path),
    )
