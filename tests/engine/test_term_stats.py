"""The cached IDF statistics follow the documents: a new or removed document invalidates them.
A public search's statistics count public chunks only, whoever asks."""

from __future__ import annotations

from pathlib import Path

from engine.answering.retrieval.term_stats import _TERM_STATS
from engine.knowledge.ingest import Ingester
from engine.ops import db as dbm
from engine.ops.settings import Settings
from tests.support.fake_embedder import FakeEmbedder


def write(folder: Path, name: str, body: str, audience: str = "public") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(
        f"---\naudience: {audience}\n---\n# {name}\n\n{body}\n", encoding="utf-8"
    )


def counts(
    db: dbm.Database, lexemes: list[str], *, public: bool = False
) -> tuple[dict[str, int], int]:
    with db.session() as session:
        key = f"{db.url}#{'public' if public else 'all'}"
        return _TERM_STATS.lookup(session, key, lexemes, public=public)


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


def test_a_public_search_counts_public_chunks_only(
    db: dbm.Database, settings: Settings, tmp_path: Path
) -> None:
    """The owner running ``evaluate`` for a public question weighs its words as the kiosk does:
    a word that only staff documents hold counts as absent, and the total is public chunks."""
    root = tmp_path / "k"
    write(root, "hours.md", "The clinic opens at 8:00.")
    write(root / "staff", "rota.md", "The clinic rota lists the locum.", audience="staff")
    Ingester(db, FakeEmbedder(), settings).ingest_folders([root])

    public, public_total = counts(db, ["clinic", "locum"], public=True)
    everyone, everyone_total = counts(db, ["clinic", "locum"], public=False)
    assert public == {"clinic": 1, "locum": 0}
    assert everyone == {"clinic": 2, "locum": 1}
    assert public_total < everyone_total
    with db.session() as session:
        words = _TERM_STATS.vocabulary(session, f"{db.url}#public", public=True)
    assert "locum" not in words.get("l", {}), "a public question could be corrected to it"
    assert "clinic" in words.get("c", {})
