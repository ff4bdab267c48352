"""Self check-in at the kiosk: date of birth and surname initial, or the booking reference.

Its own large keys (digits for the date, letters for the initial, the reference alphabet), so it
works with the on-screen keyboard folded away. It only collects what the patient enters and shows
what the window hands back; it never calls the engine. What it shows of a booking is the time,
the service and the clinician, never a name: the lookup returns no name to show.

Pages: details (date + initial) -> result (Confirm / Not me) -> checked in (place in the queue);
or the reference page when several bookings match or the patient prefers it.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QBoxLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from engine.answering.queue_answers import QueueSnapshot
from engine.errors import ValidationError
from engine.frontdesk.references import ALPHABET, LENGTH, PREFIX
from engine.frontdesk.waiting_queue import describe_position
from engine.qt.worker import BackgroundCall
from kiosk_app import style
from kiosk_app.layout import TALL, Metrics

TITLE = "Check in for your appointment"
DETAILS_HINT = "Enter your date of birth, then tap the first letter of your surname."
REFERENCE_HINT = "Enter the booking reference from your confirmation (CL- and six characters)."
NOT_FOUND = (
    "We could not find an appointment today with those details. Please see reception, "
    "who will check you in."
)
SEVERAL = "More than one appointment matches. Please enter your booking reference instead."
THROTTLED = "Please see reception, who will check you in."
BAD_DATE = "That date does not exist. Please check the day, month and year."
LATE = (
    "You are later than your appointment time, so reception has been told. Please take a seat; "
    "they may need to rearrange your appointment."
)
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CheckInRequest:
    """What the patient entered: a reference, or a date of birth and an initial."""

    reference: str | None = None
    date_of_birth: dt.date | None = None
    initial: str | None = None
    confirm: bool = False


def _key(text: str, name: str) -> QPushButton:
    button = QPushButton(text)
    button.setObjectName(name)
    button.setAccessibleName(text)
    button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    return button


def _label(text: str = "", *, wrap: bool = True) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(wrap)
    return label


class CheckInScreen(QWidget):
    requested = Signal(object)  # CheckInRequest
    finished = Signal()
    ask_requested = Signal()  # checked in, and wants to ask a question in the same session

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("checkInScreen")
        self._digits = ""
        self._initial = ""
        self._reference = ""
        self._pending: CheckInRequest | None = None
        self._keys: list[QPushButton] = []
        self.title = _label(TITLE)
        self.pages = QStackedWidget()
        self.details = self._details_page()
        self.reference = self._reference_page()
        self.result = self._result_page()
        for page in (self.details, self.reference, self.result):
            self.pages.addWidget(page)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(48, 16, 48, 16)
        layout.addWidget(self.title)
        layout.addWidget(self.pages, 1)
        self.apply_metrics(TALL)
        self.reset()

    # ----- pages -------------------------------------------------------------------------

    def _details_page(self) -> QWidget:
        page = QWidget()
        self.details_hint = _label(DETAILS_HINT)
        self.date_label = _label(wrap=False)
        self.date_label.setObjectName("dateOfBirth")
        self.initial_label = _label(wrap=False)
        self.initial_label.setObjectName("surnameInitial")
        digits = QGridLayout()
        for index, digit in enumerate("123456789"):
            key = _key(digit, "digitKey")
            key.clicked.connect(lambda _c=False, d=digit: self.type_digit(d))
            digits.addWidget(key, index // 3, index % 3)
            self._keys.append(key)
        zero = _key("0", "digitKey")
        zero.clicked.connect(lambda: self.type_digit("0"))
        back = _key("\N{LEFTWARDS ARROW} Delete", "deleteKey")
        back.clicked.connect(self.delete_digit)
        digits.addWidget(zero, 3, 1)
        digits.addWidget(back, 3, 2)
        self._keys += [zero, back]
        letters = QGridLayout()
        for index, letter in enumerate(LETTERS):
            key = _key(letter, "letterKey")
            key.clicked.connect(lambda _c=False, x=letter: self.choose_initial(x))
            letters.addWidget(key, index // 7, index % 7)
            self._keys.append(key)
        self.find_button = _key("Find my appointment \N{BLACK RIGHT-POINTING TRIANGLE}", "find")
        self.find_button.setProperty("primary", True)
        self.find_button.clicked.connect(self.find_appointment)
        self.use_reference = _key("Use my booking reference instead", "useReference")
        self.use_reference.clicked.connect(lambda: self.show_reference_page())
        self.back_button = _key("Back", "backFromCheckIn")
        self.back_button.clicked.connect(self.finished)
        self._letter_keys = {k.text(): k for k in self._keys if k.objectName() == "letterKey"}
        date_column = QVBoxLayout()
        date_column.addWidget(_label("Date of birth (day / month / year)"))
        date_column.addWidget(self.date_label)
        date_column.addLayout(digits)
        letter_column = QVBoxLayout()
        letter_column.addWidget(_label("First letter of your surname"))
        letter_column.addWidget(self.initial_label)
        letter_column.addLayout(letters)
        # Side by side on a landscape screen, one above the other in portrait (apply_metrics).
        self.entries = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        self.entries.addLayout(date_column, 2)
        self.entries.addSpacing(32)
        self.entries.addLayout(letter_column, 3)
        actions = QHBoxLayout()
        actions.addWidget(self.back_button)
        actions.addStretch(1)
        actions.addWidget(self.use_reference)
        column = QVBoxLayout(page)
        column.addWidget(self.details_hint)
        column.addLayout(self.entries)
        column.addStretch(1)
        column.addWidget(self.find_button)
        column.addLayout(actions)
        return page

    def _reference_page(self) -> QWidget:
        page = QWidget()
        self.reference_hint = _label(REFERENCE_HINT)
        self.reference_label = _label(wrap=False)
        self.reference_label.setObjectName("bookingReference")
        keys = QGridLayout()
        for index, char in enumerate(ALPHABET):
            key = _key(char, "referenceKey")
            key.clicked.connect(lambda _c=False, x=char: self.type_reference(x))
            keys.addWidget(key, index // 8, index % 8)
            self._keys.append(key)
        delete = _key("\N{LEFTWARDS ARROW} Delete", "deleteKey")
        delete.clicked.connect(self.delete_reference)
        keys.addWidget(delete, len(ALPHABET) // 8, len(ALPHABET) % 8, 1, 2)
        self._keys.append(delete)
        self.find_reference = _key("Find my appointment \N{BLACK RIGHT-POINTING TRIANGLE}", "find")
        self.find_reference.setProperty("primary", True)
        self.find_reference.clicked.connect(self.find_appointment)
        back = _key("Back", "backToDetails")
        back.clicked.connect(self.show_details_page)
        actions = QHBoxLayout()
        actions.addWidget(back)
        actions.addStretch(1)
        column = QVBoxLayout(page)
        column.addWidget(self.reference_hint)
        column.addWidget(self.reference_label)
        column.addLayout(keys)
        column.addStretch(1)
        column.addWidget(self.find_reference)
        column.addLayout(actions)
        return page

    def _result_page(self) -> QWidget:
        page = QWidget()
        self.message = _label()
        self.message.setObjectName("checkInMessage")
        self.confirm_button = _key("Confirm: that's me", "confirmCheckIn")
        self.confirm_button.setProperty("primary", True)
        self.confirm_button.clicked.connect(self.confirm)
        self.not_me = _key("Not me", "notMe")
        self.not_me.clicked.connect(self.show_details_page)
        self.done_button = _key("Done", "doneCheckIn")
        self.done_button.clicked.connect(self.finished)
        self.ask_button = _key(
            "Ask a question \N{BLACK RIGHT-POINTING TRIANGLE}", "askAfterCheckIn"
        )
        self.ask_button.setProperty("primary", True)
        self.ask_button.clicked.connect(self.ask_requested)
        actions = QHBoxLayout()
        actions.addWidget(self.not_me)
        actions.addStretch(1)
        actions.addWidget(self.done_button)
        actions.addWidget(self.ask_button)
        actions.addWidget(self.confirm_button)
        column = QVBoxLayout(page)
        column.addWidget(self.message, 1)
        column.addLayout(actions)
        return page

    # ----- entry -------------------------------------------------------------------------

    def type_digit(self, digit: str) -> None:
        if len(self._digits) < 8:
            self._digits += digit
        self._refresh()

    def delete_digit(self) -> None:
        self._digits = self._digits[:-1]
        self._refresh()

    def choose_initial(self, letter: str) -> None:
        self._initial = letter
        self._refresh()

    def type_reference(self, char: str) -> None:
        if len(self._reference) < LENGTH:
            self._reference += char
        self._refresh()

    def delete_reference(self) -> None:
        self._reference = self._reference[:-1]
        self._refresh()

    def _refresh(self) -> None:
        shown = (self._digits + "_" * 8)[:8]
        self.date_label.setText(f"{shown[:2]} / {shown[2:4]} / {shown[4:]}")
        self.initial_label.setText(self._initial or "_")
        for letter, key in getattr(self, "_letter_keys", {}).items():
            chosen = letter == self._initial
            if bool(key.property("primary")) != chosen:
                key.setProperty("primary", chosen)  # the chosen letter stands out
                key.style().unpolish(key)
                key.style().polish(key)
        self.find_button.setEnabled(len(self._digits) == 8 and bool(self._initial))
        self.reference_label.setText(PREFIX + (self._reference + "_" * LENGTH)[:LENGTH])
        self.find_reference.setEnabled(len(self._reference) == LENGTH)

    def date_of_birth(self) -> dt.date | None:
        if len(self._digits) != 8:
            return None
        try:
            return dt.date(int(self._digits[4:]), int(self._digits[2:4]), int(self._digits[:2]))
        except ValueError:
            return None

    # ----- steps -------------------------------------------------------------------------

    @Slot()
    def find_appointment(self) -> None:
        if self.pages.currentWidget() is self.reference:
            request = CheckInRequest(reference=PREFIX + self._reference)
        else:
            born = self.date_of_birth()
            if born is None or born > dt.date.today():
                self.details_hint.setText(BAD_DATE)
                return
            request = CheckInRequest(date_of_birth=born, initial=self._initial)
        self._pending = request
        self.show_message("Looking for your appointment...", buttons=False)
        self.requested.emit(request)

    @Slot()
    def confirm(self) -> None:
        if self._pending is None:
            return
        request = CheckInRequest(
            self._pending.reference, self._pending.date_of_birth, self._pending.initial, True
        )
        self.show_message("Checking you in...", buttons=False)
        self.requested.emit(request)

    def show_found(self, when: dt.datetime, department: str, clinician: str | None) -> None:
        who = f" with {clinician}" if clinician else ""
        self.show_message(
            f"Your appointment today: {when:%H:%M}, {department}{who}.\n\nIs this you?",
            buttons=False,
        )
        self.confirm_button.show()
        self.not_me.show()

    def show_checked_in(self, text: str, late: bool) -> None:
        self._pending = None
        self.show_message(f"{text}\n\n{LATE}" if late else text)
        self.ask_button.show()

    def show_message(self, text: str, *, buttons: bool = True) -> None:
        self.message.setText(text)
        self.confirm_button.hide()
        self.not_me.hide()
        self.ask_button.hide()
        self.done_button.setVisible(buttons)
        self.pages.setCurrentWidget(self.result)

    def show_reference_page(self, hint: str = REFERENCE_HINT) -> None:
        self.reference_hint.setText(hint)
        self.pages.setCurrentWidget(self.reference)

    @Slot()
    def show_details_page(self) -> None:
        self.details_hint.setText(DETAILS_HINT)
        self.pages.setCurrentWidget(self.details)

    def reset(self) -> None:
        """Forget everything entered (idle wipe, Done, Back)."""
        self._digits = self._initial = self._reference = ""
        self._pending = None
        self.message.clear()
        self.show_details_page()
        self._refresh()

    def apply_metrics(self, m: Metrics) -> None:
        self.entries.setDirection(
            QBoxLayout.Direction.TopToBottom
            if m.name == "portrait"
            else QBoxLayout.Direction.LeftToRight
        )
        self.title.setFont(style.font(m.title_pt, bold=True))
        body = style.font(m.body_pt)
        for label in (self.details_hint, self.reference_hint):
            label.setFont(body)
        self.message.setFont(style.font(int(m.body_pt * 1.3)))
        big = style.font(m.title_pt, bold=True)
        for label in (self.date_label, self.initial_label, self.reference_label):
            label.setFont(big)
        for key in self._keys:
            key.setFont(style.font(m.body_pt, bold=True))
            key.setMinimumSize(m.key_px, m.key_px)
        for button in (
            self.find_button, self.find_reference, self.use_reference, self.back_button,
            self.confirm_button, self.not_me, self.done_button, self.ask_button,
        ):  # fmt: skip
            button.setFont(style.font(m.body_pt, bold=True))
            button.setMinimumHeight(m.touch_px)


class CheckInBackend(Protocol):
    """What the check-in needs (``engine.frontdesk.waiting_queue.QueueService`` on the kiosk's
    role)."""

    def check_in(
        self,
        source: str,
        *,
        reference: str | None = None,
        date_of_birth: dt.date | None = None,
        initial: str | None = None,
        confirm: bool = False,
    ) -> Any: ...
    def position(self, entry_id: int) -> Any: ...


class CheckInController(QObject):
    """Runs the screen's requests on a worker thread and shows the outcome on the screen."""

    def __init__(
        self,
        screen: CheckInScreen,
        backend: Callable[[], CheckInBackend],
        source: str,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.screen = screen
        self._backend = backend
        self._source = source
        self._request: CheckInRequest | None = None
        # A tap that arrives while the previous request's thread is still being retired (the
        # found page shows before the call has stopped) waits here instead of being dropped.
        self._pending: CheckInRequest | None = None
        self._stale = False  # the running request belongs to a patient the idle wipe forgot
        self.entry_id: int | None = None  # this session's check-in (for queue questions)
        self._call = BackgroundCall(self._run, self)
        self._call.succeeded.connect(self._on_result)
        self._call.failed.connect(self._on_failed)
        self._call.stopped.connect(self._start_pending)
        screen.requested.connect(self.submit)

    @Slot(object)
    def submit(self, request: object) -> None:
        if not isinstance(request, CheckInRequest):
            return
        if self._call.is_running():
            self._pending = request  # the latest tap wins; started when the call stops
            return
        self._request = request
        self._call.start()

    @Slot()
    def _start_pending(self) -> None:
        self._stale = False
        request, self._pending = self._pending, None
        if request is not None:
            self.submit(request)

    def _run(self) -> tuple[Any, str | None]:
        request = self._request
        assert request is not None
        backend = self._backend()
        result = backend.check_in(
            self._source,
            reference=request.reference,
            date_of_birth=request.date_of_birth,
            initial=request.initial,
            confirm=request.confirm,
        )
        place = None
        if result.status in ("checked_in", "already") and result.entry_id is not None:
            position = backend.position(result.entry_id)
            place = describe_position(position) if position is not None else None
        return result, place

    @Slot(object)
    def _on_result(self, outcome: object) -> None:
        if not isinstance(outcome, tuple) or self._stale:
            return
        result: Any = outcome[0]
        place: str | None = outcome[1]
        screen = self.screen
        if result.status == "found":
            screen.show_found(result.starts_at, result.department, result.clinician)
        elif result.status in ("checked_in", "already"):
            self.entry_id = result.entry_id
            screen.show_checked_in(
                place or f"You are checked in (ticket {result.ticket}).", result.late
            )
        elif result.status == "several":
            screen.show_reference_page(SEVERAL)
        elif result.status in ("throttled", "invalid"):
            screen.show_message(THROTTLED)
        else:
            screen.show_message(NOT_FOUND)

    @Slot(object)
    def _on_failed(self, error: object) -> None:
        log.info("check-in failed (%s)", type(error).__name__)
        if self._stale:
            return
        if isinstance(error, ValidationError):
            self.screen.show_message(str(error))
        else:
            self.screen.show_message(
                "Check-in is not available just now. Please see reception, who will check you in."
            )

    def snapshot(self) -> QueueSnapshot | None:
        """This session's ticket in the live queue (worker thread); None before a check-in."""
        if self.entry_id is None:
            return None
        position = self._backend().position(self.entry_id)
        if position is None:
            return None
        return QueueSnapshot(
            ticket=position.ticket,
            department=position.department,
            state=position.state,
            ahead=position.ahead,
            minutes=position.minutes,
            room=position.room,
            taken_at=dt.datetime.now(dt.UTC).astimezone(),
        )

    def forget(self) -> None:
        """The next patient must never inherit this one's ticket, nor see its late result."""
        self.entry_id = None
        self._pending = None
        if self._call.is_running():
            self._stale = True

    def wait(self) -> None:
        self._call.wait(5000)
