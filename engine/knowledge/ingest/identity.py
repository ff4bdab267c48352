"""A document's identity: its slug, its audience, and the hash that says it is unchanged.

The slug comes from the file name (cut, with a short hash to stay unique, when very long). The
audience is the one the document, its folder and ``--audience`` agree on. The content hash covers
the file's bytes, the resolved audience and slug, the embedding model and the chunking settings
(``CHUNKER_VERSION`` included), so anything that would change the stored chunks or vectors
changes it (``engine.knowledge.catalog`` computes it too, to tell a changed file).

What it must never do: guess an audience (none declared is an error, never public), let two
declarations that disagree pass, or leave out of the hash anything that changes what is stored.
It reads no file and touches no database.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from engine.errors import DocumentUnreadable
from engine.knowledge.documents import AUDIENCES
from engine.ops.settings import Settings

#: Bump when the chunker's rules change, so every document is re-chunked once.
CHUNKER_VERSION = "2"
#: Longest slug made from a file name; a longer name is cut and given a short hash to stay unique.
MAX_SLUG_CHARS = 100


def slugify(path: Path) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-") or "document"
    if len(slug) > MAX_SLUG_CHARS:
        digest = hashlib.sha256(os.fsencode(path.stem)).hexdigest()[:8]
        slug = f"{slug[: MAX_SLUG_CHARS - 9].rstrip('-')}-{digest}"
    return slug


def _folder_audience(path: Path, root: Path) -> str | None:
    """``public`` or ``staff`` when the file sits under a folder of that name (root included)."""
    try:
        parts = path.parent.relative_to(root).parts
    except ValueError:
        parts = ()
    names = [root.name.lower(), *(p.lower() for p in parts)]
    found = [n for n in names if n in AUDIENCES]
    return found[-1] if found else None


def resolve_audience(
    declared: str | None, folder: str | None, override: str | None, path: Path
) -> str:
    """The one audience a document gets, or an error. Never defaults to public."""
    sources = {
        "the document": declared,
        "its folder": folder,
        "--audience": override,
    }
    given = {name: value for name, value in sources.items() if value is not None}
    values = set(given.values())
    if len(values) > 1:
        described = ", ".join(f"{name} says {value}" for name, value in given.items())
        raise DocumentUnreadable(str(path), f"conflicting audiences ({described}); make them agree")
    if not values:
        raise DocumentUnreadable(
            str(path),
            "no audience declared: add 'audience: public' or 'audience: staff' to the document, "
            "put it under a public/ or staff/ folder, or use --audience",
        )
    return values.pop()


def content_hash(
    data: bytes, *, slug: str, audience: str, settings: Settings, model_name: str
) -> str:
    digest = hashlib.sha256()
    digest.update(data)
    for part in (
        slug,
        audience,
        model_name,
        f"chunker={CHUNKER_VERSION}",
        f"target={settings.chunking.target_words}",
        f"max={settings.chunking.max_words}",
    ):
        digest.update(b"\x00" + part.encode())
    return digest.hexdigest()
