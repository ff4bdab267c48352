"""Markdown loader: YAML front matter for metadata, ``#`` headings and paragraphs for blocks.

Front matter keys: ``title``, ``audience`` (``public``/``staff``), optional ``reviewed_on``
(``YYYY-MM-DD``); other keys are tolerated. Bad YAML, a bad audience or a bad date make the
document unreadable with a reason a person can act on.

Blocks: ATX (``#``..``######``) and setext headings become headings; blank-line separated
paragraphs become text blocks (soft line breaks joined with a space); a list stays one block with
its bullets, even a loose one; a table stays one block of ``cell | cell`` rows (the ``|---|``
separator row is dropped); fenced code is kept verbatim. HTML comments are removed: they are
authors' notes that readers never see, and must not become answers on a kiosk.

This module must never invent metadata (no audience means ``None``) nor drop visible words.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from engine.documents import (
    Block,
    LoadedDocument,
    metadata_fields,
    normalise_space,
    title_from_filename,
)
from engine.errors import DocumentUnreadable

_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(```+|~~~+)")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
_TABLE_ROW = re.compile(r"^\s*\|")
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_THEMATIC_BREAK = re.compile(r"^ {0,3}([-*_])[ \t]*(?:\1[ \t]*){2,}$")


def split_front_matter(text: str, path: Path) -> tuple[dict[str, object], str]:
    """Return (front matter mapping, body). No front matter gives an empty mapping."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return {}, text
    for end in range(1, len(lines)):
        if lines[end].strip() in ("---", "..."):
            break
    else:
        raise DocumentUnreadable(
            str(path), "the front matter starting with '---' on line 1 is never closed"
        )
    raw = "\n".join(lines[1:end])
    try:
        data = yaml.safe_load(raw) if raw.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 2})" if mark is not None else ""
        raise DocumentUnreadable(str(path), f"the front matter is not valid YAML{where}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise DocumentUnreadable(
            str(path), "the front matter must be 'key: value' lines (title, audience, reviewed_on)"
        )
    return {str(k).lower(): v for k, v in data.items()}, "\n".join(lines[end + 1 :])


def _table_row(line: str) -> str:
    cells = line.strip().strip("|").split("|")
    return " | ".join(cell.strip() for cell in cells)


def parse_blocks(body: str) -> list[Block]:
    """Markdown body (no front matter) to blocks, in reading order."""
    blocks: list[Block] = []
    para: list[str] = []
    kind = ""  # "", "text", "list", "table"
    pending_blank = False

    def flush() -> None:
        nonlocal para, kind
        if para:
            if kind == "text":
                text = " ".join(line.strip() for line in para)
            elif kind == "table":
                text = "\n".join(
                    _table_row(line) for line in para if not _TABLE_SEPARATOR.match(line)
                )
            else:
                text = "\n".join(line.rstrip() for line in para)
            if text.strip():
                blocks.append(Block("text", text.strip()))
        para, kind = [], ""

    lines = _COMMENT.sub("", body).split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        fence = _FENCE.match(line)
        if fence:
            flush()
            code = [line]
            while index < len(lines):
                code.append(lines[index])
                index += 1
                if lines[index - 1].strip().startswith(fence.group(1)):
                    break
            text = "\n".join(code).strip()
            blocks.append(Block("text", text))
            pending_blank = False
            continue
        if not line.strip():
            pending_blank = True
            continue
        heading = _HEADING.match(line)
        if heading:
            flush()
            text = normalise_space(heading.group(2) or "")
            if text:
                blocks.append(Block("heading", text, len(heading.group(1))))
            pending_blank = False
            continue
        setext = _SETEXT.match(line)
        if setext and kind == "text" and len(para) == 1 and not pending_blank:
            text = normalise_space(para[0])
            para, kind = [], ""
            blocks.append(Block("heading", text, 1 if setext.group(1)[0] == "=" else 2))
            continue
        if _THEMATIC_BREAK.match(line):
            flush()  # a horizontal rule carries no words
            pending_blank = False
            continue
        is_item = bool(_LIST_ITEM.match(line))
        is_row = bool(_TABLE_ROW.match(line))
        if kind == "list" and (is_item or line[:1] in (" ", "\t") or not pending_blank):
            para.append(line)  # a loose list stays one block; other lines continue an item
        elif not pending_blank and (
            (kind == "table" and is_row) or (kind == "text" and not is_item and not is_row)
        ):
            para.append(line)
        else:
            flush()
            kind = "list" if is_item else "table" if is_row else "text"
            para = [line]
        pending_blank = False
    flush()
    return blocks


def load_markdown(path: Path, text: str) -> LoadedDocument:
    front, body = split_front_matter(text, path)
    audience, reviewed_on = metadata_fields(front, path)
    blocks = parse_blocks(body)
    title_value = front.get("title")
    title = normalise_space(str(title_value)) if title_value is not None else ""
    if not title:
        title = next(
            (b.text for b in blocks if b.kind == "heading" and b.level == 1),
            title_from_filename(path),
        )
    return LoadedDocument(
        title=title,
        audience=audience,
        reviewed_on=reviewed_on,
        blocks=tuple(blocks),
        source_path=str(path),
    )
