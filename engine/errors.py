"""User-safe errors.

Every exception here carries a message that may be shown to a person as it is. Each app turns
them into its own words in one place (calm and short on the kiosk, detailed on the staff desk).
Never put a traceback, a DSN with a password or a patient's details into these messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class ClinicError(Exception):
    """Base class: ``str(error)`` is safe to show to staff."""

    #: A short, calm sentence suitable for the public kiosk.
    public_message = "Something went wrong. Please ask at reception."


class ConfigError(ClinicError):
    """The configuration file or an environment variable holds a bad value."""


class DatabaseUnavailable(ClinicError):
    """The database cannot be reached or started."""

    public_message = "The assistant is temporarily unavailable. Please ask at reception."


class SchemaMismatch(ClinicError):
    """The database was built for another embedding model or schema version."""


class ModelUnavailable(ClinicError):
    """The chat model server is unreachable, failed, or the stream was cut off."""

    public_message = "The assistant could not finish that answer. Please try again."


class EmbeddingUnavailable(ClinicError):
    """The local embedding model files are missing or do not match their recorded hash."""


class DocumentUnreadable(ClinicError):
    """A knowledge document could not be read; the message says why in plain words."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class BookingError(ClinicError):
    """A booking, cancellation or reschedule could not be done; the message says what to do."""


class SlotTaken(BookingError):
    """The slot was booked by someone else a moment ago.

    ``alternatives`` holds the next free slots (``engine.frontdesk.booking.SlotView``) to offer
    instead.
    """

    def __init__(self, message: str, alternatives: Sequence[Any] = ()) -> None:
        super().__init__(message)
        self.alternatives: list[Any] = list(alternatives)


class ValidationError(ClinicError):
    """Input from a person is missing or malformed; the message names the field."""


class AuthenticationFailed(ClinicError):
    """A sign-in failed. One message for every cause, so it never reveals which accounts exist."""
