"""Document loaders: one entry point, :func:`load_document`, for every supported file type.

Each loader turns a file into an :class:`engine.knowledge.documents.LoadedDocument` (title,
audience, review date, heading/text blocks). Every failure a person could meet (empty file, unknown
type, damaged file, scanned PDF, password) comes out as :class:`engine.errors.DocumentUnreadable`
with the reason in plain words; nothing else escapes. Loaders never touch the database and never
decide what an undeclared audience means (that is the ingest step's job).
"""

from __future__ import annotations

from pathlib import Path

from engine.errors import DocumentUnreadable
from engine.knowledge.documents import (
    MAX_HEADING_CHARS,
    MAX_TITLE_CHARS,
    Block,
    LoadedDocument,
    cap_line,
    clean_text,
    display_path,
)
from engine.knowledge.loaders.docx import load_docx
from engine.knowledge.loaders.html import load_html
from engine.knowledge.loaders.markdown import load_markdown
from engine.knowledge.loaders.pdf import load_pdf
from engine.knowledge.loaders.text import load_text

SUPPORTED_SUFFIXES = (".md", ".markdown", ".docx", ".pdf", ".txt", ".html", ".htm")


def load_document(path: Path, *, ocr: bool = True) -> LoadedDocument:
    """Read one knowledge document. Raises ``DocumentUnreadable(path, reason)``.

    Whatever the loader, the text that comes out is cleaned (:func:`clean_text`: NFKC, no
    invisible or unstorable characters) and titles and headings are capped in length.
    """
    path = Path(path)
    shown = display_path(path)
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        kind = f"'{path.suffix}'" if path.suffix else "a file without an extension"
        raise DocumentUnreadable(
            shown, f"unsupported file type {kind}: use {', '.join(SUPPORTED_SUFFIXES)}"
        )
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise DocumentUnreadable(shown, "the file does not exist") from None
    except OSError as exc:
        raise DocumentUnreadable(shown, f"the file cannot be read ({exc.strerror})") from None
    if path.is_dir():
        raise DocumentUnreadable(shown, "this is a folder, not a document")
    if not path.is_file():
        raise DocumentUnreadable(shown, "not a regular file (a pipe, socket or device)")
    if size == 0:
        raise DocumentUnreadable(shown, "the file is empty")
    if suffix == ".docx":
        document = load_docx(path)
    elif suffix == ".pdf":
        document = load_pdf(path, ocr=ocr)
    elif suffix in (".html", ".htm"):
        document = load_html(path)
    elif suffix == ".txt":
        document = load_text(path, read_text(path))
    else:
        document = load_markdown(path, read_text(path))
    document = _cleaned(document, shown)
    if not document.blocks:
        raise DocumentUnreadable(shown, "the document has no text to index")
    return document


def _cleaned(document: LoadedDocument, shown: str) -> LoadedDocument:
    blocks: list[Block] = []
    for block in document.blocks:
        text = clean_text(block.text)
        if block.kind == "heading":
            text = cap_line(text, MAX_HEADING_CHARS)
        text = text.strip()
        if text:
            blocks.append(Block(block.kind, text, block.level))
    return LoadedDocument(
        title=cap_line(clean_text(document.title), MAX_TITLE_CHARS),
        audience=document.audience,
        reviewed_on=document.reviewed_on,
        blocks=tuple(blocks),
        source_path=shown,
        warnings=document.warnings,
    )


def read_text(path: Path) -> str:
    """A text file's contents: UTF-8 (with or without a BOM) or UTF-16 with a BOM; anything
    else (other encodings, binary data, UTF-16 without a BOM) is refused with the reason."""
    shown = display_path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DocumentUnreadable(shown, f"the file cannot be read ({exc.strerror})") from None
    try:
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            text = data.decode("utf-16")
        else:
            text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DocumentUnreadable(
            shown, "the file is not UTF-8 text: save it again with UTF-8 encoding"
        ) from None
    if "\x00" in text:
        half = data[1::2] if data[1::2].count(0) > data[0::2].count(0) else data[0::2]
        looks_utf16 = len(data) > 3 and half.count(0) > 0.4 * len(half)
        raise DocumentUnreadable(
            shown,
            "the file looks like UTF-16 text without a byte-order mark: save it again as UTF-8"
            if looks_utf16
            else "the file contains NUL bytes (binary data?): save it again as UTF-8 text",
        )
    if not text.strip():
        raise DocumentUnreadable(shown, "the file is empty")
    return text.replace("\r\n", "\n").replace("\r", "\n")


__all__ = [
    "SUPPORTED_SUFFIXES",
    "DocumentUnreadable",
    "LoadedDocument",
    "load_document",
    "read_text",
]
