"""Reception alerts at the top of the staff window: kiosk emergencies and "call staff" requests.

One row per open alert, newest first: what (EMERGENCY in red with a warning sign and the word,
never colour alone; a help request in amber), which kiosk, when, the question typed, and a
"Going now" button that records who responded (the first responder is shown to every desk). It
reloads when the database announces an alert (``engine.qt.LiveUpdates``) and asks the window
manager to flash the window; it never takes the keyboard focus from what the receptionist is
typing. Alerts that arrive while no desk is open wait in the database (and emergencies in the
Review tab).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QApplication, QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout

from engine.frontdesk.alerts import source_label
from staff_app.errors import describe
from staff_app.tasks import Tasks

EMERGENCY_STYLE = "background: #b00020; color: white;"  # 6.9:1
HELP_STYLE = "background: #fff4ce; color: #5c3c00; border: 1px solid #8a5a00;"


def alert_text(alert: Any) -> str:
    """What, where (which kiosk: ``[kiosk] name`` or its host name), when, and the question."""
    when = f"{alert.created_at:%H:%M}"
    where = source_label(alert.source)
    if alert.kind == "emergency":
        question = f': "{alert.question}"' if alert.question else ""
        return f"\N{WARNING SIGN} EMERGENCY at {where}, {when}{question}"
    return f"Help requested at {where}, {when} (not an emergency)"


class AlertsBar(QFrame):
    """Open alerts with a "Going now" button each; hidden when there are none."""

    responded = Signal(int)

    def __init__(self, alerts: Any, tasks: Tasks, parent: QFrame | None = None) -> None:
        super().__init__(parent)
        self.alerts = alerts
        self.tasks = tasks
        self.user = ""
        self.loads = 0
        self.rows: dict[int, QFrame] = {}
        self.setObjectName("alertsBar")
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 4)
        self._layout.setSpacing(4)
        self.hide()
        self._reload_timer = QTimer(self)
        self._reload_timer.setSingleShot(True)
        self._reload_timer.setInterval(100)
        self._reload_timer.timeout.connect(self.reload)

    @Slot(object)
    def on_change(self, _change: object) -> None:
        self._reload_timer.start()

    def reload(self) -> None:
        if self.alerts is None:
            return
        self.tasks.run(self.alerts.open_alerts, self._show, self._on_error)

    def _show(self, alerts: list[Any]) -> None:
        new = [a for a in alerts if a.alert_id not in self.rows]
        for alert_id in list(self.rows):
            if alert_id not in {a.alert_id for a in alerts}:
                self.rows.pop(alert_id).deleteLater()
        for alert in reversed(new):  # newest ends up on top
            row = self._row(alert)
            self.rows[alert.alert_id] = row
            self._layout.insertWidget(0, row)
        self.setVisible(bool(self.rows))
        if new:
            QApplication.alert(self.window(), 0)
            QApplication.beep()
        self.loads += 1

    def _row(self, alert: Any) -> QFrame:
        row = QFrame()
        row.setObjectName(f"alert{alert.alert_id}")
        row.setProperty("kind", alert.kind)
        row.setStyleSheet(EMERGENCY_STYLE if alert.kind == "emergency" else HELP_STYLE)
        label = QLabel(alert_text(alert))
        label.setTextFormat(Qt.TextFormat.PlainText)  # the question is what a patient typed
        label.setWordWrap(True)
        font = label.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * (1.25 if alert.kind == "emergency" else 1.0))
        label.setFont(font)
        label.setStyleSheet("background: transparent; padding: 6px;")
        going = QPushButton("Going now")
        going.setAccessibleName(f"Going now to {source_label(alert.source)}")
        going.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # never steal the receptionist's typing
        going.setStyleSheet(
            "background: white; color: #7a0016; font-weight: bold; padding: 6px 16px;"
            " border: 2px solid white; border-radius: 4px;"
        )
        going.clicked.connect(lambda _checked=False, i=alert.alert_id: self.respond(i))
        layout = QHBoxLayout(row)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(label, 1)
        layout.addWidget(going)
        return row

    def respond(self, alert_id: int) -> None:
        alerts, user = self.alerts, self.user
        self.tasks.run(lambda: alerts.respond(alert_id, user), self._on_responded, self._on_error)

    def _on_responded(self, alert: Any) -> None:
        row = self.rows.pop(alert.alert_id, None)
        if row is not None:
            row.deleteLater()
        self.setVisible(bool(self.rows))
        self.responded.emit(alert.alert_id)
        self.reload()

    def _on_error(self, error: BaseException) -> None:
        self.setToolTip(describe(error))

    def stop(self) -> None:
        """No reload may start after this (the window is closing)."""
        self._reload_timer.stop()

    def clear(self) -> None:
        for row in self.rows.values():
            row.deleteLater()
        self.rows.clear()
        self.hide()
