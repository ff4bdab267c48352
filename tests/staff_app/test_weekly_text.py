"""The weekly counts above the review queue: newest first, quiet weeks folded into one line."""

from __future__ import annotations

import datetime as dt

from staff_app.review_tab import weekly_text


def test_newest_first_and_quiet_runs_folded() -> None:
    monday = dt.date(2026, 11, 23)
    weeks = [(monday - dt.timedelta(weeks=n), {}) for n in range(7, 0, -1)] + [
        (monday, {"no_answer": 2, "clinical": 1})
    ]
    weeks[2] = (weeks[2][0], {"guarded": 1})
    lines = weekly_text(weeks).splitlines()
    assert lines[0].startswith("Week of 23 Nov 2026: 3 questions")
    assert lines[1] == "4 weeks with no questions"
    assert lines[2].startswith("Week of 19 Oct 2026: 1 question (")
    assert lines[3] == "Before that, 2 weeks with no questions"


def test_all_quiet() -> None:
    assert weekly_text([(dt.date(2026, 11, 23), {})]) == "No questions asked in the last weeks."
