"""Markdown loader: YAML front matter for metadata, ``#`` headings and paragraphs for blocks.

Front matter keys: ``title``, ``audience`` (``public``/``staff``), optional ``reviewed_on``
(``YYYY-MM-DD``); other keys are tolerated. Bad YAML, a bad audience or a bad date make the
document unreadable with a reason a person can act on.

Blocks: ATX (``#``..``######``) and setext headings become headings; blank-line separated
paragraphs become text blocks (soft line breaks joined with a space); a list stays one block with
its bullets, even a loose one; a table stays one block of ``cell | cell`` rows (the ``|---|``
separator row is dropped); fenced code is kept verbatim without its fences; blockquotes are plain
paragraphs. HTML comments are removed: they are authors' notes that readers never see, and must
not become answers on a kiosk (an unclosed one refuses the file). Text is rendered as a reader
sees it (:mod:`engine.knowledge.loaders.markdown_render`): HTML tags, link targets and definitions,
and emphasis markers never reach a block.

This module must never invent metadata (no audience means ``None``) nor drop visible words.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from engine.errors import DocumentUnreadable
from engine.knowledge.documents import (
    Block,
    LoadedDocument,
    display_path,
    metadata_fields,
    normalise_space,
    title_from_filename,
)
from engine.knowledge.loaders.limits import check_time
from engine.knowledge.loaders.markdown_render import (
    is_link_definition,
    link_definitions,
    prepare_html,
    render_inline,
)

_FENCE = re.compile(r"^ {0,3}(```+|~~~+)")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
_TABLE_ROW = re.compile(r"^\s*\|")
_THEMATIC_BREAK = re.compile(r"^ {0,3}([-*_])[ \t]*(?:\1[ \t]*){2,}$")
_SEPARATOR_CHARS = frozenset("|:- \t")
_QUOTE = re.compile(r"^ {0,3}> ?")

#: Front matter is a few lines of metadata; anything bigger is refused before YAML sees it.
MAX_FRONT_MATTER_CHARS = 16_000
_MAX_YAML_EVENTS = 2_000
_MAX_YAML_DEPTH = 10
_TIME_CHECK_LINES = 2_000


class _FrontMatterLoader(yaml.SafeLoader):
    """Safe YAML without implicit dates: ``reviewed_on`` is validated by our own rule, so a bad
    date such as ``2026-13-45`` is an error a person can read, not a ValueError from YAML."""


_FrontMatterLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _check_yaml_shape(raw: str, shown: str) -> None:
    """Refuse aliases (the "billion laughs" expansion), deep nesting and huge event counts
    before anything is constructed: front matter needs none of them."""
    depth = 0
    try:
        for count, event in enumerate(yaml.parse(raw, Loader=_FrontMatterLoader)):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise DocumentUnreadable(
                    shown,
                    "the front matter uses YAML anchors or aliases (&name / *name); "
                    "write each value out in full",
                )
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > _MAX_YAML_DEPTH:
                    raise DocumentUnreadable(shown, "the front matter is nested too deeply")
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
            if count > _MAX_YAML_EVENTS:
                raise DocumentUnreadable(shown, "the front matter has too many entries")
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 2})" if mark is not None else ""
        raise DocumentUnreadable(shown, f"the front matter is not valid YAML{where}") from None


def split_front_matter(text: str, path: Path) -> tuple[dict[str, object], str]:
    """Return (front matter mapping, body). No front matter gives an empty mapping."""
    shown = display_path(path)
    first_end = text.find("\n")
    first = text if first_end < 0 else text[:first_end]
    if first.strip() != "---":
        return {}, text
    start = first_end + 1
    match = re.compile(r"^[ \t]*(?:---|\.\.\.)[ \t]*$", re.MULTILINE).search(text, start)
    if first_end < 0 or match is None:
        raise DocumentUnreadable(
            shown, "the front matter starting with '---' on line 1 is never closed"
        )
    raw = text[start : match.start()]
    if len(raw) > MAX_FRONT_MATTER_CHARS:
        raise DocumentUnreadable(
            shown,
            f"the front matter is longer than {MAX_FRONT_MATTER_CHARS:,} characters; "
            "keep only title, audience and reviewed_on there",
        )
    data: object = {}
    if raw.strip():
        _check_yaml_shape(raw, shown)
        try:
            data = yaml.load(raw, Loader=_FrontMatterLoader)  # a SafeLoader: no object tags
        except (yaml.YAMLError, ValueError, TypeError, RecursionError):
            raise DocumentUnreadable(shown, "the front matter is not valid YAML") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise DocumentUnreadable(
            shown, "the front matter must be 'key: value' lines (title, audience, reviewed_on)"
        )
    body_start = match.end() + 1
    return {str(k).lower(): v for k, v in data.items()}, text[body_start:]


def strip_comments(body: str, path: Path) -> str:
    """Remove ``<!-- ... -->`` author notes in one pass (linear: a regex retried from every
    ``<!--`` was quadratic). An unclosed comment is refused: a browser would hide everything
    after it, and the notes in it must never reach a kiosk."""
    parts: list[str] = []
    position = 0
    while True:
        start = body.find("<!--", position)
        if start < 0:
            parts.append(body[position:])
            return "".join(parts)
        end = body.find("-->", start + 4)
        if end < 0:
            line = body.count("\n", 0, start) + 1
            raise DocumentUnreadable(
                display_path(path),
                f"an HTML comment '<!--' is never closed (body line {line}); close it with '-->'",
            )
        parts.append(body[position:start])
        position = end + 3


def _atx_heading(line: str) -> tuple[int, str] | None:
    """``(level, text)`` for an ATX heading line, without a regex that can backtrack."""
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3 or not stripped.startswith("#"):
        return None
    level = len(stripped) - len(stripped.lstrip("#"))
    rest = stripped[level:]
    if level > 6 or (rest and rest[0] not in " \t"):
        return None
    text = rest.strip(" \t")
    closing = text.rstrip("#")
    if closing != text and (not closing or closing[-1] in " \t"):
        text = closing.rstrip(" \t")  # "## Title ##": the closing hashes are not words
    return level, text


def _setext_level(line: str) -> int:
    """1 for ``===``, 2 for ``---`` underlines, 0 otherwise."""
    stripped = line.strip(" \t")
    if len(line) - len(line.lstrip(" ")) > 3 or not stripped:
        return 0
    if set(stripped) == {"="}:
        return 1
    if set(stripped) == {"-"}:
        return 2
    return 0


def _is_table_separator(line: str) -> bool:
    return "-" in line and set(line) <= _SEPARATOR_CHARS


def _table_row(line: str, labels: set[str]) -> str:
    cells = line.strip().strip("|").split("|")
    return " | ".join(render_inline(cell.strip(), labels) for cell in cells)


def _unquote(line: str) -> str:
    """A blockquote line without its ``>`` markers: quotes are read as plain paragraphs."""
    while True:
        match = _QUOTE.match(line)
        if match is None:
            return line
        line = line[match.end() :]


def parse_blocks(body: str, path: Path) -> list[Block]:
    """Markdown body (no front matter) to blocks, in reading order."""
    blocks: list[Block] = []
    para: list[str] = []
    kind = ""  # "", "text", "list", "table"
    pending_blank = False

    def flush() -> None:
        nonlocal para, kind
        if para:
            if kind == "text":
                text = " ".join(render_inline(line.strip(), labels) for line in para)
            elif kind == "table":
                text = "\n".join(
                    _table_row(line, labels) for line in para if not _is_table_separator(line)
                )
            else:
                text = "\n".join(render_inline(line.rstrip(), labels) for line in para)
            if text.strip():
                blocks.append(Block("text", text.strip()))
        para, kind = [], ""

    lines = prepare_html(strip_comments(body, path)).split("\n")
    labels = link_definitions(lines)
    index = 0
    while index < len(lines):
        line = _unquote(lines[index])
        index += 1
        if index % _TIME_CHECK_LINES == 0:
            check_time()
        fence = _FENCE.match(line)
        if fence:
            flush()
            code: list[str] = []
            while index < len(lines):
                index += 1
                if _unquote(lines[index - 1]).strip().startswith(fence.group(1)):
                    break
                code.append(_unquote(lines[index - 1]))
            text = "\n".join(code).strip()  # the code a reader sees, without the fences
            if text:
                blocks.append(Block("text", text))
            pending_blank = False
            continue
        if labels and is_link_definition(line):
            pending_blank = True  # "[prices]: https://...": a target, not words to read
            continue
        if not line.strip():
            pending_blank = True
            continue
        heading = _atx_heading(line)
        if heading:
            flush()
            text = normalise_space(render_inline(heading[1], labels))
            if text:
                blocks.append(Block("heading", text, heading[0]))
            pending_blank = False
            continue
        setext = _setext_level(line)
        if setext and kind == "text" and len(para) == 1 and not pending_blank:
            text = normalise_space(render_inline(para[0], labels))
            para, kind = [], ""
            blocks.append(Block("heading", text, setext))
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
    blocks = parse_blocks(body, path)
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
