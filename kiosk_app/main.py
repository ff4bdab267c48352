"""``clinic-kiosk``: start the public touch kiosk (full screen, locked down).

Builds the public backend through ``engine.ops.service.build_backend(settings, audience="public")``
(imported lazily) and hands it to the window. The kiosk never chooses another audience.
``--smoke-test`` answers one question, checks in and hears a live queue update, and quits (used to
check frozen builds).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from engine.errors import ClinicError
from engine.events import DoneEvent
from engine.ops.logs import configure_logging, install_excepthooks, remove_logging
from engine.ops.preflight import check_start
from engine.ops.settings import KioskSettings, Settings, load_settings
from engine.protocols import AssistantBackend

log = logging.getLogger("kiosk_app")

BackendFactory = Callable[[Settings], AssistantBackend]
DEFAULT_PIN = KioskSettings().exit_pin


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="clinic-kiosk", description=__doc__)
    parser.add_argument("--data-dir", help="folder for every file the product writes")
    parser.add_argument("--config", help="the TOML configuration file")
    parser.add_argument("--windowed", action="store_true", help="not full screen (development)")
    parser.add_argument(
        "--smoke-test", action="store_true", help="answer one question, print it and quit"
    )
    parser.add_argument(
        "--display",
        action="store_true",
        help="the waiting-room board for a TV: called tickets and rooms, never names",
    )
    parser.add_argument(
        "--allow-default-pin",
        action="store_true",
        help="start full screen even with the shipped exit PIN (demonstrations only)",
    )
    return parser


DEFAULT_PIN_REFUSED = (
    "The kiosk's exit PIN is still the shipped default, which anyone can look up. Set "
    "[kiosk] exit_pin (or CLINIC_KIOSK_PIN) to the clinic's own PIN, or pass "
    "--allow-default-pin for a demonstration."
)


def public_backend(settings: Settings) -> AssistantBackend:
    from engine.ops.service import build_backend  # type: ignore[import-not-found,unused-ignore]

    backend: AssistantBackend = build_backend(settings, audience="public")
    return backend


def main(argv: Sequence[str] | None = None, backend_factory: BackendFactory | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["--speech-probe"]:  # the frozen kiosk's own "Read aloud" voice check
        from kiosk_app.speech import probe_main

        return probe_main()
    args = build_parser().parse_args(argv)
    try:
        settings = load_settings(args.config, args.data_dir)
        check_start(settings)  # writable data folder, well-formed DSN: else one sentence
    except ClinicError as error:
        print(error, file=sys.stderr)
        return 2
    configure_logging(settings, "kiosk")
    try:
        return _run(args, settings, backend_factory or public_backend)
    finally:
        remove_logging()


def smoke_test(backend: AssistantBackend) -> int:
    """The smoke test on an injected backend (tests): one answer through the real worker."""
    from engine.ops.smoke import SMOKE_QUESTION, print_answer

    backend.check_database()
    return 0 if print_answer(SMOKE_QUESTION, answer_through_worker(backend, SMOKE_QUESTION)) else 1


def answer_through_worker(backend: AssistantBackend, question: str) -> DoneEvent | None:
    """One answer through the kiosk's real worker thread and signals (offscreen if no display)."""
    from PySide6.QtCore import QEventLoop

    from engine.qt.worker import AnswerRunner, describe_for_public

    app = QApplication.instance() or QApplication(sys.argv[:1])
    runner = AnswerRunner(describe=describe_for_public)
    result: list[DoneEvent] = []
    loop = QEventLoop()

    def done(event: DoneEvent) -> None:
        result.append(event)
        loop.quit()

    def failed(message: str, _error: object) -> None:
        print(f"smoke test: the answer failed: {message}")
        loop.quit()

    # The runner re-emits in the GUI thread, so these plain functions run there too.
    runner.finished.connect(done)
    runner.failed.connect(failed)
    QTimer.singleShot(120_000, loop.quit)
    runner.start(lambda: backend.answer(question))
    loop.exec()
    runner.shutdown(5000)
    del app
    return result[0] if result else None


def _run(args: argparse.Namespace, settings: Settings, factory: BackendFactory) -> int:
    backend_is_real = factory is public_backend
    try:
        backend = factory(settings)
    except ClinicError as error:
        log.error("The assistant could not start: %s", error)
        print(error, file=sys.stderr)
        return 1
    if args.smoke_test:
        try:
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # no screen needed
            if backend_is_real:
                from engine.ops.smoke import run_smoke_test

                return run_smoke_test(settings, channel="kiosk", run=answer_through_worker)
            return smoke_test(backend)
        except ClinicError as error:
            print(f"smoke test failed: {error}", file=sys.stderr)
            return 1

    if args.display:
        return _run_display(args, settings, backend)

    from kiosk_app import style
    from kiosk_app.speech import SpeechProbe
    from kiosk_app.window import KioskWindow

    fullscreen = settings.kiosk.fullscreen and not args.windowed
    if fullscreen and settings.kiosk.exit_pin == DEFAULT_PIN and not args.allow_default_pin:
        log.error("Refusing to start full screen with the shipped default exit PIN")
        print(DEFAULT_PIN_REFUSED, file=sys.stderr)
        return 2

    install_excepthooks()  # logged only: a kiosk never pops a dialog at a patient
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    style.apply(app)
    window = KioskWindow(
        backend,
        settings,
        check_in=check_in_backend(backend, settings),
        kiosk_name=kiosk_name(settings),
        call_staff=staff_caller(backend, settings),
    )
    # The voice is looked for in a child process (it can hang); the button comes when it is found.
    speech_probe = SpeechProbe(window)
    speech_probe.ready.connect(window.set_speech)
    speech_probe.start()
    if fullscreen:
        window.showFullScreen()
    else:
        window.resize(1280, 960)
        window.show()
    QTimer.singleShot(0, window.activateWindow)
    code = app.exec()
    speech_probe.stop()
    window.shutdown()
    return int(code)


def kiosk_name(settings: Settings) -> str:
    """How this kiosk is named in check-in audit lines and reception alerts (``[kiosk] name``,
    else the host name; the same name its database connection carries)."""
    from engine.frontdesk.alerts import kiosk_source

    return kiosk_source(settings)


def check_in_backend(backend: AssistantBackend, settings: Settings) -> Callable[[], Any] | None:
    """Self check-in through the kiosk's own database connection (its role only reaches the
    check-in functions); None for a backend without a database (fakes, tests)."""
    database = getattr(backend, "database", None)
    if not callable(database):
        return None
    made: list[Any] = []

    def queue() -> Any:
        from engine.frontdesk.waiting_queue import QueueService

        db = database()
        if not made or made[0].db is not db:
            made[:] = [QueueService(db, settings.queue)]
        return made[0]

    return queue


def staff_caller(backend: AssistantBackend, settings: Settings) -> Callable[[], object] | None:
    """The kiosk's "Call staff" (a quiet reception alert), through the kiosk's own role."""
    database = getattr(backend, "database", None)
    if not callable(database):
        return None
    name = kiosk_name(settings)

    def call() -> object:
        from engine.frontdesk.alerts import AlertService

        return AlertService(database()).call_staff(name)

    return call


def _run_display(args: argparse.Namespace, settings: Settings, backend: AssistantBackend) -> int:
    """The waiting-room board: read-only, so no exit PIN (it takes no input at all)."""
    from engine.frontdesk.queue_listener import QUEUE_CHANNEL
    from engine.frontdesk.waiting_queue import QueueService
    from engine.qt.live import LiveUpdates
    from kiosk_app.display_board import DisplayBoard

    database = getattr(backend, "database", None)
    if not callable(database):
        print("The display needs the clinic's database.", file=sys.stderr)
        return 2

    def load() -> list[object]:
        return list(QueueService(database(), settings.queue).called_tickets())

    install_excepthooks()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    board = DisplayBoard(settings.kiosk.clinic_name, load)
    live = LiveUpdates(lambda: str(database().url), (QUEUE_CHANNEL,))
    live.changed.connect(board.on_change)
    live.start()
    board.reload()
    if settings.kiosk.fullscreen and not args.windowed:
        board.showFullScreen()
    else:
        board.resize(1280, 720)
        board.show()
    code = app.exec()
    live.stop()
    board.shutdown()
    return int(code)


if __name__ == "__main__":
    raise SystemExit(main())
