"""Appointment references people can read aloud over the phone: ``CL-`` and six characters.

The alphabet leaves out 0, O, 1, I and L so nobody has to ask "was that an oh or a zero?".
This module only makes and normalises references; uniqueness is the database's job.
"""

from __future__ import annotations

import re
import secrets

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
PREFIX = "CL-"
LENGTH = 6

_PATTERN = re.compile(rf"^(?:CL-?)?([{ALPHABET}]{{{LENGTH}}})$")


def new_reference() -> str:
    """A fresh random reference such as ``CL-7KQ2XM``."""
    return PREFIX + "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalise_reference(text: str) -> str | None:
    """``"cl-7kq2xm"``, ``"CL 7KQ2XM"`` or ``"7kq2xm"`` -> ``"CL-7KQ2XM"``; else None."""
    compact = re.sub(r"\s+", "", text).upper()
    match = _PATTERN.match(compact)
    return None if match is None else PREFIX + match.group(1)
