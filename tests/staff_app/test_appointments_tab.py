"""The Appointments tab: find, book, confirmation, slot just taken, validation, cancel."""

import datetime as dt

import pytest
from PySide6.QtCore import QDate, Qt

from engine.errors import ValidationError
from engine.frontdesk.booking import BookingRequest
from staff_app import appointments_tab
from tests.support.fake_staff import MONDAY


@pytest.fixture
def tab(qtbot, window):
    window.show_tab(1)
    tab = window.appointments
    tab.date_from.setDate(QDate(MONDAY.year, MONDAY.month, MONDAY.day))
    tab.date_to.setDate(QDate(MONDAY.year, MONDAY.month, MONDAY.day + 2))
    return tab


def find(qtbot, tab, query):
    tab.query.setText(query)
    qtbot.keyClick(tab.query, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: tab.find_button.isEnabled(), timeout=3000)


def open_booking(qtbot, window, tab):
    qtbot.keyClick(window, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    dialog = tab.booking_dialog
    assert dialog is not None and dialog.isVisible()
    return dialog


def fill(qtbot, dialog, name="Maria Lopez", phone="020 7946 0123"):
    qtbot.keyClicks(dialog.name, name)
    qtbot.keyClicks(dialog.contact, phone)


def test_find_then_book_shows_the_reference(qtbot, window, tab, services):
    find(qtbot, tab, "physio")
    assert tab.slots.rowCount() == 15  # 3 days x 5 slots for the one physiotherapist
    assert tab.slots.item(0, 3).text() == "Dr Lena Fischer"
    assert services.booking.calls[-1][0] == "find_free_slots"
    assert services.booking.calls[-1][1][:2] == ("physio", MONDAY)

    dialog = open_booking(qtbot, window, tab)
    fill(qtbot, dialog)
    qtbot.keyClick(dialog.contact, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dialog.stack.currentIndex() == 1, timeout=3000)
    assert dialog.reference_label.text() == "RFC-4801"
    assert dialog.isVisible()  # Enter booked; it did not also close the dialog
    name, (request, user) = services.booking.calls[-1]
    assert name == "book" and user == "alice"
    assert request == BookingRequest(
        tab.slots.item(0, 0).data(Qt.ItemDataRole.UserRole).slot_id,
        "Maria Lopez",
        "020 7946 0123",
        "",
    )
    dialog.copy_reference()
    from PySide6.QtGui import QGuiApplication

    assert QGuiApplication.clipboard().text() == "RFC-4801"
    dialog.accept()
    assert "RFC-4801" in tab.appointment_message.text()


def test_part_of_day_filters_slots(qtbot, tab, services):
    tab.part.setCurrentIndex(2)  # afternoon
    find(qtbot, tab, "hart")
    hours = {tab.slots.item(r, 1).text() for r in range(tab.slots.rowCount())}
    assert hours == {"14:00", "15:30"}


def test_slot_just_taken_offers_alternatives(qtbot, window, tab, services):
    find(qtbot, tab, "hart")
    taken = tab.slots.item(0, 0).data(Qt.ItemDataRole.UserRole)
    services.booking.taken.add(taken.slot_id)
    dialog = open_booking(qtbot, window, tab)
    fill(qtbot, dialog)
    dialog.book_button.click()
    qtbot.waitUntil(lambda: dialog.alternatives.isVisible(), timeout=3000)
    assert "just been taken" in dialog.errors["general"].text()
    assert dialog.alternatives.count() == 3
    assert dialog.stack.currentIndex() == 0
    assert dialog.name.text() == "Maria Lopez"  # nothing typed is lost

    dialog.alternatives.setCurrentRow(1)
    chosen = dialog.alternatives.item(1).data(Qt.ItemDataRole.UserRole)
    dialog.book_button.click()
    qtbot.waitUntil(lambda: dialog.stack.currentIndex() == 1, timeout=3000)
    assert services.booking.calls[-1][1][0].slot_id == chosen.slot_id
    assert dialog.appointment.slot.slot_id == chosen.slot_id


def test_validation_message_is_shown_next_to_the_field(qtbot, window, tab, services):
    find(qtbot, tab, "hart")
    services.booking.validation = ValidationError(
        "Contact number must be a UK phone number such as 020 7946 0100 or 07700 900123."
    )
    dialog = open_booking(qtbot, window, tab)
    fill(qtbot, dialog, phone="12")
    dialog.book_button.click()
    qtbot.waitUntil(lambda: dialog.errors["contact"].isVisible(), timeout=3000)
    assert dialog.errors["contact"].text().startswith("Contact number must be a UK phone")
    assert not dialog.errors["name"].isVisible()
    assert dialog.contact.hasFocus()
    assert dialog.stack.currentIndex() == 0


def book_one(qtbot, window, tab):
    find(qtbot, tab, "hart")
    dialog = open_booking(qtbot, window, tab)
    fill(qtbot, dialog)
    dialog.book_button.click()
    qtbot.waitUntil(lambda: dialog.stack.currentIndex() == 1, timeout=3000)
    dialog.accept()
    return dialog.appointment


def test_cancel_asks_for_confirmation_first(qtbot, window, tab, services, monkeypatch):
    appointment = book_one(qtbot, window, tab)
    asked = []
    answer = {"value": False}

    def fake_confirm(_parent, _title, text):
        asked.append(text)
        return answer["value"]

    monkeypatch.setattr(appointments_tab, "confirm", fake_confirm)
    tab.appointments.selectRow(0)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    qtbot.keyClick(window, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert len(asked) == 1 and appointment.reference in asked[0]
    assert "cancel" not in [c[0] for c in services.booking.calls]

    answer["value"] = True
    tab.cancel_selected()
    qtbot.waitUntil(lambda: tab.appointments.item(0, 5).text() == "cancelled", timeout=3000)
    assert ("cancel", (appointment.reference, "alice")) in services.booking.calls


def test_search_and_day_view(qtbot, window, tab, services):
    appointment = book_one(qtbot, window, tab)
    tab.appointments.setRowCount(0)
    tab.search.setText("maria")
    tab.search_appointments()
    qtbot.waitUntil(lambda: tab.appointments.rowCount() == 1, timeout=3000)
    assert tab.appointments.item(0, 0).text() == appointment.reference

    tab.appointments.setRowCount(0)
    day = appointment.slot.starts_at.date()
    tab.day.setDate(QDate(day.year, day.month, day.day))
    tab.show_day()
    qtbot.waitUntil(lambda: tab.appointments.rowCount() == 1, timeout=3000)
    assert services.booking.calls[-1] == ("day_view", (day, None))


def test_reschedule_moves_to_the_picked_slot(qtbot, window, tab, services, monkeypatch):
    monkeypatch.setattr(
        "staff_app.appointments_tab.dt.date", type("D", (dt.date,), {"today": lambda: MONDAY})
    )
    appointment = book_one(qtbot, window, tab)
    tab.appointments.selectRow(0)
    tab.reschedule_selected()
    qtbot.waitUntil(lambda: tab.reschedule_dialog is not None, timeout=3000)
    dialog = tab.reschedule_dialog
    dialog.list.setCurrentRow(2)
    new_slot = dialog.list.item(2).data(Qt.ItemDataRole.UserRole)
    dialog.choose()
    qtbot.waitUntil(
        lambda: any(name == "reschedule" for name, _ in services.booking.calls), timeout=3000
    )
    call = next(args for name, args in services.booking.calls if name == "reschedule")
    assert call == (appointment.reference, new_slot.slot_id, "alice")
    qtbot.waitUntil(lambda: "Updated" in tab.appointment_message.text(), timeout=3000)
