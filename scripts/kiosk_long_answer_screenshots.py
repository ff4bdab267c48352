"""Long answers on the real engine, paged through with "More below" as a patient does.

    .venv/bin/python scripts/kiosk_long_answer_screenshots.py DATA_DIR [--size 1366x768]

DATA_DIR is a data folder with the sample knowledge ingested (extractive answers). For each of the
five sizes (1920x1080, 1366x768, 1280x1024, 1080x1920, 1024x768) the script starts its own X
server (Debian's Xvfb) at exactly that size with matchbox-window-manager on it, and runs itself
there: every tap is a real pointer click through the X server (xdotool), in one session. The
patient asks "How do I prepare for a colonoscopy?", then "What should I bring to my
appointment?" (tapping the question box, typing on the on-screen keys, tapping Ask), and after
each answer taps "More below" until it goes. Where every answer fits (portrait), the patient taps
A+ until it no longer does, and pages through that. The screen is read back from the X server
after each answer and each tap (``--pages DIR`` keeps them all, to look at); a page from the
middle of the longest answer is docs/screenshots/kiosk-<W>x<H>-long-answer-scrolled.png (8-bit
palette when ImageMagick's ``convert`` is installed). Needs ``apt-get install xvfb
matchbox-window-manager xdotool``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QDeadlineTimer, QPoint  # noqa: E402
from PySide6.QtGui import QPixmap  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

import scripts.kiosk_screenshots as shots  # noqa: E402
from engine.ops.service import build_backend  # noqa: E402
from engine.ops.settings import KioskSettings, load_settings  # noqa: E402
from kiosk_app import style  # noqa: E402
from kiosk_app.window import KioskWindow  # noqa: E402

QUESTIONS = ("How do I prepare for a colonoscopy?", "What should I bring to my appointment?")
MAX_PAGES = 30


def wait(app: QApplication, ms: int) -> None:
    """Run the event loop for ``ms`` (X input arrives through it)."""
    deadline = QDeadlineTimer(ms)
    while not deadline.hasExpired():
        app.processEvents()
        time.sleep(0.01)


def click(app: QApplication, widget: QWidget) -> None:
    """A real click at the widget's centre: the pointer moves there and presses, through X."""
    centre = widget.mapToGlobal(widget.rect().center())
    subprocess.run(
        ["xdotool", "mousemove", "--sync", str(centre.x()), str(centre.y()), "click", "1"],
        check=True,
    )
    wait(app, 250)


def screen(app: QApplication) -> QPixmap:
    """What the X server shows (the root window), not what the widgets would draw."""
    return app.primaryScreen().grabWindow(0)


def save(pixmap: QPixmap, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pixmap.save(str(path))
    if shutil.which("convert"):
        subprocess.run(
            ["convert", str(path), "-colors", "256", "-strip", f"PNG8:{path}"], check=False
        )
    print(path)


def open_kiosk(data_dir: Path, size: tuple[int, int]) -> tuple[QApplication, KioskWindow]:
    """The kiosk window on the real engine over ``data_dir``, placed by the window manager."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    style.apply(app)
    settings = load_settings(None, data_dir).replace(kiosk=KioskSettings(fullscreen=False))
    backend = build_backend(settings, audience="public", channel="kiosk")
    window = shots.make(app, backend, settings, size, real=True)
    wait(app, 1500)  # the window manager has placed the window
    return app, window


def session(data_dir: Path, size: tuple[int, int], pages_dir: Path | None) -> int:
    app, window = open_kiosk(data_dir, size)
    where = window.mapToGlobal(QPoint(0, 0))
    print(f"window at {where.x()},{where.y()} {window.width()}x{window.height()}")
    name = f"{size[0]}x{size[1]}"
    longest: list[QPixmap] = []
    for number, question in enumerate(QUESTIONS, 1):
        box = window.welcome.input if number == 1 else window.chat.input
        click(app, box.edit)
        shots.type_on_keys(app, window, question, press=click)
        click(app, window.keyboard.enter_key)
        shots.settle(app, lambda: shots.answered(window), ms=60000)
        wait(app, 500)
        pages = page_through(app, window, f"{name} answer {number}", pages_dir)
        longest = pages if len(pages) >= len(longest) else longest  # a tie: the later one
    if len(longest) == 1:  # it all fits (portrait): the patient makes the text larger
        while window.chat.more_below.isHidden() and window.chat.larger_button.isEnabled():
            click(app, window.chat.larger_button)
        longest = page_through(app, window, f"{name} larger text", pages_dir)
    if len(longest) > 1:  # a page from the middle of the longest answer
        save(longest[(len(longest) - 1) // 2], shots.OUT / f"kiosk-{name}-long-answer-scrolled.png")
    window.shutdown()
    return 1 if window.chat.more_below.isVisible() else 0


def page_through(
    app: QApplication, window: KioskWindow, title: str, pages_dir: Path | None
) -> list[QPixmap]:
    """The screen as shown, then after each tap on "More below" until it goes."""
    shown = [screen(app)]
    button = window.chat.more_below
    while button.isVisible() and len(shown) <= MAX_PAGES:
        click(app, button)
        wait(app, 300)
        shown.append(screen(app))
    print(f"{title}: {len(shown) - 1} taps on More below, then gone: {button.isHidden()}")
    if pages_dir is not None:
        stem = title.replace(" ", "-")
        for index, pixmap in enumerate(shown):
            save(pixmap, pages_dir / f"kiosk-{stem}-page-{index}.png")
    return shown


def on_own_display(
    args: argparse.Namespace,
    size: tuple[int, int],
    number: int,
    script: str = __file__,
    extra: Sequence[str] = (),
) -> int:
    """Xvfb at exactly ``size`` with matchbox managing it, and ``script`` (this one unless
    another screenshot script says) run on it with ``--here`` (and ``extra`` arguments)."""
    display = f":{number}"
    xvfb = subprocess.Popen(
        ["Xvfb", display, "-screen", "0", f"{size[0]}x{size[1]}x24", "-nolisten", "tcp"]
    )
    socket = Path(f"/tmp/.X11-unix/X{number}")
    deadline = time.monotonic() + 10
    while not socket.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb"}
    manager = subprocess.Popen(["matchbox-window-manager", "-use_titlebar", "no"], env=env)
    command = [sys.executable, script, str(args.data_dir), "--here", f"{size[0]}x{size[1]}"]
    if args.pages is not None:
        command += ["--pages", str(args.pages)]
    command += list(extra)
    try:
        return subprocess.run(command, env=env, check=False).returncode
    finally:
        for process in (manager, xvfb):
            process.terminate()
            process.wait(timeout=10)


def parse_size(text: str) -> tuple[int, int]:
    width, height = (int(x) for x in text.lower().split("x"))
    return width, height


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("--size", help="one size, e.g. 1366x768")
    parser.add_argument("--pages", type=Path, help="also keep every page shown, in this folder")
    parser.add_argument("--here", help=argparse.SUPPRESS)  # run on $DISPLAY at this size
    args = parser.parse_args()
    if args.here:
        return session(args.data_dir, parse_size(args.here), args.pages)
    sizes = (parse_size(args.size),) if args.size else shots.SIZES
    failed = 0
    for index, size in enumerate(sizes):
        failed |= on_own_display(args, size, 90 + index)
    return failed


if __name__ == "__main__":
    raise SystemExit(main())
