"""The sample clinic every benchmark starts from: a throw-away embedded PostgreSQL in /tmp, the
real embedding model, and knowledge/ ingested for real. Benchmarks only."""

from __future__ import annotations

import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from engine.knowledge.embeddings import FastEmbedder
from engine.knowledge.ingest import Ingester
from engine.knowledge.ingest.results import IngestReport
from engine.ops.db import Database, open_database
from engine.ops.settings import DEFAULT_EMBEDDING_MODEL, Settings

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class SampleClinic:
    temp: Path
    settings: Settings
    db: Database
    embedder: FastEmbedder
    report: IngestReport

    def close(self) -> None:
        self.db.dispose()
        shutil.rmtree(self.temp, ignore_errors=True)


def start_sample_clinic(prefix: str) -> SampleClinic:
    temp = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    temp.chmod(0o755)  # as root the embedded server refuses private parent folders
    try:
        settings = Settings(data_dir=temp / "data")
        started = time.perf_counter()
        db = open_database(settings)
        embedder = FastEmbedder(DEFAULT_EMBEDDING_MODEL, temp / "models")
        report = Ingester(db, embedder, settings).ingest_folders([ROOT / "knowledge"])
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise
    print(
        f"setup: server + model + knowledge/ ({report.embedded_chunks} chunks embedded) "
        f"in {time.perf_counter() - started:.1f} s",
        flush=True,
    )
    return SampleClinic(temp, settings, db, embedder, report)


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0..1) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]
