"""Reading and chunking pathological files must take time linear in their size.

For each pathological input (below) at 100 KB, 200 KB, 400 KB, 1 MB, 2 MB and 4 MB, time
``load_document`` + ``chunk_document`` (best of three; no database, no embedding: those are
linear by construction) and print seconds per size, the growth between neighbouring sizes
(time ratio / size ratio: 1.0 is linear, 2.0 at a doubling would be quadratic) and the exponent
k in time ~ size^k from 400 KB to the largest size. The run fails (exit 1) when any input's
exponent exceeds ``--max-exponent`` (default 1.3, headroom for a shared machine; the old
quadratic parser's unclosed comments measured 2.0).

Inputs: an unclosed ``<!--`` repeated (refused, but it must be refused fast), closed comments,
a heading line of spaces, a run of ``#`` and spaces, one giant word, a long table, a list of
one-word lines, a YAML front matter at the size limit, sentences without blank lines.

Run: .venv/bin/python benchmarks/hostile_ingest.py [--sizes 100,200,400,1000,2000,4000]
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.errors import DocumentUnreadable  # noqa: E402
from engine.knowledge.chunking import chunk_document  # noqa: E402
from engine.knowledge.loaders import load_document  # noqa: E402
from engine.ops.settings import ChunkingSettings  # noqa: E402

HEAD = "---\ntitle: Hostile\naudience: public\n---\n"


def _repeat(unit: str) -> Callable[[int], str]:
    return lambda size: HEAD + unit * max(1, size // len(unit))


INPUTS: dict[str, Callable[[int], str]] = {
    "unclosed <!-- repeated": lambda size: HEAD + "text <!-- " * (size // 10),
    "closed comments": _repeat("a <!-- b --> c\n"),
    "heading of spaces": lambda size: HEAD + "#" + " " * size + "x\n",
    "hashes and spaces": _repeat("# "),
    "one giant word": lambda size: HEAD + "w" * size,
    "long table": lambda size: (
        HEAD + "| a | b |\n|---|---|\n" + "| cell | value |\n" * (size // 17)
    ),
    "one-word lines": _repeat("word\n"),
    "separator-like rows": _repeat("|" + " " * 50 + "-\n"),
    "sentences, no breaks": _repeat("This is one sentence. "),
    "unclosed emphasis": _repeat("**a *b _c ~~d `e "),
    "unclosed links": _repeat("[a [b](c [d]["),
    "unclosed tags": _repeat("<a href='x' <b "),
}


def _time(path: Path) -> tuple[float, str]:
    best = float("inf")
    outcome = ""
    for _ in range(3):
        start = time.perf_counter()
        try:
            document = load_document(path)
            chunks = chunk_document(document.title, document.blocks, ChunkingSettings())
            outcome = f"{len(chunks)} chunks"
        except DocumentUnreadable as exc:
            outcome = "refused: " + exc.reason[:40]
        best = min(best, time.perf_counter() - start)
    return best, outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,200,400,1000,2000,4000", help="sizes in KB")
    parser.add_argument("--max-exponent", type=float, default=1.3)
    args = parser.parse_args()
    sizes = [int(s) * 1000 for s in args.sizes.split(",")]
    worst_overall = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in INPUTS.items():
            times: list[float] = []
            cells: list[str] = []
            outcome = ""
            for size in sizes:
                path = Path(tmp) / f"hostile-{size}.md"
                path.write_text(make(size), encoding="utf-8")
                seconds, outcome = _time(path)
                times.append(max(seconds, 1e-6))
                cells.append(f"{size // 1000} KB {seconds:.3f}s")
            growth = [
                (t2 / t1) / (s2 / s1)
                for (s1, t1), (s2, t2) in itertools.pairwise(zip(sizes, times, strict=True))
            ]
            first = next((i for i, size in enumerate(sizes) if size >= 400_000), 0)
            exponent = (
                math.log(times[-1] / times[first]) / math.log(sizes[-1] / sizes[first])
                if sizes[-1] > sizes[first]
                else 1.0
            )
            worst_overall = max(worst_overall, exponent)
            print(f"{name:<24} {' | '.join(cells)}")
            print(
                f"{'':<24} growth per size step: {', '.join(f'{g:.2f}' for g in growth)}; "
                f"exponent {exponent:.2f}; last: {outcome}"
            )
    verdict = "linear" if worst_overall <= args.max_exponent else "SUPERLINEAR"
    print(f"\nworst exponent {worst_overall:.2f} (limit {args.max_exponent}): {verdict}")
    return 0 if worst_overall <= args.max_exponent else 1


if __name__ == "__main__":
    raise SystemExit(main())
