"""Heading-aware chunking: turns a loaded document's blocks into passages to embed and cite.

Rules (each has a unit test in ``tests/engine/test_chunking.py``):

* A heading always starts a new chunk; a chunk never spans two sections.
* Paragraphs (text blocks: a paragraph, a whole list, a whole table) are packed whole, up to
  about ``target_words`` and never over ``max_words``. **Every chunk is bounded**: a block longer
  than ``max_words`` words or :func:`max_chars` characters is split, a table into groups of
  rows that each repeat the header row, a list between items, prose between sentences, a
  sentence between words, and a single overlong "word" (a 2 MB token) hard at the character
  limit. A split never drops or repeats a word (only a table's header row is repeated).
* Every chunk carries its heading path, document title first (``Title > Section > Sub``), and
  that path is prefixed to :attr:`Chunk.embed_text`, the text that gets embedded.
* Nothing is silently dropped: a short section still becomes a chunk; a heading with no body
  lives on in its sub-sections' paths, or, with no sub-sections either, becomes a chunk whose
  text is the heading itself. A first heading that merely repeats the document title is not
  repeated in the path.
* **No overlap.** Chunks are whole paragraphs under an explicit heading path, so the context
  that overlap usually supplies (what is this passage about?) is already in every chunk. Overlap
  would put the same fact in two passages, which wastes the prompt budget, makes "which passage
  said that" ambiguous for the citation guard, and could produce a chunk made mostly of
  carried-over text.

This module is pure: it never reads files, embeds, or touches the database. Front matter never
reaches it (loaders strip it), so it can never enter a chunk.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from engine.knowledge.documents import Block, normalise_space
from engine.ops.settings import ChunkingSettings

TOKENS_PER_WORD = 1.3
HEADING_SEPARATOR = " > "
#: Characters allowed per word of ``max_words``: generous for prose (about 6 per word), tight
#: enough that a chunk of a few giant tokens stays small.
CHARS_PER_WORD = 10
_SENTENCE_BREAK = re.compile(r"(?<=[.!?\"'”’)\]])\s+")


@dataclass(frozen=True)
class Chunk:
    ordinal: int
    heading_path: tuple[str, ...]  # ("Document title", "Section", "Subsection")
    text: str  # body text only (no heading path)
    token_estimate: int  # round(words of text * 1.3)

    @property
    def heading_label(self) -> str:
        return HEADING_SEPARATOR.join(self.heading_path)

    @property
    def embed_text(self) -> str:
        return f"{self.heading_label}\n\n{self.text}"


def estimate_tokens(text: str) -> int:
    return round(len(text.split()) * TOKENS_PER_WORD)


@dataclass
class _Section:
    path: tuple[str, ...]
    level: int  # 0: before any heading (or the heading that repeats the title)
    is_heading: bool  # False only for the text that comes before the first heading
    paragraphs: list[str] = field(default_factory=list)


def _sections(title: str, blocks: Sequence[Block]) -> list[_Section]:
    sections = [_Section(path=(title,), level=0, is_heading=False)]
    stack: list[tuple[int, str]] = []
    seen_heading = False
    for block in blocks:
        if block.kind == "heading":
            text = normalise_space(block.text)
            if not text:
                continue
            if not seen_heading and text.casefold() == title.casefold() and not stack:
                # "# Opening hours" under a document titled "Opening hours": already the title.
                seen_heading = True
                sections.append(_Section(path=(title,), level=0, is_heading=True))
                continue
            seen_heading = True
            level = max(1, block.level)
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, text))
            path = (title, *(name for _, name in stack))
            sections.append(_Section(path=path, level=level, is_heading=True))
        else:
            text = block.text.strip()
            if text:
                sections[-1].paragraphs.append(text)
    return sections


def max_chars(settings: ChunkingSettings) -> int:
    """The most characters a chunk's text may have."""
    return max(1, settings.max_words, settings.target_words) * CHARS_PER_WORD


def _fits(text: str, words: int, chars: int) -> bool:
    return len(text) <= chars and len(text.split()) <= words


def _is_table(lines: list[str]) -> bool:
    return len(lines) > 2 and all(" | " in line or line.count("|") > 1 for line in lines)


def _group(pieces: Iterator[str], joiner: str, words: int, chars: int) -> Iterator[str]:
    """Join consecutive pieces (each already within the limits) while the result fits."""
    current: list[str] = []
    count = size = 0
    for piece in pieces:
        piece_words, piece_size = len(piece.split()), len(piece) + len(joiner)
        if current and (count + piece_words > words or size + piece_size > chars):
            yield joiner.join(current)
            current, count, size = [], 0, 0
        current.append(piece)
        count += piece_words
        size += piece_size
    if current:
        yield joiner.join(current)


def _hard_pieces(token: str, chars: int) -> Iterator[str]:
    for start in range(0, len(token), chars):
        yield token[start : start + chars]


def _word_pieces(sentence: str, words: int, chars: int) -> Iterator[str]:
    tokens = (piece for token in sentence.split() for piece in _hard_pieces(token, chars))
    return _group(tokens, " ", words, chars)


def _prose_pieces(text: str, words: int, chars: int) -> Iterator[str]:
    sentences = (s for s in _SENTENCE_BREAK.split(" ".join(text.split())) if s)
    bounded = (
        piece
        for sentence in sentences
        for piece in (
            [sentence] if _fits(sentence, words, chars) else _word_pieces(sentence, words, chars)
        )
    )
    return _group(bounded, " ", words, chars)


def bounded_pieces(paragraph: str, words: int, chars: int) -> list[str]:
    """``paragraph`` as one or more pieces of at most ``words`` words and ``chars`` characters.

    A table (lines of ``cell | cell``) is split into row groups that each start with the header
    row; a list or other multi-line block between lines; prose between sentences."""
    if _fits(paragraph, words, chars):
        return [paragraph]
    lines = [line for line in paragraph.split("\n") if line.strip()]
    if _is_table(lines):
        header, rows = lines[0], lines[1:]
        room_words = words - len(header.split())
        room_chars = chars - len(header) - 1
        if room_words >= max(1, words // 2) and room_chars >= chars // 2:
            groups = _group(
                (p for row in rows for p in bounded_pieces(row, room_words, room_chars)),
                "\n",
                room_words,
                room_chars,
            )
            return [f"{header}\n{group}" for group in groups]
    if len(lines) > 1:
        return list(
            _group(
                (p for line in lines for p in bounded_pieces(line, words, chars)),
                "\n",
                words,
                chars,
            )
        )
    return list(_prose_pieces(paragraph, words, chars))


def _pack(paragraphs: list[str], settings: ChunkingSettings) -> list[list[str]]:
    target = max(1, settings.target_words)
    limit = max(target, settings.max_words)
    chars = max_chars(settings)
    paragraphs = [piece for p in paragraphs for piece in bounded_pieces(p, limit, chars)]
    groups: list[list[str]] = []
    current: list[str] = []
    words = 0
    size = 0
    for index, paragraph in enumerate(paragraphs):
        count = len(paragraph.split())
        last = index == len(paragraphs) - 1
        combined = words + count
        fits = (
            combined <= limit
            and size + len(paragraph) + 2 <= chars
            and (
                combined <= target
                # A little over target when that is nearer the target than stopping short...
                or combined - target < target - words
                # ...or rather than leave a short last paragraph as a chunk of its own.
                or (last and count < target // 2)
            )
        )
        if current and not fits:
            groups.append(current)
            current, words, size = [], 0, 0
        current.append(paragraph)
        words += count
        size += len(paragraph) + 2
    if current:
        groups.append(current)
    return groups


def chunk_document(title: str, blocks: Sequence[Block], settings: ChunkingSettings) -> list[Chunk]:
    """Split one document's blocks into ordered chunks (ordinals 0..n-1)."""
    title = normalise_space(title) or "Untitled document"
    sections = _sections(title, blocks)
    bodies: list[tuple[tuple[str, ...], str]] = []
    for index, section in enumerate(sections):
        if section.paragraphs:
            for group in _pack(section.paragraphs, settings):
                bodies.append((section.path, "\n\n".join(group)))
            continue
        if not section.is_heading:
            continue
        following = sections[index + 1] if index + 1 < len(sections) else None
        if following is not None and following.level > section.level:
            continue  # its sub-sections carry this heading in their paths
        bodies.append((section.path, section.path[-1]))
    return [
        Chunk(ordinal=i, heading_path=path, text=text, token_estimate=estimate_tokens(text))
        for i, (path, text) in enumerate(bodies)
    ]
