"""Hostile knowledge files, generated into a folder: one file (or link) per trap a tester tried.

Each entry says what a person must see: ``created`` (a good file that must not be lost) or the
words the failure reason must contain. Used by ``test_hostile_files.py``; nothing here touches the
database.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

GOOD = """---
title: {title}
audience: public
---
# {title}

{body}
"""


@dataclass(frozen=True)
class Trap:
    name: bytes  # file name as bytes (some are not UTF-8)
    expect: str  # "created", or words that must appear in the failure reason


def _alias_bomb() -> str:
    # The classic "billion laughs": nine levels of nine aliases, about 440 bytes.
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for level in "bcdefghi":
        previous = chr(ord(level) - 1)
        lines.append(f"{level}: &{level} [{','.join(['*' + previous] * 9)}]")
    return "---\n" + "\n".join(lines) + "\ntitle: *i\naudience: public\n---\n# Hello\n\nText.\n"


def _alias_title() -> str:
    lines = ["x1: &x1 " + "A" * 60]
    for n in range(2, 8):
        lines.append(f"x{n}: &x{n} [{', '.join([f'*x{n - 1}'] * 6)}]")
    return "---\n" + "\n".join(lines) + "\ntitle: *x7\naudience: public\n---\nBody text.\n"


def build(folder: Path, outside: Path) -> dict[bytes, Trap]:
    """Write every trap into ``folder`` (a target outside it goes in ``outside``)."""
    folder.mkdir(parents=True, exist_ok=True)
    outside.mkdir(parents=True, exist_ok=True)
    traps: list[tuple[bytes, bytes | None, str]] = [
        (b"alias-bomb.md", _alias_bomb().encode(), "aliases"),
        (b"alias-title.md", _alias_title().encode(), "aliases"),
        (
            b"bad-date.md",
            b"---\ntitle: Dates\naudience: public\nreviewed_on: 2026-13-45\n---\nText.\n",
            "reviewed_on must be a date",
        ),
        (
            b"deep-yaml.md",
            ("---\ntitle: " + "[" * 200 + "]" * 200 + "\n---\nText.\n").encode(),
            "nested too deeply",
        ),
        (
            b"big-front-matter.md",
            ("---\n" + "".join(f"k{i}: v\n" for i in range(5000)) + "---\nText.\n").encode(),
            "front matter is longer",
        ),
        (b"nul-byte.md", GOOD.format(title="Nul", body="A\x00B").encode(), "NUL"),
        (
            b"utf16-no-bom.md",
            GOOD.format(title="Wide", body="Opening hours.").encode("utf-16-le"),
            "UTF-16",
        ),
        (
            b"utf16-bom.md",
            GOOD.format(title="Wide with mark", body="Open at 8.").encode("utf-16"),
            "created",
        ),
        (b"latin1.md", GOOD.format(title="Caf\xe9", body="Caf\xe9.").encode("latin-1"), "UTF-8"),
        (
            b"unclosed-comment.md",
            GOOD.format(title="Notes", body="Visible.\n\n<!-- internal " + "x " * 1000).encode(),
            "never closed",
        ),
        (
            b"space-heading.md",
            GOOD.format(
                title="Spaces", body="#" + " " * 100_000 + "Real heading\n\nText."
            ).encode(),
            "created",
        ),
        (
            b"giant-word.md",
            GOOD.format(title="Giant word", body="w" * 2_000_000).encode(),
            "created",
        ),
        (
            b"big-table.md",
            GOOD.format(
                title="Price table",
                body="| Item | Price |\n|---|---|\n"
                + "\n".join(f"| thing {i} | {i}.00 |" for i in range(5000)),
            ).encode(),
            "created",
        ),
        (
            b"many-lines.md",
            GOOD.format(
                title="Many lines", body="\n".join(f"line {i}" for i in range(1_000_000))
            ).encode(),
            "passages, over the limit",
        ),
        (b"x" * 237 + b".md", GOOD.format(title="", body="A long name.").encode(), "created"),
        (b"caf\xe9-menu.md", GOOD.format(title="Menu", body="Soup.").encode(), "created"),
        (b"empty.md", b"", "empty"),
        (b"binary.pdf", b"%PDF-1.4\n" + os.urandom(2000), "PDF"),
        (b"fake.docx", b"PK\x03\x04 not really a zip", "Word"),
        (b"notes.xyz", b"hello", "unsupported file type"),
    ]
    expected: dict[bytes, Trap] = {}
    for name, data, expect in traps:
        if data is not None:
            Path(os.fsdecode(os.fsencode(folder) + b"/" + name)).write_bytes(data)
        expected[name] = Trap(name, expect)
    secret = outside / "hostname"
    secret.write_text("secret-host-name\n", encoding="utf-8")
    links = {
        b"outside-link.md": (secret, "outside the ingested folder"),
        b"loop-a.md": (folder / "loop-b.md", "link loop"),
        b"loop-b.md": (folder / "loop-a.md", "link loop"),
        b"dangling.md": (folder / "missing.md", "broken link"),
    }
    for name, (target, expect) in links.items():
        os.symlink(target, folder / os.fsdecode(name))
        expected[name] = Trap(name, expect)
    inside_target = folder / "sub" / "real.md"
    inside_target.parent.mkdir()
    inside_target.write_text(GOOD.format(title="Inside", body="Linked inside."), encoding="utf-8")
    expected[b"sub/real.md"] = Trap(b"sub/real.md", "created")
    os.symlink(inside_target, folder / "inside-link.md")
    expected[b"inside-link.md"] = Trap(b"inside-link.md", "created")  # stays inside: allowed
    os.mkfifo(folder / "pipe.md")
    expected[b"pipe.md"] = Trap(b"pipe.md", "not a regular file")
    return expected
