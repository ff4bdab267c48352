"""Opens a Word (.docx) file reading only the parts the Word loader uses.

``docx.Document(path)`` reads and parses every part of the package: the main document, but also
``stylesWithEffects.xml``, the theme, fonts, settings and thumbnail, and the whole
``styles.xml``, which in a template is often hundreds of KB of styles no paragraph uses
(python-docx's own template: 349 KB, 164 styles; parsing it was most of a small Word file's
loading time). :class:`WordFile` reads the package's relationships and content types, parses the
main document with python-docx's element classes, and hands the loader a real python-docx
``Document`` over itself, so paragraphs, runs, tables and styles keep python-docx's exact
semantics. Of ``styles.xml`` it parses only the styles the body can reach: those its paragraphs
name, the styles they are based on (transitively), every style marked default, and the style
named ``Normal``. A styles part in any other shape than the plain one Word writes (comments,
CDATA, character references, a DOCTYPE, the Word namespace under another prefix) is parsed
whole, as before. Other parts (numbering, notes, headers and footers, core properties) are read
on request, by name.

What it must never do: change what a style lookup returns compared with python-docx reading the
whole package, or read a file outside the package. Every failure to open the package is raised
as an exception for the loader to turn into "not a readable Word file"; a damaged part the
loader never reads (a thumbnail, an unused style) no longer refuses the file.
"""

from __future__ import annotations

import bisect
import io
import posixpath
import re
import zipfile
from pathlib import Path
from typing import Any, cast

from docx.document import Document
from docx.enum.style import WD_STYLE_TYPE
from docx.opc.constants import CONTENT_TYPE as CT
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.exceptions import PackageNotFoundError
from docx.oxml.parser import parse_xml
from docx.parts.styles import StylesPart
from docx.styles.style import BaseStyle
from docx.styles.styles import Styles
from lxml import etree

_PR = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_CTNS = "{http://schemas.openxmlformats.org/package/2006/content-types}"
_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_CP = "{http://schemas.openxmlformats.org/package/2006/metadata/core-properties}"
_DC = "{http://purl.org/dc/elements/1.1/}"
_W_PSTYLE = f"{{{_W}}}pStyle"
_W_VAL = f"{{{_W}}}val"
_W_BASED_ON = f"{{{_W}}}basedOn"

# A start tag: the name, then quoted attributes (possessive: no backtracking on hostile input).
_ATTRIBUTE = rb"""\s++([\w:.-]++)\s*+=\s*+(?:"([^"]*+)"|'([^']*+)')"""
_ROOT_START = re.compile(rb"<w:styles(?:" + _ATTRIBUTE + rb")*+\s*+>")
_STYLE_START = re.compile(rb"<w:style(?:" + _ATTRIBUTE + rb")*+\s*+(/?)>")
_STYLE_AT = re.compile(rb"<w:style[\s/>]")
_NAME_AT = re.compile(rb"<w:name[\s/>]")
_NAME_START = re.compile(rb"<w:name(?:" + _ATTRIBUTE + rb")*+\s*+/?>")
_ATTRIBUTES = re.compile(_ATTRIBUTE)
_SPACE = re.compile(rb"\s*")
_DECLARATION = re.compile(rb"<\?xml[^>]*?\?>")


def _relationships(archive: zipfile.ZipFile, rels_member: str, base: str) -> list[tuple[str, str]]:
    """``(type, target part name)`` of each internal relationship in a .rels member, in order
    (see :func:`_relationship_ids` for their ids)."""
    return [(kind, target) for _, kind, target in _relationship_ids(archive, rels_member, base)]


def _relationship_ids(
    archive: zipfile.ZipFile, rels_member: str, base: str
) -> list[tuple[str, str, str]]:
    """``(id, type, target part name)`` of each internal relationship in a .rels member."""
    try:
        data = archive.read(rels_member)
    except KeyError:
        return []
    found: list[tuple[str, str, str]] = []
    for rel in etree.fromstring(data).iter(f"{_PR}Relationship"):
        if rel.get("TargetMode") == "External":
            continue
        target = posixpath.abspath(posixpath.join(base, rel.get("Target") or ""))
        found.append((rel.get("Id") or "", rel.get("Type") or "", target))
    return found


def _content_type(archive: zipfile.ZipFile, partname: str) -> str:
    """A part's content type: its override, else its extension's default (python-docx's
    rule; KeyError when neither)."""
    root = etree.fromstring(archive.read("[Content_Types].xml"))
    for override in root.iter(f"{_CTNS}Override"):
        if (override.get("PartName") or "").lower() == partname.lower():
            return str(override.get("ContentType"))
    extension = posixpath.splitext(partname)[1][1:].lower()
    for default in root.iter(f"{_CTNS}Default"):
        if (default.get("Extension") or "").lower() == extension:
            return str(default.get("ContentType"))
    raise KeyError(f"no content type for partname '{partname}' in [Content_Types].xml")


def _one(relationships: list[tuple[str, str]], reltype: str) -> str | None:
    """The target of the one relationship of ``reltype``; None when there is none; an error
    when there are several (python-docx's rule)."""
    targets = [target for kind, target in relationships if kind == reltype]
    if len(targets) > 1:
        raise ValueError(f"more than one relationship of type {reltype}")
    return targets[0] if targets else None


class UnpackedTooLarge(Exception):
    """The package would unpack to more bytes than allowed (a "zip bomb")."""

    def __init__(self, unpacked: int) -> None:
        super().__init__(unpacked)
        self.unpacked = unpacked


class WordFile:
    """One open .docx: the python-docx ``Document`` the loader walks (``document``), the core
    properties it reads, and the other parts by name. Stands in for python-docx's document part
    (``get_style``, ``styles``) so python-docx's own proxies work over it."""

    def __init__(self, path: Path, *, max_unpacked_bytes: int) -> None:
        data = io.BytesIO(path.read_bytes())
        if not zipfile.is_zipfile(data):
            raise PackageNotFoundError(f"Package not found at '{path}'")
        self._archive = zipfile.ZipFile(data)
        unpacked = sum(info.file_size for info in self._archive.infolist())
        if unpacked > max_unpacked_bytes:
            raise UnpackedTooLarge(unpacked)  # nothing else is read
        package = _relationships(self._archive, "_rels/.rels", "/")
        main = _one(package, RT.OFFICE_DOCUMENT)
        if main is None:
            raise KeyError(f"no relationship of type '{RT.OFFICE_DOCUMENT}' in collection")
        content_type = _content_type(self._archive, main)
        if content_type != CT.WML_DOCUMENT_MAIN:
            raise ValueError(f"not a Word file, content type is '{content_type}'")
        folder, name = posixpath.split(main)
        rels = _relationship_ids(
            self._archive, posixpath.join(folder, "_rels", name + ".rels")[1:], folder
        )
        self._parts = [(kind, target) for _, kind, target in rels]
        self._by_id = {rel_id: target for rel_id, _, target in rels}
        element = parse_xml(self._archive.read(main[1:]))
        core = _one(package, RT.CORE_PROPERTIES)
        self.title, self.keywords = self._core_properties(core)
        self._styles = self._load_styles(element)
        self._style_cache: dict[tuple[str | None, WD_STYLE_TYPE], BaseStyle | None] = {}
        # python-docx's proxies find their part through the document: this object.
        self.document = Document(element, cast(Any, self))

    def blob(self, partname: str) -> bytes | None:
        """The bytes of a part by part name (``/word/x.xml``), read when asked for; None when
        the main document does not relate to it or the package lacks it."""
        if partname not in self._by_id.values():
            return None
        return self._member(partname)

    def _member(self, partname: str) -> bytes | None:
        try:
            return self._archive.read(partname[1:])
        except KeyError:
            return None

    def target(self, rel_id: str) -> str:
        """The part name the main document's relationship ``rel_id`` points to (KeyError when
        there is none, as python-docx)."""
        return self._by_id[rel_id]

    def _core_properties(self, partname: str | None) -> tuple[str, str]:
        """(title, keywords); python-docx makes a package without core properties "Word
        Document" with no keywords, and refuses a damaged core.xml."""
        if partname is None:
            return "Word Document", ""
        blob = self._member(partname)
        if blob is None:
            raise KeyError(f"There is no item named '{partname[1:]}' in the archive")
        root = etree.fromstring(blob)

        def text(tag: str) -> str:
            node = root.find(tag)
            return (node.text or "") if node is not None else ""

        return text(f"{_DC}title"), text(f"{_CP}keywords")

    # --- styles -----------------------------------------------------------------------------

    def _load_styles(self, element: Any) -> Styles:
        partname = _one(self._parts, RT.STYLES)
        if partname is None:  # python-docx uses its default styles
            default: bytes = StylesPart._default_styles_xml()  # type: ignore[no-untyped-call]
            return Styles(parse_xml(default))
        blob = self._member(partname)
        if blob is None:
            raise KeyError(f"There is no item named '{partname[1:]}' in the archive")
        ids = {str(node.get(_W_VAL)) for node in element.iter(_W_PSTYLE) if node.get(_W_VAL)}
        ids.add("Normal")  # python-docx's styles["Normal"] falls back to the id
        reduced = _reachable_styles(blob, ids)
        return Styles(reduced if reduced is not None else parse_xml(blob))

    @property
    def styles(self) -> Styles:
        return self._styles

    def get_style(self, style_id: str | None, style_type: WD_STYLE_TYPE) -> BaseStyle | None:
        """python-docx's ``DocumentPart.get_style``, remembered: this file's styles never
        change while it is read."""
        key = (style_id, style_type)
        if key not in self._style_cache:
            self._style_cache[key] = self._styles.get_by_id(style_id, style_type)
        return self._style_cache[key]


def _pair(data: bytes, pair: bytes, start: int) -> bool:
    """Whether the two bytes ``pair`` occur from ``start``: found by their rare second byte
    (a plain ``in`` stops at every ``<`` of the markup, ten times slower)."""
    at = data.find(pair[1:], start + 1)
    while at != -1:
        if data[at - 1] == pair[0]:
            return True
        at = data.find(pair[1:], at + 1)
    return False


def _plain_styles(blob: bytes) -> tuple[bytes, bytes, list[int]] | None:
    """(the part's bytes, its root start tag, where each ``w:style`` element starts) when the
    part has the plain shape Word writes: UTF-8; no comments, CDATA, DOCTYPE, processing
    instructions or character references (where a ``<w:style`` or a value could hide); the
    Word namespace declared once, as ``w``, on the root. Else None: parse it whole."""
    data = blob.removeprefix(b"\xef\xbb\xbf")
    start = 0
    declaration = _DECLARATION.match(data)
    if declaration is not None:
        encoding = re.search(rb"""encoding\s*=\s*["']([^"']*)["']""", declaration.group(0))
        if encoding is not None and encoding.group(1).lower() not in (b"utf-8", b"utf8"):
            return None
        start = declaration.end()
    if _pair(data, b"<!", 0) or _pair(data, b"&#", 0) or _pair(data, b"<?", start):
        return None
    root = _ROOT_START.match(data, _SPACE.match(data, start).end())  # type: ignore[union-attr]
    namespace = _W.encode()
    if root is None or data.count(namespace) != 1 or namespace not in root.group(0):
        return None
    if not re.search(rb"""\sxmlns:w\s*=\s*["']""" + re.escape(namespace), root.group(0)):
        return None
    if not data.rstrip().endswith(b"</w:styles>"):
        return None
    return data, root.group(0), [m.start() for m in _STYLE_AT.finditer(data, root.end())]


_PLAIN_KEY = re.compile(r"[^\s&<>\"']+")
_DEFAULT_ATTRIBUTE = re.compile(rb"w:default\s*=")
_STYLE_ID = re.compile(rb"""w:styleId\s*=\s*(?:"([^"]*)"|'([^']*)')""")


def _reachable_styles(blob: bytes, ids: set[str]) -> Any | None:
    """A ``w:styles`` element holding, in their original order, every style the body can
    reach (by id, its base styles, the defaults, the one named Normal): a superset of what
    python-docx's lookups can return, so they return the same. None when the part must be
    parsed whole instead."""
    plain = _plain_styles(blob)
    if plain is None or not plain[2]:
        return None
    data, root_start, starts = plain
    chosen: set[int] = set()

    def enclosing(position: int) -> None:
        index = bisect.bisect_right(starts, position) - 1
        if index >= 0:
            chosen.add(index)

    for found in _DEFAULT_ATTRIBUTE.finditer(data, starts[0]):
        enclosing(found.start())
    for found in _NAME_AT.finditer(data, starts[0]):  # each tag read once: linear
        tag = _NAME_START.match(data, found.start())
        if tag is None:
            return None
        values = [d or q for name, d, q in _ATTRIBUTES.findall(tag.group(0)) if name == b"w:val"]
        if any(value == b"Normal" or b"&" in value for value in values):
            enclosing(found.start())
    by_id: dict[bytes, list[int]] = {}
    for found in _STYLE_ID.finditer(data, starts[0]):
        by_id.setdefault(found.group(1) or found.group(2) or b"", []).append(found.start())
    searched: set[str] = set()
    wanted = set(ids)
    for _ in range(12):  # python-docx follows a style's bases at most 10 deep
        for key in wanted - searched:
            if not _PLAIN_KEY.fullmatch(key):
                return None  # a value the byte comparison could get wrong
            for position in by_id.get(key.encode(), ()):
                enclosing(position)
        searched |= wanted
        parts: list[bytes] = []
        for index in sorted(chosen):
            end = _style_end(data, starts, index)
            if end is None:
                return None
            parts.append(data[starts[index] : end])
        element = parse_xml(root_start + b"".join(parts) + b"</w:styles>")
        bases = {
            str(node.get(_W_VAL))
            for node in element.iter(_W_BASED_ON)
            if node.get(_W_VAL) is not None
        }
        if bases <= searched:
            return element
        wanted |= bases
    return None


def _style_end(data: bytes, starts: list[int], index: int) -> int | None:
    """Where the ``w:style`` element starting at ``starts[index]`` ends; None when it does
    not end before the next one starts (an unusual shape)."""
    tag = _STYLE_START.match(data, starts[index])
    if tag is None:
        return None
    if tag.group(4) == b"/":
        end = tag.end()
    else:
        close = data.find(b"</w:style>", tag.end())
        end = -1 if close == -1 else close + len(b"</w:style>")
    limit = starts[index + 1] if index + 1 < len(starts) else len(data)
    return end if 0 < end <= limit else None
