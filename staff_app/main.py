"""``clinic-staff``: start the front-desk staff app (sign in, then the tabbed window).

Sets the QSettings organisation and application names (window geometry only), installs the
exception hooks (log + one sentence on screen, never a traceback), and builds the real engine
services lazily (one database, one embedder). Signing out returns to the sign-in dialog.
``--smoke-test --data-dir DIR`` runs ``engine.ops.smoke.run_smoke_test`` on the staff channel and
exits with its status, without opening a window (the frozen build is checked with it).
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, QSettings
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

from engine.errors import ClinicError
from engine.ops.logs import configure_logging, install_excepthooks, remove_logging
from engine.ops.preflight import check_start
from engine.ops.settings import APP_AUTHOR, APP_NAME, Settings, load_settings
from staff_app.errors import describe
from staff_app.login_dialog import LoginDialog
from staff_app.services import StaffServices, build_services
from staff_app.window import StaffWindow

log = logging.getLogger("staff_app")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="clinic-staff", description="Clinic Assistant: front desk"
    )
    parser.add_argument("--data-dir", help="folder for every file the product writes")
    parser.add_argument("--config", help="the TOML configuration file")
    parser.add_argument(
        "--smoke-test",
        action="store_true",
        help="ingest the sample documents, answer one question extractively, exit 0 if cited",
    )
    return parser


def run_session(window: StaffWindow, services: StaffServices) -> bool:
    """Show the sign-in dialog; on success start the window's session. False when cancelled."""
    dialog = LoginDialog(services.users, window.tasks, notice=window.sign_out_notice)
    window.sign_out_notice = ""
    if dialog.exec() != QDialog.DialogCode.Accepted or dialog.user is None:
        return False
    window.sign_in(dialog.user)
    window.show()
    return True


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(list(argv) if argv is not None else None)
    try:
        settings = load_settings(config_file=args.config, data_dir=args.data_dir)
        check_start(settings)  # writable data folder, well-formed DSN: else one sentence
    except ClinicError as error:
        print(describe(error), file=sys.stderr)
        return 2
    configure_logging(settings, "staff")
    try:
        return _main(args, settings)
    finally:
        remove_logging()


def _main(args: argparse.Namespace, settings: Settings) -> int:
    if args.smoke_test:
        from engine.ops.smoke import run_staff_smoke_test

        try:
            return run_staff_smoke_test(settings)
        except ClinicError as error:
            print(f"SMOKE TEST FAILED: {describe(error)}", file=sys.stderr)
            return 1
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName(APP_AUTHOR)
    app.setApplicationName(f"{APP_NAME}-staff")

    def show_error(error: BaseException) -> None:
        QMessageBox.warning(None, "Clinic Assistant", describe(error))

    install_excepthooks(show_error)

    services = build_services(settings)
    try:
        return _run(app, services)
    finally:
        if services.close is not None:
            services.close()


def _run(app: QCoreApplication, services: StaffServices) -> int:
    window = StaffWindow(services, QSettings())

    def on_signed_out() -> None:
        window.hide()
        if not run_session(window, services):
            window.close()
            app.quit()

    window.signed_out.connect(on_signed_out)
    if not run_session(window, services):
        window.shutdown()
        return 0
    code = app.exec()
    window.shutdown()
    return int(code)


if __name__ == "__main__":
    raise SystemExit(main())
