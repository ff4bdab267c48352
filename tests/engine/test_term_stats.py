"""The cached IDF statistics follow the documents: a new or removed document invalidates them."""

from __future__ import annotations

from pathlib import Path

from engine.answering.retrieval import _TERM_STATS
from engine.knowledge.ingest import Ingester
from engine.ops import db as dbm
from engine.ops.settings import Settings
from tests.support.fake_embedder import FakeEmbedder


def write(folder: Path, name: str, body: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(
        f"---\naudience: public\n---\n# {name}\n\n{body}\n", encoding="utf-8"
    )


def counts(db: dbm.Database, lexemes: list[str]) -> tuple[dict[str, int], int]:
    with db.session() as session:
        return _TERM_STATS.lookup(session, db.url, lexemes)


def test_counts_change_when_documents_change(
    db: dbm.Database, settings: Settings, tmp_path: Path
) -> None:
    root = tmp_path / "k"
    write(root, "hours.md", "The clinic opens at 8:00.")
    ingester = Ingester(db, FakeEmbedder(), settings)
    ingester.ingest_folders([root])
    before, total_before = counts(db, ["gym", "clinic"])
    assert before == {"gym": 0, "clinic": 1}

    write(root, "gym.md", "There is no gym at the clinic.")
    ingester.ingest_folders([root])
    after, total_after = counts(db, ["gym", "clinic"])
    assert after == {"gym": 1, "clinic": 2}
    assert total_after > total_before

    (root / "gym.md").unlink()
    ingester.ingest_folders([root])
    assert counts(db, ["gym", "clinic"])[0] == {"gym": 0, "clinic": 1}
