"""Take screenshots of the kiosk at 1920x1080 (run under Xvfb).

Default mode, with the scripted FakeBackend:
    xvfb-run -s "-screen 0 1920x1080x24" .venv/bin/python scripts/kiosk_screenshots.py
writes docs/screenshots/kiosk-*.png: welcome, streamed cited answer, emergency banner,
idle warning, unavailable screen, passage viewer.

Real mode, with ``engine.service.build_backend`` on a data folder that has the sample knowledge
ingested (extractive answers when no Ollama host is configured):
    D=$(mktemp -d /tmp/kiosk.XXXX); chmod 755 $D
    .venv/bin/clinic-assistant --data-dir $D/data ingest knowledge
    xvfb-run -s "-screen 0 1920x1080x24" .venv/bin/python scripts/kiosk_screenshots.py \
        --real $D/data
writes kiosk-real-*.png: welcome (topics from the documents), a long extractive answer, the same
answer scrolled to its sources, the passage viewer, "I don't know", a clinical refusal and the
emergency banner.
"""

from __future__ import annotations

import argparse
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


def last_answer_done(window: KioskWindow) -> bool:
    bubbles = window.chat.view.bubbles()
    return bool(bubbles) and not window.runner.is_running() and bool(bubbles[-1].text)


def real(app: QApplication, data_dir: Path) -> int:
    from engine.service import build_backend
    from engine.settings import load_settings

    settings = load_settings(None, data_dir)
    settings = settings.replace(kiosk=KioskSettings(fullscreen=False))
    backend = build_backend(settings, audience="public", channel="kiosk")
    window = KioskWindow(backend, settings, clock=FakeClock())
    window.setWindowFlag(Qt.WindowType.FramelessWindowHint)
    window.setGeometry(0, 0, 1920, 1080)
    window.show()
    settle(app, lambda: not window.background_busy(), ms=60000)
    shoot(window, "real-welcome")

    def ask(question: str) -> None:
        window.wipe()
        settle(app)
        window.ask(question)
        settle(app, lambda: last_answer_done(window), ms=60000)

    ask("How long do I need to fast before a blood test?")
    shoot(window, "real-long-answer")
    bar = window.chat.view.verticalScrollBar()
    bar.setValue(bar.maximum())
    settle(app)
    shoot(window, "real-long-answer-sources")
    window.chat.view.bubbles()[-1].citation_buttons()[0].click()
    settle(app)
    shoot(window, "real-passage")
    window.passage.close_passage()

    ask("Do you have a gym?")
    shoot(window, "real-dont-know")
    ask("Should I stop my warfarin before my colonoscopy?")
    shoot(window, "real-clinical")
    ask("my husband has chest pain")
    shoot(window, "real-emergency")
    window.shutdown()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--real", type=Path, metavar="DATA_DIR", help="use the real engine")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    style.apply(app)
    if args.real is not None:
        return real(app, args.real)
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
