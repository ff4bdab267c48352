"""The parts of a Word file that python-docx's paragraph text leaves out, read from the XML.

* **Text boxes** (``w:txbxContent`` inside a drawing or VML shape): their paragraphs, once each
  (Word stores a text box twice, as a drawing and as a VML fallback).
* **Footnotes and endnotes**: their text by id, from ``word/footnotes.xml``/``endnotes.xml``,
  and the ids a paragraph refers to, so the loader can put them, labelled, at the end of the
  section that cites them.
* **Headers and footers**: the distinct texts of every section's headers and footers (first
  page, even pages, default), so they are kept once per document, not once per page.
* **List numbers**: ``word/numbering.xml`` formats (decimal, letters, roman, bullet) per list and
  level, and a counter that numbers items the way Word shows them.
* **Table-of-contents fields**: paragraphs inside a ``TOC`` field or styled ``TOC n`` are skipped;
  they only repeat headings with page numbers.

Nothing here decides headings or audience; it only reads what the file holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from docx.oxml.ns import qn
from lxml import etree

from engine.knowledge.loaders.docx_package import WordFile

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"


def _paragraph_text(p: Any) -> str:
    parts: list[str] = []
    for node in p.iter(qn("w:t"), qn("w:tab"), qn("w:br")):
        if node.tag == qn("w:t"):
            parts.append(node.text or "")
        else:
            parts.append(" ")
    return " ".join("".join(parts).split())


def text_boxes(paragraph_element: Any) -> list[str]:
    """Paragraph texts of the text boxes anchored in one body paragraph, each box once."""
    found: list[str] = []
    for box in paragraph_element.iter(qn("w:txbxContent")):
        if any(ancestor.tag == _MC_FALLBACK for ancestor in box.iterancestors()):
            continue  # the VML copy of a drawing's text box
        for p in box.iter(qn("w:p")):
            text = _paragraph_text(p)
            if text and text not in found:
                found.append(text)
    return found


def note_references(paragraph_element: Any) -> list[tuple[str, str]]:
    """``("footnote" | "endnote", id)`` for each note a paragraph cites, in order."""
    refs: list[tuple[str, str]] = []
    for node in paragraph_element.iter(qn("w:footnoteReference"), qn("w:endnoteReference")):
        kind = "footnote" if node.tag == qn("w:footnoteReference") else "endnote"
        refs.append((kind, node.get(qn("w:id")) or ""))
    return refs


def _part_xml(word: WordFile, name: str) -> Any | None:
    """A part the main document relates to, parsed, by part name; None when absent or damaged."""
    blob = word.blob(name)
    if blob is None:
        return None
    try:
        return etree.fromstring(blob)
    except (etree.XMLSyntaxError, ValueError):
        return None


def notes(word: WordFile) -> dict[tuple[str, str], str]:
    """Footnote and endnote texts by ``(kind, id)``; Word's separator notes are left out."""
    found: dict[tuple[str, str], str] = {}
    for kind in ("footnote", "endnote"):
        root = _part_xml(word, f"/word/{kind}s.xml")
        if root is None:
            continue
        for note in root.iter(qn(f"w:{kind}")):
            if note.get(qn("w:type")) in ("separator", "continuationSeparator"):
                continue
            text = " ".join(_paragraph_text(p) for p in note.iter(qn("w:p"))).strip()
            if text:
                found[(kind, note.get(qn("w:id")) or "")] = text
    return found


_SECTIONS = etree.XPath("./w:body/w:p/w:pPr/w:sectPr | ./w:body/w:sectPr", namespaces={"w": W})
_R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


def header_footer_texts(word: WordFile) -> list[str]:
    """Distinct paragraph texts of every header and footer, in section order (per section:
    the default, first-page and even-page header, then the same footers; a header a section
    does not define is its predecessor's, already read)."""
    texts: list[str] = []
    for section in _SECTIONS(word.document.element):
        for tag in ("w:headerReference", "w:footerReference"):
            for kind in ("default", "first", "even"):
                reference = next(
                    (r for r in section.iterchildren(qn(tag)) if r.get(qn("w:type")) == kind),
                    None,
                )
                if reference is None:
                    continue
                try:
                    root = _part_xml(word, word.target(reference.get(_R_ID) or ""))
                except KeyError:
                    continue
                for p in root.iter(qn("w:p")) if root is not None else ():
                    text = _paragraph_text(p)
                    if text and text not in texts:
                        texts.append(text)
    return texts


class ListNumbers:
    """Numbers items as Word shows them: ``1.``, ``a)``, ``iv.`` or ``-`` for bullets."""

    def __init__(self, word: WordFile) -> None:
        self.formats: dict[tuple[str, int], tuple[str, str, int]] = {}
        self.counters: dict[tuple[str, int], int] = {}
        root = _part_xml(word, "/word/numbering.xml")
        if root is None:
            return
        abstract: dict[str, dict[int, tuple[str, str, int]]] = {}
        for node in root.iter(qn("w:abstractNum")):
            levels: dict[int, tuple[str, str, int]] = {}
            for lvl in node.iter(qn("w:lvl")):
                level = int(lvl.get(qn("w:ilvl")) or 0)
                fmt = lvl.find(qn("w:numFmt"))
                text = lvl.find(qn("w:lvlText"))
                start = lvl.find(qn("w:start"))
                levels[level] = (
                    (fmt.get(qn("w:val")) if fmt is not None else "decimal") or "decimal",
                    (text.get(qn("w:val")) if text is not None else "%1.") or "%1.",
                    int(start.get(qn("w:val")) or 1) if start is not None else 1,
                )
            abstract[node.get(qn("w:abstractNumId")) or ""] = levels
        for num in root.iter(qn("w:num")):
            ref = num.find(qn("w:abstractNumId"))
            levels = abstract.get(ref.get(qn("w:val")) or "" if ref is not None else "", {})
            for level, spec in levels.items():
                self.formats[(num.get(qn("w:numId")) or "", level)] = spec

    def marker(self, num_id: str, level: int) -> str:
        fmt, text, start = self.formats.get((num_id, level), ("bullet", "", 1))
        if fmt in ("bullet", "none", ""):
            return "-"
        for key in [k for k in self.counters if k[0] == num_id and k[1] > level]:
            del self.counters[key]  # a higher-level item restarts the levels below it
        value = self.counters.get((num_id, level), start - 1) + 1
        self.counters[(num_id, level)] = value
        shown = _format_number(value, fmt)
        return text.replace(f"%{level + 1}", shown) if f"%{level + 1}" in text else f"{shown}."


def _format_number(value: int, fmt: str) -> str:
    if fmt in ("lowerLetter", "upperLetter"):
        letter = chr(ord("a") + (value - 1) % 26)
        return letter.upper() if fmt == "upperLetter" else letter
    if fmt in ("lowerRoman", "upperRoman"):
        numerals = [(10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]
        out, rest = "", value
        for number, numeral in numerals:
            while rest >= number:
                out, rest = out + numeral, rest - number
        return out.upper() if fmt == "upperRoman" else out
    return str(value)


def numbering_of(paragraph: Any) -> tuple[str, int] | None:
    """``(numId, level)`` from the paragraph's own properties or its style's."""
    for ppr in _ppr_chain(paragraph):
        num_pr = ppr.find(qn("w:numPr"))
        if num_pr is None:
            continue
        num_id = num_pr.find(qn("w:numId"))
        ilvl = num_pr.find(qn("w:ilvl"))
        if num_id is not None:
            value = num_id.get(qn("w:val")) or ""
            if value == "0":
                return None  # numbering switched off
            level = ilvl.get(qn("w:val")) if ilvl is not None else "0"
            return value, int(level or 0)
    return None


def _ppr_chain(paragraph: Any) -> Iterator[Any]:
    if paragraph._p.pPr is not None:
        yield paragraph._p.pPr
    style = paragraph.style
    seen = 0
    while style is not None and seen < 10:
        ppr = style.element.find(qn("w:pPr"))
        if ppr is not None:
            yield ppr
        style = style.base_style
        seen += 1


class TocFilter:
    """Says which body paragraphs belong to a table of contents (a ``TOC`` field, counted
    through the ``PAGEREF`` fields nested in its entries, or ``TOC n`` styled paragraphs)."""

    def __init__(self) -> None:
        self.depth = 0
        self.toc_depth: int | None = None

    def skip(self, paragraph: Any) -> bool:
        name = (paragraph.style.name or "").lower() if paragraph.style is not None else ""
        touched = self.toc_depth is not None
        for node in paragraph._p.iter(qn("w:instrText"), qn("w:fldChar")):
            if node.tag == qn("w:instrText"):
                if (node.text or "").strip().upper().startswith("TOC") and self.toc_depth is None:
                    self.toc_depth = self.depth
                    touched = True
                continue
            kind = node.get(qn("w:fldCharType"))
            if kind == "begin":
                self.depth += 1
            elif kind == "end":
                if self.toc_depth is not None and self.depth == self.toc_depth:
                    self.toc_depth = None
                self.depth = max(0, self.depth - 1)
        return touched or name.startswith("toc ") or name == "toc heading"
