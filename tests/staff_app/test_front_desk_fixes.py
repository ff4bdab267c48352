"""What a receptionist saw in a walk-through of the desk (issue 13, "the front desk as it is"):
stale free slots after a change, a silent 50-slot cut, "1 appointments.", a review queue that
jumps to the top, connection strings in the banner, stale lists still clickable, plain grey
emergencies, and a search hint naming a clinician the clinic may not have."""

import pytest
import sqlalchemy.exc
from PySide6.QtCore import QDate, Qt

from engine.errors import DatabaseUnavailable
from engine.events import DoneEvent, Outcome, Route
from staff_app import appointments_tab
from staff_app.errors import describe
from tests.support.fake_staff import MONDAY, make_slots


@pytest.fixture
def tab(qtbot, window):
    window.show_tab(1)
    tab = window.appointments
    tab.date_from.setDate(QDate(MONDAY.year, MONDAY.month, MONDAY.day))
    tab.date_to.setDate(QDate(MONDAY.year, MONDAY.month, MONDAY.day).addDays(20))
    return tab


def find(qtbot, tab, query):
    tab.query.setText(query)
    qtbot.keyClick(tab.query, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: tab.find_button.isEnabled(), timeout=3000)


def slot_ids(tab):
    return [
        tab.slots.item(r, 0).data(Qt.ItemDataRole.UserRole).slot_id
        for r in range(tab.slots.rowCount())
    ]


def test_more_than_a_page_of_slots_says_so_and_pages(qtbot, tab, services):
    services.booking.slots = make_slots(MONDAY, days=14)  # 14 days x 4 clinicians x 5 = 280
    find(qtbot, tab, "")
    assert tab.slots.rowCount() == appointments_tab.SLOT_PAGE
    assert "first 50 free slots; more match" in tab.slot_message.text()
    assert tab.more_button.isVisible()
    tab.more_button.click()
    qtbot.waitUntil(lambda: tab.slots.rowCount() == 100, timeout=3000)
    assert tab.more_button.isVisible()
    # A new search starts at the first page again (70 physiotherapy slots: 50, then 20).
    find(qtbot, tab, "physio")
    assert tab.slots.rowCount() == 50 and tab.more_button.isVisible()
    tab.more_button.click()
    qtbot.waitUntil(lambda: tab.slots.rowCount() == 70, timeout=3000)
    assert not tab.more_button.isVisible()
    assert tab.slot_message.text().startswith("70 free slots.")


def test_one_of_a_kind_is_singular(qtbot, window, tab, services):
    services.booking.slots = [s for s in make_slots(MONDAY, days=1) if s.clinician_id == 4][:1]
    find(qtbot, tab, "physio")
    assert tab.slot_message.text().startswith("1 free slot.")
    tab.book_selected()
    dialog = tab.booking_dialog
    qtbot.keyClicks(dialog.name, "Maria Lopez")
    qtbot.keyClicks(dialog.contact, "020 7946 0123")
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.appointment is not None, timeout=3000)
    dialog.accept()
    tab.search.setText("Lopez")
    tab.search_appointments()
    qtbot.waitUntil(lambda: "appointment" in tab.appointment_message.text(), timeout=3000)
    assert tab.appointment_message.text() == "1 appointment."


def test_cancel_and_reschedule_refresh_the_free_slot_list(
    qtbot, window, tab, services, monkeypatch
):
    services.booking.slots = make_slots(MONDAY, days=1)
    find(qtbot, tab, "hart")
    first = slot_ids(tab)[0]
    tab.book_selected()
    dialog = tab.booking_dialog
    qtbot.keyClicks(dialog.name, "Maria Lopez")
    qtbot.keyClicks(dialog.contact, "020 7946 0123")
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.appointment is not None, timeout=3000)
    dialog.accept()
    qtbot.waitUntil(lambda: first not in slot_ids(tab), timeout=3000)

    monkeypatch.setattr(appointments_tab, "confirm", lambda *_args: True)
    tab.appointments.selectRow(0)
    tab.cancel_selected()
    # The cancelled slot is free again without pressing "Find free slots".
    qtbot.waitUntil(lambda: first in slot_ids(tab), timeout=3000)


def test_database_down_marks_lists_stale_and_unclickable(qtbot, window, tab, backend, services):
    find(qtbot, tab, "hart")
    assert tab.book_button.isEnabled()
    backend.database_up = False
    checks = window.health_checks
    window.check_health()
    qtbot.waitUntil(lambda: window.health_checks > checks, timeout=3000)
    assert not tab.book_button.isEnabled() and not tab.slots.isEnabled()
    assert not tab.cancel_button.isEnabled()
    assert "may be out of date" in tab.slot_message.text()
    backend.database_up = True
    checks = window.health_checks
    window.check_health()
    qtbot.waitUntil(lambda: window.health_checks > checks, timeout=3000)
    assert tab.book_button.isEnabled() and tab.slots.isEnabled()


def test_database_errors_never_show_connection_strings():
    raw = sqlalchemy.exc.OperationalError(
        "SELECT 1",
        {},
        Exception('connection to server on socket "/tmp/abc/.s.PGSQL.5432" failed: No such file'),
    )
    text = describe(raw)
    assert text.startswith("The database cannot be reached.")
    assert "Something unexpected" not in text and ".s.PGSQL" not in text
    engine_error = DatabaseUnavailable(
        "The database at postgresql://postgres:secret@/clinic?host=%2Fvar%2Fdata cannot be "
        "reached: connection refused"
    )
    text = describe(engine_error)
    assert "secret" not in text and "%2F" not in text and "postgresql://" not in text
    assert "cannot be reached" in text


def test_review_decision_keeps_the_place_in_the_queue(qtbot, window, services):
    tab = window.review
    qtbot.waitUntil(lambda: tab.table.rowCount() == 2, timeout=3000)
    second = tab.table.item(1, 0).data(Qt.ItemDataRole.UserRole)
    tab.table.selectRow(1)
    tab.show_decided.setChecked(True)
    qtbot.waitUntil(lambda: tab.table.rowCount() >= 2, timeout=3000)
    tab.table.selectRow(1)
    tab.decision_buttons["ok"].click() if "ok" in tab.decision_buttons else next(
        iter(tab.decision_buttons.values())
    ).click()
    qtbot.waitUntil(lambda: len(services.review.decisions) == 1, timeout=3000)
    qtbot.waitUntil(lambda: tab.tasks.running() == 0, timeout=3000)
    # The decided question is still listed (decided ones shown) and still selected.
    assert tab.table.currentRow() >= 0
    current = tab.table.item(tab.table.currentRow(), 0).data(Qt.ItemDataRole.UserRole)
    assert current.answer_id == second.answer_id


def test_staff_emergency_answer_is_marked_not_plain(qtbot, window):
    assistant = window.assistant
    from engine.qt import Bubble

    bubble = Bubble("answer")
    qtbot.addWidget(bubble)
    assistant._bubble = bubble
    assistant._question = "my colleague collapsed"
    done = DoneEvent(
        text="Call 999 now.", route=Route.EMERGENCY, outcome=Outcome.EMERGENCY, citations=()
    )
    assistant._on_finished(done)
    assert bubble.property("emergency") is True
    assert "EMERGENCY" in bubble.header.text()
    assert "#b00020" in bubble.styleSheet()


def test_search_hint_names_this_clinics_own_clinician(qtbot, window):
    tab = window.appointments
    qtbot.waitUntil(lambda: tab.clinician.count() > 1, timeout=3000)
    hint = tab.query.placeholderText()
    assert "Dr Amelia Hart" in hint and "general practice" in hint


def test_ingest_results_never_tell_a_receptionist_to_use_a_command_line_flag():
    from engine.knowledge.ingest.results import IngestReport, IngestResult
    from staff_app.knowledge_tab import report_lines

    error = (
        "no audience declared: add 'audience: public' or 'audience: staff' to the document, "
        "put it under a public/ or staff/ folder, or use --audience"
    )
    report = IngestReport((IngestResult("/drop/rota.md", "rota", "", "", "failed", 0, error),))
    [line] = report_lines(report)
    assert "--audience" not in line
    assert "choose Public or Staff when asked" in line
