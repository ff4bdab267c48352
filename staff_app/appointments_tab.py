"""The Appointments tab: find free slots, book, and look up, cancel or reschedule appointments.

Every engine call runs through ``Tasks`` on a worker thread. Ctrl+F focuses the search, Enter
finds, Ctrl+B books the selected slot, Ctrl+D cancels the selected appointment (after asking).
"""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDateEdit,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from staff_app.booking_dialog import BookingDialog, RescheduleDialog, slot_caption
from staff_app.errors import describe
from staff_app.services import BookingBackend
from staff_app.tasks import Tasks

SLOT_COLUMNS = ("Date", "Time", "Length", "Clinician", "Department")
APPOINTMENT_COLUMNS = ("Reference", "When", "Patient", "Contact", "Clinician", "Status", "By")
PARTS = (("Any time", "any"), ("Morning", "morning"), ("Afternoon", "afternoon"))
SLOT_PAGE = 50
STALE_NOTE = "The database cannot be reached: these lists may be out of date until it is back."


def counted(count: int, noun: str) -> str:
    """'1 free slot', '3 free slots': never '1 appointments'."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def confirm(parent: QWidget, title: str, text: str) -> bool:
    """Ask a yes/no question; No is the default. Tests replace this function."""
    answer = QMessageBox.question(
        parent,
        title,
        text,
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.No,
    )
    return answer == QMessageBox.StandardButton.Yes


def make_table(columns: tuple[str, ...], name: str) -> QTableWidget:
    table = QTableWidget(0, len(columns))
    table.setHorizontalHeaderLabels(list(columns))
    table.setAccessibleName(name)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().hide()
    table.setAlternatingRowColors(True)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.horizontalHeader().setStretchLastSection(True)
    return table


def set_rows(table: QTableWidget, rows: list[tuple[Any, list[str]]]) -> None:
    """Fill a table with plain-text cells; each row's object is kept on its first cell."""
    table.setRowCount(len(rows))
    for row, (payload, cells) in enumerate(rows):
        for column, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if column == 0:
                item.setData(Qt.ItemDataRole.UserRole, payload)
            table.setItem(row, column, item)
    if rows:
        table.selectRow(0)


def selected_payload(table: QTableWidget) -> Any:
    row = table.currentRow()
    item = table.item(row, 0) if row >= 0 else None
    return item.data(Qt.ItemDataRole.UserRole) if item is not None else None


def slot_cells(slot: Any) -> list[str]:
    start: dt.datetime = slot.starts_at
    return [
        f"{start:%a %d %b %Y}",
        f"{start:%H:%M}",
        f"{slot.duration_minutes} min",
        slot.clinician,
        slot.department,
    ]


def appointment_cells(appointment: Any) -> list[str]:
    start: dt.datetime = appointment.slot.starts_at
    return [
        appointment.reference,
        f"{start:%a %d %b %Y %H:%M}",
        appointment.patient_name,
        appointment.contact_number,
        appointment.slot.clinician,
        appointment.status,
        appointment.created_by,
    ]


class AppointmentsTab(QWidget):
    def __init__(
        self,
        booking: BookingBackend,
        tasks: Tasks,
        today: dt.date | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.booking = booking
        self.tasks = tasks
        self.user = ""
        self.booking_dialog: BookingDialog | None = None
        self.reschedule_dialog: RescheduleDialog | None = None
        today = today or dt.date.today()
        self._clinicians: list[tuple[int, str, str]] = []
        self._slot_limit = SLOT_PAGE

        # Find form
        self.query = QLineEdit()
        self.query.setObjectName("slotQuery")
        self.query.setAccessibleName("Department or clinician")
        self.query.setPlaceholderText("Department or clinician (Ctrl+F)")
        self.query.returnPressed.connect(self.find_slots)
        self.date_from = QDateEdit(_qdate(today))
        self.date_from.setAccessibleName("From date")
        self.date_to = QDateEdit(_qdate(today + dt.timedelta(days=14)))
        self.date_to.setAccessibleName("To date")
        for edit in (self.date_from, self.date_to):
            edit.setCalendarPopup(True)
            edit.setDisplayFormat("ddd dd MMM yyyy")
        self.part = QComboBox()
        self.part.setAccessibleName("Part of the day")
        for label, value in PARTS:
            self.part.addItem(label, value)
        self.find_button = QPushButton("Find free slots")
        self.find_button.setAccessibleName("Find free slots")
        self.find_button.clicked.connect(lambda: self.find_slots())
        form = QHBoxLayout()
        form.addWidget(self.query, 3)
        form.addWidget(QLabel("from"))
        form.addWidget(self.date_from)
        form.addWidget(QLabel("to"))
        form.addWidget(self.date_to)
        form.addWidget(self.part)
        form.addWidget(self.find_button)

        self.slots = make_table(SLOT_COLUMNS, "Free slots")
        self.slots.doubleClicked.connect(lambda _index: self.book_selected())
        self.slot_message = QLabel("Search for a department or clinician to see free slots.")
        self.slot_message.setTextFormat(Qt.TextFormat.PlainText)
        self.slot_message.setWordWrap(True)
        self.more_button = QPushButton(f"Show {SLOT_PAGE} more")
        self.more_button.setAccessibleName("Show more free slots")
        self.more_button.clicked.connect(self.show_more_slots)
        self.more_button.hide()
        self.book_button = QPushButton("Book selected slot... (Ctrl+B)")
        self.book_button.setAccessibleName("Book the selected slot")
        self.book_button.clicked.connect(self.book_selected)
        slot_bar = QHBoxLayout()
        slot_bar.addWidget(self.slot_message, 1)
        slot_bar.addWidget(self.more_button)
        slot_bar.addWidget(self.book_button)
        slots_box = QGroupBox("Free slots")
        slots_layout = QVBoxLayout(slots_box)
        slots_layout.addLayout(form)
        slots_layout.addWidget(self.slots, 1)
        slots_layout.addLayout(slot_bar)

        # Appointments: search and day view
        self.search = QLineEdit()
        self.search.setAccessibleName("Find an appointment by reference, name or phone")
        self.search.setPlaceholderText("Reference, patient name or phone number")
        self.search.returnPressed.connect(self.search_appointments)
        search_button = QPushButton("Search")
        search_button.setAccessibleName("Search appointments")
        search_button.clicked.connect(self.search_appointments)
        self.day = QDateEdit(_qdate(today))
        self.day.setCalendarPopup(True)
        self.day.setDisplayFormat("ddd dd MMM yyyy")
        self.day.setAccessibleName("Day to show")
        self.clinician = QComboBox()
        self.clinician.setAccessibleName("Clinician for the day view")
        self.clinician.addItem("All clinicians", None)
        day_button = QPushButton("Show day")
        day_button.setAccessibleName("Show the day's appointments")
        day_button.clicked.connect(self.show_day)
        lookup = QHBoxLayout()
        lookup.addWidget(self.search, 2)
        lookup.addWidget(search_button)
        lookup.addSpacing(24)
        lookup.addWidget(QLabel("Day:"))
        lookup.addWidget(self.day)
        lookup.addWidget(self.clinician, 1)
        lookup.addWidget(day_button)
        self.appointments = make_table(APPOINTMENT_COLUMNS, "Appointments")
        self.appointment_message = QLabel("")
        self.appointment_message.setTextFormat(Qt.TextFormat.PlainText)
        self.appointment_message.setWordWrap(True)
        self.cancel_button = QPushButton("Cancel appointment... (Ctrl+D)")
        self.cancel_button.setAccessibleName("Cancel the selected appointment")
        self.cancel_button.clicked.connect(self.cancel_selected)
        self.reschedule_button = QPushButton("Reschedule...")
        self.reschedule_button.setAccessibleName("Move the selected appointment to another slot")
        self.reschedule_button.clicked.connect(self.reschedule_selected)
        appointment_bar = QHBoxLayout()
        appointment_bar.addWidget(self.appointment_message, 1)
        appointment_bar.addWidget(self.reschedule_button)
        appointment_bar.addWidget(self.cancel_button)
        appointments_box = QGroupBox("Appointments")
        appointments_layout = QVBoxLayout(appointments_box)
        appointments_layout.addLayout(lookup)
        appointments_layout.addWidget(self.appointments, 1)
        appointments_layout.addLayout(appointment_bar)

        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(slots_box)
        splitter.addWidget(appointments_box)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)
        order = [
            self.query, self.date_from, self.date_to, self.part, self.find_button, self.slots,
            self.more_button, self.book_button, self.search, search_button, self.day,
            self.clinician, day_button,
            self.appointments, self.reschedule_button, self.cancel_button,
        ]  # fmt: skip
        for first, second in itertools.pairwise(order):
            self.setTabOrder(first, second)

    # ----- loading -----------------------------------------------------------------------

    def load(self) -> None:
        """Fill the clinician list (called after sign-in)."""
        booking = self.booking
        self.tasks.run(booking.clinicians, self._on_clinicians, self._show_appointment_error)

    def _on_clinicians(self, clinicians: list[tuple[int, str, str]]) -> None:
        self._clinicians = list(clinicians)
        self.clinician.clear()
        self.clinician.addItem("All clinicians", None)
        for clinician_id, name, department in clinicians:
            self.clinician.addItem(f"{name} ({department})", clinician_id)
        if clinicians:
            # An example from this clinic's own list, never a name it does not have.
            _id, name, department = clinicians[0]
            self.query.setPlaceholderText(
                f"Department or clinician, e.g. {department.lower()}, {name} (Ctrl+F)"
            )

    def focus_find(self) -> None:
        self.query.setFocus()
        self.query.selectAll()

    # ----- free slots --------------------------------------------------------------------

    def find_slots(self, *, keep_limit: bool = False) -> None:
        """Search free slots; a new search starts at the first page, a refresh keeps the page."""
        if not keep_limit:
            self._slot_limit = SLOT_PAGE
        limit = self._slot_limit
        booking = self.booking
        query = self.query.text().strip()
        start = _pydate(self.date_from.date())
        end = _pydate(self.date_to.date())
        part = str(self.part.currentData())
        if end < start:
            self.slot_message.setText("The 'to' date is before the 'from' date.")
            return
        self.slot_message.setText("Searching...")
        self.find_button.setEnabled(False)
        # One more than shown, so the tab knows (and says) when the list is not complete.
        self.tasks.run(
            lambda: booking.find_free_slots(query, start, end, part, limit + 1),
            lambda slots: self._on_slots(slots, limit),
            self._on_slots_failed,
        )

    def show_more_slots(self) -> None:
        self._slot_limit += SLOT_PAGE
        self.find_slots(keep_limit=True)

    def _on_slots(self, slots: list[Any], limit: int = SLOT_PAGE) -> None:
        self.find_button.setEnabled(True)
        previous = selected_payload(self.slots)
        more = len(slots) > limit
        slots = slots[:limit]
        set_rows(self.slots, [(slot, slot_cells(slot)) for slot in slots])
        _reselect(self.slots, getattr(previous, "slot_id", None), "slot_id")
        self.more_button.setVisible(more)
        if more:
            self.slot_message.setText(
                f"Showing the first {counted(len(slots), 'free slot')}; more match. Narrow the "
                f"dates or press 'Show {SLOT_PAGE} more'. Select one and press Ctrl+B."
            )
        elif slots:
            self.slot_message.setText(
                f"{counted(len(slots), 'free slot')}. Select one and press Ctrl+B."
            )
        else:
            self.slot_message.setText(
                "No free slots match. Try a wider date range, 'Any time', or fewer words."
            )

    def _on_slots_failed(self, error: BaseException) -> None:
        self.find_button.setEnabled(True)
        self.slot_message.setText(describe(error))

    def book_selected(self) -> None:
        slot = selected_payload(self.slots)
        if slot is None:
            self.slot_message.setText("Select a free slot first (find slots, then pick a row).")
            return
        dialog = BookingDialog(slot, self.booking, self.user, self.tasks, self)
        dialog.finished.connect(self._on_booking_closed)
        self.booking_dialog = dialog
        dialog.open()

    def _on_booking_closed(self, _result: int) -> None:
        dialog = self.booking_dialog
        if dialog is not None and dialog.appointment is not None:
            appointment = dialog.appointment
            self.appointment_message.setText(
                f"Booked {appointment.reference}: {slot_caption(appointment.slot)}"
            )
            set_rows(self.appointments, [(appointment, appointment_cells(appointment))])
        if self.slots.rowCount():
            self.find_slots(keep_limit=True)

    # ----- appointments ------------------------------------------------------------------

    def search_appointments(self) -> None:
        text = self.search.text().strip()
        if not text:
            self.appointment_message.setText(
                "Type a reference, a patient's name or a phone number."
            )
            return
        booking = self.booking
        self.tasks.run(
            lambda: booking.search(text), self._on_appointments, self._show_appointment_error
        )

    def show_day(self) -> None:
        booking = self.booking
        day = _pydate(self.day.date())
        clinician_id = self.clinician.currentData()
        self.tasks.run(
            lambda: booking.day_view(day, clinician_id),
            self._on_appointments,
            self._show_appointment_error,
        )

    def _on_appointments(self, appointments: list[Any]) -> None:
        set_rows(self.appointments, [(a, appointment_cells(a)) for a in appointments])
        self.appointment_message.setText(
            f"{counted(len(appointments), 'appointment')}."
            if appointments
            else "No appointments found."
        )

    def _show_appointment_error(self, error: BaseException) -> None:
        self.appointment_message.setText(describe(error))

    def _selected_live_appointment(self) -> Any:
        appointment = selected_payload(self.appointments)
        if appointment is None:
            self.appointment_message.setText("Select an appointment first.")
            return None
        if appointment.status != "booked":
            self.appointment_message.setText(f"{appointment.reference} is already cancelled.")
            return None
        return appointment

    def cancel_selected(self) -> None:
        appointment = self._selected_live_appointment()
        if appointment is None:
            return
        question = (
            f"Cancel appointment {appointment.reference} for {appointment.patient_name}, "
            f"{slot_caption(appointment.slot)}?\n\nThe slot becomes free for others."
        )
        if not confirm(self, "Cancel appointment", question):
            return
        booking, user, reference = self.booking, self.user, appointment.reference
        self.tasks.run(
            lambda: booking.cancel(reference, user), self._on_changed, self._show_appointment_error
        )

    def _on_changed(self, appointment: Any) -> None:
        for row in range(self.appointments.rowCount()):
            item = self.appointments.item(row, 0)
            if item is not None and item.text() == getattr(appointment, "reference", None):
                for column, text in enumerate(appointment_cells(appointment)):
                    cell = QTableWidgetItem(text)
                    if column == 0:
                        cell.setData(Qt.ItemDataRole.UserRole, appointment)
                    self.appointments.setItem(row, column, cell)
        if appointment is not None:
            verb = "Cancelled" if appointment.status == "cancelled" else "Updated"
            self.appointment_message.setText(
                f"{verb} {appointment.reference}: {slot_caption(appointment.slot)}"
            )
        if self.slots.rowCount():
            # A cancel frees a slot and a reschedule takes one: the free list is stale now.
            self.find_slots(keep_limit=True)

    def set_database_available(self, available: bool) -> None:
        """While the database is down the lists may be stale: nothing in them can be acted on."""
        for widget in (
            self.slots, self.appointments, self.book_button, self.more_button,
            self.cancel_button, self.reschedule_button,
        ):  # fmt: skip
            widget.setEnabled(available)
        if not available:
            self.slot_message.setText(STALE_NOTE)
            self.appointment_message.setText(STALE_NOTE)
        elif self.slot_message.text() == STALE_NOTE:
            self.slot_message.setText("The database is back. Find free slots again to refresh.")
            self.appointment_message.setText("")

    def reschedule_selected(self) -> None:
        appointment = self._selected_live_appointment()
        if appointment is None:
            return
        booking = self.booking
        query = appointment.slot.clinician
        start = dt.date.today()
        self.tasks.run(
            lambda: booking.find_free_slots(query, start, start + dt.timedelta(days=28)),
            lambda slots: self._pick_new_slot(appointment, slots),
            self._show_appointment_error,
        )

    def _pick_new_slot(self, appointment: Any, slots: list[Any]) -> None:
        dialog = RescheduleDialog(appointment, slots, self)
        dialog.accepted.connect(lambda: self._reschedule(appointment, dialog.chosen))
        self.reschedule_dialog = dialog
        dialog.open()

    def _reschedule(self, appointment: Any, slot: Any) -> None:
        if slot is None:
            return
        booking, user = self.booking, self.user
        reference, slot_id = appointment.reference, slot.slot_id
        self.tasks.run(
            lambda: booking.reschedule(reference, slot_id, user),
            self._on_changed,
            self._show_appointment_error,
        )


def _reselect(table: QTableWidget, key: Any, attribute: str) -> None:
    """Select the row whose payload has ``attribute == key`` (the first row stays otherwise)."""
    if key is None:
        return
    for row in range(table.rowCount()):
        item = table.item(row, 0)
        payload = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if getattr(payload, attribute, None) == key:
            table.selectRow(row)
            return


def _qdate(day: dt.date) -> QDate:
    return QDate(day.year, day.month, day.day)


def _pydate(day: QDate) -> dt.date:
    return dt.date(day.year(), day.month(), day.day())
