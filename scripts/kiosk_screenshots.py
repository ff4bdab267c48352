"""Take screenshots of the kiosk at the five screen sizes clinics buy (run under Xvfb).

    xvfb-run -s "-screen 0 1920x1920x24" .venv/bin/python scripts/kiosk_screenshots.py
writes docs/screenshots/kiosk-<W>x<H>-<step>.png for each size (1920x1080, 1366x768,
1280x1024, 1080x1920, 1024x768; ``--size 1366x768`` for one) and each step a patient goes
through: welcome, keyboard (typing), long-answer (a long cited answer from its top),
second-answer (a follow-up in the same session), passage-table (its source tapped: a passage
with a table, shown one line per row), emergency-keyboard (an emergency, then a tap on the question
box), unavailable (the database down, a question kept), pin (the staff PIN pad after a wrong PIN).
Answers carry "Read aloud" as on a kiosk with a voice (a silent stand-in: nothing is spoken).

``--real DATA_DIR`` answers with ``engine.ops.service.build_backend`` on a data folder that has the
sample knowledge ingested (extractive answers when no Ollama host is configured); without it a
scripted FakeBackend answers. Screenshots are saved as 8-bit palette PNGs when ImageMagick's
``convert`` is installed (a fifth of the size).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QCoreApplication, QDeadlineTimer, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

from engine.errors import DatabaseUnavailable  # noqa: E402
from engine.events import Citation, Route  # noqa: E402
from engine.ops.settings import KioskSettings, Settings  # noqa: E402
from kiosk_app import style  # noqa: E402
from kiosk_app.idle import FakeClock  # noqa: E402
from kiosk_app.window import KioskWindow  # noqa: E402
from tests.support.fake_backend import FakeBackend, cited_answer  # noqa: E402
from tests.support.fake_speech import FakeSpeech  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
SIZES = ((1920, 1080), (1366, 768), (1280, 1024), (1080, 1920), (1024, 768))
FIRST = "What should I bring to my appointment?"
SECOND = "Where can I park my car when I come to the clinic?"
HOURS = "What time does the building open on Saturday?"
EMERGENCY = "My husband has chest pain and is sweating"

FASTING = Citation(
    number=1,
    document_slug="blood-tests",
    document_title="Getting ready for a blood test",
    heading_path="Getting ready for a blood test > Fasting blood tests",
    text="Fasting blood tests (glucose, cholesterol) need 10 to 12 hours without food.",
    similarity=0.8,
)
PARKING = Citation(
    number=1,
    document_slug="parking",
    document_title="Parking, travel and accessibility",
    heading_path="Parking, travel and accessibility > Car park",
    text="The car park is behind the building, entrance on Mill Lane.",
    similarity=0.7,
)
OPENING_HOURS = Citation(
    number=1,
    document_slug="opening-hours-and-contact",
    document_title="Opening hours and contact",
    heading_path="Opening hours and contact > Opening hours",
    text=(
        "The building and the reception desk are open at these times:\n\n"
        "Day | Building open | Phone lines\nMonday | 8:00 to 18:30 | 8:00 to 18:30\n"
        "Tuesday | 8:00 to 20:00 | 8:00 to 18:30\nWednesday | 8:00 to 18:30 | 8:00 to 18:30\n"
        "Thursday | 8:00 to 20:00 | 8:00 to 18:30\nFriday | 8:00 to 18:30 | 8:00 to 18:30\n"
        "Saturday | 9:00 to 12:30 | closed\nSunday | closed | closed"
    ),
    similarity=0.7,
)
LONG = (
    "The clinic's documents say:\n\n"
    "- Fasting blood tests (glucose, cholesterol) need 10 to 12 hours without food. You may "
    "drink water, and you should take your usual medicines unless your doctor told you "
    "otherwise [1].\n"
    "- Book a morning appointment so that most of the fasting happens while you sleep [1].\n"
    "- Bring a snack to eat after the test, and tell the nurse if you have diabetes [1].\n"
    "- Results usually reach your doctor within five working days; the clinic does not give "
    "results over the phone [1].\n"
    "- If you feel faint while fasting, sit down and tell a member of staff straight away [1]."
)


def fake_backend() -> FakeBackend:
    return FakeBackend(
        scripts={
            FIRST: cited_answer(LONG, (FASTING,)),
            SECOND: cited_answer(
                "The car park is behind the building, entrance on Mill Lane. Blue badge bays "
                "are next to the main door [1].",
                (PARKING,),
            ),
            HOURS: cited_answer("Saturday | 9:00 to 12:30 | closed [1]", (OPENING_HOURS,)),
        },
        suggestions=[
            "Car park",
            "Opening hours",
            "What to bring to your appointment",
            "Fasting blood tests",
            "Fees for letters and forms",
            "Toilets and baby changing",
        ],
    )


def settle(app: QApplication, until=lambda: True, ms: int = 5000) -> None:
    deadline = QDeadlineTimer(ms)
    while not deadline.hasExpired():
        app.processEvents()
        QCoreApplication.sendPostedEvents()
        if until():
            break
    for _ in range(30):
        app.processEvents()


def router(question: str) -> Route | None:
    return Route.EMERGENCY if "chest pain" in question.lower() else Route.INFORMATION


def tap(app: QApplication, widget: QWidget) -> None:
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton, pos=widget.rect().center())
    settle(app)


def type_on_keys(
    app: QApplication,
    window: KioskWindow,
    text: str,
    press: Callable[[QApplication, QWidget], None] = tap,
) -> None:
    """Type as a patient would: one on-screen key at a time (``press`` taps one key)."""
    keys = window.keyboard
    for char in text:
        if char == " ":
            press(app, keys.space_key)
            continue
        if char.isupper():
            press(app, keys.shift_key)
        button = keys.letter_keys.get(char.lower())
        if button is not None:
            press(app, button)


def shoot(app: QApplication, window: KioskWindow, size: tuple[int, int], name: str) -> Path:
    settle(app)
    path = OUT / f"kiosk-{size[0]}x{size[1]}-{name}.png"
    window.grab().save(str(path))
    if shutil.which("convert"):
        subprocess.run(
            ["convert", str(path), "-colors", "256", "-strip", f"PNG8:{path}"], check=False
        )
    print(path)
    return path


def answered(window: KioskWindow) -> bool:
    bubbles = window.chat.view.bubbles()
    return bool(bubbles) and not window.runner.is_running() and bool(bubbles[-1].text)


def make(
    app: QApplication, backend, settings: Settings, size: tuple[int, int], real: bool = False
) -> KioskWindow:
    # The real engine routes with the real safety router (router=None: the window's default).
    from kiosk_app.main import check_in_backend, staff_caller

    window = KioskWindow(
        backend,
        settings,
        clock=FakeClock(),
        router=None if real else router,
        check_in=check_in_backend(backend, settings) if real else None,  # as clinic-kiosk does
        kiosk_name="kiosk:screenshots",
        # "Call staff" is on every real kiosk's screen; shown here too (not tapped).
        call_staff=staff_caller(backend, settings) if real else (lambda: None),
        speech=FakeSpeech(),
    )
    window.setWindowFlag(Qt.WindowType.FramelessWindowHint)
    window.setGeometry(0, 0, *size)
    window.show()
    settle(app, lambda: not window.background_busy(), ms=60000)
    return window


def session(
    app: QApplication, backend, settings: Settings, size: tuple[int, int], real: bool
) -> None:
    window = make(app, backend, settings, size, real)
    shoot(app, window, size, "welcome")
    tap(app, window.welcome.input.edit)
    type_on_keys(app, window, "How long do I")
    shoot(app, window, size, "keyboard")
    window.welcome.input.edit.setText(FIRST)
    tap(app, window.keyboard.enter_key)
    settle(app, lambda: answered(window), ms=60000)
    shoot(app, window, size, "long-answer")
    tap(app, window.chat.input.edit)
    window.chat.input.edit.setText(SECOND)
    tap(app, window.keyboard.enter_key)
    settle(app, lambda: answered(window), ms=60000)
    shoot(app, window, size, "second-answer")
    window.chat.input.edit.setText(HOURS)
    tap(app, window.chat.input.button)
    settle(app, lambda: answered(window), ms=60000)
    buttons = window.chat.view.bubbles()[-1].citation_buttons()
    if buttons:
        tap(app, buttons[0])
        shoot(app, window, size, "passage-table")
        tap(app, window.passage.close_button)
    window.chat.input.edit.setText(EMERGENCY)
    tap(app, window.chat.input.button)
    tap(app, window.chat.input.edit)  # the patient taps the question box again
    shoot(app, window, size, "emergency-keyboard")
    window.wipe()
    window.hotspot.long_pressed.emit()
    settle(app)
    for digit in "1357":
        tap(app, window.pin_pad.digit_buttons[digit])
    tap(app, window.pin_pad.ok_button)
    shoot(app, window, size, "pin")
    window.pin_pad.dismiss()
    window.shutdown()
    window.hide()
    window.deleteLater()

    down = FakeBackend(fail_after=0, stream_error=DatabaseUnavailable("the server stopped"))
    window = make(app, down, settings, size)
    window.welcome.input.edit.setText(SECOND)
    tap(app, window.welcome.input.button)
    down.database_up = False
    settle(app, lambda: window.stack.currentWidget() is window.unavailable)
    shoot(app, window, size, "unavailable")
    window.shutdown()
    window.hide()
    window.deleteLater()
    settle(app)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--real", type=Path, metavar="DATA_DIR", help="use the real engine")
    parser.add_argument("--size", help="one size, e.g. 1366x768")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    style.apply(app)
    sizes = SIZES
    if args.size:
        width, height = (int(x) for x in args.size.lower().split("x"))
        sizes = ((width, height),)
    if args.real is not None:
        from engine.ops.service import build_backend
        from engine.ops.settings import load_settings

        settings = load_settings(None, args.real)
        settings = settings.replace(kiosk=KioskSettings(fullscreen=False))
        backend = build_backend(settings, audience="public", channel="kiosk")
    else:
        settings = Settings(
            data_dir=Path(tempfile.mkdtemp()), kiosk=KioskSettings(fullscreen=False)
        )
        backend = fake_backend()
    for size in sizes:
        session(app, backend, settings, size, args.real is not None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
