"""Answer retention: questions can hold personal details, so old answers are deleted, except
those a reviewer has decided on (the review record needs them)."""

from __future__ import annotations

import sqlalchemy as sa

from engine.answering.answer_log import AnswerLogEntry, purge_expired, record_answer
from engine.frontdesk.review import ReviewService
from engine.ops import db as dbm


def entry(question: str) -> AnswerLogEntry:
    return AnswerLogEntry(
        channel="kiosk",
        audience="public",
        question=question,
        route="information",
        route_reason="information:default",
        outcome="no_answer",
        shown_text="I don't know.",
    )


def age(db: dbm.Database, answer_id: int, days: int) -> None:
    with db.engine.begin() as conn:
        conn.execute(
            sa.text(
                "UPDATE answers SET created_at = now() - make_interval(days => :d) WHERE id = :i"
            ),
            {"d": days, "i": answer_id},
        )


def questions(db: dbm.Database) -> set[str]:
    with db.engine.connect() as conn:
        return {r[0] for r in conn.execute(sa.text("SELECT question FROM answers"))}


def test_old_answers_are_purged_but_reviewed_ones_and_recent_ones_stay(db: dbm.Database) -> None:
    old = record_answer(db, entry("my name is Sam Example, do you have a gym?"))
    reviewed = record_answer(db, entry("is there wifi?"))
    record_answer(db, entry("is there a cafe?"))
    age(db, old, 40)
    age(db, reviewed, 40)
    ReviewService(db).decide(reviewed, "needs_section", "add wifi", "amy")

    assert purge_expired(db, 30) == 1
    assert questions(db) == {"is there wifi?", "is there a cafe?"}


def test_zero_retention_keeps_everything(db: dbm.Database) -> None:
    old = record_answer(db, entry("q"))
    age(db, old, 400)
    assert purge_expired(db, 0) == 0
    assert questions(db) == {"q"}
