"""A two-note chime for the waiting-room display, with no multimedia library.

The sound is made here (a short sine two-tone, written as a WAV with the standard library) and
played by the platform's own player without waiting for it: ``winsound`` on Windows, ``paplay``
or ``aplay`` on Linux, ``afplay`` on macOS. Where none exists the display flashes and rings the
terminal bell instead. Playing never blocks the GUI and never raises.
"""

from __future__ import annotations

import io
import logging
import math
import shutil
import struct
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

log = logging.getLogger(__name__)

RATE = 22_050
NOTES = ((659.25, 0.35), (523.25, 0.55))  # E5 then C5: the familiar "ding-dong"


def chime_wav() -> bytes:
    """The chime as WAV bytes (16-bit mono), each note fading out so it never clicks."""
    frames = bytearray()
    for frequency, seconds in NOTES:
        count = int(RATE * seconds)
        for i in range(count):
            fade = (1 - i / count) ** 2
            sample = 0.45 * fade * math.sin(2 * math.pi * frequency * i / RATE)
            frames += struct.pack("<h", int(sample * 32767))
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(bytes(frames))
    return buffer.getvalue()


class Chime:
    """``play()`` starts the chime and returns at once; ``available`` says if a player exists."""

    def __init__(self) -> None:
        self._file: Path | None = None
        self._player = self._find_player()

    @staticmethod
    def _find_player() -> list[str] | None:
        if sys.platform == "win32":
            return ["winsound"]
        for name in ("paplay", "aplay", "afplay"):
            path = shutil.which(name)
            if path:
                return [path, "-q"] if name == "aplay" else [path]
        return None

    @property
    def available(self) -> bool:
        return self._player is not None

    def _path(self) -> Path:
        if self._file is None:
            with tempfile.NamedTemporaryFile(
                prefix="clinic-chime-", suffix=".wav", delete=False
            ) as handle:
                handle.write(chime_wav())
            self._file = Path(handle.name)
        return self._file

    def play(self) -> bool:
        """True when a player was started; False when there is none (the caller flashes)."""
        if self._player is None:
            return False
        try:
            if self._player == ["winsound"]:
                import winsound  # type: ignore[import-not-found,unused-ignore]

                winsound.PlaySound(  # type: ignore[attr-defined,unused-ignore]
                    str(self._path()),
                    winsound.SND_FILENAME | winsound.SND_ASYNC,  # type: ignore[attr-defined,unused-ignore]
                )
            else:
                subprocess.Popen(
                    [*self._player, str(self._path())],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
        except OSError:
            log.info("the chime could not be played; the display flashes instead")
            return False
        return True

    def close(self) -> None:
        if self._file is not None:
            self._file.unlink(missing_ok=True)
            self._file = None
