"""Scale an ingested corpus up to benchmark size with realistic synthetic chunks.

Text is made by recombining the sentences of the chunks that were really ingested (so full-text
statistics, lexeme frequencies and chunk lengths look like a clinic's documents, not random
letters); each vector is the real vector of the chunk that supplied the opening sentences plus
Gaussian noise, renormalised (so synthetic chunks cluster around real topics the way a larger
clinic's documents would, and HNSW sees a realistic graph). Embedding 10,000 chunks for real
would take ~13 minutes on 2 cores (12-14 passages/s), hence the perturbed vectors.

Rows are COPYed with the HNSW index dropped and the index is rebuilt afterwards (loading into an
indexed table is ~6x slower), then ANALYZE runs as ``engine.knowledge.ingest`` does after every
change.

Benchmarks only: this must never be imported by ``engine/`` or the apps, and never run against a
real clinic's database (it inserts documents named ``synthetic-*``).
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass

import numpy as np
import sqlalchemy as sa

from engine.ops.db import Database

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


@dataclass(frozen=True)
class _RealChunk:
    title: str
    heading: str
    sentences: tuple[str, ...]
    vector: np.ndarray


def _real_chunks(db: Database) -> list[_RealChunk]:
    with db.session() as session:
        rows = session.execute(
            sa.text(
                "SELECT d.title, c.heading_path, c.text, c.embedding::text AS vector "
                "FROM chunks c JOIN documents d ON d.id = c.document_id "
                "WHERE d.slug NOT LIKE 'synthetic-%' ORDER BY c.id"
            )
        ).all()
    chunks = []
    for row in rows:
        sentences = tuple(
            s.strip(" -*#") for s in _SENTENCE_END.split(row.text) if len(s.split()) >= 3
        )
        if sentences:
            heading = row.heading_path.split(" > ")[-1] if row.heading_path else row.title
            vector = np.asarray(json.loads(row.vector), dtype=np.float32)
            chunks.append(_RealChunk(row.title, heading, sentences, vector))
    if not chunks:
        raise RuntimeError("Ingest some real documents before adding synthetic chunks.")
    return chunks


def _documents(
    db: Database, count: int, staff_share: float, titles: list[str]
) -> list[tuple[int, str]]:
    """Create ``count`` synthetic documents, the last ``staff_share`` of them staff-only."""
    staff_from = round(count * (1 - staff_share))
    insert = sa.text(
        "INSERT INTO documents (slug, title, audience, source_path, source_folder, content_hash) "
        "VALUES (:s, :t, :a, '', '', '') RETURNING id"
    )
    made = []
    with db.session() as session:
        for i in range(count):
            title = f"{titles[i % len(titles)]} (site {i + 1})"
            audience = "staff" if i >= staff_from else "public"
            params = {"s": f"synthetic-{i}", "t": title, "a": audience}
            made.append((int(session.execute(insert, params).scalar_one()), title))
    return made


def add_recombined_chunks(
    db: Database,
    total: int,
    rng: random.Random,
    *,
    documents: int = 50,
    staff_share: float = 0.2,
) -> int:
    """Add synthetic chunks until the table holds ``total`` chunks; returns how many were added.

    Chunks are spread evenly over ``documents`` new documents, ``staff_share`` of them staff, so
    about that share of chunks is staff-only. Each chunk: 3-8 sentences, the first two from one
    real chunk (its heading and, perturbed, its vector), the rest from random real chunks."""
    with db.session() as session:
        have = int(session.execute(sa.text("SELECT count(*) FROM chunks")).scalar_one())
    count = total - have
    if count <= 0:
        return 0
    real = _real_chunks(db)
    pool = [(s, c) for c in real for s in c.sentences]
    docs = _documents(db, documents, staff_share, sorted({c.title for c in real}))
    noise = np.random.default_rng(rng.randrange(2**32))
    dimension = real[0].vector.shape[0]
    with db.session() as session:
        session.execute(sa.text("DROP INDEX IF EXISTS chunks_embedding_hnsw"))
    raw = db.engine.raw_connection()
    try:
        cursor = raw.cursor()
        with cursor.copy(
            "COPY chunks (document_id, ordinal, heading_path, text, token_estimate, embedding) "
            "FROM STDIN"
        ) as copy:
            for n in range(count):
                base = rng.choice(real)
                opening = list(base.sentences[:2])
                extra = [s for s, _ in rng.sample(pool, rng.randint(1, 6))]
                text = " ".join(opening + extra)
                # sigma 0.02-0.05 per dimension: cosine to the base chunk ~0.93 down to ~0.7
                sigma = rng.uniform(0.02, 0.05)
                vector = base.vector + noise.normal(0.0, sigma, dimension)
                vector = vector / np.linalg.norm(vector)
                literal = "[" + ",".join(f"{v:.6f}" for v in vector.tolist()) + "]"
                doc, title = docs[n % len(docs)]
                heading = f"{title} > {base.heading}"
                words = len(text.split())
                copy.write_row((doc, n // len(docs) + 1, heading, text, words * 4 // 3, literal))
        raw.commit()
    finally:
        raw.close()
    with db.session() as session:
        session.execute(sa.text("SET LOCAL maintenance_work_mem = '256MB'"))
        session.execute(
            sa.text(
                "CREATE INDEX chunks_embedding_hnsw ON chunks "
                "USING hnsw (embedding vector_cosine_ops)"
            )
        )
    with db.session() as session:
        session.execute(sa.text("ANALYZE documents, chunks"))  # as engine.knowledge.ingest does
    return count
