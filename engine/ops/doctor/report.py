"""What the doctor reports: one :class:`Check` per concern, the printout IT reads
(``OK|WARN|FAIL name: detail`` with a ``fix:`` hint) and the verdict (``healthy``: no blocking
check failed).

It must never run a check or decide what a check finds; it only holds and renders the findings.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    blocking: bool
    detail: str
    fix: str = ""

    @property
    def label(self) -> str:
        if self.ok:
            return "OK"
        return "FAIL" if self.blocking else "WARN"


def report_lines(checks: list[Check]) -> list[str]:
    """The doctor's printout: ``OK|WARN|FAIL name: detail`` and an indented ``fix:`` hint."""
    lines: list[str] = []
    for check in checks:
        lines.append(f"{check.label:<4} {check.name}: {check.detail}")
        if not check.ok and check.fix:
            lines.append(f"     fix: {check.fix}")
    return lines


def healthy(checks: list[Check]) -> bool:
    """True unless a blocking check failed."""
    return not any(c.blocking and not c.ok for c in checks)
