"""The audit trail: one helper that records who did what, and when, inside the caller's transaction.

Details must identify the thing acted on (an appointment reference, a username, an answer id) and
never hold patient phone numbers, patient names or passwords.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import sqlalchemy as sa
from sqlalchemy.orm import Session


def record(session: Session, username: str, action: str, details: Mapping[str, object]) -> None:
    """Insert one audit event in the current transaction (so it commits or rolls back with it)."""
    session.execute(
        sa.text(
            "INSERT INTO audit_events (username, action, details) "
            "VALUES (:u, :a, CAST(:d AS jsonb))"
        ),
        {"u": username, "a": action, "d": json.dumps(dict(details), default=str)},
    )
