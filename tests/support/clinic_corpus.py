"""A tiny clinic knowledge base written as Markdown into a temporary folder, and helpers to ingest
it, for retrieval, answering, service and evaluation tests.

``AngleEmbedder`` is an Embedder whose geometry a test chooses: every query lies on one axis and a
passage containing a marker sits at a chosen cosine to it, so a test can put a passage exactly
below (or above) the similarity floor whatever its words are.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from engine.knowledge.ingest import Ingester
from engine.ops.db import Database
from engine.ops.settings import EmbeddingSettings, RetrievalSettings, Settings
from engine.protocols import Embedder
from tests.support.fake_embedder import FakeEmbedder

FAKE_MODEL = "fake/hash-embedder"
FLOOR = 0.3

COURIER_TEXT = (
    "The pathology courier account code is PX-4471 and the courier hotline is 020 7946 0199. "
    "Book collections before 15:00."
)

DOCUMENTS: dict[str, str] = {
    "public/fees.md": """---
title: Fees and payment
audience: public
reviewed_on: 2026-01-15
---
# Fees and payment

## Vaccinations

The flu vaccine costs £15 for adults. For children under 12 the flu vaccine is free.

## Sick notes

A private sick note costs £25 and takes three working days to prepare.
""",
    "public/contact.md": """---
title: Opening hours and contact
audience: public
---
# Opening hours and contact

## Opening hours

The clinic is open Monday to Friday from 8:00 to 18:30 and on Saturday from 9:00 to 12:00.

## Telephone

Call reception on 020 7946 0100 for test results after 14:00.
""",
    "public/parking.md": """---
title: Parking and access
audience: public
---
# Parking and access

## Car park

Free parking for patients is behind the building, entrance on Mill Lane. Blue badge bays are
next to the main door.
""",
    "public/tests.md": """---
title: Test preparation
audience: public
---
# Test preparation

## Blood tests

For a fasting blood test, do not eat for 12 hours before the test. You may drink water.

## MRI scans

Do not eat for 4 hours before an MRI scan. You may drink water. Remove all metal jewellery.
""",
    "staff/desk.md": f"""---
title: Front desk procedures
audience: staff
---
# Front desk procedures

## Supplier accounts

{COURIER_TEXT}

## Cash handling

The petty cash float is £150 and is counted by the duty manager at 18:00.
""",
}


# The keys of `clinic-assistant evaluate --json`, as docs/evaluation.md documents them.
DOCUMENTED_KEYS = {
    "model",
    "floor_in_use",
    "questions",
    "routing_accuracy",
    "safety_mistakes",
    "leaks",
    "right_document_rate",
    "answer_present_rate",
    "answer_quoted_rate",
    "answerable_rejected",
    "out_of_scope_rejection_rate",
    "out_of_scope_admitted",
    "answerable_similarity",
    "unanswerable_similarity",
    "ranges_overlap",
    "recommended_floor",
    "failures",
    "conversation",
    "standalone_changed",
    "passed",
}


def write_corpus(root: Path, documents: Mapping[str, str] = DOCUMENTS) -> Path:
    for relative, text in documents.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def fake_settings(settings: Settings, **retrieval: Any) -> Settings:
    """Settings for the fake embedder: its own floor, other retrieval knobs as given."""
    config = dataclasses.replace(
        RetrievalSettings(similarity_floors={FAKE_MODEL: FLOOR}), **retrieval
    )
    return settings.replace(retrieval=config, embedding=EmbeddingSettings(model=FAKE_MODEL))


def ingest(db: Database, settings: Settings, root: Path, embedder: Embedder | None = None) -> None:
    report = Ingester(db, embedder or FakeEmbedder(), settings).ingest_folders([root])
    assert not report.failed, report.failed


def chunk_texts(db: Database) -> list[str]:
    with db.session() as session:
        return [str(r[0]) for r in session.execute(sa.text("SELECT text FROM chunks"))]


def answer_rows(db: Database) -> list[sa.Row[tuple[object, ...]]]:
    with db.session() as session:
        return list(
            session.execute(
                sa.text(
                    "SELECT question, route, outcome, shown_text, original_text, guard_reason, "
                    "citations, audience, channel, prompt_version FROM answers ORDER BY id"
                )
            ).all()
        )


class AngleEmbedder(FakeEmbedder):
    """Queries lie on axis 0; a passage containing a marker sits at the marker's cosine to it,
    every other passage is orthogonal to every query."""

    def __init__(self, angles: Mapping[str, float], dimension: int = 384) -> None:
        super().__init__(dimension=dimension, model_name=FAKE_MODEL)
        self.angles = dict(angles)
        self.queries: list[str] = []

    def embed_query(self, text: str) -> list[float]:
        self.query_calls += 1
        self.queries.append(text)
        vector = [0.0] * self.dimension
        vector[0] = 1.0
        return vector

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        self.passage_calls += len(texts)
        return [self._passage(t) for t in texts]

    def _passage(self, text: str) -> list[float]:
        cosine = next((c for marker, c in self.angles.items() if marker in text), 0.0)
        digest = hashlib.blake2b(text.encode(), digest_size=4).digest()
        own = 1 + int.from_bytes(digest, "big") % (self.dimension - 1)
        vector = [0.0] * self.dimension
        vector[0] = cosine
        vector[own] = math.sqrt(max(0.0, 1.0 - cosine * cosine))
        return vector


class RecordingEmbedder(FakeEmbedder):
    """The hash embedder, remembering every query text it was asked to embed."""

    def __init__(self) -> None:
        super().__init__(model_name=FAKE_MODEL)
        self.queries: list[str] = []

    def embed_query(self, text: str) -> list[float]:
        self.queries.append(text)
        return super().embed_query(text)
