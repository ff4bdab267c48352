"""Document loaders: one entry point, :func:`load_document`, for every supported file type.

Each loader turns a file into an :class:`engine.documents.LoadedDocument` (title, audience,
review date, heading/text blocks). Every failure a person could meet (empty file, unknown type,
damaged file, scanned PDF, password) comes out as :class:`engine.errors.DocumentUnreadable`
with the reason in plain words; nothing else escapes. Loaders never touch the database and never
decide what an undeclared audience means (that is the ingest step's job).
"""

from __future__ import annotations

from pathlib import Path

from engine.documents import LoadedDocument
from engine.errors import DocumentUnreadable
from engine.loaders.docx import load_docx
from engine.loaders.markdown import load_markdown
from engine.loaders.pdf import load_pdf

SUPPORTED_SUFFIXES = (".md", ".markdown", ".docx", ".pdf")


def load_document(path: Path) -> LoadedDocument:
    """Read one knowledge document. Raises ``DocumentUnreadable(str(path), reason)``."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        kind = f"'{path.suffix}'" if path.suffix else "a file without an extension"
        raise DocumentUnreadable(
            str(path), f"unsupported file type {kind}: use {', '.join(SUPPORTED_SUFFIXES)}"
        )
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise DocumentUnreadable(str(path), "the file does not exist") from None
    except OSError as exc:
        raise DocumentUnreadable(str(path), f"the file cannot be read ({exc.strerror})") from None
    if path.is_dir():
        raise DocumentUnreadable(str(path), "this is a folder, not a document")
    if size == 0:
        raise DocumentUnreadable(str(path), "the file is empty")
    if suffix == ".docx":
        document = load_docx(path)
    elif suffix == ".pdf":
        document = load_pdf(path)
    else:
        document = load_markdown(path, _read_text(path))
    if not document.blocks:
        raise DocumentUnreadable(str(path), "the document has no text to index")
    return document


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DocumentUnreadable(str(path), f"the file cannot be read ({exc.strerror})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DocumentUnreadable(
            str(path), "the file is not UTF-8 text: save it again with UTF-8 encoding"
        ) from None
    if not text.strip():
        raise DocumentUnreadable(str(path), "the file is empty")
    return text.replace("\r\n", "\n").replace("\r", "\n")


__all__ = ["SUPPORTED_SUFFIXES", "DocumentUnreadable", "LoadedDocument", "load_document"]
