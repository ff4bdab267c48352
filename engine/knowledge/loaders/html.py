"""Web page loader (.html/.htm): the page's main content as headings, paragraphs, lists, tables.

Parser: ``lxml.html`` (libxml2's HTML parser). Chosen over BeautifulSoup and selectolax because it
is already shipped (python-docx depends on it), parses broken markup the way browsers mostly do,
is C-fast and linear on hostile input, and exposes the tree we need without a second library.

Main content only: ``<main>`` (or ``role="main"``, else the single ``<article>``, else ``<body>``);
navigation, headers, footers, asides, forms, scripts, styles, templates, hidden elements and
ARIA landmarks for navigation/banner/footer/search are removed first. Headings from ``<h1>``..
``<h6>``; ``<p>``, list items (``- `` or their number), table rows (``cell | cell``), ``<pre>``
and loose text in containers become text blocks.

Metadata from ``<meta name="audience">``, ``<meta name="reviewed_on">`` (or ``keywords`` written
``audience=public;reviewed_on=...``); title from the first ``<h1>``, else ``<title>``, else the
file name. It never guesses an audience and never runs or fetches anything the page refers to.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lxml import etree
from lxml import html as lxml_html

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
from engine.knowledge.loaders.limits import check_time

_DROP_TAGS = (
    "script", "style", "noscript", "template", "nav", "header", "footer", "aside", "form",
    "iframe", "svg", "button", "select", "object", "embed", "head", "dialog",
)  # fmt: skip
_DROP_ROLES = {"navigation", "banner", "contentinfo", "search", "complementary"}
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_BLOCKS = {
    "p", "div", "section", "article", "main", "blockquote", "ul", "ol", "li", "table", "pre",
    "dl", "dt", "dd", "figure", "figcaption", "address", "details", "summary", "hr", "br",
    "center", "body", *_HEADINGS,
}  # fmt: skip


def _text(element: Any) -> str:
    return normalise_space("".join(element.itertext()))


def _main(root: Any) -> Any:
    for query in ("//main", "//*[@role='main']"):
        found = root.xpath(query)
        if found:
            return found[0]
    articles = root.xpath("//article")
    if len(articles) == 1:
        return articles[0]
    body = root.find("body")
    return body if body is not None else root


def _strip_boilerplate(root: Any) -> None:
    doomed = [
        element
        for element in root.iter()
        if isinstance(element.tag, str)
        and (
            element.tag in _DROP_TAGS
            or (element.get("role") or "").lower() in _DROP_ROLES
            or element.get("hidden") is not None
            or (element.get("aria-hidden") or "").lower() == "true"
        )
    ]
    for element in doomed:
        parent = element.getparent()
        if parent is not None:
            element.drop_tree()  # keeps the tail text, which belongs to the parent


class _Walker:
    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.inline: list[str] = []
        self.visited = 0

    def flush(self) -> None:
        text = normalise_space("".join(self.inline))
        if text:
            self.blocks.append(Block("text", text))
        self.inline = []

    def walk(self, element: Any) -> None:
        self.visited += 1
        if self.visited % 500 == 0:
            check_time()
        tag = element.tag if isinstance(element.tag, str) else ""
        if tag in _HEADINGS:
            self.flush()
            text = _text(element)
            if text:
                self.blocks.append(Block("heading", text, _HEADINGS[tag]))
        elif tag in ("ul", "ol"):
            self.flush()
            self._list(element, numbered=tag == "ol")
        elif tag == "table":
            self.flush()
            self._table(element)
        elif tag == "pre":
            self.flush()
            text = "".join(element.itertext()).strip("\n")
            if text.strip():
                self.blocks.append(Block("text", text))
        elif tag in _BLOCKS:
            self.flush()
            if element.text:
                self.inline.append(element.text)
            for child in element:
                self.walk(child)
                if child.tail:
                    self.inline.append(child.tail)
            self.flush()
        elif tag:
            self.inline.append(" " if tag in ("td", "th") else "")
            if element.text:
                self.inline.append(element.text)
            for child in element:
                self.walk(child)
                if child.tail:
                    self.inline.append(child.tail)

    def _list(self, element: Any, numbered: bool) -> None:
        items: list[str] = []
        start = element.get("start")
        number = int(start) if start and start.isdigit() else 1
        for item in element.iterchildren("li"):
            text = _text(item)
            if text:
                items.append(f"{number}. {text}" if numbered else f"- {text}")
                number += 1
        if items:
            self.blocks.append(Block("text", "\n".join(items)))

    def _table(self, element: Any) -> None:
        rows: list[str] = []
        for row in element.iter("tr"):
            cells = [_text(cell) for cell in row if cell.tag in ("td", "th")]
            if any(cells):
                rows.append(" | ".join(cells))
        if rows:
            self.blocks.append(Block("text", "\n".join(rows)))


def _meta(root: Any) -> dict[str, str]:
    values: dict[str, str] = {}
    for meta in root.iter("meta"):
        name = (meta.get("name") or "").strip().lower().replace("-", "_")
        content = (meta.get("content") or "").strip()
        if name == "keywords":
            values.update(parse_metadata_pairs(content))
        elif name in ("audience", "reviewed_on") and content:
            values[name] = content
    return values


def load_html(path: Path) -> LoadedDocument:
    shown = display_path(path)
    try:
        root = lxml_html.document_fromstring(path.read_bytes())
    except (etree.ParserError, ValueError, OSError) as exc:
        raise DocumentUnreadable(
            shown, f"not a readable web page ({type(exc).__name__}); is it damaged?"
        ) from None
    audience, reviewed_on = metadata_fields(_meta(root), Path(shown))
    page_title = ""
    title_element = root.find(".//title")
    if title_element is not None:
        page_title = _text(title_element)
    _strip_boilerplate(root)
    walker = _Walker()
    walker.walk(_main(root))
    walker.flush()
    first_h1 = next((b.text for b in walker.blocks if b.kind == "heading" and b.level == 1), "")
    title = first_h1 or page_title or title_from_filename(path)
    return LoadedDocument(
        title=title,
        audience=audience,
        reviewed_on=reviewed_on,
        blocks=tuple(walker.blocks),
        source_path=shown,
    )
