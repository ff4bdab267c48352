"""The staff main window: assembles the tabs, reception alerts, shortcuts and the status banner.

It holds no screen logic of its own. A periodic health check (database and model server) runs on
a worker thread; the banner appears when something is down and disappears when it recovers,
without a restart. While someone is signed in, one ``LiveUpdates`` listener (database
notifications) keeps the Queue tab and the reception alerts live. Window geometry is kept in the
QSettings object it is given.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QLabel, QMainWindow, QPushButton, QTabWidget, QVBoxLayout, QWidget

from engine.frontdesk.alerts import ALERT_CHANNEL
from engine.frontdesk.queue_listener import QUEUE_CHANNEL, Change
from engine.qt.live import LiveUpdates
from staff_app.alerts_bar import AlertsBar
from staff_app.appointments_tab import AppointmentsTab
from staff_app.assistant_tab import AssistantTab
from staff_app.errors import describe, is_database_down
from staff_app.knowledge_tab import KnowledgeTab
from staff_app.queue_tab import QueueTab
from staff_app.review_tab import ReviewTab
from staff_app.services import StaffServices
from staff_app.session_guard import ACCOUNT_CLOSED, IdleSignOut, IdleTimes, SessionGuard
from staff_app.tasks import Tasks

HEALTH_INTERVAL_MS = 15_000
GEOMETRY_KEY = "window/geometry"


class StaffWindow(QMainWindow):
    signed_out = Signal()

    def __init__(
        self,
        services: StaffServices,
        ui_settings: QSettings,
        health_interval_ms: int = HEALTH_INTERVAL_MS,
        parent: QWidget | None = None,
        *,
        idle: IdleTimes | None = None,
    ) -> None:
        super().__init__(parent)
        self.services = services
        self.ui_settings = ui_settings
        self.user: Any = None
        self.sign_out_notice = ""  # why the last session ended, for the sign-in dialog
        self.tasks = Tasks(self)
        self.setWindowTitle("Clinic Assistant: front desk")

        # Every write re-checks the signed-in account first (disabled or locked: signed out).
        self.guard = SessionGuard(services.users, self._username, self)
        self.guard.closed.connect(self._on_account_closed)
        booking = self.guard.wrap(services.booking, "booking")
        self.assistant = AssistantTab()
        self.appointments = AppointmentsTab(booking, self.tasks)
        self.knowledge = KnowledgeTab(
            self.guard.wrap(services.knowledge, "knowledge"),
            self.tasks,
            services.run_evaluation,
            default_questions=services.default_questions,
        )
        self.review = ReviewTab(self.guard.wrap(services.review, "review"), self.tasks)
        self.tabs = QTabWidget()
        self.tabs.setAccessibleName("Sections")
        self.tabs.addTab(self.assistant, "&Assistant (Ctrl+1)")
        self.tabs.addTab(self.appointments, "A&ppointments (Ctrl+2)")
        self.tabs.addTab(self.knowledge, "&Knowledge (Ctrl+3)")
        self.tabs.addTab(self.review, "&Review (Ctrl+4)")
        self.queue = (
            QueueTab(self.guard.wrap(services.queue, "queue"), self.tasks, booking.departments)
            if services.queue
            else None
        )
        if self.queue is not None:
            self.tabs.addTab(self.queue, "&Queue (Ctrl+5)")
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self.alerts = AlertsBar(self.guard.wrap(services.alerts, "alerts"), self.tasks)
        central = QWidget()
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.alerts)
        column.addWidget(self.tabs, 1)
        self.setCentralWidget(central)
        self.live = (
            LiveUpdates(services.live_url, (QUEUE_CHANNEL, ALERT_CHANNEL), self)
            if services.live_url is not None
            else None
        )
        if self.live is not None:
            self.live.changed.connect(self._on_live_change)
        self.assistant.open_appointments.connect(lambda: self.show_tab(1))

        self.banner = QLabel("")
        self.banner.setObjectName("healthBanner")
        self.banner.setTextFormat(Qt.TextFormat.PlainText)
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet(
            "background: #fff4ce; color: #5c3c00; padding: 3px 8px; border-radius: 3px;"
        )
        self.banner.hide()
        self.note = QLabel("")
        self.note.setObjectName("healthNote")
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setStyleSheet("color: #444;")
        self.note.hide()
        self.user_label = QLabel("")
        self.user_label.setTextFormat(Qt.TextFormat.PlainText)
        self.sign_out_button = QPushButton("Sign out")
        self.sign_out_button.setAccessibleName("Sign out")
        self.sign_out_button.clicked.connect(self.sign_out)
        self.idle_warning = QLabel("")
        self.idle_warning.setObjectName("idleWarning")
        self.idle_warning.setTextFormat(Qt.TextFormat.PlainText)
        self.idle_warning.setWordWrap(True)
        self.idle_warning.setStyleSheet(
            "background: #fde7e9; color: #6e0a0a; padding: 3px 8px; border-radius: 3px;"
        )
        times = idle or IdleTimes.from_policy(services.sign_in_policy)
        self.idle = IdleSignOut(
            self.idle_warning, times.idle_ms, times.warning_ms, times.tick_ms, self
        )
        self.idle.expired.connect(self._on_idle)
        self.idle_minutes = times.idle_ms / 60_000
        bar = self.statusBar()
        bar.addWidget(self.idle_warning, 1)
        bar.addWidget(self.banner, 1)
        bar.addWidget(self.note, 1)
        bar.addPermanentWidget(self.user_label)
        bar.addPermanentWidget(self.sign_out_button)

        shortcuts = [
            ("Ctrl+1", lambda: self.show_tab(0)),
            ("Ctrl+2", lambda: self.show_tab(1)),
            ("Ctrl+3", lambda: self.show_tab(2)),
            ("Ctrl+4", lambda: self.show_tab(3)),
            ("Ctrl+5", lambda: self.show_tab(4)),
            ("Ctrl+N", self.new_question),
            ("Ctrl+F", self.find_slot),
            ("Ctrl+B", self._book),
            ("Ctrl+D", self._cancel),
        ]
        self.shortcuts = []
        for keys, action in shortcuts:
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.activated.connect(action)
            self.shortcuts.append(shortcut)

        self.health_checks = 0
        self.health_timer = QTimer(self)
        self.health_timer.setInterval(health_interval_ms)
        self.health_timer.timeout.connect(self.check_health)
        self._restore_geometry()

    # ----- session -----------------------------------------------------------------------

    def sign_in(self, user: Any) -> None:
        """Start a session for ``user``: every audited call carries their username."""
        self.user = user
        username = user.username
        for tab in (self.appointments, self.knowledge, self.review, self.queue, self.alerts):
            if tab is not None:
                tab.user = username
        self.user_label.setText(f"Signed in as {user.display_name or username}")
        self.assistant.set_backend(self.services.make_assistant(username))
        self.appointments.load()
        self.knowledge.refresh()
        self.review.refresh()
        if self.queue is not None:
            self.queue.start()
        self.alerts.reload()
        if self.live is not None:
            self.live.start()
        self.check_health()
        self.health_timer.start()
        self.idle.start()
        self.show_tab(0)
        self.assistant.focus_input()

    def _username(self) -> str:
        """The signed-in username (read by the write guard on a worker thread)."""
        user = self.user
        return str(user.username) if user is not None else ""

    @Slot()
    def _on_account_closed(self) -> None:
        if self.user is not None:
            self.sign_out_notice = ACCOUNT_CLOSED
            self.sign_out()

    @Slot()
    def _on_idle(self) -> None:
        if self.user is not None:
            minutes = f"{self.idle_minutes:g}"
            self.sign_out_notice = f"Signed out after {minutes} minutes without activity."
            self.sign_out()

    def sign_out(self) -> None:
        self.idle.stop()
        self.assistant.set_backend(None)  # clears the conversation
        self.user = None
        for tab in (self.appointments, self.knowledge, self.review, self.queue, self.alerts):
            if tab is not None:
                tab.user = ""
        if self.queue is not None:
            self.queue.stop()
        self.alerts.clear()
        if self.live is not None:
            self.live.stop()
        self.user_label.setText("")
        self.health_timer.stop()
        self.signed_out.emit()

    # ----- navigation --------------------------------------------------------------------

    def show_tab(self, index: int) -> None:
        self.tabs.setCurrentIndex(index)

    def new_question(self) -> None:
        self.show_tab(0)
        self.assistant.focus_input()

    def find_slot(self) -> None:
        self.show_tab(1)
        self.appointments.focus_find()

    def _book(self) -> None:
        if self.tabs.currentWidget() is self.appointments:
            self.appointments.book_selected()

    def _cancel(self) -> None:
        if self.tabs.currentWidget() is self.appointments:
            self.appointments.cancel_selected()

    def _on_live_change(self, change: object) -> None:
        if not isinstance(change, Change):
            return
        if change.reconnected or change.channel == ALERT_CHANNEL:
            self.alerts.on_change(change)
        if self.queue is not None and (change.reconnected or change.channel == QUEUE_CHANNEL):
            self.queue.on_change(change)

    def _on_tab_changed(self, index: int) -> None:
        if self.tabs.widget(index) is self.assistant:
            self.assistant.focus_input()

    # ----- health ------------------------------------------------------------------------

    def check_health(self) -> None:
        check = self.services.check_health
        if check is None:
            return
        self.tasks.run(check, self._on_healthy, self._on_unhealthy)

    def _on_healthy(self, result: object) -> None:
        """Everything needed is up; ``result`` may be a note such as "answers are extractive"."""
        self.health_checks += 1
        self.banner.hide()
        self.banner.setText("")
        self.appointments.set_database_available(True)
        note = result if isinstance(result, str) else ""
        self.note.setText(note)
        self.note.setVisible(bool(note))

    def _on_unhealthy(self, error: BaseException) -> None:
        self.health_checks += 1
        self.note.hide()
        self.banner.setText(describe(error))
        self.banner.show()
        if is_database_down(error):
            self.appointments.set_database_available(False)

    # ----- geometry and shutdown ---------------------------------------------------------

    def _restore_geometry(self) -> None:
        geometry = self.ui_settings.value(GEOMETRY_KEY)
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self.resize(1280, 820)

    def save_geometry(self) -> None:
        self.ui_settings.setValue(GEOMETRY_KEY, self.saveGeometry())
        self.ui_settings.sync()

    def shutdown(self) -> None:
        self.health_timer.stop()
        if self.live is not None:
            self.live.stop()
        if self.queue is not None:
            self.queue.stop()
        self.alerts.stop()
        self.assistant.shutdown()
        self.tasks.wait_all()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_geometry()
        self.shutdown()
        super().closeEvent(event)
