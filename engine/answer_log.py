"""The answer log: every answer shown, stored for the review queue, with a retention limit.

Citations are stored as snapshots (title, heading path, excerpt, similarity) of the passages the
answer actually cited, so they survive re-ingestion. Writing the log never blocks or breaks an
answer: a failure is logged and swallowed by the caller.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import sqlalchemy as sa

from engine.db import Database
from engine.events import Citation

EXCERPT_CHARS = 600


@dataclass(frozen=True)
class AnswerLogEntry:
    channel: str
    audience: str
    question: str
    route: str
    route_reason: str | None
    outcome: str
    shown_text: str
    original_text: str | None = None
    guard_reason: str | None = None
    citations: tuple[Citation, ...] = ()
    best_similarity: float | None = None
    model: str | None = None
    timings: dict[str, float] = field(default_factory=dict)
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    username: str | None = None
    prompt_version: str | None = None  # the prompt that wrote it (engine.prompting.PROMPT_VERSION)


def record_answer(db: Database, entry: AnswerLogEntry) -> int:
    snapshots = [
        {
            "number": c.number,
            "document_slug": c.document_slug,
            "document_title": c.document_title,
            "heading_path": c.heading_path,
            "excerpt": c.text[:EXCERPT_CHARS],
            "similarity": round(c.similarity, 4),
        }
        for c in entry.citations
    ]
    with db.session() as session:
        answer_id: int = session.execute(
            sa.text(
                """
                INSERT INTO answers (channel, username, audience, question, route, route_reason,
                    outcome, shown_text, original_text, guard_reason, citations, best_similarity,
                    model, timings, prompt_tokens, completion_tokens, prompt_version)
                VALUES (:channel, :username, :audience, :question, :route, :route_reason,
                    :outcome, :shown_text, :original_text, :guard_reason, CAST(:citations AS jsonb),
                    :best_similarity, :model, CAST(:timings AS jsonb), :prompt_tokens,
                    :completion_tokens, :prompt_version)
                RETURNING id
                """
            ),
            {
                "channel": entry.channel,
                "username": entry.username,
                "audience": entry.audience,
                "question": entry.question,
                "route": entry.route,
                "route_reason": entry.route_reason,
                "outcome": entry.outcome,
                "shown_text": entry.shown_text,
                "original_text": entry.original_text,
                "guard_reason": entry.guard_reason,
                "citations": json.dumps(snapshots),
                "best_similarity": entry.best_similarity,
                "model": entry.model,
                "timings": json.dumps(entry.timings),
                "prompt_tokens": entry.prompt_tokens,
                "completion_tokens": entry.completion_tokens,
                "prompt_version": entry.prompt_version,
            },
        ).scalar_one()
    return int(answer_id)


def purge_expired(db: Database, retention_days: int) -> int:
    """Delete answers older than the retention period, except those a reviewer decided on.

    Runs through the SECURITY DEFINER function of migration 0005, so the kiosk role (which may
    not delete answers) purges too, and nothing but expired answers can be deleted that way."""
    if retention_days <= 0:
        return 0
    with db.session() as session:
        deleted = session.execute(
            sa.text("SELECT clinic_purge_expired_answers(:d)"), {"d": int(retention_days)}
        ).scalar()
    return int(deleted or 0)
