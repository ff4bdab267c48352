"""Book a slot (patient details, inline validation, "just taken" alternatives, confirmation with
Copy and Print) and pick a new slot for a reschedule.

The booking call runs on a worker thread; the engine decides what is valid and whether the slot
is still free. This dialog only shows its answers next to the field they concern.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QTextDocument
from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from engine.errors import SlotTaken, ValidationError
from engine.frontdesk.booking import BookingRequest
from staff_app.errors import describe
from staff_app.services import BookingBackend
from staff_app.tasks import Tasks

JUST_TAKEN = "This slot has just been taken by someone else. Pick another one below:"
NO_ALTERNATIVES = "This slot has just been taken, and there is no other free slot nearby."


def slot_caption(slot: Any) -> str:
    start: dt.datetime = slot.starts_at
    return (
        f"{start:%a %d %b %Y}, {start:%H:%M} ({slot.duration_minutes} min): "
        f"{slot.clinician}, {slot.department}"
    )


def error_label() -> QLabel:
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setStyleSheet("color: #a40000;")
    label.hide()
    return label


def field_for(message: str) -> str:
    """Which field a ValidationError message is about: name, contact, reason or general."""
    lowered = message.lower()
    if "name" in lowered:
        return "name"
    if "contact" in lowered or "phone" in lowered or "number" in lowered:
        return "contact"
    if "reason" in lowered:
        return "reason"
    return "general"


def confirmation_text(appointment: Any) -> str:
    return "\n".join(
        [
            f"Reference: {appointment.reference}",
            f"Patient: {appointment.patient_name}",
            f"When: {slot_caption(appointment.slot)}",
            f"Contact number: {appointment.contact_number}",
        ]
        + ([f"Reason: {appointment.reason}"] if appointment.reason else [])
    )


class BookingDialog(QDialog):
    def __init__(
        self,
        slot: Any,
        booking: BookingBackend,
        user: str,
        tasks: Tasks,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.slot = slot
        self.booking = booking
        self.user = user
        self.tasks = tasks
        self.appointment: Any = None
        self.setWindowTitle("Book an appointment")
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self._details_page())
        self.stack.addWidget(self._confirmation_page())
        layout = QVBoxLayout(self)
        layout.addWidget(self.stack)
        # Enter books: the default button must be set once the pages belong to the dialog, and
        # no other button may be an auto-default (Enter would otherwise cancel).
        for button in self.findChildren(QPushButton):
            button.setAutoDefault(False)
        self.book_button.setDefault(True)
        self.resize(560, 0)
        self.name.setFocus()

    # ----- page 1: details ---------------------------------------------------------------

    def _details_page(self) -> QWidget:
        page = QWidget()
        self.slot_label = QLabel(slot_caption(self.slot))
        self.slot_label.setTextFormat(Qt.TextFormat.PlainText)
        self.slot_label.setStyleSheet("font-weight: bold;")
        self.name = QLineEdit()
        self.name.setAccessibleName("Patient name")
        self.contact = QLineEdit()
        self.contact.setAccessibleName("Contact number")
        self.contact.setPlaceholderText("e.g. 020 7946 0100 or 07700 900123")
        self.reason = QLineEdit()
        self.reason.setAccessibleName("Reason (optional)")
        self.errors = {key: error_label() for key in ("name", "contact", "reason", "general")}
        for key, label in self.errors.items():
            label.setObjectName(f"{key}Error")
        form = QFormLayout()
        form.addRow("Slot", self.slot_label)
        form.addRow("Patient &name", self.name)
        form.addRow("", self.errors["name"])
        form.addRow("&Contact number", self.contact)
        form.addRow("", self.errors["contact"])
        form.addRow("&Reason", self.reason)
        form.addRow("", self.errors["reason"])

        self.alternatives = QListWidget()
        self.alternatives.setAccessibleName("Other free slots")
        self.alternatives.hide()
        self.alternatives.currentItemChanged.connect(self._on_alternative)

        self.book_button = QPushButton("Book")
        self.book_button.setAccessibleName("Book this slot")
        self.book_button.setDefault(True)
        self.book_button.clicked.connect(self.submit)
        cancel = QPushButton("Cancel")
        cancel.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(cancel)
        buttons.addWidget(self.book_button)

        layout = QVBoxLayout(page)
        layout.addLayout(form)
        layout.addWidget(self.errors["general"])
        layout.addWidget(self.alternatives)
        layout.addLayout(buttons)
        return page

    def submit(self) -> None:
        for label in self.errors.values():
            label.hide()
        if self.slot is None:
            self._show_error("general", "Pick one of the free slots first.")
            return
        request = BookingRequest(
            slot_id=self.slot.slot_id,
            patient_name=self.name.text(),
            contact_number=self.contact.text(),
            reason=self.reason.text(),
        )
        booking, user = self.booking, self.user
        self.book_button.setEnabled(False)
        self.book_button.setText("Booking...")
        self.tasks.run(lambda: booking.book(request, user), self._on_booked, self._on_failed)

    def _show_error(self, key: str, text: str) -> None:
        self.errors[key].setText(text)
        self.errors[key].show()
        target = {"name": self.name, "contact": self.contact, "reason": self.reason}.get(key)
        if target is not None:
            target.setFocus()

    def _on_failed(self, error: BaseException) -> None:
        self.book_button.setEnabled(True)
        self.book_button.setText("Book")
        if isinstance(error, SlotTaken):
            self._offer_alternatives(list(error.alternatives))
        elif isinstance(error, ValidationError):
            key = getattr(error, "field", None) or field_for(str(error))
            self._show_error(key if key in self.errors else "general", str(error))
        else:
            self._show_error("general", describe(error))

    def _offer_alternatives(self, alternatives: list[Any]) -> None:
        self.slot = None
        self.slot_label.setText("Just taken: pick another slot below")
        self.alternatives.clear()
        for slot in alternatives:
            item = QListWidgetItem(slot_caption(slot))
            item.setData(Qt.ItemDataRole.UserRole, slot)
            self.alternatives.addItem(item)
        self._show_error("general", JUST_TAKEN if alternatives else NO_ALTERNATIVES)
        self.alternatives.setVisible(bool(alternatives))
        if alternatives:
            self.alternatives.setFocus()

    def _on_alternative(self, current: QListWidgetItem | None, _previous: object) -> None:
        slot = current.data(Qt.ItemDataRole.UserRole) if current is not None else None
        if slot is not None:
            self.slot = slot
            self.slot_label.setText(slot_caption(slot))
            self.book_button.setText("Book this slot instead")

    # ----- page 2: confirmation ----------------------------------------------------------

    def _confirmation_page(self) -> QWidget:
        page = QWidget()
        heading = QLabel("Booked")
        heading.setStyleSheet("font-weight: bold; font-size: 14pt; color: #1b5e20;")
        self.reference_label = QLabel()
        self.reference_label.setObjectName("referenceLabel")
        self.reference_label.setTextFormat(Qt.TextFormat.PlainText)
        self.reference_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reference_label.setStyleSheet("font-size: 20pt; font-weight: bold;")
        self.reference_label.setAccessibleName("Booking reference")
        self.summary = QPlainTextEdit()
        self.summary.setReadOnly(True)
        self.summary.setAccessibleName("Booking details")
        lines = 6  # reference, patient, when, contact, reason, and a margin
        self.summary.setFixedHeight(self.summary.fontMetrics().lineSpacing() * lines + 16)
        self.copy_button = QPushButton("Copy reference")
        self.copy_button.clicked.connect(self.copy_reference)
        self.print_button = QPushButton("Print...")
        self.print_button.clicked.connect(self.print_confirmation)
        done = QPushButton("Done")
        done.clicked.connect(self.accept)
        self.done_button = done
        buttons = QHBoxLayout()
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.print_button)
        buttons.addStretch(1)
        buttons.addWidget(done)
        layout = QVBoxLayout(page)
        layout.addWidget(heading)
        layout.addWidget(QLabel("Give the patient this reference:"))
        layout.addWidget(self.reference_label)
        layout.addWidget(self.summary)
        layout.addLayout(buttons)
        return page

    def _on_booked(self, appointment: Any) -> None:
        self.appointment = appointment
        self.reference_label.setText(appointment.reference)
        self.summary.setPlainText(confirmation_text(appointment))
        self.stack.setCurrentIndex(1)
        self.done_button.setDefault(True)
        self.done_button.setFocus()

    def copy_reference(self) -> None:
        if self.appointment is not None:
            QGuiApplication.clipboard().setText(self.appointment.reference)

    def print_confirmation(self) -> None:
        if self.appointment is None:
            return
        from PySide6.QtPrintSupport import QPrintDialog, QPrinter

        printer = QPrinter()
        dialog = QPrintDialog(printer, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            document = QTextDocument()
            document.setPlainText(
                "Appointment confirmation\n\n" + confirmation_text(self.appointment)
            )
            document.print_(printer)


class RescheduleDialog(QDialog):
    """Pick a new free slot for an appointment (the list comes from the caller)."""

    def __init__(self, appointment: Any, slots: list[Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Reschedule {appointment.reference}")
        self.chosen: Any = None
        current = QLabel(f"Now: {slot_caption(appointment.slot)}")
        current.setTextFormat(Qt.TextFormat.PlainText)
        self.list = QListWidget()
        self.list.setAccessibleName("Free slots to move to")
        for slot in slots:
            item = QListWidgetItem(slot_caption(slot))
            item.setData(Qt.ItemDataRole.UserRole, slot)
            self.list.addItem(item)
        self.list.itemActivated.connect(lambda _item: self.choose())
        self.move_button = QPushButton("Move to this slot")
        self.move_button.setDefault(True)
        self.move_button.clicked.connect(self.choose)
        cancel = QPushButton("Keep the current slot")
        cancel.clicked.connect(self.reject)
        cancel.setAutoDefault(False)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(cancel)
        buttons.addWidget(self.move_button)
        layout = QVBoxLayout(self)
        layout.addWidget(current)
        layout.addWidget(QLabel("Free slots with the same clinician or department:"))
        layout.addWidget(self.list)
        layout.addLayout(buttons)
        if slots:
            self.list.setCurrentRow(0)
        else:
            self.move_button.setEnabled(False)
        self.resize(520, 360)

    def choose(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self.chosen = item.data(Qt.ItemDataRole.UserRole)
            self.accept()
