"""The review queue: what needs a person's eye, weekly counts, and the tamper-evident decisions."""

from __future__ import annotations

import threading
from datetime import UTC, date, datetime, timedelta

import pytest
import sqlalchemy as sa

from engine.errors import ValidationError
from engine.frontdesk.review import GENESIS_HASH, ReviewService
from engine.ops.db import Database

NOW = datetime(2030, 6, 5, 12, 0, tzinfo=UTC)  # Wednesday


def add_answer(
    db: Database,
    outcome: str,
    question: str = "Where do I park?",
    at: datetime = NOW,
    original: str | None = None,
) -> int:
    with db.engine.begin() as conn:
        return int(
            conn.execute(
                sa.text(
                    "INSERT INTO answers (created_at, channel, audience, question, route, "
                    "outcome, shown_text, original_text, guard_reason) VALUES "
                    "(:t, 'kiosk', 'public', :q, 'information', :o, 'shown', :orig, :g) "
                    "RETURNING id"
                ),
                {
                    "t": at,
                    "q": question,
                    "o": outcome,
                    "orig": original,
                    "g": "no citation" if original else None,
                },
            ).scalar_one()
        )


@pytest.fixture
def service(db: Database) -> ReviewService:
    return ReviewService(db, now=lambda: NOW)


def test_queue_holds_unanswered_guarded_and_safety_outcomes_newest_first(
    db: Database, service: ReviewService
) -> None:
    ids = {
        outcome: add_answer(db, outcome, f"q {outcome}", NOW - timedelta(minutes=i))
        for i, outcome in enumerate(
            ["answered", "no_answer", "guarded", "emergency", "clinical", "extractive", "failed"]
        )
    }
    ids["appointment"] = add_answer(db, "appointment")
    queue = service.queue()
    assert [item.answer_id for item in queue] == [
        ids["no_answer"],
        ids["guarded"],
        ids["emergency"],
        ids["clinical"],
        ids["failed"],
    ]
    assert queue[0].question == "q no_answer" and queue[0].decision is None
    assert len(service.queue(limit=2)) == 2


def test_decided_items_leave_the_queue_but_show_when_asked(
    db: Database, service: ReviewService
) -> None:
    guarded = add_answer(db, "guarded", original="The fee is £40.")
    refused = add_answer(db, "no_answer", at=NOW - timedelta(hours=1))
    service.decide(guarded, "needs_section", "add the fees page", "meera")
    assert [i.answer_id for i in service.queue()] == [refused]
    everything = service.queue(include_decided=True)
    assert [i.answer_id for i in everything] == [guarded, refused]
    item = everything[0]
    assert (item.decision, item.decided_by, item.comment) == (
        "needs_section",
        "meera",
        "add the fees page",
    )
    assert item.original_text == "The fee is £40." and item.guard_reason == "no citation"
    # A later decision wins.
    service.decide(guarded, "other", "fixed already", "tom")
    assert service.queue(include_decided=True)[0].decided_by == "tom"


def test_decisions_form_a_verifiable_chain_and_are_audited(
    db: Database, service: ReviewService
) -> None:
    answer = add_answer(db, "no_answer")
    first = service.decide(answer, "correct_refusal", "", "meera")
    second = service.decide(answer, "other", "ünïcode comment", "tom")
    assert first != second and len(first) == 64
    with db.engine.connect() as conn:
        links = conn.execute(
            sa.text("SELECT prev_hash, hash FROM review_decisions ORDER BY id")
        ).all()
        actions = conn.execute(sa.text("SELECT action FROM audit_events")).scalars().all()
    assert [tuple(r) for r in links] == [(GENESIS_HASH, first), (first, second)]
    assert service.verify_chain() == []
    assert actions == ["review_decision", "review_decision"]


def test_the_database_refuses_to_change_a_decision(db: Database, service: ReviewService) -> None:
    service.decide(add_answer(db, "guarded"), "other", "", "meera")
    with pytest.raises(sa.exc.ProgrammingError, match="append-only"), db.engine.begin() as conn:
        conn.execute(sa.text("UPDATE review_decisions SET decision = 'needs_section'"))
    with pytest.raises(sa.exc.ProgrammingError, match="append-only"), db.engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM review_decisions"))


def test_tampering_behind_the_triggers_back_is_detected(
    db: Database, service: ReviewService
) -> None:
    answer = add_answer(db, "guarded")
    service.decide(answer, "needs_section", "real comment", "meera")
    service.decide(answer, "other", "second", "tom")
    service.decide(answer, "correct_refusal", "third", "ann")
    with db.engine.begin() as conn:
        ids = conn.execute(sa.text("SELECT id FROM review_decisions ORDER BY id")).scalars().all()
        conn.execute(
            sa.text("ALTER TABLE review_decisions DISABLE TRIGGER review_decisions_no_change")
        )
        conn.execute(
            sa.text("UPDATE review_decisions SET comment = 'nothing to see' WHERE id = :id"),
            {"id": ids[1]},
        )
        conn.execute(
            sa.text("ALTER TABLE review_decisions ENABLE TRIGGER review_decisions_no_change")
        )
    assert service.verify_chain() == [ids[1]]


def test_recomputing_the_tampered_hash_breaks_the_next_link(
    db: Database, service: ReviewService
) -> None:
    answer = add_answer(db, "guarded")
    for who in ("meera", "tom", "ann"):
        service.decide(answer, "other", "", who)
    with db.engine.begin() as conn:
        ids = conn.execute(sa.text("SELECT id FROM review_decisions ORDER BY id")).scalars().all()
        conn.execute(sa.text("ALTER TABLE review_decisions DISABLE TRIGGER ALL"))
        # A careful forger rewrites the hash too; the next row's link still gives it away.
        conn.execute(
            sa.text("UPDATE review_decisions SET hash = repeat('f', 64) WHERE id = :id"),
            {"id": ids[0]},
        )
        conn.execute(sa.text("ALTER TABLE review_decisions ENABLE TRIGGER ALL"))
    assert service.verify_chain() == [ids[0], ids[1]]


def test_concurrent_decisions_never_fork_the_chain(database_url: str, db: Database) -> None:
    answer = add_answer(db, "no_answer")
    count = 8
    barrier = threading.Barrier(count, timeout=30)
    errors: list[BaseException] = []

    def worker(i: int) -> None:
        own = Database(database_url, pool_size=1)
        try:
            own.ping()
            barrier.wait()
            ReviewService(own).decide(answer, "other", f"note {i}", f"reviewer{i}")
        except BaseException as exc:
            errors.append(exc)
        finally:
            own.dispose()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    review = ReviewService(db)
    assert review.verify_chain() == []
    assert len(review.queue(include_decided=True)) == 1
    with db.engine.connect() as conn:
        prevs = conn.execute(sa.text("SELECT prev_hash FROM review_decisions")).scalars().all()
    assert len(prevs) == count == len(set(prevs))


def test_bad_decisions_are_refused(db: Database, service: ReviewService) -> None:
    answer = add_answer(db, "no_answer")
    with pytest.raises(ValidationError, match="Decision must be one of"):
        service.decide(answer, "ignore", "", "meera")
    with pytest.raises(ValidationError, match="no answer 999999"):
        service.decide(999_999, "other", "", "meera")
    with pytest.raises(ValidationError, match="Reviewer is required"):
        service.decide(answer, "other", "", "  ")
    assert service.verify_chain() == []


def test_weekly_counts_group_by_local_monday_and_include_empty_weeks(
    db: Database, service: ReviewService
) -> None:
    add_answer(db, "answered", at=NOW)
    add_answer(db, "answered", at=NOW - timedelta(days=1))
    add_answer(db, "no_answer", at=NOW)
    # Sunday 23:30 UTC is Monday 00:30 in London (BST): it belongs to this week.
    add_answer(db, "guarded", at=datetime(2030, 6, 2, 23, 30, tzinfo=UTC))
    add_answer(db, "clinical", at=NOW - timedelta(weeks=2))
    add_answer(db, "clinical", at=NOW - timedelta(weeks=10))  # outside the window
    weeks = service.weekly_counts(weeks=3)
    assert [monday for monday, _ in weeks] == [
        date(2030, 5, 20),
        date(2030, 5, 27),
        date(2030, 6, 3),
    ]
    assert weeks[0][1] == {"clinical": 1}
    assert weeks[1][1] == {}
    assert weeks[2][1] == {"answered": 2, "no_answer": 1, "guarded": 1}
