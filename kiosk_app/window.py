"""The kiosk window: assembles the screens, overlays and timers, and wires them to the engine.

It decides what a question does (emergency check first, in the GUI thread, before any worker or
network call), what a wipe removes (everything of the last patient) and where a failure leads.
It never builds the backend (``main.py`` does) and never starts threads itself (``AnswerRunner``
and ``BackgroundCall`` do).
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from PySide6.QtCore import QEvent, QObject, Qt, Slot
from PySide6.QtGui import QCloseEvent, QResizeEvent
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from engine.answering.queue_answers import QueueSnapshot, is_queue_question, queue_answer
from engine.errors import DatabaseUnavailable
from engine.events import Citation, DoneEvent, Route, Turn
from engine.ops.settings import Settings
from engine.protocols import AssistantBackend
from engine.qt.chat_view import Bubble, reflow
from engine.qt.passage_viewer import PassageViewer
from engine.qt.worker import AnswerRunner, BackgroundCall, describe_for_public
from kiosk_app import style
from kiosk_app.chat_screen import ChatScreen
from kiosk_app.check_in_screen import CheckInBackend, CheckInController, CheckInScreen
from kiosk_app.database import DatabaseMonitor, DatabaseRestarter
from kiosk_app.idle import Clock, IdleMonitor
from kiosk_app.idle_warning import IdleWarning
from kiosk_app.keyboard import KeyboardToggle, OnScreenKeyboard
from kiosk_app.layout import Metrics, metrics_for
from kiosk_app.lockdown import LONG_PRESS_MS, CornerHotspot, KeyGuard, PinPad
from kiosk_app.speech import READ_ALOUD, NoSpeech, Speech
from kiosk_app.unavailable_screen import UnavailableScreen
from kiosk_app.welcome_screen import WelcomeScreen

log = logging.getLogger(__name__)

SEARCHING = "Searching the clinic's documents..."
EMERGENCY_BUBBLE = (
    "\N{WARNING SIGN} Call 999 now if this is an emergency. "
    "Please read the emergency message at the top of the screen."
)
STOPPED = "This answer was stopped."
QUEUE_UNAVAILABLE = "The queue cannot be checked just now. Please ask at reception."
CALL_STAFF = "Call staff (not an emergency)"
STAFF_CALLED = "A member of staff has been asked to come to this screen."
STAFF_CALL_FAILED = "The desk could not be reached. Please go to reception."

Router = Callable[[str], Route | None]


@runtime_checkable
class EmergencyRecorder(Protocol):
    """A backend that writes an emergency the kiosk routed itself to the answer log
    (``engine.ops.service.ServiceBackend.record_emergency``; it queues while the database is
    down)."""

    def record_emergency(self, question: str) -> None: ...


def default_router() -> Router:
    """The engine's deterministic safety router, run in the GUI thread before any worker starts,
    so an emergency banner appears in the same event-loop turn as the tap."""
    from engine.safety import route_question

    def route(question: str) -> Route | None:
        try:
            return Route(route_question(question).route)
        except Exception:
            log.exception("The safety router failed; the engine will route this question")
            return None

    return route


class _Overlay(QFrame):
    """A transparent full-window holder for the passage viewer."""

    def __init__(self, parent: QWidget, viewer: PassageViewer) -> None:
        super().__init__(parent)
        self.setObjectName("passageOverlay")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(120, 80, 120, 80)
        layout.addWidget(viewer)
        self.hide()


class KioskWindow(QWidget):
    def __init__(
        self,
        backend: AssistantBackend,
        settings: Settings,
        *,
        clock: Clock | None = None,
        router: Router | None = None,
        long_press_ms: int = LONG_PRESS_MS,
        check_in: Callable[[], CheckInBackend] | None = None,
        kiosk_name: str = "kiosk",
        call_staff: Callable[[], object] | None = None,
        speech: Speech | None = None,
    ) -> None:
        super().__init__()
        self.backend = backend
        # "Read aloud" under each answer only where the platform has a voice (main.py asks Qt).
        self.speech: Speech = speech if speech is not None else NoSpeech()
        self.settings = settings
        self.route_question = router if router is not None else default_router()
        self._exit_authorised = False
        self._turns: list[Turn] = []
        self._answer: tuple[str, Bubble] | None = None
        self._pending: str | None = None  # a question the database failed on, answered when back
        self._metrics: Metrics | None = None
        self._emergency_logs: list[BackgroundCall] = []
        self._queue_calls: list[BackgroundCall] = []
        self._queue_bubble: tuple[str, Bubble] | None = None
        kiosk = settings.kiosk
        self.setObjectName("kioskWindow")
        self.setWindowTitle(kiosk.clinic_name)
        self.setStyleSheet(style.STYLESHEET)

        self.welcome = WelcomeScreen(kiosk.clinic_name)
        self.chat = ChatScreen(kiosk.clinic_name)
        self.unavailable = UnavailableScreen(
            kiosk.clinic_name, settings.texts.emergency, kiosk.clinic_phone
        )
        # On a short screen the welcome page scrolls instead of squeezing its buttons on top of
        # each other. (No kinetic finger scrolling here: QScroller would swallow quick taps.)
        self.welcome_area = QScrollArea()
        self.welcome_area.setObjectName("welcomeArea")
        self.welcome_area.setWidget(self.welcome)
        self.welcome_area.setWidgetResizable(True)
        self.welcome_area.setFrameShape(QFrame.Shape.NoFrame)
        self.welcome_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.stack = QStackedWidget()
        self.check_in = CheckInScreen()
        for screen in (self.welcome_area, self.chat, self.unavailable, self.check_in):
            self.stack.addWidget(screen)
        # Self check-in only where a check-in backend was given (the real kiosk's database).
        self.check_in_controller = (
            CheckInController(self.check_in, check_in, kiosk_name, self)
            if check_in is not None
            else None
        )
        self.welcome.check_in_button.setVisible(check_in is not None)
        self.keyboard = OnScreenKeyboard()
        self.keyboard.set_target(self.welcome.input.edit)
        self.keyboard_toggle = KeyboardToggle(self.keyboard)
        self.keyboard.installEventFilter(self)
        # "Call staff": help at this screen that is not an emergency (a quieter desk alert).
        self.call_staff_button = QPushButton(CALL_STAFF)
        self.call_staff_button.setObjectName("callStaff")
        self.call_staff_button.setAccessibleName("Call a member of staff to this screen")
        self.call_staff_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.call_staff_button.setVisible(call_staff is not None)
        self.call_staff_note = QLabel("")
        self.call_staff_note.setObjectName("callStaffNote")
        self.call_staff_note.setTextFormat(Qt.TextFormat.PlainText)
        self.call_staff_note.setWordWrap(True)
        self._call_staff = BackgroundCall(call_staff, self) if call_staff is not None else None
        if self._call_staff is not None:
            self.call_staff_button.clicked.connect(self.call_staff)
            self._call_staff.succeeded.connect(self._on_staff_called)
            self._call_staff.failed.connect(self._on_staff_call_failed)
        toggle_row = QHBoxLayout()
        toggle_row.setContentsMargins(24, 0, 24, 6)
        toggle_row.addWidget(self.call_staff_button)
        toggle_row.addWidget(self.call_staff_note)
        toggle_row.addStretch(1)
        toggle_row.addWidget(self.keyboard_toggle)
        layout = QVBoxLayout(self)
        # The screen decides the size; the layout class (apply_metrics) makes the content fit.
        layout.setSizeConstraint(QVBoxLayout.SizeConstraint.SetNoConstraint)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.stack, 1)
        layout.addLayout(toggle_row)
        layout.addWidget(self.keyboard)
        self.keyboard_toggle.set_keyboard_open(True)
        for edit in (self.welcome.input.edit, self.chat.input.edit):
            edit.installEventFilter(self)

        self.passage = PassageViewer(font_scale=style.CHAT_FONT_SCALE, touch=True)
        self.passage_overlay = _Overlay(self, self.passage)
        self.idle_warning = IdleWarning(self)
        self.pin_pad = PinPad(
            kiosk.exit_pin, self, now=clock.now if clock is not None else time.monotonic
        )
        self.hotspot = CornerHotspot(self, long_press_ms)

        self.runner = AnswerRunner(self, describe=describe_for_public)
        self.idle = IdleMonitor(
            kiosk.idle_seconds, kiosk.warning_seconds, clock, self.has_patient_state, parent=self
        )
        self.database = DatabaseMonitor(
            backend.check_database,
            kiosk.db_retry_seconds,
            self,
            backoff=bool(settings.database.url.strip()),  # a shared server: we cannot restart it
            restart=backend.restart_database if isinstance(backend, DatabaseRestarter) else None,
        )
        self._suggestions = BackgroundCall(backend.suggested_questions, self)
        self.key_guard = KeyGuard(self)
        self._wire()
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self.key_guard)
            app.installEventFilter(self.idle)
        self.apply_metrics(metrics_for(1920, 1080))
        self.idle.start()
        self.database.check_now()
        self.database.start_heartbeat()
        self._suggestions.start()

    def _wire(self) -> None:
        self.welcome.question_submitted.connect(self.ask)
        self.welcome.check_in_requested.connect(self.start_check_in)
        self.check_in.finished.connect(self.wipe)
        self.check_in.ask_requested.connect(self._questions_after_check_in)
        self.chat.question_submitted.connect(self.ask)
        self.chat.start_again.connect(self.wipe)
        self.chat.view.citation_clicked.connect(self.show_passage)
        self.keyboard.submitted.connect(self._on_keyboard_enter)
        self.passage.closed.connect(self.passage_overlay.hide)
        self.runner.status.connect(self._on_status)
        self.runner.tokens.connect(self._on_tokens)
        self.runner.replaced.connect(self._on_replaced)
        self.runner.finished.connect(self._on_finished)
        self.runner.failed.connect(self._on_failed)
        self.idle.warning_started.connect(self.idle_warning.show_countdown)
        self.idle.countdown_changed.connect(self.idle_warning.show_countdown)
        self.idle.warning_cancelled.connect(self.idle_warning.hide)
        self.idle.expired.connect(self.wipe)
        self.idle_warning.still_here.connect(self.idle.still_here)
        self.database.available_changed.connect(self._on_database)
        self._suggestions.succeeded.connect(self._on_suggestions)
        self.hotspot.long_pressed.connect(self.pin_pad.open)
        self.pin_pad.accepted.connect(self.authorise_exit)

    # --- questions and answers -------------------------------------------------------------
    @Slot(str)
    def ask(self, question: str) -> None:
        question = question.strip()
        if not question:
            return
        if not self.database.available:
            self._keep(question)
            return
        self.speech.stop()  # the last answer's voice never talks over the next one
        if self._answer is not None:
            self.runner.cancel()
            self._answer[1].set_status("")
            self._answer[1].set_text(self._answer[1].text or STOPPED)
            self._answer = None
        self.welcome.reset()
        self.chat.input.edit.clear()
        self.keyboard.reset()
        self.keyboard.set_target(self.chat.input.edit)
        self.keyboard_toggle.set_keyboard_open(False)  # the answer gets the room
        self.stack.setCurrentWidget(self.chat)
        self.chat.banner.clear()  # a banner belongs to its own answer, not to every later one
        self.chat.view.add_question(question)
        bubble = self.chat.view.add_answer()
        if self.route_question(question) == Route.EMERGENCY:
            # Decided here, in this event-loop turn: no worker, no retrieval, no network.
            self._show_emergency(bubble)
            self._log_emergency(question)
            # Kept as a turn, so "what should I do?" next is routed with it (still 999).
            self._turns.append(Turn(question, self.settings.texts.emergency, Route.EMERGENCY))
            return
        if is_queue_question(question):
            self._answer_queue(question, bubble)
            return
        bubble.set_status(SEARCHING)
        self._answer = (question, bubble)
        history = tuple(self._turns)
        self.runner.start(functools.partial(self.backend.answer, question, history))

    def _answer_queue(self, question: str, bubble: Bubble) -> None:
        """'How long will I wait?': the live queue's own figures for this session's ticket."""
        controller = self.check_in_controller
        if controller is None or controller.entry_id is None:
            text, _none = queue_answer(None)
            bubble.set_status("")
            bubble.set_text(text)
            self._turns.append(Turn(question, text))
            return
        bubble.set_status(SEARCHING)
        call = BackgroundCall(controller.snapshot, self)
        self._queue_calls = [c for c in self._queue_calls if c.is_running()] + [call]
        self._queue_bubble = (question, bubble)
        call.succeeded.connect(self._on_queue_snapshot)
        call.failed.connect(self._on_queue_failed)
        call.start()

    @Slot(object)
    def _on_queue_snapshot(self, snapshot: object) -> None:
        if self._queue_bubble is None:
            return  # wiped meanwhile: the next patient never sees it
        question, bubble = self._queue_bubble
        self._queue_bubble = None
        text, citations = queue_answer(snapshot if isinstance(snapshot, QueueSnapshot) else None)
        bubble.set_status("")
        bubble.set_text(text)
        bubble.set_citations(citations)
        self._turns.append(Turn(question, text))

    @Slot(object)
    def _on_queue_failed(self, _error: object) -> None:
        if self._queue_bubble is None:
            return
        _question, bubble = self._queue_bubble
        self._queue_bubble = None
        bubble.set_status("")
        bubble.set_text(QUEUE_UNAVAILABLE)

    def _show_emergency(self, bubble: Bubble) -> None:
        self.keyboard_toggle.set_keyboard_open(False)  # nothing may cover the banner
        self.chat.banner.show_text(self.settings.texts.emergency)
        bubble.set_status("")
        bubble.set_text(EMERGENCY_BUBBLE)
        self._offer_read_aloud(bubble, self.settings.texts.emergency)
        self.chat.view.scroll_to_end()

    def _offer_read_aloud(self, bubble: Bubble, text: str) -> None:
        """A "Read aloud" button under a finished answer, only when there is a voice."""
        if not self.speech.available() or not text.strip():
            return
        button = bubble.add_action(READ_ALOUD, "Read this answer aloud")
        button.clicked.connect(functools.partial(self.read_aloud, text))

    def read_aloud(self, text: str) -> None:
        self.speech.say(text)

    @Slot(object)
    def set_speech(self, speech: object) -> None:
        """A voice was found (``kiosk_app.speech.SpeechProbe``): answers from now on get a
        "Read aloud" button."""
        if isinstance(speech, Speech):
            self.speech.stop()
            self.speech = speech

    def _log_emergency(self, question: str) -> None:
        """Write the emergency to the answer log off the GUI thread (the backend queues it
        while the database is down). Backends without a log (fakes) are skipped."""
        if not isinstance(self.backend, EmergencyRecorder):
            return
        call = BackgroundCall(functools.partial(self.backend.record_emergency, question), self)
        self._emergency_logs = [c for c in self._emergency_logs if c.is_running()]
        self._emergency_logs.append(call)
        call.start()

    def _keep(self, question: str) -> None:
        """The database failed on this question: keep it (in memory only) for when it is back."""
        self._pending = question
        self.unavailable.show_kept_question(True)

    @Slot()
    def _on_keyboard_enter(self) -> None:
        target = self.chat if self.stack.currentWidget() is self.chat else self.welcome
        target.input.submit()

    @Slot(str)
    def _on_status(self, text: str) -> None:
        if self._answer is not None:
            self._answer[1].set_status(text)

    @Slot(str)
    def _on_tokens(self, text: str) -> None:
        if self._answer is not None:
            self._answer[1].append_text(text)

    @Slot(str, str)
    def _on_replaced(self, text: str, _reason: str) -> None:
        if self._answer is not None:
            self._answer[1].set_text(text)

    @Slot(object)
    def _on_finished(self, done: object) -> None:
        if self._answer is None or not isinstance(done, DoneEvent):
            return
        question, bubble = self._answer
        self._answer = None
        bubble.set_status("")
        if done.route == Route.EMERGENCY:
            self._show_emergency(bubble)
            self._turns.append(Turn(question, done.text, done.route))
            return
        bubble.set_text(reflow(done.text) if done.citations else done.text)
        bubble.set_citations(done.citations)
        self._offer_read_aloud(bubble, bubble.text)
        self._turns.append(Turn(question, done.text, done.route))
        questions = [b for b in self.chat.view.bubbles() if b.role == "question"]
        if questions:  # read a long answer from the question down, not from its end
            self.chat.view.show_from_top(questions[-1])

    @Slot(str, object)
    def _on_failed(self, message: str, error: object) -> None:
        question = None
        if self._answer is not None:
            question, bubble = self._answer
            self._answer = None
            bubble.set_status("")
            bubble.set_citations(())
            bubble.set_text(message)  # never the half answer
        if isinstance(error, DatabaseUnavailable):
            if question is not None:
                self._keep(question)
            self.database.report_unavailable(error)

    @Slot(object)
    def show_passage(self, citation: object) -> None:
        if isinstance(citation, Citation):
            self.passage.show_citation(citation)
            self._place_overlays()
            self.passage_overlay.show()
            self.passage_overlay.raise_()
            self.hotspot.raise_()

    def background_busy(self) -> bool:
        """True while a database check or the suggestion load is still running."""
        return self.database.checking or self._suggestions.is_running()

    @Slot()
    def start_check_in(self) -> None:
        """The check-in screen has its own keys: the text keyboard folds away."""
        self.check_in.reset()
        self.keyboard_toggle.set_keyboard_open(False)
        self.keyboard_toggle.hide()  # the check-in has its own keys; back on the next wipe
        self.stack.setCurrentWidget(self.check_in)

    @Slot()
    def _questions_after_check_in(self) -> None:
        """Back to the question box in the same session: the ticket stays for queue questions."""
        self.check_in.reset()
        self.keyboard_toggle.setVisible(True)
        self.keyboard_toggle.set_keyboard_open(True)
        self.keyboard.set_target(self.welcome.input.edit)
        self.stack.setCurrentWidget(self.welcome_area)

    @Slot()
    def call_staff(self) -> None:
        if self._call_staff is not None and self._call_staff.start():
            self.call_staff_note.setText("Asking a member of staff to come...")

    @Slot(object)
    def _on_staff_called(self, _alert: object) -> None:
        self.call_staff_note.setText(STAFF_CALLED)

    @Slot(object)
    def _on_staff_call_failed(self, _error: object) -> None:
        self.call_staff_note.setText(STAFF_CALL_FAILED)

    # --- session, idle, availability -------------------------------------------------------
    def has_patient_state(self) -> bool:
        return (
            self.stack.currentWidget() in (self.chat, self.check_in)
            or bool(self.welcome.input.edit.text())
            or self.passage_overlay.isVisibleTo(self)
            or self._pending is not None
        )

    @Slot()
    def wipe(self) -> None:
        """Forget everything of the current patient and go back to the welcome screen."""
        self._pending = None
        self.unavailable.show_kept_question(False)
        self._reset_screens()

    def _reset_screens(self) -> None:
        self.speech.stop()  # the next person hears nothing of the last
        self.runner.cancel()
        self._answer = None
        self._turns.clear()
        self.chat.reset()
        self.check_in.reset()
        self.call_staff_note.setText("")
        self._queue_bubble = None
        if self.check_in_controller is not None:
            self.check_in_controller.forget()
        self.welcome.reset()
        self.keyboard.reset()
        self.keyboard.set_target(self.welcome.input.edit)
        self.keyboard_toggle.set_keyboard_open(self.database.available)
        self.keyboard_toggle.setVisible(self.database.available)
        self.passage.close_passage()
        self.passage_overlay.hide()
        self.pin_pad.dismiss()
        self.idle_warning.hide()
        self.idle.reset()
        self.stack.setCurrentWidget(
            self.welcome_area if self.database.available else self.unavailable
        )

    @Slot(bool)
    def _on_database(self, available: bool) -> None:
        self._reset_screens()  # a kept question survives; everything shown of it does not
        self.keyboard_toggle.set_keyboard_open(available)
        self.keyboard_toggle.setVisible(available)
        if available:
            self._suggestions.start()
            pending, self._pending = self._pending, None
            self.unavailable.show_kept_question(False)
            if pending is not None:
                self.ask(pending)

    @Slot(object)
    def _on_suggestions(self, questions: object) -> None:
        if isinstance(questions, list):
            self.welcome.set_suggestions([str(q) for q in questions])

    # --- lockdown ----------------------------------------------------------------------------
    @Slot()
    def authorise_exit(self) -> None:
        self._exit_authorised = True
        self.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._exit_authorised:
            self.shutdown()
            event.accept()
        else:
            event.ignore()

    def shutdown(self) -> None:
        """Stop timers and threads and remove the application-wide filters."""
        self.idle.stop()
        self.database.stop()
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self.key_guard)
            app.removeEventFilter(self.idle)
        self.runner.shutdown()
        self.database.wait()
        self._suggestions.wait()
        for call in self._emergency_logs:
            call.wait(5000)
        if self.check_in_controller is not None:
            self.check_in_controller.wait()
        for call in self._queue_calls:
            call.wait(5000)
        if self._call_staff is not None:
            self._call_staff.wait(5000)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.keyboard:
            if event.type() in (QEvent.Type.Show, QEvent.Type.Hide):
                self.chat.set_keyboard_open(not self.keyboard.isHidden())
            return super().eventFilter(watched, event)
        # A tap on either question box brings the folded keyboard back.
        if event.type() == QEvent.Type.MouseButtonPress and self.database.available:
            self.keyboard_toggle.set_keyboard_open(True)
        return super().eventFilter(watched, event)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.WindowDeactivate and self.isFullScreen():
            self.activateWindow()
        return super().event(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        size = event.size()
        self.apply_metrics(metrics_for(size.width(), size.height()))
        self._place_overlays()

    def apply_metrics(self, m: Metrics) -> None:
        """Sizes for this screen's class (see ``kiosk_app.layout``); a no-op if unchanged."""
        if m == self._metrics:
            return
        self._metrics = m
        self.setStyleSheet(style.stylesheet(m))
        self.welcome.apply_metrics(m)
        self.chat.apply_metrics(m)
        self.unavailable.apply_metrics(m)
        self.check_in.apply_metrics(m)
        self.call_staff_button.setFont(style.font(m.body_pt - 2, bold=True))
        self.call_staff_button.setMinimumHeight(max(48, m.key_px))  # no taller than its row
        self.call_staff_note.setFont(style.font(m.body_pt - 2))
        self.keyboard.apply_metrics(m)
        self.keyboard_toggle.apply_metrics(m)
        self.pin_pad.apply_metrics(m)

    @property
    def metrics(self) -> Metrics | None:
        return self._metrics

    def _place_overlays(self) -> None:
        rect = self.rect()
        for overlay in (self.passage_overlay, self.idle_warning, self.pin_pad):
            overlay.setGeometry(rect)
        self.hotspot.move(0, 0)
        self.hotspot.raise_()
