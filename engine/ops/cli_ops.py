"""Operations subcommands for IT: ``clinic-assistant doctor``.

:func:`register` adds the subcommands to the CLI's parser and returns their handlers;
``engine.ops.cli`` wires them in. Handlers print plain lines and return an exit code; they never
change the database.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from engine.ops.settings import Settings

Handler = Callable[[argparse.Namespace, Settings], int]


def cmd_doctor(args: argparse.Namespace, settings: Settings) -> int:
    """Print one line per health check; exit 1 when anything stops answering."""
    from engine.ops.doctor import run_checks
    from engine.ops.doctor.report import healthy, report_lines

    checks = run_checks(settings)
    for line in report_lines(checks):
        print(line)
    if healthy(checks):
        warnings = sum(1 for c in checks if not c.ok)
        print(f"\nReady to answer{f' ({warnings} warning(s))' if warnings else ''}.")
        return 0
    print("\nNot ready: fix the FAIL lines above, then run 'clinic-assistant doctor' again.")
    return 1


def register(sub: argparse._SubParsersAction[Any]) -> dict[str, Handler]:
    """Add the operations subcommands to ``sub``; return ``{command name: handler}``."""
    sub.add_parser(
        "doctor",
        help="check config, database, embedding model, Ollama and logs",
        description="Health checks for this machine. Exit status 1 if answering is blocked.",
    )
    return {"doctor": cmd_doctor}
