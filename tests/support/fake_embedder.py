"""A deterministic, fast embedder implementing engine.protocols.Embedder.

Words are lower-cased and crudely stemmed, then hashed into a fixed number of dimensions; the
vector is normalised. Texts that share words are similar, texts that share none are orthogonal,
so retrieval logic can be tested without the real model. ``fail_on`` makes it raise for a text
that contains a marker (to interrupt an ingest mid-document); ``calls`` counts embedded texts.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence

WORD = re.compile(r"[a-z0-9]+")


def _stem(word: str) -> str:
    for suffix in ("ing", "es", "s", "ed"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


class FakeEmbedder:
    def __init__(self, dimension: int = 384, model_name: str = "fake/hash-embedder") -> None:
        self.dimension = dimension
        self.model_name = model_name
        self.passage_calls = 0
        self.query_calls = 0
        self.fail_on: str | None = None

    def _vector(self, text: str) -> list[float]:
        if self.fail_on is not None and self.fail_on in text:
            raise RuntimeError(f"embedding failed on purpose ({self.fail_on})")
        vec = [0.0] * self.dimension
        for word in WORD.findall(text.lower()):
            h = int.from_bytes(hashlib.blake2b(_stem(word).encode(), digest_size=4).digest(), "big")
            vec[h % self.dimension] += 1.0
        norm = math.sqrt(sum(v * v for v in vec))
        if norm == 0:
            vec[0] = 1.0
            return vec
        return [v / norm for v in vec]

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        self.passage_calls += len(texts)
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        self.query_calls += 1
        return self._vector(text)


class RaisingEmbedder(FakeEmbedder):
    """Raises if anything is embedded: proves a path never reaches the embedder."""

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        raise AssertionError("the embedder must not be called on this path")

    def embed_query(self, text: str) -> list[float]:
        raise AssertionError("the embedder must not be called on this path")
