"""A voice for tests: implements ``kiosk_app.speech.Speech`` and records what it was asked.

``spoken`` lists every text handed to the voice (after ``spoken_text``, as the real adapter does);
``speaking`` is the text being read now, or None once stopped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kiosk_app.speech import spoken_text


@dataclass
class FakeSpeech:
    has_voice: bool = True
    spoken: list[str] = field(default_factory=list)
    speaking: str | None = None
    stops: int = 0

    def available(self) -> bool:
        return self.has_voice

    def say(self, text: str) -> None:
        words = spoken_text(text)
        self.spoken.append(words)
        self.speaking = words

    def stop(self) -> None:
        self.stops += 1
        self.speaking = None
