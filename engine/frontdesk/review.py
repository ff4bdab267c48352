"""The review queue: questions the documents could not answer, and staff decisions about them.

Decisions are append-only (a database trigger refuses UPDATE and DELETE) and hash-chained: each
row's hash is ``sha256(prev_hash + canonical JSON of the decision)``, so a row changed behind the
trigger's back shows up in ``verify_chain``. Concurrent decisions are serialised with a
transaction-level advisory lock so the chain never forks.

This module must never modify or delete a decision, and never touches the answers it reviews.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import sqlalchemy as sa

from engine.errors import ValidationError
from engine.frontdesk import audit
from engine.ops.db import Database
from engine.validation import clean_text

REVIEW_OUTCOMES = ("no_answer", "guarded", "emergency", "clinical", "failed")
DECISIONS = ("needs_section", "correct_refusal", "other")
GENESIS_HASH = "0" * 64
LONDON = ZoneInfo("Europe/London")
_CHAIN_LOCK = 7306120010  # pg_advisory_xact_lock key for appending decisions


@dataclass(frozen=True)
class ReviewItem:
    answer_id: int
    created_at: datetime
    channel: str
    audience: str
    question: str
    route: str
    outcome: str
    shown_text: str
    original_text: str | None
    guard_reason: str | None
    decision: str | None
    decided_by: str | None
    comment: str | None


def canonical_decision(
    answer_id: int, decision: str, comment: str, reviewer: str, created_at: datetime
) -> str:
    """The exact text that is hashed for one decision."""
    return json.dumps(
        {
            "answer_id": answer_id,
            "comment": comment,
            "created_at": created_at.astimezone(UTC).isoformat(),
            "decision": decision,
            "reviewer": reviewer,
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )


def chain_hash(prev_hash: str, canonical: str) -> str:
    return hashlib.sha256((prev_hash + canonical).encode("utf-8")).hexdigest()


def _utc_now() -> datetime:
    return datetime.now(UTC)


class ReviewService:
    """Read the queue and weekly counts; append decisions; verify the decision chain."""

    def __init__(
        self,
        db: Database,
        *,
        now: Callable[[], datetime] = _utc_now,
        tz: ZoneInfo = LONDON,
    ) -> None:
        self.db = db
        self.now = now
        self.tz = tz

    def queue(self, include_decided: bool = False, limit: int = 200) -> list[ReviewItem]:
        """Answers that need a person's eye, newest first, with their latest decision."""
        sql = f"""
            SELECT a.id, a.created_at, a.channel, a.audience, a.question, a.route, a.outcome,
                   a.shown_text, a.original_text, a.guard_reason,
                   d.decision, d.reviewer, d.comment
            FROM answers a
            LEFT JOIN LATERAL (
                SELECT decision, reviewer, comment FROM review_decisions r
                WHERE r.answer_id = a.id ORDER BY r.id DESC LIMIT 1
            ) d ON true
            WHERE a.outcome = ANY(:outcomes)
              {"" if include_decided else "AND d.decision IS NULL"}
            ORDER BY a.created_at DESC, a.id DESC
            LIMIT :limit
        """
        with self.db.session() as s:
            rows = s.execute(
                sa.text(sql), {"outcomes": list(REVIEW_OUTCOMES), "limit": max(0, limit)}
            ).all()
        return [
            ReviewItem(
                answer_id=int(r[0]),
                created_at=r[1].astimezone(self.tz),
                channel=str(r[2]),
                audience=str(r[3]),
                question=str(r[4]),
                route=str(r[5]),
                outcome=str(r[6]),
                shown_text=str(r[7]),
                original_text=r[8],
                guard_reason=r[9],
                decision=r[10],
                decided_by=r[11],
                comment=r[12],
            )
            for r in rows
        ]

    def weekly_counts(self, weeks: int = 8) -> list[tuple[date, dict[str, int]]]:
        """For each of the last ``weeks`` weeks (Monday start, local time), answers per outcome.

        Oldest week first; weeks without answers are present with an empty dict.
        """
        today = self.now().astimezone(self.tz).date()
        this_monday = today - timedelta(days=today.weekday())
        mondays = [this_monday - timedelta(weeks=i) for i in range(max(1, weeks) - 1, -1, -1)]
        sql = """
            SELECT CAST(date_trunc('week', a.created_at AT TIME ZONE :tz) AS date) AS week,
                   a.outcome, count(*)
            FROM answers a
            WHERE CAST(a.created_at AT TIME ZONE :tz AS date) >= :first
            GROUP BY 1, 2
        """
        with self.db.session() as s:
            rows = s.execute(sa.text(sql), {"tz": self.tz.key, "first": mondays[0]}).all()
        counts: dict[date, dict[str, int]] = {monday: {} for monday in mondays}
        for row in rows:
            week: Any = row[0]
            if week in counts:
                counts[week][str(row[1])] = int(row[2])
        return [(monday, counts[monday]) for monday in mondays]

    def decide(self, answer_id: int, decision: str, comment: str, reviewer: str) -> str:
        """Append a decision to the chain and return its hash."""
        if decision not in DECISIONS:
            raise ValidationError(f"Decision must be one of {', '.join(DECISIONS)}.")
        comment = clean_text(comment, "The comment").strip()
        if len(comment) > 2000:
            raise ValidationError("Comment must be at most 2000 characters.")
        reviewer = reviewer.strip()
        if not reviewer:
            raise ValidationError("Reviewer is required.")
        with self.db.session() as s:
            s.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _CHAIN_LOCK})
            exists = s.execute(
                sa.text("SELECT 1 FROM answers WHERE id = :id"), {"id": answer_id}
            ).first()
            if exists is None:
                raise ValidationError(f"There is no answer {answer_id} to review.")
            prev = s.execute(
                sa.text("SELECT hash FROM review_decisions ORDER BY id DESC LIMIT 1")
            ).scalar()
            prev_hash = GENESIS_HASH if prev is None else str(prev)
            created_at = self.now().astimezone(UTC).replace(microsecond=0)
            digest = chain_hash(
                prev_hash, canonical_decision(answer_id, decision, comment, reviewer, created_at)
            )
            s.execute(
                sa.text(
                    "INSERT INTO review_decisions (answer_id, decision, comment, reviewer, "
                    "created_at, prev_hash, hash) VALUES (:a, :d, :c, :r, :t, :p, :h)"
                ),
                {
                    "a": answer_id,
                    "d": decision,
                    "c": comment,
                    "r": reviewer,
                    "t": created_at,
                    "p": prev_hash,
                    "h": digest,
                },
            )
            audit.record(
                s, reviewer, "review_decision", {"answer_id": answer_id, "decision": decision}
            )
        return digest

    def verify_chain(self) -> list[int]:
        """Ids of decisions whose hash or link does not verify; [] when the chain is intact."""
        with self.db.session() as s:
            rows = s.execute(
                sa.text(
                    "SELECT id, answer_id, decision, comment, reviewer, created_at, prev_hash, "
                    "hash FROM review_decisions ORDER BY id"
                )
            ).all()
        broken: list[int] = []
        expected_prev = GENESIS_HASH
        for row in rows:
            r: Any = row
            canonical = canonical_decision(
                int(r.answer_id), str(r.decision), str(r.comment), str(r.reviewer), r.created_at
            )
            if r.prev_hash != expected_prev or r.hash != chain_hash(str(r.prev_hash), canonical):
                broken.append(int(r.id))
            expected_prev = str(r.hash)
        return broken
