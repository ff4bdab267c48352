"""Screenshots of the waiting room on the real database (run under Xvfb).

    xvfb-run -s "-screen 0 1920x1920x24" .venv/bin/python scripts/waiting_room_screenshots.py

Starts an embedded PostgreSQL in a temporary folder, books three patients around now (two
already checked in at the desk), then taps through a kiosk self check-in on the real database,
shows the staff Queue tab with the patient, calls them to Room 3, and shows the waiting-room
display board and a reception alert. Writes docs/screenshots/waiting-room-<step>-<W>x<H>.png.
"""

from __future__ import annotations

import argparse
import datetime as dt
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QCoreApplication, QDeadlineTimer, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication, QPushButton, QWidget  # noqa: E402

from engine.answering.answer_log import AnswerLogEntry, record_answer  # noqa: E402
from engine.frontdesk.users import StaffUserView  # noqa: E402
from engine.frontdesk.waiting_queue import QueueService  # noqa: E402
from engine.ops import db as dbm  # noqa: E402
from engine.ops.settings import DatabaseSettings, KioskSettings, Settings  # noqa: E402
from kiosk_app import style  # noqa: E402
from kiosk_app.display_board import DisplayBoard  # noqa: E402
from kiosk_app.idle import FakeClock  # noqa: E402
from kiosk_app.window import KioskWindow  # noqa: E402
from staff_app.services import build_services  # noqa: E402
from staff_app.window import StaffWindow  # noqa: E402
from tests.support.fake_backend import FakeBackend  # noqa: E402
from tests.support.fake_embedder import FakeEmbedder  # noqa: E402
from tests.support.waiting_room import BORN, Today  # noqa: E402

OUT = ROOT / "docs" / "screenshots"


def settle(ms: int = 300) -> None:
    deadline = QDeadlineTimer(ms)
    while not deadline.hasExpired():
        QCoreApplication.processEvents()


def wait_until(condition, ms: int = 15000) -> None:  # type: ignore[no-untyped-def]
    deadline = QDeadlineTimer(ms)
    while not condition():
        if deadline.hasExpired():
            raise TimeoutError("the screen did not get there in time")
        QCoreApplication.processEvents()
    settle()


def save(widget: QWidget, name: str) -> None:
    path = OUT / f"waiting-room-{name}-{widget.width()}x{widget.height()}.png"
    widget.grab().save(str(path))
    if shutil.which("convert"):
        subprocess.run(["convert", str(path), "-colors", "256", f"PNG8:{path}"], check=False)
    print(path.relative_to(ROOT))


def tap(screen: QWidget, name: str, text: str | None = None) -> None:
    for button in screen.findChildren(QPushButton):
        wanted = button.objectName() == name and (text is None or button.text() == text)
        if wanted and button.isVisible():
            QTest.mouseClick(button, Qt.MouseButton.LeftButton)
            settle(100)
            return
    raise LookupError(f"no visible button {name} {text}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1920x1080,1080x1920,1366x768")
    args = parser.parse_args()
    sizes = [tuple(int(n) for n in s.split("x")) for s in args.sizes.split(",")]
    root = Path(tempfile.mkdtemp(prefix="clinic-shots-"))
    root.chmod(0o755)
    try:
        return shoot(root, sizes)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def shoot(root: Path, sizes: list[tuple[int, ...]]) -> int:
    app = QApplication(sys.argv[:1])
    desk_font = app.font()
    style.apply(app)  # the kiosk's look; taken off again before the staff desk is drawn
    base = Settings(data_dir=root / "data")
    url = dbm.start_embedded_server(base)
    settings = base.replace(database=DatabaseSettings(url=url))
    db = dbm.open_database(settings)
    queue = QueueService(db, settings.queue)
    # Bookings around the database's own "now", so the screenshots work at any hour.
    clinic = Today(db)
    for patient, minutes, day in (("John Smith", -10, 3), ("Aisha Khan", 0, 17)):
        reference = clinic.book(patient, minutes, born=dt.date(1975, 6, day))
        queue.check_in_at_desk(reference, "amy")
    name, born = "Maria Lopez", BORN
    clinic.book(name, 15, born=born)

    kiosk_settings = settings.replace(kiosk=KioskSettings(exit_pin="8135", fullscreen=False))
    for width, height in sizes:
        window = KioskWindow(
            FakeBackend(),
            kiosk_settings,
            clock=FakeClock(),
            check_in=lambda: queue,
            kiosk_name="kiosk:entrance",
            call_staff=lambda: 1,
        )
        window.resize(width, height)
        window.show()
        wait_until(lambda w=window: not w.background_busy())
        save(window, "kiosk-welcome")
        QTest.mouseClick(window.welcome.check_in_button, Qt.MouseButton.LeftButton)
        settle()
        screen = window.check_in
        for digit in born.strftime("%d%m%Y"):
            tap(screen, "digitKey", digit)
        tap(screen, "letterKey", name.split()[-1][0].upper())
        save(window, "kiosk-details")
        tap(screen, "find")
        wait_until(lambda s=screen: s.confirm_button.isVisible())
        save(window, "kiosk-confirm")
        if (width, height) == sizes[-1]:
            tap(screen, "confirmCheckIn")
            wait_until(lambda s=screen: "checked in" in s.message.text())
            save(window, "kiosk-checked-in")
            tap(screen, "askAfterCheckIn")
            window.welcome.input.edit.setText("How long will I wait?")
            window.welcome.input.submit()
            wait_until(lambda w=window: "[1]" in w.chat.view.bubbles()[-1].text)
            save(window, "kiosk-queue-answer")
        window.shutdown()
        window.deleteLater()
        settle()

    app.setStyleSheet("")
    app.setFont(desk_font)
    services = build_services(settings, embedder=FakeEmbedder())
    desk = StaffWindow(services, app_settings())
    desk.resize(1366, 768)
    desk.show()
    desk.sign_in(StaffUserView("amy", "Amy Clarke", True))
    assert desk.queue is not None
    desk.show_tab(4)
    wait_until(lambda: desk.queue is not None and desk.queue.loads >= 1)
    wait_until(lambda: desk.queue is not None and desk.queue.table.rowCount() >= 3)
    first = desk.queue.table.item(0, 0).data(Qt.ItemDataRole.UserRole)
    queue.call(first.entry_id, "Room 3", "amy")
    record_answer(db, _emergency())
    wait_until(lambda: len(desk.alerts.rows) == 1)
    wait_until(lambda: desk.queue is not None and desk.queue.table.item(0, 6).text() == "Called")
    save(desk, "desk-queue-and-alert")

    board = DisplayBoard(settings.kiosk.clinic_name, lambda: queue.called_tickets())
    board.resize(1920, 1080)
    board.show()
    board.reload()
    wait_until(lambda: board.loads >= 1)
    save(board, "display")
    board.shutdown()
    desk.shutdown()
    if services.close is not None:
        services.close()
    db.dispose()
    return 0


def app_settings():  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QSettings

    path = Path(tempfile.mkdtemp(prefix="clinic-ui-")) / "ui.ini"
    return QSettings(str(path), QSettings.Format.IniFormat)


def _emergency() -> AnswerLogEntry:
    return AnswerLogEntry(
        channel="kiosk",
        audience="public",
        question="my dad has chest pain and is very pale",
        route="emergency",
        route_reason="rules",
        outcome="emergency",
        shown_text="Call 999 now.",
    )


if __name__ == "__main__":
    raise SystemExit(main())
