"""Turn the real replies of an `evaluate --generate --json` run into guard replay rows.

Development tool (not part of the product). For every information question the model answered,
it retrieves the passages the model was offered (the same retrieval the run used), replays the
reply through the citation guard and appends one row to tests/data/model_replies.jsonl in the
format that file's header describes. The guard's verdict becomes the row's ``expect``: read the
rows before committing them, and correct any verdict that is wrong (that is a guard bug to fix).

    python scripts/model_replies_from_report.py --data-dir D --report report.json \\
        --model "Qwen2.5-Coder-0.5B-Instruct Q4_K_M (llama-cpp-python 0.3.36)" \\
        --source "evaluate --generate, 2026-11-30" [--out tests/data/model_replies.jsonl]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from engine.answering.citation_guard import check_answer
from engine.answering.retrieval import Retriever
from engine.knowledge.embeddings import load_embedder
from engine.ops.db import open_database
from engine.ops.settings import load_settings

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "model_replies.jsonl"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--report", required=True, help="JSON written by evaluate --generate")
    parser.add_argument("--model", required=True, help="name, quantisation and runtime")
    parser.add_argument("--source", required=True)
    parser.add_argument("--out", default=str(DEFAULT_OUT))
    args = parser.parse_args()

    settings = load_settings(data_dir=args.data_dir)
    db = open_database(settings)
    embedder = load_embedder(settings)
    retriever = Retriever(db, settings, embedder.model_name)
    refusal = settings.texts.refusal
    answers = json.loads(Path(args.report).read_text(encoding="utf-8"))["generation"]["answers"]
    rows = []
    for answer in answers:
        if answer["intent"] != "information" or answer.get("reply") is None:
            continue
        question = answer["question"]
        passages = retriever.search(embedder.embed_query(question), question, "public")
        texts = [p.prompt_text for p in passages]
        verdict = check_answer(answer["reply"], texts, refusal)
        row = {"question": question, "passages": texts, "reply": answer["reply"]}
        if verdict.ok:
            row["expect"] = "refusal" if verdict.is_refusal else "shown"
        else:
            row["expect"] = "refused"
            reason = verdict.reason or ""
            row["reason"] = reason.split(":", 1)[0] + ":" if ":" in reason else reason
        row |= {"model": args.model, "source": args.source}
        rows.append(row)
    with Path(args.out).open("a", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{len(rows)} replies appended to {args.out}")
    db.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
