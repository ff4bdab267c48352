"""Self check-in at the kiosk, tapped as a patient would: the check-in button, date keys and a
letter, Confirm, the place in the queue; several matches lead to the reference; no match and
too many tries send the patient to reception; the next patient sees nothing of the last; and the
whole flow once on the real database through the kiosk's own role."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import Qt

from engine.frontdesk.waiting_queue import CheckIn, Position, QueueService
from engine.ops.db import Database
from engine.ops.roles import init_roles
from kiosk_app.check_in_screen import NOT_FOUND, SEVERAL, THROTTLED
from tests.support.waiting_room import BORN, Today, kiosk_url, too_close_to_midnight

AT = dt.datetime(2026, 11, 30, 10, 40, tzinfo=dt.UTC)


class FakeCheckIns:
    """The CheckInBackend Protocol with scripted answers and a call history."""

    def __init__(self) -> None:
        self.calls: list[dict[str, object]] = []
        self.status = "found"

    def check_in(self, source, *, reference=None, date_of_birth=None, initial=None, confirm=False):
        self.calls.append(
            {
                "source": source,
                "reference": reference,
                "dob": date_of_birth,
                "initial": initial,
                "confirm": confirm,
            }
        )
        status = "checked_in" if confirm and self.status == "found" else self.status
        found = status in ("found", "checked_in")
        return CheckIn(
            status=status,
            entry_id=7 if status == "checked_in" else None,
            ticket=14 if status == "checked_in" else None,
            starts_at=AT if found else None,
            department="Physiotherapy" if found else None,
            clinician="Dr Lena Fischer" if found else None,
            late=False,
            matches=2 if status == "several" else 1,
        )

    def position(self, entry_id):
        return Position(entry_id, 14, "arrived", "Physiotherapy", None, 2, 30, None, False)


def tap(qtbot, screen, name: str, text: str | None = None) -> None:
    from PySide6.QtWidgets import QPushButton

    buttons = [
        b
        for b in screen.findChildren(QPushButton)
        if b.objectName() == name and (text is None or b.text() == text) and b.isVisible()
    ]
    assert buttons, f"no visible {name} {text}"
    qtbot.mouseClick(buttons[0], Qt.MouseButton.LeftButton)


def enter_details(qtbot, screen, digits: str, letter: str) -> None:
    for digit in digits:
        tap(qtbot, screen, "digitKey", digit)
    tap(qtbot, screen, "letterKey", letter)


@pytest.fixture
def checkins():
    return FakeCheckIns()


@pytest.fixture
def kiosk(make_window, backend, checkins):
    return make_window(backend, check_in=lambda: checkins, kiosk_name="kiosk:entrance")


def test_patient_checks_in_with_birth_date_and_initial(qtbot, kiosk, checkins) -> None:
    assert kiosk.welcome.check_in_button.isVisible()
    qtbot.mouseClick(kiosk.welcome.check_in_button, Qt.MouseButton.LeftButton)
    screen = kiosk.check_in
    assert kiosk.stack.currentWidget() is screen
    assert kiosk.keyboard.isHidden()  # works with the text keyboard folded away
    assert not screen.find_button.isEnabled()
    enter_details(qtbot, screen, "09041961", "L")
    assert screen.date_label.text() == "09 / 04 / 1961"
    tap(qtbot, screen, "find")
    qtbot.waitUntil(lambda: screen.confirm_button.isVisible(), timeout=5000)
    assert "10:40, Physiotherapy with Dr Lena Fischer" in screen.message.text() or (
        "Physiotherapy with Dr Lena Fischer" in screen.message.text()
    )
    assert checkins.calls[-1] == {
        "source": "kiosk:entrance",
        "reference": None,
        "dob": dt.date(1961, 4, 9),
        "initial": "L",
        "confirm": False,
    }
    tap(qtbot, screen, "confirmCheckIn")
    qtbot.waitUntil(lambda: "ticket 14" in screen.message.text(), timeout=5000)
    assert "2 people are ahead of you for Physiotherapy, about 30 minutes" in screen.message.text()
    assert checkins.calls[-1]["confirm"] is True

    # Done: the next patient starts from a clean welcome screen with nothing entered.
    tap(qtbot, screen, "doneCheckIn")
    assert kiosk.stack.currentWidget() is kiosk.welcome_area
    qtbot.mouseClick(kiosk.welcome.check_in_button, Qt.MouseButton.LeftButton)
    assert screen.date_label.text() == "__ / __ / ____" and screen.initial_label.text() == "_"


def test_an_impossible_date_is_caught_before_any_lookup(qtbot, kiosk, checkins) -> None:
    kiosk.start_check_in()
    enter_details(qtbot, kiosk.check_in, "31021961", "L")
    tap(qtbot, kiosk.check_in, "find")
    assert "does not exist" in kiosk.check_in.details_hint.text()
    assert checkins.calls == []


def test_several_matches_ask_for_the_reference(qtbot, kiosk, checkins) -> None:
    checkins.status = "several"
    kiosk.start_check_in()
    screen = kiosk.check_in
    enter_details(qtbot, screen, "09041961", "S")
    tap(qtbot, screen, "find")
    qtbot.waitUntil(lambda: screen.pages.currentWidget() is screen.reference, timeout=5000)
    assert screen.reference_hint.text() == SEVERAL
    for char in "MARAAA":
        tap(qtbot, screen, "referenceKey", char)
    checkins.status = "found"
    tap(qtbot, screen, "find")
    qtbot.waitUntil(lambda: screen.confirm_button.isVisible(), timeout=5000)
    assert checkins.calls[-1]["reference"] == "CL-MARAAA"


@pytest.mark.parametrize(("status", "text"), [("none", NOT_FOUND), ("throttled", THROTTLED)])
def test_no_match_or_too_many_tries_send_the_patient_to_reception(
    qtbot, kiosk, checkins, status, text
) -> None:
    checkins.status = status
    kiosk.start_check_in()
    enter_details(qtbot, kiosk.check_in, "01011970", "Q")
    tap(qtbot, kiosk.check_in, "find")
    qtbot.waitUntil(lambda: kiosk.check_in.message.text() == text, timeout=5000)


def test_idle_wipe_forgets_the_check_in(qtbot, kiosk, checkins) -> None:
    kiosk.start_check_in()
    enter_details(qtbot, kiosk.check_in, "0904", "L")
    assert kiosk.has_patient_state()
    kiosk.wipe()
    assert kiosk.stack.currentWidget() is kiosk.welcome_area
    assert kiosk.check_in.date_label.text() == "__ / __ / ____"


def test_confirm_tapped_as_soon_as_the_appointment_shows_is_not_lost(
    qtbot, kiosk, checkins
) -> None:
    """The found page shows before the lookup's thread has stopped; a quick patient's Confirm
    in that gap checks them in (it used to be dropped, and the kiosk waited for ever)."""
    kiosk.start_check_in()
    screen = kiosk.check_in
    call = kiosk.check_in_controller._call
    tapped: list[bool] = []

    def tap_confirm_at_once(_result: object) -> None:  # runs after the found page is shown
        if screen.confirm_button.isVisible() and not tapped:
            assert call.is_running()  # the gap this test is about
            tapped.append(True)
            tap(qtbot, screen, "confirmCheckIn")

    call.succeeded.connect(tap_confirm_at_once)
    enter_details(qtbot, screen, "09041961", "L")
    tap(qtbot, screen, "find")
    qtbot.waitUntil(lambda: "ticket 14" in screen.message.text(), timeout=5000)
    assert tapped and [c["confirm"] for c in checkins.calls] == [False, True]


def test_a_lookup_still_running_at_the_idle_wipe_shows_nothing_to_the_next_patient(
    qtbot, kiosk, checkins
) -> None:
    import threading

    release = threading.Event()
    answer = checkins.check_in

    def slow_check_in(*args, **kwargs):
        release.wait(5)
        return answer(*args, **kwargs)

    checkins.check_in = slow_check_in
    checkins.status = "found"
    kiosk.start_check_in()
    screen = kiosk.check_in
    enter_details(qtbot, screen, "09041961", "L")
    tap(qtbot, screen, "find")
    call = kiosk.check_in_controller._call
    assert call.is_running()
    kiosk.wipe()  # the patient walked away; the next one steps up
    checkins.status = "checked_in"  # whatever comes back belongs to the last patient
    release.set()
    qtbot.waitUntil(lambda: not call.is_running(), timeout=5000)
    qtbot.wait(50)
    assert kiosk.stack.currentWidget() is kiosk.welcome_area
    assert kiosk.check_in_controller.entry_id is None
    assert "ticket" not in screen.message.text() and "Physiotherapy" not in screen.message.text()
    # The next patient's own check-in works as usual.
    checkins.check_in = answer
    checkins.status = "found"
    kiosk.start_check_in()
    enter_details(qtbot, screen, "01021980", "M")
    tap(qtbot, screen, "find")
    qtbot.waitUntil(lambda: screen.confirm_button.isVisible(), timeout=5000)


def test_no_check_in_button_without_a_check_in_backend(window) -> None:
    assert not window.welcome.check_in_button.isVisible()


def test_the_real_flow_through_the_kiosk_role(qtbot, make_window, backend, database_url) -> None:
    owner = Database(database_url)
    try:
        if too_close_to_midnight(owner):
            pytest.skip("too close to midnight for same-day bookings")
        from engine.ops import db as dbm

        dbm.upgrade(owner)
        Today(owner).book("Maria Lopez", 20)
        init_roles(owner, kiosk_password="kiosk-pw-1", staff_password="staff-pw-1")
        kiosk_db = Database(kiosk_url(database_url))
        queue = QueueService(kiosk_db)
        kiosk = make_window(backend, check_in=lambda: queue, kiosk_name="kiosk:test")
        kiosk.start_check_in()
        screen = kiosk.check_in
        enter_details(qtbot, screen, BORN.strftime("%d%m%Y"), "L")
        tap(qtbot, screen, "find")
        qtbot.waitUntil(lambda: screen.confirm_button.isVisible(), timeout=10000)
        assert "Maria" not in screen.message.text() and "Lopez" not in screen.message.text()
        tap(qtbot, screen, "confirmCheckIn")
        qtbot.waitUntil(lambda: "checked in (ticket 1)" in screen.message.text(), timeout=10000)
        [entry] = QueueService(owner).entries()
        assert entry.patient == "Maria Lopez" and entry.state == "arrived"
        kiosk_db.dispose()
    finally:
        owner.dispose()


def last_answer(kiosk):
    return [b for b in kiosk.chat.view.bubbles() if b.role == "answer"][-1]


def test_after_check_in_the_wait_is_answered_from_the_live_queue(
    qtbot, kiosk, checkins, backend
) -> None:
    kiosk.ask("how long will I wait?")
    assert last_answer(kiosk).text.startswith("I can tell you about your wait once you have")
    assert last_answer(kiosk).citation_buttons() == []

    kiosk.wipe()
    qtbot.mouseClick(kiosk.welcome.check_in_button, Qt.MouseButton.LeftButton)
    screen = kiosk.check_in
    enter_details(qtbot, screen, "09041961", "L")
    tap(qtbot, screen, "find")
    qtbot.waitUntil(lambda: screen.confirm_button.isVisible(), timeout=5000)
    tap(qtbot, screen, "confirmCheckIn")
    qtbot.waitUntil(lambda: "ticket 14" in screen.message.text(), timeout=5000)
    # "Ask a question" keeps this session (and its ticket); "Done" would end it.
    tap(qtbot, screen, "askAfterCheckIn")
    assert kiosk.stack.currentWidget() is kiosk.welcome_area
    kiosk.welcome.input.edit.setText("has the doctor been delayed?")
    kiosk.welcome.input.submit()
    qtbot.waitUntil(lambda: "[1]" in last_answer(kiosk).text, timeout=5000)
    answer = last_answer(kiosk)
    assert "2 people are ahead of you for Physiotherapy" in answer.text
    [button] = answer.citation_buttons()
    assert "Live queue" in button.text()

    # The next patient (after the idle wipe) inherits nothing.
    kiosk.wipe()
    kiosk.ask("how many people are before me?")
    assert last_answer(kiosk).text.startswith("I can tell you about your wait")


def test_call_staff_raises_a_quiet_alert_and_says_so(qtbot, make_window, backend) -> None:
    calls: list[str] = []
    kiosk = make_window(backend, call_staff=lambda: calls.append("help") or 7)
    assert kiosk.call_staff_button.isVisible()
    qtbot.mouseClick(kiosk.call_staff_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "has been asked" in kiosk.call_staff_note.text(), timeout=5000)
    assert calls == ["help"]
    kiosk.wipe()  # the next patient does not see the last one's request
    assert kiosk.call_staff_note.text() == ""


def test_call_staff_failing_sends_the_patient_to_reception(qtbot, make_window, backend) -> None:
    def down() -> object:
        raise RuntimeError("database down")

    kiosk = make_window(backend, call_staff=down)
    qtbot.mouseClick(kiosk.call_staff_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "go to reception" in kiosk.call_staff_note.text(), timeout=5000)


def test_no_call_staff_button_without_a_desk(window) -> None:
    assert not window.call_staff_button.isVisible()
