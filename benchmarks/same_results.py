"""Whether a change meant for speed left every search result as it was: the questions of
``retrieval.py`` searched on ONE database by two versions of the code, each writing what it found.

The same database matters: the HNSW index is built with random levels, so two builds of the same
chunks (two runs of ``retrieval.py``) return slightly different vector-arm candidates near the
30th rank, and their results differ with no code changed at all.

  build DIR           knowledge/ (real model) + synthetic chunks up to --chunks (as retrieval.py
                      makes them) + the kiosk role, left in DIR (about 1 min; delete it after)
  dump DIR OUT.json   every information and out-of-scope question of questions.yaml as the public,
                      staff and kiosk readers search it (candidates with similarity, ranks, term
                      share and fused score; kept passages; quotes; term weights), its route and
                      nearest exemplars, and the follow-ups of tuning.yaml, with the code of
                      --code (default: this checkout)

Then ``cmp`` the two files. Example, main against a worktree:
  .venv/bin/python benchmarks/same_results.py build /tmp/same
  .venv/bin/python benchmarks/same_results.py dump /tmp/same /tmp/after.json
  .venv/bin/python benchmarks/same_results.py dump /tmp/same /tmp/before.json --code /work/main
  cmp /tmp/before.json /tmp/after.json
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import sys
from pathlib import Path
from typing import Any

PASSWORD_FILE = "kiosk-password"


def build(folder: Path, chunks: int) -> None:
    from benchmarks.retrieval import add_synthetic
    from engine.knowledge.embeddings import FastEmbedder
    from engine.knowledge.ingest import Ingester
    from engine.ops.db import open_database
    from engine.ops.roles import init_roles
    from engine.ops.settings import DEFAULT_EMBEDDING_MODEL, Settings

    folder.mkdir(parents=True)
    folder.chmod(0o755)  # as root the embedded server refuses private parent folders
    settings = Settings(data_dir=folder / "data")
    db = open_database(settings)
    embedder = FastEmbedder(DEFAULT_EMBEDDING_MODEL, folder / "models")
    Ingester(db, embedder, settings).ingest_folders([Path(__file__).parents[1] / "knowledge"])
    add_synthetic(db, chunks - 97, embedder.dimension, random.Random(7))
    password = secrets.token_urlsafe(16)
    init_roles(db, kiosk_password=password, staff_password=secrets.token_urlsafe(16))
    (folder / PASSWORD_FILE).write_text(password)
    db.dispose()


def dump(folder: Path, out: Path) -> None:
    import sqlalchemy as sa

    from benchmarks.retrieval import follow_ups, questions
    from engine.answering.retrieval import Retriever
    from engine.answering.retrieval.results import RetrievedPassage, SearchResult
    from engine.answering.routing import asked_embedding, plan_route
    from engine.knowledge.embeddings import FastEmbedder
    from engine.ops.db import Database, open_database
    from engine.ops.roles import KIOSK_ROLE
    from engine.ops.settings import DEFAULT_EMBEDDING_MODEL, Settings

    settings = Settings(data_dir=folder / "data")
    db = open_database(settings)
    embedder = FastEmbedder(DEFAULT_EMBEDDING_MODEL, folder / "models")
    password = (folder / PASSWORD_FILE).read_text()
    url = sa.engine.make_url(db.url).set(username=KIOSK_ROLE, password=password)
    kiosk = Database(url.render_as_string(hide_password=False))
    owner, reader = Retriever(db, settings), Retriever(kiosk, settings)

    def passage(p: RetrievedPassage) -> list[Any]:
        return [
            p.document_slug,
            p.heading_path,
            round(p.similarity, 6),
            p.vector_rank,
            p.keyword_rank,
            round(p.term_share, 9),
            round(p.fused_score, 12),
        ]

    def found(r: SearchResult) -> dict[str, Any]:
        return {
            "candidates": [passage(p) for p in r.candidates],
            "passages": [passage(p) for p in r.passages],
            "quotes": [[q.passage, q.unit.text, round(q.score, 9)] for q in r.quotes],
            "weights": {k: round(v, 9) for k, v in sorted(r.term_weights.items())},
            "question_text": r.question_text,
            "alternatives": {k: sorted(v) for k, v in sorted(r.alternatives.items())},
        }

    results: dict[str, Any] = {}
    asked = [(q, ()) for q in questions(10_000)] + follow_ups()
    for question, history in asked:
        plan = plan_route(question, history, embedder)
        vector = plan.vector or embedder.embed_query(plan.search_text)
        asked = asked_embedding(plan.search_text, embedder)
        key = f"{question} | after {len(history)} turns"
        results[f"route | {key}"] = [
            plan.decision.route.value,
            plan.decision.reason,
            {route.value: round(s, 9) for route, s in plan.nearest.items()},
        ]
        for name, retriever, audience in (
            ("public", owner, "public"),
            ("staff", owner, "staff"),
            ("kiosk", reader, "public"),
        ):
            result = retriever.search_with_candidates(vector, plan.search_text, audience, asked)
            results[f"{name} | {key}"] = found(result)
    out.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    print(f"{len(asked)} questions, {len(results)} results written to {out}")
    kiosk.dispose()
    db.dispose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("build", "dump"))
    parser.add_argument("folder", type=Path)
    parser.add_argument("out", type=Path, nargs="?")
    parser.add_argument("--chunks", type=int, default=10_000)
    parser.add_argument("--code", type=Path, default=Path(__file__).resolve().parents[1])
    args = parser.parse_args()
    sys.path.insert(0, str(args.code.resolve()))
    if args.command == "build":
        build(args.folder, args.chunks)
    elif args.out is None:
        parser.error("dump needs OUT")
    else:
        dump(args.folder, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
