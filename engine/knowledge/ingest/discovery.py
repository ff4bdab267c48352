"""The files a run was given, found without opening any, and the order the pipeline reads them in.

:func:`discover` walks each folder (hidden files and README.md skipped), never following a link
to a folder; a symbolic link is taken only when it resolves to a regular file inside the ingested
folder. A link that leaves the folder, a link loop, a broken link, a FIFO, socket or device, and a
folder or file that cannot be read each become one failed result with a reason. ``_reading_order``
puts the cheapest file to read first (the report keeps the order found).

What it must never do: open or read a file it reports (a FIFO would block the run; a link out of
the folder could bring a file from elsewhere into the knowledge), or follow a link to a folder
found inside one.
"""

from __future__ import annotations

import logging
import os
import stat
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.knowledge.documents import display_path
from engine.knowledge.ingest.identity import slugify
from engine.knowledge.ingest.results import IngestResult
from engine.knowledge.loaders import SUPPORTED_SUFFIXES

# The package's one logger: log lines name engine.knowledge.ingest, whichever module wrote them.
log = logging.getLogger(__package__)


@dataclass(frozen=True)
class _Candidate:
    path: Path
    root: Path

    @property
    def shown(self) -> str:
        return display_path(self.path)


def _refused(path: Path, reason: str) -> IngestResult:
    log.warning("ingest skipped %s: %s", display_path(path), reason)
    return IngestResult(display_path(path), slugify(path), "", "", "failed", 0, reason)


_SPECIAL = "not a regular file (a pipe, socket or device); skipped without opening it"


def _link_problem(link: Path, root: Path) -> str | None:
    """Why the symbolic link ``link`` may not be ingested, or None when it is a file in ``root``."""
    try:
        target = link.resolve(strict=True)
    except FileNotFoundError:
        return "a broken link: the file it points to does not exist"
    except (OSError, RuntimeError):
        return "a link loop: the link points back to itself"
    if not target.is_relative_to(root):
        return (
            "a link to a file outside the ingested folder: refused (copy the file into the "
            "folder instead)"
        )
    try:
        mode = target.stat().st_mode
    except OSError as exc:
        return f"cannot read the file the link points to ({exc.strerror})"
    if stat.S_ISDIR(mode):
        return "a link to a folder: links to folders are not followed"
    if not stat.S_ISREG(mode):
        return _SPECIAL
    return None


def _walk(folder: Path, root: Path) -> Iterator[_Candidate | IngestResult]:
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        yield _refused(folder, f"cannot read the folder ({exc.strerror})")
        return
    for entry in entries:
        path = Path(entry.path)
        if entry.name.startswith(".") or entry.name.lower() == "readme.md":
            continue
        try:
            if entry.is_symlink():
                problem = _link_problem(path, root)
                yield _refused(path, problem) if problem else _Candidate(path, root)
            elif entry.is_dir(follow_symlinks=False):
                yield from _walk(path, root)
            elif entry.is_file(follow_symlinks=False):
                yield _Candidate(path, root)
            else:
                yield _refused(path, _SPECIAL)
        except OSError as exc:
            yield _refused(path, f"cannot read it ({exc.strerror})")


def discover(folders: Sequence[Path]) -> tuple[list[_Candidate], list[IngestResult]]:
    """Every file under the folders (or the files themselves); problems reported, never opened."""
    found: list[_Candidate] = []
    problems: list[IngestResult] = []
    for folder in folders:
        given = Path(os.path.abspath(folder))
        try:
            if given.is_dir():
                root = given.resolve()
                for item in _walk(root, root):
                    if isinstance(item, _Candidate):
                        found.append(item)
                    else:
                        problems.append(item)
                continue
            if given.is_symlink():
                problem = _link_problem(given, given.parent.resolve())
                if problem:
                    problems.append(_refused(given, problem))
                    continue
                parent = given.parent.resolve()
                found.append(_Candidate(parent / given.name, parent))
            elif given.is_file():
                resolved = given.resolve()
                found.append(_Candidate(resolved, resolved.parent))
            elif given.exists():
                problems.append(_refused(given, _SPECIAL))
            else:
                problems.append(_refused(given, "no such file or folder"))
        except OSError as exc:
            problems.append(_refused(given, f"cannot read it ({exc.strerror})"))
    return found, problems


# Formats whose loaders parse a container (a zip of XML parts, PDF content streams): byte for
# byte many times the cost of reading text (benchmarks/README.md: the 38 KB Word file of the
# fidelity corpus 5.7 ms, its 0.6 KB Markdown file 0.3 ms).
_PARSED_SUFFIXES = frozenset({".docx", ".pdf"})


def _reading_order(candidates: Sequence[_Candidate]) -> list[int]:
    """The candidates' positions in the order the pipeline reads them: the cheapest to read
    first, then the others in the order they were found.

    Nothing hides the first file's read: embedding starts when it is done, and on a small
    folder the Word file found first cost more than a tenth of the run. Only a supported file
    whose slug no other candidate shares may move: of two files with the same name, the later
    one found is still the one refused. The report keeps the order found either way."""
    slugs = Counter(slugify(c.path) for c in candidates)
    best: tuple[bool, int] | None = None
    first = 0
    for index, candidate in enumerate(candidates):
        suffix = candidate.path.suffix.lower()
        if suffix not in SUPPORTED_SUFFIXES or slugs[slugify(candidate.path)] > 1:
            continue
        try:
            size = candidate.path.stat().st_size
        except OSError:
            continue  # reported in its turn, in the reader's own words
        cost = (suffix in _PARSED_SUFFIXES, size)
        if best is None or cost < best:
            best, first = cost, index
    return [first, *range(first), *range(first + 1, len(candidates))]
