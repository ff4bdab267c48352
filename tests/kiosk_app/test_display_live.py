"""The waiting-room display board live on the real database, across processes: the desk calls a
ticket from another program, and the board (reading through the kiosk's own role, listening on
its own connection) shows the ticket and the room without a refresh, and never the name."""

from __future__ import annotations

import os
import subprocess
import sys

from PySide6.QtWidgets import QLabel

from engine.frontdesk.queue_listener import QUEUE_CHANNEL
from engine.frontdesk.waiting_queue import QueueService
from engine.ops.db import Database
from engine.ops.roles import init_roles
from engine.ops.settings import QueueSettings
from engine.qt.live import LiveUpdates
from kiosk_app.display_board import WAITING, DisplayBoard
from tests.support.waiting_room import Today, kiosk_url


class SilentChime:
    def __init__(self) -> None:
        self.played = 0

    def play(self) -> bool:
        self.played += 1
        return True

    def close(self) -> None:
        pass


def test_a_call_made_at_the_desk_elsewhere_shows_on_the_board(
    qtbot, database_url, tmp_path
) -> None:
    db = Database(database_url)  # a fresh migrated database (the desk's, as the table owner)
    init_roles(db, kiosk_password="kiosk-pw-1", staff_password="staff-pw-1")
    Today(db)  # Physiotherapy and Nursing
    walk_in = QueueService(db).walk_in("Physiotherapy", "amy", name="Maria Lopez")
    display_db = Database(kiosk_url(database_url))  # the display's own role
    chime = SilentChime()
    board = DisplayBoard(
        "Riverside Family Clinic",
        QueueService(display_db, QueueSettings()).called_tickets,
        chime=chime,  # type: ignore[arg-type]
    )
    qtbot.addWidget(board)
    live = LiveUpdates(lambda: display_db.url, (QUEUE_CHANNEL,))
    live.changed.connect(board.on_change)
    try:
        live.start()
        board.reload()
        qtbot.waitUntil(lambda: board.loads >= 1 and live.running, timeout=10000)
        assert board.now.text() == WAITING

        # The receptionist calls the walk-in from another program (the command line).
        env = {
            **os.environ,
            "CLINIC_DATABASE_URL": database_url,
            "CLINIC_DATA_DIR": str(tmp_path / "desk"),
        }
        command = ["queue", "call", str(walk_in.entry_id), "--room", "Room 3"]
        called = subprocess.run(
            [sys.executable, "-m", "engine.ops.cli", *command],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert called.returncode == 0, called.stderr

        # No refresh: the database's NOTIFY reloads the board.
        ticket = f"Ticket {walk_in.ticket} - Room 3"
        qtbot.waitUntil(lambda: board.now.text() == ticket, timeout=10000)
        assert chime.played == 1
        shown = " ".join(label.text() for label in board.findChildren(QLabel))
        assert "Maria" not in shown and "Lopez" not in shown
    finally:
        live.stop()
        board.shutdown()
        display_db.dispose()
        db.dispose()
