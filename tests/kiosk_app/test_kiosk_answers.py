"""Asking on the kiosk: streamed cited answers, refusals, emergencies, failures, cancel."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QLabel

from engine.errors import ModelUnavailable
from engine.events import DoneEvent, Outcome, ReplaceEvent, Route, StatusEvent, TokenEvent
from engine.ops.settings import DEFAULT_CLINICAL_TEXT, DEFAULT_REFUSAL_TEXT
from kiosk_app.window import EMERGENCY_BUBBLE, SEARCHING
from tests.support.fake_backend import PARKING, FakeBackend, cited_answer, fixed_answer

HOSTILE = '<b>x</b><img src="http://example.invalid/t.png">'


def ask(qtbot, window, question: str) -> None:
    window.welcome.input.edit.setText(question)
    qtbot.mouseClick(window.welcome.input.button, Qt.MouseButton.LeftButton)


def answer_bubble(window):
    return window.chat.view.bubbles()[-1]


def test_ask_streams_status_tokens_then_citation_line(qtbot, make_window):
    backend = FakeBackend(block_after=3)
    window = make_window(backend)
    ask(qtbot, window, "Where can I park?")
    assert window.stack.currentWidget() is window.chat
    bubble = answer_bubble(window)
    assert bubble.status_label.text() == SEARCHING  # shown before the worker even starts
    assert backend.blocked.wait(5)
    qtbot.waitUntil(lambda: bubble.text == "Free parking", timeout=5000)
    assert bubble.citation_buttons() == []  # no citation before the answer is final
    backend.release.set()
    qtbot.waitUntil(lambda: len(bubble.citation_buttons()) == 1, timeout=5000)
    assert bubble.text == "Free parking is behind the building, entrance on Mill Lane [1]."
    assert bubble.status_label.isHidden()
    (button,) = bubble.citation_buttons()
    assert button.caption == "Source: Parking (Visiting the clinic)"
    assert backend.calls == [("Where can I park?", ())]
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert window.passage_overlay.isVisible()
    assert window.passage.text.toPlainText() == PARKING.text
    assert "01 Mar 2025" in window.passage.reviewed.text()


def test_follow_up_questions_carry_the_history(qtbot, window, backend):
    ask(qtbot, window, "Where can I park?")
    qtbot.waitUntil(lambda: answer_bubble(window).citation_buttons() != [], timeout=5000)
    window.chat.input.edit.setText("Is it free?")
    qtbot.mouseClick(window.chat.input.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(backend.calls) == 2, timeout=5000)
    question, history = backend.calls[1]
    assert question == "Is it free?"
    assert [turn.question for turn in history] == ["Where can I park?"]


def test_a_follow_up_after_an_emergency_carries_it(qtbot, make_window):
    # "what should I do?" after chest pain must reach the engine with the chest pain before it,
    # so the engine keeps it an emergency (engine.answering.routing); alone it would be information.
    backend = FakeBackend()
    window = make_window(backend)
    ask(qtbot, window, "my dad has chest pain")
    # Let the emergency's background log finish before the window goes away.
    qtbot.waitUntil(lambda: backend.emergencies_logged == ["my dad has chest pain"], timeout=5000)
    window.chat.input.edit.setText("what should I do?")
    qtbot.mouseClick(window.chat.input.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(backend.calls) == 1, timeout=5000)
    question, history = backend.calls[0]
    assert question == "what should I do?"
    assert [turn.question for turn in history] == ["my dad has chest pain"]


def test_guard_swap_replaces_the_streamed_text(qtbot, make_window):
    events = [
        StatusEvent(SEARCHING),
        TokenEvent("The fee is £400"),
        ReplaceEvent(DEFAULT_REFUSAL_TEXT, "uncited"),
        DoneEvent(DEFAULT_REFUSAL_TEXT, Route.INFORMATION, Outcome.GUARDED),
    ]
    window = make_window(FakeBackend(default=events))
    ask(qtbot, window, "How much is a letter?")
    bubble = answer_bubble(window)
    qtbot.waitUntil(lambda: bubble.text == DEFAULT_REFUSAL_TEXT, timeout=5000)
    qtbot.waitUntil(lambda: not window.runner.is_running(), timeout=5000)
    assert "£400" not in bubble.text
    assert bubble.citation_buttons() == []


@pytest.mark.parametrize(
    ("text", "route", "outcome"),
    [
        (DEFAULT_CLINICAL_TEXT, Route.CLINICAL, Outcome.CLINICAL),
        (DEFAULT_REFUSAL_TEXT, Route.INFORMATION, Outcome.NO_ANSWER),
    ],
)
def test_clinical_and_unknown_show_the_fixed_sentence(qtbot, make_window, text, route, outcome):
    window = make_window(FakeBackend(default=fixed_answer(text, route, outcome)))
    ask(qtbot, window, "Should I stop my warfarin?")
    bubble = answer_bubble(window)
    qtbot.waitUntil(lambda: bubble.text == text, timeout=5000)
    assert bubble.citation_buttons() == []
    assert window.chat.banner.isHidden()


def test_emergency_banner_appears_in_the_same_turn_without_calling_the_backend(
    qtbot, make_window, settings
):
    backend = FakeBackend(answer_error=AssertionError("answer() must not be called"))
    window = make_window(backend)
    ask(qtbot, window, "my dad has chest pain")
    # No waiting: the banner is up before control returns to the event loop.
    assert window.chat.banner.isVisible()
    assert window.chat.banner.text.text() == settings.texts.emergency
    assert "EMERGENCY" in window.chat.banner.heading.text()
    assert answer_bubble(window).text == EMERGENCY_BUBBLE
    assert not window.runner.is_running()
    assert backend.calls == []
    # Logged off the GUI thread (the answer log never learns of it otherwise).
    qtbot.waitUntil(lambda: backend.emergencies_logged == ["my dad has chest pain"], timeout=5000)


def test_emergency_from_the_engine_when_no_router_is_available(qtbot, make_window, settings):
    done = fixed_answer(settings.texts.emergency, Route.EMERGENCY, Outcome.EMERGENCY)
    window = make_window(FakeBackend(default=done), router=lambda _q: None)
    ask(qtbot, window, "I took too many pills")
    qtbot.waitUntil(window.chat.banner.isVisible, timeout=5000)
    assert window.chat.banner.text.text() == settings.texts.emergency


def test_real_safety_router_catches_an_emergency_before_the_backend(qtbot, make_window):
    from kiosk_app.window import default_router

    backend = FakeBackend(answer_error=AssertionError("answer() must not be called"))
    window = make_window(backend, router=default_router())
    ask(qtbot, window, "I have crushing chest pain and can't breathe")
    assert window.chat.banner.isVisible()
    assert backend.calls == []


def test_mid_stream_failure_never_leaves_a_half_answer(qtbot, make_window):
    backend = FakeBackend(fail_after=3, stream_error=ModelUnavailable("ollama dropped"))
    window = make_window(backend)
    ask(qtbot, window, "Where can I park?")
    bubble = answer_bubble(window)
    qtbot.waitUntil(lambda: not window.runner.is_running(), timeout=5000)
    assert bubble.text == ModelUnavailable.public_message
    assert "ollama" not in bubble.text
    assert bubble.citation_buttons() == []


def test_html_in_answers_and_passages_is_shown_literally(qtbot, make_window):
    citation = PARKING.__class__(**{**PARKING.__dict__, "text": HOSTILE, "heading_path": HOSTILE})
    window = make_window(FakeBackend(default=cited_answer(HOSTILE, (citation,))))
    ask(qtbot, window, HOSTILE)
    bubble = answer_bubble(window)
    qtbot.waitUntil(lambda: bubble.citation_buttons() != [], timeout=5000)
    assert bubble.body.text() == HOSTILE
    assert window.chat.view.bubbles()[0].body.text() == HOSTILE
    for label in window.findChildren(QLabel):
        assert label.textFormat() == Qt.TextFormat.PlainText or HOSTILE not in label.text()
    qtbot.mouseClick(bubble.citation_buttons()[0], Qt.MouseButton.LeftButton)
    assert window.passage.text.toPlainText() == HOSTILE


def test_start_again_cancels_and_releases_the_stream(qtbot, make_window):
    backend = FakeBackend(block_after=2)
    window = make_window(backend)
    ask(qtbot, window, "Where can I park?")
    assert backend.blocked.wait(5)
    qtbot.mouseClick(window.chat.start_again_button, Qt.MouseButton.LeftButton)
    assert window.stack.currentWidget() is window.welcome_area
    with qtbot.assertNotEmitted(window.runner.tokens, wait=50):
        backend.release.set()
        qtbot.waitUntil(lambda: window.runner.active_threads() == 0, timeout=5000)
    assert backend.closed_early.is_set()
    assert window.chat.view.bubbles() == []


def test_suggested_question_is_asked_when_tapped(qtbot, window, backend):
    buttons = window.welcome.suggestion_buttons()
    assert [b.property("question") for b in buttons] == backend.suggestions
    assert all(b.height() >= 48 for b in buttons)
    qtbot.mouseClick(buttons[0], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(backend.calls) == 1, timeout=5000)
    assert backend.calls[0][0] == "Where can I park?"


def test_at_most_six_topics_all_on_screen_with_the_keyboard_open(qtbot, make_window):
    topics = ["Car park", "Opening hours", "Private fees", "Blood tests", "Toilets", "Refunds"]
    window = make_window(FakeBackend(suggestions=[*topics, "Seventh", "Eighth"]))
    window.resize(1920, 1080)
    buttons = window.welcome.suggestion_buttons()
    assert [b.property("question") for b in buttons] == topics
    assert window.welcome.suggestions_title.text() == "Or tap a topic:"
    assert window.keyboard.isVisible()
    qtbot.waitUntil(lambda: buttons[-1].geometry().bottom() > 0, timeout=2000)
    for button in buttons:
        bottom = button.mapTo(window, button.rect().bottomLeft()).y()
        assert bottom < window.keyboard_toggle.mapTo(window, QPoint(0, 0)).y()
        assert button.height() >= 48
