"""Reception alerts: kiosk emergencies and "call staff" requests, for every desk.

An emergency alert is made by the database itself (a trigger on ``answers``, migration
0004) whenever a kiosk answer is the emergency redirect, so nothing can forget to raise
it and it exists even when no desk is open. ``NOTIFY clinic_alerts`` carries only the alert id
and kind; a desk then reads the alert (with the question, staff only) through
:meth:`AlertService.open_alerts`. :meth:`AlertService.respond` records who said "Going now".

This module must never put a question or a name into a notification, never let a kiosk read
alerts (it may only call ``clinic_call_staff``), and never import Qt.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

import sqlalchemy as sa

from engine import audit
from engine.db import Database
from engine.errors import BookingError

ALERT_CHANNEL = "clinic_alerts"
LONDON = ZoneInfo("Europe/London")
OPEN_HOURS = 12  # older unanswered alerts are history (the review queue keeps emergencies)


@dataclass(frozen=True)
class AlertView:
    alert_id: int
    kind: str  # emergency | help
    source: str
    created_at: datetime
    question: str | None  # the kiosk question for an emergency (staff only)
    responded_by: str | None
    responded_at: datetime | None


class AlertService:
    def __init__(self, db: Database, *, tz: ZoneInfo = LONDON) -> None:
        self.db = db
        self.tz = tz

    def call_staff(self, source: str) -> int:
        """The kiosk's "Call staff": one open request per kiosk; returns the alert id."""
        with self.db.session() as s:
            value: int = s.execute(
                sa.text("SELECT clinic_call_staff(:source)"), {"source": source[:100]}
            ).scalar_one()
        return value

    def open_alerts(self) -> list[AlertView]:
        """Alerts nobody has responded to yet, newest first."""
        return self._alerts("a.responded_at IS NULL")

    def recent(self, limit: int = 50) -> list[AlertView]:
        return self._alerts("TRUE", limit)

    def _alerts(self, where: str, limit: int = 50) -> list[AlertView]:
        with self.db.session() as s:
            rows = (
                s.execute(
                    sa.text(
                        "SELECT a.id, a.kind, a.source, a.created_at, a.responded_by, "
                        "a.responded_at, q.question FROM alerts a "
                        "LEFT JOIN answers q ON q.id = a.answer_id "
                        f"WHERE {where} AND a.created_at > now() - make_interval(hours => :h) "
                        "ORDER BY a.id DESC LIMIT :limit"
                    ),
                    {"h": OPEN_HOURS, "limit": limit},
                )
                .mappings()
                .all()
            )
        return [
            AlertView(
                alert_id=int(r["id"]),
                kind=str(r["kind"]),
                source=str(r["source"]),
                created_at=r["created_at"].astimezone(self.tz),
                question=r["question"],
                responded_by=r["responded_by"],
                responded_at=r["responded_at"].astimezone(self.tz) if r["responded_at"] else None,
            )
            for r in rows
        ]

    def respond(self, alert_id: int, user: str) -> AlertView:
        """Record that ``user`` is going; the first responder wins and is shown to the others."""
        with self.db.session() as s:
            row = s.execute(
                sa.text(
                    "UPDATE alerts SET responded_by = :u, responded_at = now() "
                    "WHERE id = :id AND responded_at IS NULL RETURNING id"
                ),
                {"u": user, "id": alert_id},
            ).first()
            if row is not None:
                audit.record(s, user, "alert.respond", {"alert_id": alert_id})
        for alert in self.recent(200):
            if alert.alert_id == alert_id:
                return alert
        raise BookingError("That alert no longer exists.")
