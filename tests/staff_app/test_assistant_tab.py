"""The Assistant tab: streaming, the sources panel, copy with citations, follow-up history."""

from PySide6.QtGui import QGuiApplication

from engine.events import Citation, DoneEvent, Outcome, Route, TokenEvent, Turn
from tests.support.fake_backend import PARKING, cited_answer, fixed_answer


def ask(qtbot, window, question):
    tab = window.assistant
    tab.input.setText(question)
    with qtbot.waitSignal(tab.runner.finished, timeout=3000):
        tab.ask()
    return tab


def test_answer_streams_and_sources_panel_shows_the_full_passage(qtbot, window, backend):
    tab = ask(qtbot, window, "Where can I park?")
    bubbles = tab.chat.bubbles()
    assert [b.role for b in bubbles] == ["question", "answer"]
    assert bubbles[1].text == "Free parking is behind the building, entrance on Mill Lane [1]."
    assert tab.sources.count() == 1
    assert tab.sources.item(0).text() == "[1] Visiting the clinic > Parking"
    assert tab.passage.text.toPlainText() == PARKING.text
    assert tab.passage.isVisibleTo(tab)


def test_follow_up_passes_the_history(qtbot, window, backend):
    ask(qtbot, window, "Where can I park?")
    ask(qtbot, window, "Is it free?")
    assert backend.calls[1] == (
        "Is it free?",
        (
            Turn(
                "Where can I park?",
                "Free parking is behind the building, entrance on Mill Lane [1].",
                Route.INFORMATION,  # the route it took: an emergency carries into a follow-up
            ),
        ),
    )


def test_copy_puts_the_answer_and_its_sources_on_the_clipboard(qtbot, window):
    tab = ask(qtbot, window, "Where can I park?")
    tab.copy_button.click()
    copied = QGuiApplication.clipboard().text()
    assert copied.startswith("Free parking is behind the building")
    assert "Sources:\n[1] Visiting the clinic > Parking (reviewed 01 Mar 2025)" in copied


def test_clear_forgets_the_conversation(qtbot, window, backend):
    tab = ask(qtbot, window, "Where can I park?")
    tab.clear_button.click()
    assert tab.chat.bubbles() == [] and tab.history == [] and tab.sources.count() == 0
    ask(qtbot, window, "Opening hours?")
    assert backend.calls[-1] == ("Opening hours?", ())


def test_appointment_answers_point_to_the_appointments_tab(qtbot, window, backend):
    backend.scripts["Book me in"] = fixed_answer(
        "Bookings are made in the Appointments tab (Ctrl+2).",
        Route.APPOINTMENT,
        Outcome.APPOINTMENT,
    )
    tab = ask(qtbot, window, "Book me in")
    assert tab.appointments_button.isVisibleTo(tab)
    tab.appointments_button.click()
    assert window.tabs.currentWidget() is window.appointments


def test_html_in_answers_and_passages_is_shown_literally(qtbot, window, backend):
    evil = Citation(1, "x", "<b>Fees</b>", "<b>Fees</b> > <i>Letters</i>", "<img src=x> £35", 0.7)
    text = "A letter costs <b>£35</b> [1]."
    backend.scripts["fees"] = [
        TokenEvent(text),
        DoneEvent(text, Route.INFORMATION, Outcome.ANSWERED, (evil,)),
    ]
    tab = ask(qtbot, window, "fees")
    answer = tab.chat.bubbles()[1]
    assert answer.body.text() == text
    assert answer.body.textFormat().name == "PlainText"
    assert tab.sources.item(0).text() == "[1] <b>Fees</b> > <i>Letters</i>"
    assert tab.passage.text.toPlainText() == "<img src=x> £35"
    assert tab.passage.title.textFormat().name == "PlainText"


def test_a_failure_is_shown_in_words_without_a_traceback(qtbot, window, backend):
    from engine.errors import DatabaseUnavailable

    backend.fail_after = 1
    backend.stream_error = DatabaseUnavailable("The database at localhost cannot be reached.")
    tab = window.assistant
    tab.input.setText("Where can I park?")
    with qtbot.waitSignal(tab.runner.failed, timeout=3000):
        tab.ask()
    text = tab.chat.bubbles()[1].text
    # The engine's detail is shown once, not after a prefix that says the same thing.
    assert text.startswith("The database at localhost cannot be reached. Bookings")
    assert "Traceback" not in text
    assert tab.ask_button.isEnabled()


def test_guarded_answers_say_the_draft_went_to_review(qtbot, window, backend):
    refusal = "I don't know: the clinic's documents don't answer that."
    backend.scripts["x"] = [
        *cited_answer()[:-1],
        DoneEvent(refusal, Route.INFORMATION, Outcome.GUARDED),
    ]
    tab = ask(qtbot, window, "x")
    bubble = tab.chat.bubbles()[1]
    assert bubble.text == refusal
    assert "Review tab" in bubble.status_label.text()
