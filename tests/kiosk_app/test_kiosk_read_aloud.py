"""Read aloud: a button under each answer only where the platform has a voice; it reads the
answer's words without citation markers; a new question, Start again and the idle wipe silence it.
"""

from __future__ import annotations

import sys

import pytest
from PySide6.QtCore import QProcess, Qt

from kiosk_app.speech import (
    READ_ALOUD,
    NoSpeech,
    QtSpeech,
    SpeechProbe,
    candidate_engines,
    spoken_text,
)
from tests.support.fake_backend import FakeBackend, cited_answer
from tests.support.fake_speech import FakeSpeech

TWO_SOURCES = (
    "Free parking is behind the building [1]. Blue badge bays are by the door [1, 2].\n"
    "Sources: [1], [2]"
)


def ask(qtbot, window, question: str) -> None:
    edit = window.welcome.input.edit if window.stack.currentWidget() is not window.chat else None
    if edit is None:
        window.chat.input.edit.setText(question)
        qtbot.mouseClick(window.chat.input.button, Qt.MouseButton.LeftButton)
    else:
        edit.setText(question)
        qtbot.mouseClick(window.welcome.input.button, Qt.MouseButton.LeftButton)


def finished(window) -> bool:
    bubble = window.chat.view.bubbles()[-1]
    return bool(bubble.citation_buttons())


def read_aloud_buttons(bubble):
    return [b for b in bubble.action_buttons() if b.text() == READ_ALOUD]


def test_without_a_voice_there_is_no_read_aloud_button(qtbot, make_window):
    window = make_window(FakeBackend(), speech=FakeSpeech(has_voice=False))
    ask(qtbot, window, "Where can I park?")
    qtbot.waitUntil(lambda: finished(window), timeout=5000)
    bubble = window.chat.view.bubbles()[-1]
    assert read_aloud_buttons(bubble) == []
    assert bubble.action_row.isHidden()


def test_the_default_kiosk_has_no_voice(qtbot, make_window):
    window = make_window(FakeBackend())
    assert isinstance(window.speech, NoSpeech)
    ask(qtbot, window, "Where can I park?")
    qtbot.waitUntil(lambda: finished(window), timeout=5000)
    assert window.chat.view.bubbles()[-1].action_buttons() == []


def test_read_aloud_speaks_the_answer_without_citation_markers(qtbot, make_window):
    speech = FakeSpeech()
    window = make_window(FakeBackend(default=cited_answer(TWO_SOURCES)), speech=speech)
    ask(qtbot, window, "Where can I park?")
    qtbot.waitUntil(lambda: finished(window), timeout=5000)
    bubble = window.chat.view.bubbles()[-1]
    (button,) = read_aloud_buttons(bubble)
    assert button.isVisible() and button.height() >= 48
    assert speech.spoken == []  # never speaks by itself
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert speech.spoken == [
        "Free parking is behind the building. Blue badge bays are by the door."
    ]
    assert "[" not in speech.spoken[0] and "Sources" not in speech.spoken[0]


def test_a_new_question_stops_the_voice(qtbot, make_window):
    speech = FakeSpeech()
    window = make_window(FakeBackend(), speech=speech)
    ask(qtbot, window, "Where can I park?")
    qtbot.waitUntil(lambda: finished(window), timeout=5000)
    qtbot.mouseClick(
        read_aloud_buttons(window.chat.view.bubbles()[-1])[0], Qt.MouseButton.LeftButton
    )
    assert speech.speaking
    ask(qtbot, window, "Is it free?")
    assert speech.speaking is None
    qtbot.waitUntil(lambda: len(window.chat.view.bubbles()) == 4 and finished(window), timeout=5000)
    # Each answer has its own button.
    answers = [b for b in window.chat.view.bubbles() if b.role == "answer"]
    assert [len(read_aloud_buttons(b)) for b in answers] == [1, 1]


@pytest.mark.parametrize("how", ["start again", "idle"])
def test_the_wipe_stops_the_voice(qtbot, make_window, settings, clock, how):
    speech = FakeSpeech()
    window = make_window(FakeBackend(), speech=speech)
    ask(qtbot, window, "Where can I park?")
    qtbot.waitUntil(lambda: finished(window), timeout=5000)
    qtbot.mouseClick(
        read_aloud_buttons(window.chat.view.bubbles()[-1])[0], Qt.MouseButton.LeftButton
    )
    assert speech.speaking
    if how == "start again":
        qtbot.mouseClick(window.chat.start_again_button, Qt.MouseButton.LeftButton)
    else:
        clock.advance(settings.kiosk.idle_seconds + settings.kiosk.warning_seconds + 1)
        window.idle.check()
        window.idle.check()
    assert speech.speaking is None
    assert window.stack.currentWidget() is window.welcome_area


def test_an_emergency_can_be_read_aloud_and_reads_the_emergency_advice(
    qtbot, make_window, settings
):
    speech = FakeSpeech()
    window = make_window(FakeBackend(), speech=speech)
    ask(qtbot, window, "my dad has chest pain")
    bubble = window.chat.view.bubbles()[-1]
    qtbot.mouseClick(read_aloud_buttons(bubble)[0], Qt.MouseButton.LeftButton)
    assert speech.spoken == [spoken_text(settings.texts.emergency)]
    assert "999" in speech.spoken[0]


def test_spoken_text_drops_markers_and_sources_but_no_word():
    assert spoken_text("Bring photo ID [2] and your letter [1,3].") == (
        "Bring photo ID and your letter."
    )
    assert (
        spoken_text("\u2022 Photo ID\n\u2022 Your letter\nSource: [1]") == "Photo ID\nYour letter"
    )
    assert spoken_text("Call 020 7946 0121 (option 2).") == "Call 020 7946 0121 (option 2)."


def test_qt_mock_engine_is_never_taken_for_a_voice():
    """Qt ships a 'mock' engine for its own tests: it lists voices but makes no sound."""
    assert candidate_engines(["speechd", "mock"]) == ["speechd"]
    assert candidate_engines(["mock"]) == []
    assert candidate_engines(["speechd", "mock"], ("mock",)) == ["mock"]


def probe(qtbot, code: str, timeout_ms: int = 10000) -> tuple[SpeechProbe, list[object]]:
    found: list[object] = []
    speech_probe = SpeechProbe(command=[sys.executable, "-c", code], timeout_ms=timeout_ms)
    speech_probe.ready.connect(found.append)
    speech_probe.start()
    qtbot.waitUntil(lambda: speech_probe.done, timeout=timeout_ms + 5000)
    return speech_probe, found


def test_a_probe_that_hangs_is_killed_and_means_no_voice(qtbot):
    """speech-dispatcher can hang its clients (seen on this machine); the kiosk never waits."""
    speech_probe, found = probe(qtbot, "import time; time.sleep(60)", timeout_ms=300)
    assert found == []
    qtbot.waitUntil(lambda: speech_probe.process.state() == QProcess.ProcessState.NotRunning)


def test_a_probe_that_finds_nothing_means_no_voice(qtbot):
    _probe, found = probe(qtbot, "pass")
    assert found == []


@pytest.mark.qt_log_ignore(".*")
def test_a_voice_found_by_the_probe_reads_an_answer_on_the_real_qt_engine(qtbot, make_window):
    pytest.importorskip("PySide6.QtTextToSpeech", exc_type=ImportError)
    from PySide6.QtTextToSpeech import QTextToSpeech

    # Qt's mock engine stands in for the platform voice the probe would have named.
    _probe, found = probe(qtbot, "print('mock')")
    (speech,) = found
    assert isinstance(speech, QtSpeech) and speech.engine_name() == "mock"
    window = make_window(FakeBackend())
    ask(qtbot, window, "Where can I park?")  # answered before the voice was found: no button
    qtbot.waitUntil(lambda: finished(window), timeout=5000)
    assert read_aloud_buttons(window.chat.view.bubbles()[-1]) == []
    window.set_speech(speech)
    ask(qtbot, window, "Is it free?")
    qtbot.waitUntil(lambda: len(window.chat.view.bubbles()) == 4 and finished(window), timeout=5000)
    (button,) = read_aloud_buttons(window.chat.view.bubbles()[-1])
    engine = speech._engine
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: engine.state() == QTextToSpeech.State.Speaking, timeout=5000)
    qtbot.mouseClick(window.chat.start_again_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: engine.state() == QTextToSpeech.State.Ready, timeout=5000)
