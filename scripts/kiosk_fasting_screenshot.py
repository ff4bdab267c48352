"""Screenshot of the kiosk's answer to the fasting question on the real engine (run under Xvfb).

    .venv/bin/clinic-assistant --data-dir DIR ingest --quiet knowledge
    xvfb-run -s "-screen 0 1920x1920x24" .venv/bin/python scripts/kiosk_fasting_screenshot.py DIR

writes docs/screenshots/kiosk-fasting-answer-WxH.png at each screen size clinics own (1920x1080,
1366x768, 1280x1024, portrait 1080x1920, 1024x768): the sentence-level extractive answer (no
model configured) with its citation, as a patient sees it after asking.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QCoreApplication, QDeadlineTimer, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from engine.events import Route  # noqa: E402
from engine.ops.service import build_backend  # noqa: E402
from engine.ops.settings import KioskSettings, Settings, load_settings  # noqa: E402
from kiosk_app import style  # noqa: E402
from kiosk_app.idle import FakeClock  # noqa: E402
from kiosk_app.window import KioskWindow  # noqa: E402

QUESTION = "How long do I need to fast before a blood test?"
SIZES = ((1920, 1080), (1366, 768), (1280, 1024), (1080, 1920), (1024, 768))
OUT = ROOT / "docs" / "screenshots"


def settle(app: QApplication, until=lambda: True, ms: int = 60000) -> None:
    deadline = QDeadlineTimer(ms)
    while not deadline.hasExpired():
        app.processEvents()
        QCoreApplication.sendPostedEvents()
        if until():
            break
    for _ in range(30):
        app.processEvents()


def main() -> int:
    data_dir = Path(sys.argv[1])
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    style.apply(app)
    settings = load_settings(None, data_dir).replace(kiosk=KioskSettings(fullscreen=False))
    for size in SIZES:
        shoot(app, settings, size)
    return 0


def shoot(app: QApplication, settings: Settings, size: tuple[int, int]) -> None:
    backend = build_backend(settings, audience="public", channel="kiosk")
    window = KioskWindow(backend, settings, clock=FakeClock(), router=lambda _q: Route.INFORMATION)
    window.setWindowFlag(Qt.WindowType.FramelessWindowHint)
    window.setGeometry(0, 0, *size)
    window.show()
    settle(app, lambda: not window.background_busy())
    window.welcome.input.edit.setText(QUESTION)
    QTest.mouseClick(
        window.welcome.input.button,
        Qt.MouseButton.LeftButton,
        pos=window.welcome.input.button.rect().center(),
    )

    def answered() -> bool:
        bubbles = window.chat.view.bubbles()
        return bool(bubbles) and not window.runner.is_running() and bool(bubbles[-1].text)

    settle(app, answered)
    settle(app, ms=500)
    OUT.mkdir(parents=True, exist_ok=True)
    out = OUT / f"kiosk-fasting-answer-{size[0]}x{size[1]}.png"
    window.grab().save(str(out))
    print(out)
    window.shutdown()
    window.close()
    window.deleteLater()  # gone before the next size's window is built
    settle(app, ms=300)


if __name__ == "__main__":
    raise SystemExit(main())
