"""The evaluation's labelled question file: the five intents, one :class:`Question` per row, and
:func:`load_questions`, which reads the YAML and checks every row (question text, intent, audience,
conversation history, follow-up flag) before anything is asked.

It must never ask, route or search: it only reads and checks. A malformed file raises a
ConfigError naming the item, never a half-read list.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from engine.errors import ConfigError

INTENTS = ("information", "clinical_advice", "emergency", "out_of_scope", "appointment")


@dataclass(frozen=True)
class Question:
    question: str
    intent: str
    document: str | None = None
    must_contain: str | None = None
    audience: str = "public"
    history: tuple[str, ...] = ()
    follow_up: bool = False


def load_questions(path: Path) -> list[Question]:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"{path}: cannot read the question file: {exc}") from None
    if not isinstance(raw, list):
        raise ConfigError(f"{path}: expected a YAML list of questions.")
    questions = []
    for index, row in enumerate(raw, start=1):
        if not isinstance(row, dict) or not isinstance(row.get("question"), str):
            raise ConfigError(f"{path}: item {index} has no 'question' text.")
        intent = str(row.get("intent", "")).strip()
        if intent not in INTENTS:
            raise ConfigError(
                f"{path}: item {index} has intent {intent!r}; use one of {', '.join(INTENTS)}."
            )
        audience = str(row.get("audience") or "public")
        if audience not in ("public", "staff"):
            raise ConfigError(f"{path}: item {index} has audience {audience!r}.")
        history = row.get("history") or []
        if not isinstance(history, list) or not all(isinstance(h, str) for h in history):
            raise ConfigError(f"{path}: item {index} has a 'history' that is not a list of text.")
        follow_up = row.get("follow_up", False)
        if not isinstance(follow_up, bool) or (follow_up and not history):
            raise ConfigError(f"{path}: item {index}: 'follow_up' is true/false and needs history.")
        questions.append(
            Question(
                question=row["question"],
                intent=intent,
                document=row.get("document") or None,
                must_contain=row.get("must_contain") or None,
                audience=audience,
                history=tuple(history),
                follow_up=follow_up,
            )
        )
    return questions
