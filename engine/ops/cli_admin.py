"""Admin subcommands for ``clinic-assistant``: staff accounts and the demo schedule.

``register(sub)`` adds ``users`` (add, disable, enable, reset-password, list) and ``seed-schedule``
to the main parser and returns their handlers. Passwords are read with getpass (asked twice), or
from the first line of standard input with ``--password-stdin`` for scripts; never from the command
line, where they would land in shell history and the process list.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from collections.abc import Callable
from datetime import date

from engine.errors import ValidationError
from engine.ops.settings import Settings
from engine.validation import clean_text

Handler = Callable[[argparse.Namespace, Settings], int]


def _read_password(args: argparse.Namespace) -> str:
    if args.password_stdin:
        line = sys.stdin.readline()
        password = line.rstrip("\r\n")
        if not password:
            raise ValidationError("No password was given on standard input.")
        return password
    first = getpass.getpass("New password: ")
    second = getpass.getpass("Repeat the password: ")
    if first != second:
        raise ValidationError("The two passwords do not match.")
    return first


ROLE_PASSWORD_VARIABLES = ("CLINIC_KIOSK_DB_PASSWORD", "CLINIC_STAFF_DB_PASSWORD")


def role_passwords(args: argparse.Namespace) -> tuple[str, str]:
    """The kiosk and staff database passwords for ``db init-roles``: from the environment
    (CLINIC_KIOSK_DB_PASSWORD, CLINIC_STAFF_DB_PASSWORD), two lines of standard input with
    ``--passwords-stdin``, or a prompt; never from the command line."""
    if getattr(args, "kiosk_password", None) or getattr(args, "staff_password", None):
        raise ValidationError(
            "Passwords on the command line are readable by every user of this computer and are no "
            "longer accepted; set CLINIC_KIOSK_DB_PASSWORD and CLINIC_STAFF_DB_PASSWORD, use "
            "--passwords-stdin, or answer the prompt (and change the password you just typed)."
        )
    if args.passwords_stdin:
        lines = [sys.stdin.readline().rstrip("\r\n") for _ in range(2)]
    elif all(os.environ.get(name) for name in ROLE_PASSWORD_VARIABLES):
        lines = [os.environ[name] for name in ROLE_PASSWORD_VARIABLES]
    else:
        lines = [
            getpass.getpass(f"Password for the {role} database role: ")
            for role in ("kiosk", "staff")
        ]
    for role, password in zip(("kiosk", "staff"), lines, strict=True):
        if not password:
            raise ValidationError(f"No password was given for the {role} database role.")
        clean_text(password, f"The {role} role password")
    return lines[0], lines[1]


def cmd_users(args: argparse.Namespace, settings: Settings) -> int:
    from engine.frontdesk.users import UserService, check_password_policy
    from engine.ops.db import open_database

    if args.users_command in ("add", "reset-password"):
        password = _read_password(args)
        check_password_policy(password, args.username)  # before touching the database
    db = open_database(settings)
    try:
        service = UserService(db)
        if args.users_command == "add":
            user = service.add(args.username, password, args.display_name, by=args.by)
            print(f"Added staff account {user.username} ({user.display_name}).")
        elif args.users_command == "disable":
            service.disable(args.username, by=args.by)
            print(f"Disabled staff account {args.username.strip().lower()}.")
        elif args.users_command == "enable":
            service.enable(args.username, by=args.by)
            print(f"Enabled staff account {args.username.strip().lower()} (lockout cleared).")
        elif args.users_command == "reset-password":
            service.reset_password(args.username, password, by=args.by)
            print(f"Password reset for {args.username.strip().lower()}.")
        else:
            accounts = service.list()
            if not accounts:
                print("No staff accounts yet. Add one with: clinic-assistant users add NAME")
            width = max((len(u.username) for u in accounts), default=0)
            for u in accounts:
                state = "active" if u.is_active else "disabled"
                print(f"{u.username:<{width}}  {state:<8}  {u.display_name}")
    finally:
        db.dispose()
    return 0


def cmd_seed_schedule(args: argparse.Namespace, settings: Settings) -> int:
    from engine.frontdesk.booking import seed_schedule
    from engine.ops.db import open_database

    start = date.today() if args.start is None else args.start
    db = open_database(settings)
    try:
        created = seed_schedule(db, start, weeks=args.weeks)
    finally:
        db.dispose()
    if created:
        print(f"Created {created} slots over {args.weeks} weeks from {start.isoformat()}.")
    else:
        print(f"The schedule from {start.isoformat()} already exists; nothing was added.")
    return 0


def _iso_date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date like 2030-06-03") from None


def _weeks(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 26:
        raise argparse.ArgumentTypeError("weeks must be a whole number from 1 to 26")
    return int(text)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> dict[str, Handler]:
    """Add the admin subcommands to ``sub``; returns {command name: handler}."""
    users = sub.add_parser(
        "users", help="staff accounts: add, disable, enable, reset-password, list"
    )
    users_sub = users.add_subparsers(dest="users_command", required=True)

    def account(name: str, help_text: str, password: bool) -> argparse.ArgumentParser:
        parser = users_sub.add_parser(name, help=help_text)
        parser.add_argument("username")
        parser.add_argument("--by", default="cli", help="name recorded in the audit log")
        if password:
            parser.add_argument(
                "--password-stdin",
                action="store_true",
                help="read the password from the first line of standard input",
            )
        return parser

    add = account("add", "add a staff account", password=True)
    add.add_argument("--display-name", default="", help="name shown in the staff app")
    account("disable", "disable a staff account (it can no longer sign in)", password=False)
    account("enable", "switch a disabled or locked-out account back on", password=False)
    account("reset-password", "set a new password for a staff account", password=True)
    users_sub.add_parser("list", help="list staff accounts")

    seed = sub.add_parser("seed-schedule", help="create a demonstration appointment schedule")
    seed.add_argument("--weeks", type=_weeks, default=3, help="how many weeks (default 3)")
    seed.add_argument("--start", type=_iso_date, help="first day, YYYY-MM-DD (default today)")
    return {"users": cmd_users, "seed-schedule": cmd_seed_schedule}
