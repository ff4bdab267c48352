"""Screenshots of the staff app on the REAL engine services (run under Xvfb).

Prepare a data folder first (chmod 755: as root the embedded database refuses private parents):

    D=/tmp/staff-shots; mkdir -p $D && chmod 755 $D
    .venv/bin/clinic-assistant --data-dir $D ingest knowledge
    .venv/bin/clinic-assistant --data-dir $D seed-schedule
    echo 'amy-password-123' | .venv/bin/clinic-assistant --data-dir $D users add amy \\
        --display-name "Amy Clarke" --password-stdin
    .venv/bin/clinic-assistant --data-dir $D ask "Do you have a gym?"
    .venv/bin/clinic-assistant --data-dir $D ask "Should I stop my warfarin before my blood test?"
    xvfb-run -s "-screen 0 1600x1000x24" .venv/bin/python scripts/staff_screenshots.py \\
        --data-dir $D --password amy-password-123

Writes docs/screenshots/staff-*.png: the real database, embedder, booking, review, ingest and
evaluation; the sign-in dialog with a real wrong-password reply; and a window whose database is
unreachable (an address nothing listens on) for the health banner.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QEventLoop, QSettings, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

from engine.ops.settings import DatabaseSettings, load_settings  # noqa: E402
from staff_app.login_dialog import LoginDialog  # noqa: E402
from staff_app.services import build_services  # noqa: E402
from staff_app.window import StaffWindow  # noqa: E402

OUT = ROOT / "docs" / "screenshots"


def settle(ms: int = 300) -> None:
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        settle(50)


def grab(widget: QWidget, name: str) -> None:
    settle()
    path = OUT / f"staff-{name}.png"
    widget.grab().save(str(path))
    print("wrote", path)


def new_window(services: object, ui_dir: Path) -> StaffWindow:
    ini = ui_dir / f"ui-{time.monotonic_ns()}.ini"
    window = StaffWindow(services, QSettings(str(ini), QSettings.Format.IniFormat))  # type: ignore[arg-type]
    window.resize(1440, 900)
    return window


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--user", default="amy")
    parser.add_argument("--password", required=True)
    args = parser.parse_args()

    app = QApplication.instance() or QApplication(sys.argv[:1])
    OUT.mkdir(parents=True, exist_ok=True)
    ui_dir = Path(tempfile.mkdtemp())
    settings = load_settings(data_dir=args.data_dir)
    services = build_services(settings)
    window = new_window(services, ui_dir)

    login = LoginDialog(services.users, window.tasks)
    login.username.setText(args.user)
    login.password.setText("not-the-password")
    login.show()
    login.submit()
    wait_for(lambda: login.message.isVisible() and login.sign_in_button.isEnabled(), "sign-in")
    login.username.setText(args.user)
    grab(login, "login")
    login.close()

    user = services.users.authenticate(args.user, args.password)
    window.show()
    window.sign_in(user)
    wait_for(lambda: window.health_checks >= 1 and window.tasks.running() == 0, "sign-in loads")

    assistant = window.assistant
    assistant.input.setText("When do the couriers collect samples?")
    assistant.ask()
    wait_for(lambda: assistant._last is not None, "an answer")
    assistant.input.setText("")
    grab(window, "assistant")

    window.show_tab(1)
    tab = window.appointments
    tab.query.setText("physio")
    tab.find_slots()
    wait_for(lambda: tab.find_button.isEnabled() and tab.slots.rowCount() > 0, "free slots")
    tab.slots.selectRow(3)
    tab.book_selected()
    dialog = tab.booking_dialog
    assert dialog is not None
    dialog.name.setText("Maria Lopez")
    dialog.contact.setText("020 7946 0123")
    dialog.reason.setText("Knee pain after running")
    dialog.submit()
    wait_for(lambda: dialog.appointment is not None, "the booking")
    grab(dialog, "booked")
    dialog.accept()
    wait_for(lambda: tab.find_button.isEnabled() and tab.tasks.running() == 0, "slots again")
    grab(window, "appointments")

    window.show_tab(2)
    knowledge = window.knowledge
    knowledge.refresh()
    wait_for(lambda: knowledge.table.rowCount() > 0 and window.tasks.running() == 0, "documents")
    grab(window, "knowledge")
    knowledge.evaluate()
    wait_for(lambda: knowledge.evaluation_dialog is not None, "the evaluation", timeout=300)
    evaluation = knowledge.evaluation_dialog
    assert evaluation is not None
    grab(evaluation, "evaluation")
    evaluation.close()

    window.show_tab(3)
    window.review.refresh()
    wait_for(lambda: window.review.table.rowCount() > 0, "the review queue")
    settle()
    window.review.table.selectRow(0)
    grab(window, "review")
    window.shutdown()

    # The same app with a database that cannot be reached: the banner, not a dead window.
    down = settings.replace(
        database=DatabaseSettings(url="postgresql+psycopg://clinic@127.0.0.1:9/clinic")
    )
    broken = new_window(build_services(down), ui_dir)
    broken.show()
    broken.sign_in(user)
    wait_for(lambda: broken.health_checks >= 1 and broken.tasks.running() == 0, "health check")
    grab(broken, "database-down")
    broken.shutdown()
    if services.close is not None:
        services.close()
    app.processEvents()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
