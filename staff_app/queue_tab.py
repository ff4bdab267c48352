"""The Queue tab: today's waiting room, live.

Who has arrived per department or clinician, how long they have waited, late flags; call the next
patient (or a named one) to a room, mark in consultation, done or no-show, add a walk-in, check in
by reference. It reloads when the database announces a change (``engine.qt.LiveUpdates``), so
every desk sees a check-in at the kiosk within a second without pressing anything.

Every engine call runs through ``Tasks`` on a worker thread. Shortcuts: F5 reload, Ctrl+Shift+C
call next, Ctrl+Shift+I in consultation, Ctrl+Shift+E done (ended), Ctrl+Shift+W walk-in,
Ctrl+Shift+R check in by reference.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, QTimer, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from staff_app.appointments_tab import counted, make_table, selected_payload, set_rows
from staff_app.errors import describe
from staff_app.tasks import Tasks

COLUMNS = ("Ticket", "Due", "Patient", "Clinician", "Arrived", "Waiting", "State", "Room")
STATE_WORDS = {
    "arrived": "Waiting",
    "called": "Called",
    "in_consultation": "In consultation",
    "done": "Done",
    "no_show": "No-show",
    "cancelled": "Cancelled",
}
RELOAD_DELAY_MS = 150  # several notifications in a burst cause one reload


def waited_minutes(item: Any, now: dt.datetime) -> int:
    until = item.called_at or now
    return max(0, int((until - item.arrived_at).total_seconds() // 60))


def queue_cells(item: Any, now: dt.datetime) -> list[str]:
    due = f"{item.appointment_at:%H:%M}" if item.appointment_at else "walk-in"
    late = " (LATE)" if item.late else ""
    return [
        str(item.ticket),
        due + late,
        item.patient,
        item.clinician or item.department,
        f"{item.arrived_at:%H:%M}",
        f"{waited_minutes(item, now)} min",
        STATE_WORDS.get(item.state, item.state),
        item.room or "",
    ]


def summary_text(summary: Any) -> str:
    median = (
        f"{summary.median_wait_minutes:g} min" if summary.median_wait_minutes is not None else "-"
    )
    return (
        f"Today: {summary.arrived} arrived, {summary.seen} seen, {summary.no_shows} no-shows, "
        f"{summary.waiting} waiting; median wait {median}."
    )


class QueueTab(QWidget):
    def __init__(
        self,
        queue: Any,
        tasks: Tasks,
        departments: Callable[[], list[str]] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.queue = queue
        self.departments = departments or (lambda: [])
        self.tasks = tasks
        self.user = ""
        self.room = ""
        self.loads = 0
        self.department = QComboBox()
        self.department.setAccessibleName("Department shown in the queue")
        self.department.addItem("All departments", None)
        self.department.currentIndexChanged.connect(lambda _i: self.reload())
        self.summary = QLabel("")
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(QLabel("Show:"))
        top.addWidget(self.department, 1)
        top.addWidget(self.summary, 3)

        self.table = make_table(COLUMNS, "Waiting room queue")
        self.message = QLabel("")
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setWordWrap(True)

        self.buttons: dict[str, QPushButton] = {}
        bar = QHBoxLayout()
        second = QHBoxLayout()
        for key, label, keys, handler in (
            ("next", "Call next...", "Ctrl+Shift+C", self.call_next),
            ("call", "Call selected...", "", self.call_selected),
            ("start", "In consultation", "Ctrl+Shift+I", self.start_selected),
            ("done", "Done", "Ctrl+Shift+E", self.finish_selected),
            ("no_show", "No-show", "", self.no_show_selected),
            ("walk_in", "Walk-in...", "Ctrl+Shift+W", self.add_walk_in),
            ("check_in", "Check in...", "Ctrl+Shift+R", self.check_in_reference),
        ):
            button = QPushButton(label)
            button.setAccessibleName(label.rstrip("."))
            button.setToolTip(f"{label.rstrip('.')} ({keys})" if keys else label.rstrip("."))
            button.clicked.connect(handler)
            self.buttons[key] = button
            (second if key in ("walk_in", "check_in") else bar).addWidget(button)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.message)
        bar.addStretch(1)
        second.addStretch(1)
        layout.addLayout(bar)
        layout.addLayout(second)

        for keys, action in (
            ("F5", self.reload),
            ("Ctrl+Shift+C", self.call_next),
            ("Ctrl+Shift+I", self.start_selected),
            ("Ctrl+Shift+E", self.finish_selected),
            ("Ctrl+Shift+W", self.add_walk_in),
            ("Ctrl+Shift+R", self.check_in_reference),
        ):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(action)

        self._reload_timer = QTimer(self)
        self._reload_timer.setSingleShot(True)
        self._reload_timer.setInterval(RELOAD_DELAY_MS)
        self._reload_timer.timeout.connect(self.reload)
        self._tick = QTimer(self)  # "waiting" minutes keep counting between changes
        self._tick.setInterval(30_000)
        self._tick.timeout.connect(self.reload)

    # ----- loading -----------------------------------------------------------------------

    def start(self) -> None:
        """After sign-in: load the queue and keep the waiting minutes counting."""
        self._tick.start()
        self.reload()

    def _set_departments(self, departments: list[str]) -> None:
        known = [self.department.itemData(i) for i in range(1, self.department.count())]
        if known == departments:
            return
        current = self.department.currentData()
        self.department.blockSignals(True)
        self.department.clear()
        self.department.addItem("All departments", None)
        for name in departments:
            self.department.addItem(name, name)
        index = self.department.findData(current)
        self.department.setCurrentIndex(max(0, index))
        self.department.blockSignals(False)

    def stop(self) -> None:
        self._tick.stop()
        self._reload_timer.stop()

    @Slot(object)
    def on_change(self, _change: object) -> None:
        """A notification arrived (or the listener reconnected): reload once, shortly."""
        self._reload_timer.start()

    def reload(self) -> None:
        queue, department, departments = self.queue, self.department.currentData(), self.departments
        self.tasks.run(
            lambda: (queue.entries(department=department), queue.summary(), departments()),
            self._on_loaded,
            self._on_error,
        )

    def _on_loaded(self, result: tuple[list[Any], Any, list[str]]) -> None:
        items, summary, departments = result
        self._set_departments(list(departments))
        now = dt.datetime.now(dt.UTC)
        previous = selected_payload(self.table)
        set_rows(self.table, [(item, queue_cells(item, now)) for item in items])
        if previous is not None:
            for row in range(self.table.rowCount()):
                cell = self.table.item(row, 0)
                payload = cell.data(Qt.ItemDataRole.UserRole) if cell is not None else None
                if getattr(payload, "entry_id", None) == previous.entry_id:
                    self.table.selectRow(row)
                    break
        self.summary.setText(summary_text(summary))
        if not items:
            self.message.setText("Nobody is waiting.")
        elif self.message.text() == "Nobody is waiting.":
            self.message.setText(f"{counted(len(items), 'person')} in the queue.")
        self.loads += 1

    def _on_error(self, error: BaseException) -> None:
        self.message.setText(describe(error))

    # ----- actions -----------------------------------------------------------------------

    def _selected(self) -> Any:
        item = selected_payload(self.table)
        if item is None:
            self.message.setText("Select a person in the queue first.")
        return item

    def _ask_room(self) -> str | None:
        room, ok = QInputDialog.getText(self, "Call to a room", "Room:", text=self.room)
        room = room.strip()
        if not ok or not room:
            return None
        self.room = room
        return room

    def _after(self, verb: str) -> Any:
        def done(item: Any) -> None:
            if item is None:
                self.message.setText("Nobody is waiting for that department.")
            else:
                room = f" to {item.room}" if verb == "Called" and item.room else ""
                self.message.setText(f"{verb} ticket {item.ticket}{room}: {item.patient}.")
            self.reload()

        return done

    def call_next(self) -> None:
        department = self.department.currentData()
        if department is None:
            self.message.setText("Choose a department first: 'Call next' calls within one line.")
            return
        room = self._ask_room()
        if room is None:
            return
        queue, user = self.queue, self.user
        self.tasks.run(
            lambda: queue.call_next(department, room, user), self._after("Called"), self._on_error
        )

    def call_selected(self) -> None:
        item = self._selected()
        if item is None:
            return
        room = self._ask_room()
        if room is None:
            return
        queue, user, entry = self.queue, self.user, item.entry_id
        self.tasks.run(lambda: queue.call(entry, room, user), self._after("Called"), self._on_error)

    def _move(self, method: str, verb: str) -> None:
        item = self._selected()
        if item is None:
            return
        action, user, entry = getattr(self.queue, method), self.user, item.entry_id
        self.tasks.run(lambda: action(entry, user), self._after(verb), self._on_error)

    def start_selected(self) -> None:
        self._move("start", "In consultation:")

    def finish_selected(self) -> None:
        self._move("finish", "Done:")

    def no_show_selected(self) -> None:
        self._move("no_show", "No-show:")

    def add_walk_in(self) -> None:
        departments = [self.department.itemData(i) for i in range(1, self.department.count())] or [
            "General Practice"
        ]
        department, ok = QInputDialog.getItem(
            self, "Add a walk-in", "Department:", departments, 0, False
        )
        if not ok:
            return
        name, ok = QInputDialog.getText(self, "Add a walk-in", "Name (optional):")
        if not ok:
            return
        queue, user = self.queue, self.user
        self.tasks.run(
            lambda: queue.walk_in(department, user, name=name),
            self._after("Added walk-in,"),
            self._on_error,
        )

    def check_in_reference(self) -> None:
        reference, ok = QInputDialog.getText(self, "Check in", "Booking reference (CL-...):")
        if not ok or not reference.strip():
            return
        queue, user = self.queue, self.user
        self.tasks.run(
            lambda: queue.check_in_at_desk(reference, user), self._on_checked_in, self._on_error
        )

    def _on_checked_in(self, result: Any) -> None:
        late = " They are late: see the clinic's lateness rule." if result.late else ""
        already = "was already" if result.status == "already" else "is now"
        self.message.setText(
            f"Ticket {result.ticket} {already} checked in for {result.department} at "
            f"{result.starts_at:%H:%M}.{late}"
        )
        self.reload()
