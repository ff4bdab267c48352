"""Take screenshots of the kiosk with the FakeBackend at 1920x1080 (run under Xvfb).

Run: xvfb-run -s "-screen 0 1920x1080x24" .venv/bin/python scripts/kiosk_screenshots.py
Writes docs/screenshots/kiosk-*.png: welcome, streamed cited answer, emergency banner,
idle warning, unavailable screen, passage viewer.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QCoreApplication, QDeadlineTimer, Qt  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from engine.events import Route  # noqa: E402
from engine.settings import KioskSettings, Settings  # noqa: E402
from kiosk_app import style  # noqa: E402
from kiosk_app.idle import FakeClock  # noqa: E402
from kiosk_app.window import KioskWindow  # noqa: E402
from tests.support.fake_backend import FakeBackend  # noqa: E402

OUT = ROOT / "docs" / "screenshots"


def settle(app: QApplication, until=lambda: True, ms: int = 5000) -> None:
    deadline = QDeadlineTimer(ms)
    while not deadline.hasExpired():
        app.processEvents()
        QCoreApplication.sendPostedEvents()
        if until():
            break
    for _ in range(20):
        app.processEvents()


def router(question: str) -> Route | None:
    return Route.EMERGENCY if "chest pain" in question.lower() else Route.INFORMATION


def make(app: QApplication, backend: FakeBackend, clock: FakeClock) -> KioskWindow:
    settings = Settings(data_dir=Path(tempfile.mkdtemp()), kiosk=KioskSettings(fullscreen=False))
    window = KioskWindow(backend, settings, clock=clock, router=router)
    window.setWindowFlag(Qt.WindowType.FramelessWindowHint)
    window.setGeometry(0, 0, 1920, 1080)
    window.show()
    settle(app, lambda: not window.background_busy())
    return window


def shoot(window: KioskWindow, name: str) -> None:
    path = OUT / f"kiosk-{name}.png"
    window.grab().save(str(path))
    print(path)


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    style.apply(app)
    clock = FakeClock()

    window = make(app, FakeBackend(), clock)
    shoot(window, "welcome")

    window.ask("Where can I park?")
    settle(app, lambda: bool(window.chat.view.bubbles()[-1].citation_buttons()))
    shoot(window, "cited-answer")
    window.chat.view.bubbles()[-1].citation_buttons()[0].click()
    settle(app)
    shoot(window, "passage")
    window.passage.close_passage()

    clock.advance(window.settings.kiosk.idle_seconds)
    window.idle.check()
    settle(app)
    shoot(window, "idle-warning")
    window.idle_warning.button.click()

    window.wipe()
    window.ask("My husband has chest pain and is sweating")
    settle(app)
    shoot(window, "emergency")
    window.shutdown()
    window.hide()

    down = make(app, FakeBackend(database_up=False), clock)
    settle(app, lambda: down.stack.currentWidget() is down.unavailable)
    shoot(down, "unavailable")
    down.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
