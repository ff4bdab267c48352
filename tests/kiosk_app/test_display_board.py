"""The waiting-room display board (``clinic-kiosk --display``): tickets and rooms, never names,
a chime and a flash for each new call, calm words while the database is away. (The database
function it reads through is tested as the kiosk role in tests/engine/test_waiting_queue.py.)"""

from __future__ import annotations

import datetime as dt
import io
import threading
import wave

import pytest

from engine.frontdesk.waiting_queue import CalledTicket
from kiosk_app.chime import chime_wav
from kiosk_app.display_board import AWAY, FLASH_STYLE, WAITING, DisplayBoard

T0 = dt.datetime(2026, 11, 30, 10, 0, tzinfo=dt.UTC)


class SilentChime:
    def __init__(self) -> None:
        self.played = 0

    def play(self) -> bool:
        self.played += 1
        return True

    def close(self) -> None:
        pass


class Calls:
    def __init__(self) -> None:
        self.calls: list[CalledTicket] = []
        self.error: Exception | None = None
        self.gate: threading.Event | None = None  # set: a load reads, then waits for it
        self.read = threading.Event()  # set by every read

    def __call__(self) -> list[CalledTicket]:
        if self.error is not None:
            raise self.error
        seen = list(self.calls)
        self.read.set()
        if self.gate is not None:
            self.gate.wait(5)
        return seen

    def call(self, ticket: int, room: str, minute: int) -> None:
        self.calls.insert(
            0, CalledTicket(ticket, room, "called", T0 + dt.timedelta(minutes=minute))
        )


@pytest.fixture
def board(qtbot):
    calls, chime = Calls(), SilentChime()
    board = DisplayBoard("Riverside Family Clinic", calls, chime=chime)  # type: ignore[arg-type]
    qtbot.addWidget(board)
    board.resize(1920, 1080)
    board.show()
    return board, calls, chime


def load(qtbot, board: DisplayBoard) -> None:
    loads = board.loads
    board.reload()
    qtbot.waitUntil(lambda: board.loads > loads, timeout=5000)


def test_the_newest_call_is_large_and_new_calls_chime(qtbot, board) -> None:
    board, calls, chime = board
    load(qtbot, board)
    assert board.now.text() == WAITING
    calls.call(14, "Room 3", 0)
    load(qtbot, board)
    assert board.now.text() == "Ticket 14 - Room 3"
    assert chime.played == 1 and board.now.styleSheet() == FLASH_STYLE
    calls.call(15, "Room 1", 2)
    load(qtbot, board)
    assert board.now.text() == "Ticket 15 - Room 1"
    assert board.earlier.text() == "Ticket 14 - Room 3"
    assert chime.played == 2
    load(qtbot, board)  # a reload with no new call is silent
    assert chime.played == 2
    assert board.now.font().pointSizeF() >= 60


def test_database_away_keeps_the_calls_and_says_so(qtbot, board) -> None:
    board, calls, _chime = board
    calls.call(14, "Room 3", 0)
    load(qtbot, board)
    calls.error = RuntimeError("down")
    load(qtbot, board)
    assert board.status.text() == AWAY
    assert board.now.text() == "Ticket 14 - Room 3"


def test_a_call_made_while_the_board_is_loading_is_shown(qtbot, board) -> None:
    """A new call that arrives mid-load gets one more load, even if the load in progress read
    the list before it: the ticket being called is never missed."""
    board, calls, chime = board
    calls.call(14, "Room 3", 0)
    load(qtbot, board)
    release = calls.gate = threading.Event()
    calls.read.clear()
    board.reload()  # reads ticket 14 only, then takes its time
    assert calls.read.wait(5)
    calls.call(15, "Room 1", 2)
    board.on_change(None)  # the change notice for ticket 15, while the load is running
    release.set()
    qtbot.waitUntil(lambda: board.now.text() == "Ticket 15 - Room 1", timeout=5000)
    assert chime.played == 1  # ticket 14 was already called when the board started


def test_the_chime_is_a_real_short_wav() -> None:
    with wave.open(io.BytesIO(chime_wav())) as sound:
        seconds = sound.getnframes() / sound.getframerate()
        assert sound.getnchannels() == 1 and 0.5 < seconds < 1.5
