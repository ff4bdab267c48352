"""Stream 2,000 tokens through the real AnswerRunner and chat widgets at full speed and report the
largest event-loop stall, measured as the biggest gap between ticks of a 10 ms QTimer.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/stream_stall.py [--tokens N]
        [--layout tall|square|short|portrait|all]
Target: largest stall under 33 ms (two frames at 60 Hz). ``--layout`` streams into a chat view
of the size and text scale the kiosk uses for that screen class (kiosk_app.layout); ``all`` runs
the four classes one after another. A short warm-up stream runs first and is not counted
(``--no-warm-up`` counts everything).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QObject, QTimer, Slot
from PySide6.QtWidgets import QApplication

from engine.events import DoneEvent, Outcome, Route, TokenEvent
from engine.qt.chat_view import ChatView
from engine.qt.worker import AnswerRunner

WORDS = [
    "the",
    "clinic",
    "opens",
    "at",
    "eight",
    "and",
    "closes",
    "at",
    "half",
    "past",
    "six",
    "on",
    "weekdays",
]


class Probe(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.last = time.perf_counter()
        self.gaps: list[float] = []

    @Slot()
    def tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append((now - self.last) * 1000)
        self.last = now


class Sink(QObject):
    def __init__(self, view: ChatView, app: QApplication) -> None:
        super().__init__()
        # As on the kiosk, the patient's question is on screen (in the same font) before the
        # answer streams under it.
        view.add_question("What time does the clinic open on weekdays?")
        self.bubble = view.add_answer("Searching the clinic's documents...")
        self.app = app
        self.batches = 0

    @Slot(str)
    def on_tokens(self, text: str) -> None:
        self.batches += 1
        self.bubble.append_text(text)

    @Slot(object)
    def on_done(self, _done: object) -> None:
        QTimer.singleShot(50, self.app.quit)


# The chat area of the kiosk window for each screen class (the window minus title, question box
# and folded keyboard), and the screen it stands for.
LAYOUT_VIEWS = {
    "tall": ((1870, 860), "1920x1080"),
    "square": ((1230, 800), "1280x1024"),
    "short": ((1318, 560), "1366x768"),
    "portrait": ((1030, 1700), "1080x1920"),
}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tokens", type=int, default=2000)
    parser.add_argument("--flush-ms", type=int, default=30)
    parser.add_argument("--layout", choices=[*LAYOUT_VIEWS, "all"], default=None)
    parser.add_argument("--no-warm-up", action="store_true", help="count the first stream too")
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    if not args.no_warm_up:
        # The process's first stream pays one-off costs (the first worker thread, Qt's text
        # layout and glyph caches): a running kiosk has paid them long before. Not counted.
        print("--- warm-up stream (not counted)")
        run(app, argparse.Namespace(**{**vars(args), "tokens": 200}), (800, 600), 2.0)
    if args.layout is None:
        return run(app, args, (1600, 800), 2.3)
    from kiosk_app.layout import CLASSES

    scales = {m.name: m.chat_scale for m in CLASSES}
    names = list(LAYOUT_VIEWS) if args.layout == "all" else [args.layout]
    codes = []
    for name in names:
        size, screen = LAYOUT_VIEWS[name]
        print(f"--- layout {name} ({screen}), chat scale {scales[name]}")
        codes.append(run(app, args, size, scales[name]))
    return max(codes)


def run(app: QApplication, args: argparse.Namespace, size: tuple[int, int], scale: float) -> int:
    view = ChatView(font_scale=scale, touch=True)  # as the kiosk builds it
    view.resize(*size)
    view.show()
    tokens = [WORDS[i % len(WORDS)] + " " for i in range(args.tokens)]
    events = [TokenEvent(t) for t in tokens]
    events.append(DoneEvent("".join(tokens), Route.INFORMATION, Outcome.ANSWERED))
    runner = AnswerRunner(flush_ms=args.flush_ms)
    sink = Sink(view, app)
    runner.tokens.connect(sink.on_tokens)
    runner.finished.connect(sink.on_done)
    probe = Probe()
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(probe.tick)
    timer.start()
    started = time.perf_counter()
    # Let the window settle first: only gaps while the answer streams are counted.
    QTimer.singleShot(300, lambda: probe.gaps.clear())
    QTimer.singleShot(300, lambda: runner.start(lambda: iter(events)))
    app.exec()
    elapsed = time.perf_counter() - started
    runner.shutdown()
    gaps = sorted(probe.gaps)
    worst = gaps[-1] if gaps else 0.0
    p95 = gaps[int(len(gaps) * 0.95)] if gaps else 0.0
    print(f"tokens streamed      {args.tokens}")
    print(f"flush interval       {args.flush_ms} ms")
    print(f"widget updates       {sink.batches}")
    print(f"wall time            {elapsed * 1000:.0f} ms")
    print(f"timer ticks          {len(gaps)}")
    print(f"p95 tick gap         {p95:.1f} ms")
    print(f"largest stall        {worst:.1f} ms  (target < 33 ms)")
    ok = sink.bubble.text == "".join(tokens)
    print(f"text complete        {ok}")
    view.hide()
    view.deleteLater()
    return 0 if ok and worst < 33 else 1


if __name__ == "__main__":
    raise SystemExit(main())
