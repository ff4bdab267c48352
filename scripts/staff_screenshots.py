"""Screenshots of the staff app's tabs with realistic fake data (run under Xvfb).

    xvfb-run -s "-screen 0 1600x1000x24" .venv/bin/python scripts/staff_screenshots.py

Writes docs/screenshots/staff-*.png. Uses the test fakes only: no database, no model.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QDate, QEventLoop, QSettings, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

from engine.ingest import IngestResult  # noqa: E402
from staff_app.login_dialog import LoginDialog  # noqa: E402
from staff_app.services import StaffServices  # noqa: E402
from staff_app.window import StaffWindow  # noqa: E402
from tests.support.fake_backend import FakeBackend  # noqa: E402
from tests.support.fake_staff import (  # noqa: E402
    MONDAY,
    FakeBooking,
    FakeKnowledge,
    FakeReview,
    FakeUsers,
    StaffUserView,
)

OUT = ROOT / "docs" / "screenshots"


def settle(ms: int = 400) -> None:
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def grab(widget: QWidget, name: str) -> None:
    settle()
    widget.grab().save(str(OUT / f"staff-{name}.png"))
    print("wrote", OUT / f"staff-{name}.png")


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    OUT.mkdir(parents=True, exist_ok=True)
    backend = FakeBackend()
    knowledge = FakeKnowledge()
    services = StaffServices(
        users=FakeUsers(),
        booking=FakeBooking(),
        review=FakeReview(),
        knowledge=knowledge,
        make_assistant=lambda _user: backend,
        check_health=backend.check_database,
    )
    ini = Path(tempfile.mkdtemp()) / "ui.ini"
    window = StaffWindow(services, QSettings(str(ini), QSettings.Format.IniFormat))

    login = LoginDialog(services.users, window.tasks)
    login.username.setText("alice")
    login.password.setText("wrong")
    login.show()
    login.submit()
    settle()
    grab(login, "login")
    login.close()

    window.resize(1440, 900)
    window.show()
    window.sign_in(StaffUserView("alice", "Alice Moreno", True))
    settle()
    window.assistant.input.setText("Where can patients park?")
    window.assistant.ask()
    settle(800)
    window.assistant.input.setText("Is there a charge for blue badge holders?")
    grab(window, "assistant")

    window.show_tab(1)
    tab = window.appointments
    tab.date_from.setDate(QDate(MONDAY.year, MONDAY.month, MONDAY.day))
    tab.date_to.setDate(QDate(MONDAY.year, MONDAY.month, MONDAY.day + 2))
    tab.query.setText("general practice")
    tab.find_slots()
    settle()
    tab.slots.selectRow(2)
    tab.book_selected()
    dialog = tab.booking_dialog
    assert dialog is not None
    dialog.name.setText("Maria Lopez")
    dialog.contact.setText("020 7946 0123")
    dialog.reason.setText("Repeat blood pressure check")
    dialog.submit()
    settle()
    grab(dialog, "booked")
    dialog.accept()
    settle()
    grab(window, "appointments")

    window.show_tab(2)
    knowledge.results = [
        IngestResult("/srv/docs/public/visiting.md", "visiting", "Visit", "public", "updated", 6),
        IngestResult(
            "/srv/docs/public/scan.pdf", "scan", "", "", "failed", 0,
            "no text was found in the document (a scanned image? save it with text)",
        ),
    ]  # fmt: skip
    window.knowledge.ingest([Path("/srv/docs/public")], folders=True)
    settle(800)
    grab(window, "knowledge")

    window.show_tab(3)
    settle()
    window.review.table.selectRow(0)
    grab(window, "review")

    backend.database_up = False
    window.check_health()
    settle()
    window.show_tab(0)
    grab(window, "database-down")
    window.shutdown()
    app.processEvents()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
