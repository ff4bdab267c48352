"""Ingest throughput against the raw embedder, and the cost of re-checking unchanged documents.

1. End-to-end ingest of the sample knowledge/ and of the fidelity corpus (tests/data/fidelity)
   with the real model (load, chunk, embed, write) in
   chunks per second, beside the raw embedder's chunks per second on exactly the same chunk texts:
   the ratio is what ingest adds on top of embedding.
2. 1,000 small Markdown files ingested once with the hash embedder, then the second (unchanged)
   run timed: what a scheduled re-ingest of an unchanged folder costs.

Both use an embedded PostgreSQL in a temporary folder (two databases, one per embedding model).

Run: .venv/bin/python benchmarks/ingest.py [--files N]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa  # noqa: E402

from engine import db as dbm  # noqa: E402
from engine.embeddings import FastEmbedder  # noqa: E402
from engine.ingest import EMBED_BATCH, Ingester  # noqa: E402
from engine.settings import DEFAULT_EMBEDDING_MODEL, DatabaseSettings, Settings  # noqa: E402
from tests.support.fake_embedder import FakeEmbedder  # noqa: E402

SMALL_DOC = """---
title: Leaflet {n}
audience: {audience}
---
# Leaflet {n}

## What it covers

Leaflet {n} explains service {n}: where to go, what to bring and how long it takes.

## Contact

Call extension {ext} between 9:00 and 17:00.
"""


def second_database(settings: Settings, name: str) -> Settings:
    """A fresh migrated database on the same embedded server, for the other embedding model."""
    url = sa.engine.make_url(dbm.database_url(settings))
    admin = sa.create_engine(
        url.set(database="postgres"),
        isolation_level="AUTOCOMMIT",
        poolclass=sa.pool.NullPool,
        hide_parameters=True,
    )
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    other = url.set(database=name).render_as_string(hide_password=False)
    return settings.replace(database=DatabaseSettings(url=other))


def _throughput(
    label: str, folder: Path, db: dbm.Database, embedder: FastEmbedder, settings: Settings
) -> None:
    """Ingest ``folder`` end to end, then embed exactly the same chunk texts in the same batches
    with the raw embedder, and print both speeds and their ratio."""
    started = time.perf_counter()
    report = Ingester(db, embedder, settings).ingest_folders([folder])
    ingest_seconds = time.perf_counter() - started
    assert not report.failed, [(r.path, r.error) for r in report.failed]
    chunks = report.embedded_chunks
    by_document: dict[int, list[str]] = {}
    with db.session() as session:
        for row in session.execute(
            sa.text("SELECT document_id, heading_path, text FROM chunks ORDER BY 1, ordinal")
        ):
            # Chunk.embed_text (heading path, blank line, body), grouped as ingest batches them
            by_document.setdefault(row[0], []).append(f"{row[1]}\n\n{row[2]}")
    texts = [t for group in by_document.values() for t in group]
    started = time.perf_counter()
    for group in by_document.values():
        for start in range(0, len(group), EMBED_BATCH):
            embedder.embed_passages(group[start : start + EMBED_BATCH])
    raw_seconds = time.perf_counter() - started
    print(
        f"{label}: {len(report.results)} documents, {chunks} chunks; ingest "
        f"{chunks / ingest_seconds:.1f} chunks/s ({ingest_seconds:.1f} s), raw embedder "
        f"{len(texts) / raw_seconds:.1f} chunks/s ({raw_seconds:.1f} s); ingest runs at "
        f"{raw_seconds / ingest_seconds:.2f}x the raw embedder's speed",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    args = parser.parse_args()
    temp = Path(tempfile.mkdtemp(prefix="clinic-bench-"))
    temp.chmod(0o755)
    try:
        settings = Settings(data_dir=temp / "data")
        db = dbm.open_database(settings)
        embedder = FastEmbedder(DEFAULT_EMBEDDING_MODEL, temp / "models")
        embedder.embed_passages(["warm-up passage"])

        _throughput("knowledge/", ROOT / "knowledge", db, embedder, settings)
        fidelity = second_database(settings, "bench_fidelity")
        fidelity_db = dbm.open_database(fidelity)
        _throughput(
            "fidelity corpus",
            ROOT / "tests" / "data" / "fidelity" / "public",
            fidelity_db,
            embedder,
            fidelity,
        )
        fidelity_db.dispose()
        db.dispose()

        folder = temp / "many"
        for n in range(args.files):
            audience = "public" if n % 4 else "staff"
            path = folder / audience / f"leaflet-{n:04d}.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(SMALL_DOC.format(n=n, audience=audience, ext=2000 + n), "utf-8")
        fake_settings = second_database(settings, "bench_many")
        many = dbm.open_database(fake_settings)
        fake = FakeEmbedder()
        started = time.perf_counter()
        first = Ingester(many, fake, fake_settings).ingest_folders([folder])
        first_seconds = time.perf_counter() - started
        started = time.perf_counter()
        second = Ingester(many, fake, fake_settings).ingest_folders([folder])
        second_seconds = time.perf_counter() - started
        assert second.count("unchanged") == args.files, second.count("unchanged")
        print(
            f"{args.files} small files: first ingest (hash embedder) {first_seconds:.1f} s "
            f"({first.count('created')} created); unchanged re-check {second_seconds:.2f} s "
            f"({second_seconds / args.files * 1000:.2f} ms per document)",
            flush=True,
        )
        many.dispose()
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
