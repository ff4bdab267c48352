"""Screenshot: the kiosk streaming an answer from an OpenAI-compatible server (run under Xvfb).

    CLINIC_GENERATION_BACKEND=openai CLINIC_OPENAI_BASE_URL=http://127.0.0.1:8102/v1 \\
    CLINIC_OPENAI_MODEL=smollm2-135m-instruct-q4_1 \\
    xvfb-run -s "-screen 0 1920x1080x24" .venv/bin/python scripts/kiosk_openai_screenshot.py \\
        --data-dir DIR [--question "..."]

Uses the real engine (``engine.ops.service.build_backend``) on a data folder with the sample
knowledge ingested, and the real Qt worker; the picture is taken while the tokens are arriving
(the answer is still being written), then a second one when the answer is final. Writes
docs/screenshots/kiosk-openai-backend-1920x1080.png (and ...-final.png).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kiosk_screenshots import OUT, make, settle, tap  # type: ignore[import-not-found]
from PySide6.QtWidgets import QApplication

from engine.ops.service import build_backend
from engine.ops.settings import KioskSettings, load_settings
from kiosk_app import style

SIZE = (1920, 1080)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--question", default="What should I bring to my first appointment?")
    parser.add_argument("--min-chars", type=int, default=120, help="streamed before the shot")
    args = parser.parse_args()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    style.apply(app)
    settings = load_settings(None, args.data_dir)
    if settings.generation.backend != "openai":
        parser.error("set CLINIC_GENERATION_BACKEND=openai and the server variables")
    settings = settings.replace(kiosk=KioskSettings(fullscreen=False))
    backend = build_backend(settings, audience="public", channel="kiosk")
    window = make(app, backend, settings, SIZE, real=True)
    window.welcome.input.edit.setText(args.question)
    tap(app, window.keyboard.enter_key)

    def streaming() -> bool:
        bubbles = window.chat.view.bubbles()
        return (
            bool(bubbles) and window.runner.is_running() and len(bubbles[-1].text) >= args.min_chars
        )

    settle(app, streaming, ms=600_000)
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"kiosk-openai-backend-{SIZE[0]}x{SIZE[1]}.png"
    window.grab().save(str(path))
    print(path, "streaming" if window.runner.is_running() else "finished")
    settle(app, lambda: not window.runner.is_running(), ms=600_000)
    final = OUT / f"kiosk-openai-backend-{SIZE[0]}x{SIZE[1]}-final.png"
    window.grab().save(str(final))
    print(final)
    window.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
