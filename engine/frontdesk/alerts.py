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

import re
import socket
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

import sqlalchemy as sa

from engine.errors import BookingError
from engine.frontdesk import audit
from engine.ops.db import Database
from engine.ops.settings import Settings

ALERT_CHANNEL = "clinic_alerts"
LONDON = ZoneInfo("Europe/London")
OPEN_HOURS = 12  # older unanswered alerts are history (the review queue keeps emergencies)


KIOSK_PREFIX = "kiosk:"
NAME_LENGTH = 60  # PostgreSQL keeps 63 bytes of an application_name


def kiosk_source(settings: Settings, host: str | None = None) -> str:
    """How alerts and check-ins name this kiosk: ``kiosk:<[kiosk] name or the host name>``.

    Sent as the kiosk connection's ``application_name``, which the alert trigger records
    (migration 0004). Printable ASCII only (PostgreSQL shows anything else as ``?``)."""
    name = settings.kiosk.name.strip() or (host if host is not None else socket.gethostname())
    name = re.sub(r"[^\x20-\x7e]", "?", " ".join(name.split()))[:NAME_LENGTH]
    return f"{KIOSK_PREFIX}{name or 'unnamed'}"


def source_label(source: str) -> str:
    """'kiosk entrance-2' for the desk (an alert from before kiosks had names says 'kiosk')."""
    if source.startswith(KIOSK_PREFIX) and source[len(KIOSK_PREFIX) :].strip():
        return f"kiosk {source[len(KIOSK_PREFIX) :].strip()}"
    return source


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
