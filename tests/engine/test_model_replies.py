"""Every model reply in tests/data/model_replies.jsonl, replayed through the citation guard.

The file holds real replies from small local models (and a few made-up ones that found holes),
each with the passages it was given and what the guard must do with it: show it, read it as the
model's refusal, or replace it (with the reason). Its header says the format; append to it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.answering.citation_guard import check_answer
from engine.ops.settings import DEFAULT_REFUSAL_TEXT

DATA = Path(__file__).resolve().parents[1] / "data" / "model_replies.jsonl"
EXPECTATIONS = {"shown", "refusal", "refused"}


def load_replies() -> list[dict[str, Any]]:
    rows = []
    for number, line in enumerate(DATA.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        row = json.loads(line)
        row["line"] = number
        rows.append(row)
    return rows


REPLIES = load_replies()


def test_the_data_file_is_well_formed() -> None:
    assert len(REPLIES) >= 10
    for row in REPLIES:
        where = f"{DATA.name}:{row['line']}"
        assert {"question", "passages", "reply", "expect", "model", "source"} <= row.keys(), where
        assert row["expect"] in EXPECTATIONS, where
        assert isinstance(row["passages"], list), where
        assert all(isinstance(p, str) and "\n" in p for p in row["passages"]), where
        assert ("reason" in row) == (row["expect"] == "refused"), where


@pytest.mark.parametrize("row", REPLIES, ids=lambda r: f"line{r['line']}")
def test_guard_does_what_the_file_expects(row: dict[str, Any]) -> None:
    refusal = row.get("refusal", DEFAULT_REFUSAL_TEXT)
    result = check_answer(row["reply"], row["passages"], refusal)
    if row["expect"] == "shown":
        assert result.ok and not result.is_refusal, result.reason
        assert result.cited
    elif row["expect"] == "refusal":
        assert result.ok and result.is_refusal
        assert result.text == refusal
    else:
        assert not result.ok and result.text == refusal
        reason = row["reason"]
        assert result.reason is not None
        if reason.endswith(":"):
            assert result.reason.startswith(reason), result.reason
        else:
            assert result.reason == reason


def test_no_reply_shown_is_empty_or_only_a_heading() -> None:
    """Across the file: what the guard shows always says more than its citations and headings."""
    for row in REPLIES:
        result = check_answer(row["reply"], row["passages"], DEFAULT_REFUSAL_TEXT)
        if result.ok and not result.is_refusal:
            stripped = result.text
            for passage in row["passages"]:
                stripped = stripped.replace(passage.split("\n", 1)[0], "")
            assert len(stripped.split()) > 2, row["line"]
