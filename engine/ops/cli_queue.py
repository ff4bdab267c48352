"""Waiting-room subcommands for IT and tests: ``clinic-assistant queue list|check-in|call|...``.

:func:`register` adds ``queue`` and its actions to the CLI's parser and returns the handler;
``engine.ops.cli`` wires it in. Each action is one call on
:class:`engine.frontdesk.waiting_queue.QueueService` and prints plain lines; errors are the engine's
sentences (exit 2 through the CLI's handler). Patient names are printed only by ``queue list``,
which is a staff tool like the desk's Queue tab.
"""

from __future__ import annotations

import argparse
import getpass
from collections.abc import Callable
from datetime import date
from typing import Any

from engine.errors import ValidationError
from engine.ops.settings import Settings

Handler = Callable[[argparse.Namespace, Settings], int]


def _service(settings: Settings) -> Any:
    from engine.frontdesk.waiting_queue import QueueService
    from engine.ops.db import open_database

    return QueueService(open_database(settings), settings.queue)


def _user(args: argparse.Namespace) -> str:
    return str(args.user or f"cli:{getpass.getuser()}")


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValidationError(f"--dob must be a date like 1961-04-09, not {text!r}.") from None


def _line(item: Any) -> str:
    due = f"{item.appointment_at:%H:%M}" if item.appointment_at else "walk-in"
    room = f" -> {item.room}" if item.room else ""
    late = " LATE" if item.late else ""
    who = item.clinician or item.department
    return (
        f"#{item.entry_id:<5} ticket {item.ticket:<3} {item.state:<15} {due:<7} "
        f"arrived {item.arrived_at:%H:%M}  {item.patient} ({who}){room}{late}"
    )


def cmd_queue(args: argparse.Namespace, settings: Settings) -> int:
    queue = _service(settings)
    try:
        return _run(queue, args)
    finally:
        queue.db.dispose()


def _run(queue: Any, args: argparse.Namespace) -> int:
    action = args.queue_command
    if action == "list":
        items = queue.entries(department=args.service, open_only=not args.all)
        for item in items:
            print(_line(item))
        summary = queue.summary()
        median = (
            f"{summary.median_wait_minutes} min" if summary.median_wait_minutes is not None else "-"
        )
        print(
            f"{len(items)} listed. Today: {summary.arrived} arrived, {summary.seen} seen, "
            f"{summary.no_shows} no-shows, {summary.waiting} waiting, median wait {median}."
        )
        return 0
    if action == "check-in":
        if args.reference:
            result = queue.check_in_at_desk(args.reference, _user(args))
        else:
            if not (args.dob and args.initial):
                raise ValidationError("Give --reference, or both --dob and --initial.")
            result = queue.check_in(
                _user(args), date_of_birth=_date(args.dob), initial=args.initial, confirm=True
            )
        if result.status not in ("checked_in", "already"):
            print(f"Not checked in: {result.status.replace('_', ' ')}.")
            return 1
        late = " (late: reception is told)" if result.late else ""
        print(
            f"Checked in: ticket {result.ticket}, {result.department}, "
            f"{result.starts_at:%H:%M}{late}."
        )
        return 0
    entry = args.id
    user = _user(args)
    if action == "call":
        item = queue.call(entry, args.room, user)
    elif action == "start":
        item = queue.start(entry, user)
    elif action == "done":
        item = queue.finish(entry, user)
    elif action == "no-show":
        item = queue.no_show(entry, user)
    else:  # pragma: no cover - argparse restricts the choices
        raise ValidationError(f"unknown queue action {action!r}")
    print(_line(item))
    return 0


def cmd_walk_in(args: argparse.Namespace, settings: Settings) -> int:
    queue = _service(settings)
    try:
        item = queue.walk_in(args.service, _user(args), name=args.name or "")
    finally:
        queue.db.dispose()
    print(_line(item))
    return 0


def register(sub: argparse._SubParsersAction[Any]) -> dict[str, Handler]:
    """Add ``queue`` to ``sub``; return ``{command name: handler}``."""
    queue = sub.add_parser("queue", help="today's waiting room: list, check in, call, done")
    actions = queue.add_subparsers(dest="queue_command", required=True)
    listing = actions.add_parser("list", help="who is waiting (names: staff only)")
    listing.add_argument("--service", help="only this department (part of its name)")
    listing.add_argument("--all", action="store_true", help="include done and no-shows")
    check_in = actions.add_parser("check-in", help="check a patient in for today")
    check_in.add_argument("--reference", help="booking reference, e.g. CL-7KQ2XM")
    check_in.add_argument("--dob", help="date of birth, YYYY-MM-DD")
    check_in.add_argument("--initial", help="first letter of the surname")
    for name, text in (
        ("call", "call a ticket to a room"),
        ("start", "mark in consultation"),
        ("done", "mark done"),
        ("no-show", "mark a no-show"),
    ):
        action = actions.add_parser(name, help=text)
        action.add_argument("id", type=int, help="queue entry number (# in 'queue list')")
        if name == "call":
            action.add_argument("--room", required=True, help="e.g. 'Room 3'")
    walk_in = actions.add_parser("walk-in", help="add a walk-in for a department")
    walk_in.add_argument("service", help="department (part of its name), e.g. physio")
    walk_in.add_argument("--name", help="the walk-in's name (optional)")
    for parser in (queue, *actions.choices.values()):
        parser.add_argument("--user", help="who is acting (default: cli:<login name>)")
    return {"queue": _dispatch}


def _dispatch(args: argparse.Namespace, settings: Settings) -> int:
    if args.queue_command == "walk-in":
        return cmd_walk_in(args, settings)
    return cmd_queue(args, settings)
