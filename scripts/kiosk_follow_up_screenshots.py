"""Follow-up conversations on the real engine at the five kiosk sizes (run under Xvfb).

    xvfb-run -s "-screen 0 1920x1920x24" .venv/bin/python \
        scripts/kiosk_follow_up_screenshots.py DATA_DIR

DATA_DIR is a data folder with the sample knowledge ingested (extractive answers). Each
conversation is typed into the question box and sent with the on-screen Enter key, in one
session, as a patient does; the last answer is shot to
docs/screenshots/kiosk-<W>x<H>-follow-up-<name>.png: "Can I get them by text?" after a results
question, "And bank holidays?" after Saturday's hours, "Do I have to pay for that?" after the
interpreter service.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtWidgets import QApplication  # noqa: E402

import scripts.kiosk_screenshots as shots  # noqa: E402
from engine.ops.service import build_backend  # noqa: E402
from engine.ops.settings import KioskSettings, load_settings  # noqa: E402
from kiosk_app import style  # noqa: E402

CONVERSATIONS = (
    ("results", ("How do I get my blood test results?", "Can I get them by text?")),
    ("hours", ("When are you open on Saturday?", "And bank holidays?")),
    (
        "contact",
        (
            "What's your email address?",
            "Do you have an interpreter service?",
            "Do I have to pay for that?",
        ),
    ),
)


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    style.apply(app)
    settings = load_settings(None, Path(sys.argv[1]))
    settings = settings.replace(kiosk=KioskSettings(fullscreen=False))
    backend = build_backend(settings, audience="public", channel="kiosk")
    for size in shots.SIZES:
        for name, questions in CONVERSATIONS:
            window = shots.make(app, backend, settings, size, real=True)
            for index, question in enumerate(questions):
                box = window.welcome.input if index == 0 else window.chat.input
                shots.tap(app, box.edit)
                box.edit.setText(question)
                shots.tap(app, window.keyboard.enter_key)
                shots.settle(app, lambda window=window: shots.answered(window), ms=60000)
            shots.shoot(app, window, size, f"follow-up-{name}")
            window.shutdown()
            window.hide()
            window.deleteLater()
            shots.settle(app)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
