"""The common shape every document loader produces, and the metadata rules they share.

A loader turns a file into a :class:`LoadedDocument`: a title, an audience, an optional review
date and a flat list of :class:`Block` (headings and text, in reading order). The chunker only
ever sees that list, so Markdown, Word and PDF are chunked by one set of rules.

The metadata helpers here are the one place that decides what a valid audience or review date
is. They must never guess: an audience other than ``public`` or ``staff`` is an error, and a
document that declares no audience keeps ``audience=None`` (which is *not* public; the ingest
step decides what to do with it). Nothing here reads files or touches the database.
"""

from __future__ import annotations

import datetime
import os
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from engine.errors import DocumentUnreadable

AUDIENCES = ("public", "staff")
#: Longest title and heading kept; longer ones are cut at a word with an ellipsis.
MAX_TITLE_CHARS = 200
MAX_HEADING_CHARS = 200


@dataclass(frozen=True)
class Block:
    """One heading or one paragraph-like piece of text (a paragraph, a whole list, a table)."""

    kind: Literal["heading", "text"]
    text: str
    level: int = 0  # heading level 1..6; 0 for text


@dataclass(frozen=True)
class LoadedDocument:
    title: str
    audience: str | None  # "public" | "staff" | None when the file declares none
    reviewed_on: datetime.date | None
    blocks: tuple[Block, ...]
    source_path: str
    #: What the loader changed or guessed that staff should know (dropped headers, columns...).
    warnings: tuple[str, ...] = ()


def title_from_filename(path: Path) -> str:
    """``opening-hours_2026.md`` -> ``Opening hours 2026``."""
    words = re.sub(r"[-_.\s]+", " ", path.stem).strip()
    if not words:
        return "Untitled document"
    if words == words.lower():
        words = words[0].upper() + words[1:]
    return words


def parse_audience(value: object, path: Path) -> str | None:
    """Validate a declared audience. ``None``/missing stays ``None``; anything unknown fails."""
    if value is None:
        return None
    if not isinstance(value, str) or value.strip().lower() not in AUDIENCES:
        raise DocumentUnreadable(
            str(path),
            f"audience must be 'public' or 'staff', not {value!r}",
        )
    return value.strip().lower()


def parse_reviewed_on(value: object, path: Path) -> datetime.date | None:
    """Validate a review date written as ``YYYY-MM-DD`` (or already parsed by YAML)."""
    if value is None:
        return None
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise DocumentUnreadable(
        str(path), f"reviewed_on must be a date written as YYYY-MM-DD, not {value!r}"
    )


_PAIR_SPLIT = re.compile(r"[;\n,]")
_PAIR = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*[=:]\s*(.*?)\s*$")


def parse_metadata_pairs(text: str) -> dict[str, str]:
    """Read ``audience=public;reviewed_on=2026-10-01`` (or ``key: value`` lines) into a dict.

    Keys are lower-cased. Pieces without ``=`` or ``:`` (plain keywords) are ignored.
    """
    pairs: dict[str, str] = {}
    for piece in _PAIR_SPLIT.split(text or ""):
        match = _PAIR.match(piece)
        if match and match.group(2):
            pairs[match.group(1).lower().replace("-", "_")] = match.group(2).strip("'\"")
    return pairs


def metadata_fields(
    values: Mapping[str, object], path: Path
) -> tuple[str | None, datetime.date | None]:
    """Audience and review date from a metadata mapping, validated."""
    return parse_audience(values.get("audience"), path), parse_reviewed_on(
        values.get("reviewed_on"), path
    )


def normalise_space(text: str) -> str:
    """Collapse runs of whitespace to single spaces (for one-line text such as headings)."""
    return " ".join(text.split())


# C0 controls other than tab and newline, DEL, C1 controls, lone surrogates, zero-width marks and
# the soft hyphen: never visible, and NUL or a surrogate cannot even be stored.
_INVISIBLE = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\u00ad\u200b\u200c\u200d"
    r"\u2060\ufeff]"
)


def clean_text(text: str) -> str:
    """Text as it is stored and indexed: NFKC (ligatures such as "ﬁ" become "fi", non-breaking
    spaces become spaces), carriage returns as newlines, invisible characters removed."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _INVISIBLE.sub("", text)
    return unicodedata.normalize("NFKC", text)


def cap_line(text: str, limit: int) -> str:
    """One line of at most ``limit`` characters, cut at a word boundary with an ellipsis."""
    text = normalise_space(text)
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip() + "…"


def display_path(path: str | os.PathLike[str]) -> str:
    """A path as text that can always be printed and stored: bytes of a file name that are not
    UTF-8 are shown as U+FFFD (the file itself is still read through its real name)."""
    return os.fsencode(path).decode("utf-8", "replace")
