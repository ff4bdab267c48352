"""Read aloud: an answer spoken by the platform's own voice, only where the platform has one.

``Speech`` is the small Protocol the kiosk window talks to (``available``, ``say``, ``stop``).
``QtSpeech`` implements it over Qt's text-to-speech (``PySide6.QtTextToSpeech``, from
PySide6-Addons): Linux speech-dispatcher, Windows SAPI/WinRT, macOS. ``NoSpeech`` is the kiosk
without a voice. Tests use ``tests/support/fake_speech.py``.

What it decides: whether this machine has a usable voice. Qt's ``mock`` engine (shipped in the
wheel for Qt's own tests) is never a voice; an engine that fails to start (speech-dispatcher's
plugin without ``libspeechd``) or has no voice is none; a failed import (PySide6-Addons not
installed, or ``libpulse0`` missing: QtTextToSpeech links QtMultimedia) is none. No voice: no
"Read aloud" button at all, never a button that does nothing.

What is spoken: the answer's words without the citation markers (``[1]``, ``[1, 2]``) and
without a ``Sources: [1], [2]`` list; nothing else is added or changed. Speech stops when a new
question is asked and at every wipe (Start again, idle): the next person hears nothing of the last.
It never speaks by itself and never raises into the window. The one wait in the GUI thread is
opening the engine the probe found, once (4.0 s measured for speech-dispatcher with 1,530
espeak-ng voices on a loaded machine); ``say`` and ``stop`` return at once.

Why a probe process: opening speech-dispatcher's engine can hang for minutes (measured here: a
daemon stuck closing its espeak-ng module on a machine without a sound device blocked every new
client). So the kiosk never opens an engine blind: ``SpeechProbe`` asks a short-lived child
process (``clinic-kiosk --speech-probe``, or ``python -m kiosk_app.speech``) which engine has a
voice, kills it after ``PROBE_TIMEOUT_MS``, and only then opens that engine in the GUI thread.
A hung or failing probe means no voice: the kiosk works as before, without the button.
"""

from __future__ import annotations

import logging
import re
import sys
from typing import Any, Protocol, runtime_checkable

from PySide6.QtCore import QObject, QProcess, QTimer, Signal, Slot

log = logging.getLogger(__name__)

READ_ALOUD = "\N{BLACK RIGHT-POINTING TRIANGLE}  Read aloud"  # a glyph every kiosk font has
NOT_VOICES = ("mock",)  # Qt's test engine: it reports voices but makes no sound
PROBE_TIMEOUT_MS = 20_000
PROBE_FLAG = "--speech-probe"

_NUMBERS = r"\[\d{1,3}(?:\s*[,;\u2013-]\s*\d{1,3})*\]"
_MARKER = re.compile(r"\s*" + _NUMBERS)
# "Sources: [1], [2]" (on its own line or joined to the text): only markers follow the word.
_SOURCES = re.compile(r"\s*\bsources?\s*:\s*(?:" + _NUMBERS + r"\s*[,;.]?\s*)+", re.IGNORECASE)


@runtime_checkable
class Speech(Protocol):
    """A voice the kiosk can use. ``say`` replaces whatever is being spoken."""

    def available(self) -> bool: ...

    def say(self, text: str) -> None: ...

    def stop(self) -> None: ...


def spoken_text(text: str) -> str:
    """The answer as it is read: no citation markers, no ``Sources:`` line, bullets as pauses."""
    text = _SOURCES.sub("\n", text)
    text = _MARKER.sub("", text)
    lines = [line.strip().lstrip("\u2022").strip() for line in text.splitlines()]
    return "\n".join(line for line in lines if line)


class NoSpeech:
    """A kiosk without a voice: no "Read aloud" button."""

    def available(self) -> bool:
        return False

    def say(self, text: str) -> None:
        pass

    def stop(self) -> None:
        pass


def candidate_engines(installed: list[str], engines: tuple[str, ...] | None = None) -> list[str]:
    """The engines worth trying, in order: ``engines`` if given (tests name Qt's ``mock``),
    else every installed one but ``mock``."""
    if engines is None:
        return [name for name in installed if name not in NOT_VOICES]
    return [name for name in engines if name in installed]


def voice_engine(engines: tuple[str, ...] | None = None) -> str | None:
    """The first text-to-speech engine that starts and has a voice, or None. Can block for a
    long time (see the module note): call it in the probe process, never in the kiosk's GUI."""
    try:
        from PySide6.QtTextToSpeech import QTextToSpeech
    except ImportError:  # no PySide6-Addons, or no libpulse0 on Linux
        return None
    for name in candidate_engines(QTextToSpeech.availableEngines(), engines):
        engine = QTextToSpeech(name)
        if engine.state() == QTextToSpeech.State.Ready and engine.availableVoices():
            return name
    return None


def probe_main() -> int:
    """The probe process: print the name of the engine with a voice (nothing if none)."""
    from PySide6.QtCore import QCoreApplication

    _app = QCoreApplication.instance() or QCoreApplication(sys.argv[:1])
    name = voice_engine()
    if name:
        print(name, flush=True)
    return 0


def probe_command() -> list[str]:
    """How to start the probe: the frozen kiosk runs itself with ``--speech-probe``."""
    if getattr(sys, "frozen", False):
        return [sys.executable, PROBE_FLAG]
    return [sys.executable, "-m", "kiosk_app.speech"]


class SpeechProbe(QObject):
    """Finds the platform's voice in a child process, then emits ``ready(Speech)`` in the GUI
    thread (only when a voice was found). A probe that hangs is killed after ``timeout_ms``."""

    ready = Signal(object)

    def __init__(
        self,
        parent: QObject | None = None,
        *,
        command: list[str] | None = None,
        timeout_ms: int = PROBE_TIMEOUT_MS,
    ) -> None:
        super().__init__(parent)
        self._command = command or probe_command()
        self.process = QProcess(self)
        self.process.setProcessChannelMode(QProcess.ProcessChannelMode.SeparateChannels)
        self.process.setStandardErrorFile(QProcess.nullDevice())  # Qt's plug-in warnings
        self.process.finished.connect(self._on_finished)
        self.process.errorOccurred.connect(self._on_error)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(timeout_ms)
        self.timer.timeout.connect(self._on_timeout)
        self.done = False

    def start(self) -> None:
        self.timer.start()
        self.process.start(self._command[0], self._command[1:])

    def stop(self) -> None:
        """At shutdown: never leave the child behind."""
        self.timer.stop()
        if self.process.state() != QProcess.ProcessState.NotRunning:
            self.process.kill()
            self.process.waitForFinished(2000)

    @Slot()
    def _on_timeout(self) -> None:
        log.info("Read aloud is off: the text-to-speech check did not answer in time")
        self._finish()
        self.stop()

    @Slot(QProcess.ProcessError)
    def _on_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart:
            log.info("Read aloud is off: the text-to-speech check could not start")
            self._finish()
            self.timer.stop()

    @Slot(int, QProcess.ExitStatus)
    def _on_finished(self, _code: int, _status: QProcess.ExitStatus) -> None:
        if self.done:
            return
        self.timer.stop()
        output = bytes(self.process.readAllStandardOutput().data()).decode("utf-8", "replace")
        name = output.strip().splitlines()[-1].strip() if output.strip() else ""
        self._finish()
        if not name:
            log.info("Read aloud is off: no text-to-speech voice on this machine")
            return
        speech = QtSpeech.open(name)
        if speech.available():
            log.info("Read aloud uses the %s text-to-speech engine", name)
            self.ready.emit(speech)

    def _finish(self) -> None:
        self.done = True


class QtSpeech:
    """Qt's text-to-speech on one engine known (by the probe) to have a voice."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine  # a QTextToSpeech, ready, with at least one voice

    @classmethod
    def open(cls, name: str) -> Speech:
        """Open engine ``name`` in the GUI thread, or ``NoSpeech`` if it fails after all."""
        try:
            from PySide6.QtTextToSpeech import QTextToSpeech
        except ImportError:
            return NoSpeech()
        engine = QTextToSpeech(name)
        if engine.state() != QTextToSpeech.State.Ready or not engine.availableVoices():
            engine.deleteLater()
            return NoSpeech()
        return cls(engine)

    def available(self) -> bool:
        return True

    def say(self, text: str) -> None:
        self._engine.stop()
        words = spoken_text(text)
        if words:
            self._engine.say(words)

    def stop(self) -> None:
        self._engine.stop()

    def engine_name(self) -> str:
        return str(self._engine.engine())


if __name__ == "__main__":
    raise SystemExit(probe_main())
