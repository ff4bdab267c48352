"""Every error the staff app shows, in words, in one place: detailed, calm, never a traceback.

Staff need to know what failed and what to do next, so the wording is fuller than the kiosk's.
``describe`` never includes a stack trace, a password or a DSN; unexpected exceptions are logged
in full and shown as one sentence pointing at the log.
"""

from __future__ import annotations

import logging
import re

import sqlalchemy.exc

from engine.errors import (
    AuthenticationFailed,
    BookingError,
    ClinicError,
    ConfigError,
    DatabaseUnavailable,
    DocumentUnreadable,
    EmbeddingUnavailable,
    ModelUnavailable,
    SchemaMismatch,
    SlotTaken,
    ValidationError,
)

log = logging.getLogger("staff_app")

UNEXPECTED = (
    "Something unexpected went wrong ({kind}). Nothing you entered was saved by this step. "
    "The details are in the staff app's log file; please tell IT if it happens again."
)

_PREFIXES: list[tuple[type[ClinicError], str]] = [
    (SlotTaken, "That slot has just been taken."),
    (ValidationError, "Please check the details."),
    (BookingError, "The booking system could not do that."),
    (AuthenticationFailed, ""),
    (DatabaseUnavailable, "The database cannot be reached."),
    (SchemaMismatch, "The database does not match this version of the app."),
    (ModelUnavailable, "The answer model server is not available."),
    (EmbeddingUnavailable, "The search model files are not available."),
    (DocumentUnreadable, "A document could not be read."),
    (ConfigError, "The configuration file has a problem."),
]

_ADVICE: dict[type[ClinicError], str] = {
    DatabaseUnavailable: (
        "Bookings, searches and answers wait until it is back; nothing you typed is lost. "
        "The app keeps checking on its own."
    ),
    ModelUnavailable: (
        "Answers still work: they quote the documents word for word instead of summarising."
    ),
}


# Connection strings and socket paths (also URL-encoded ones such as host=%2Ftmp%2F...) never
# reach the screen: they are noise to a receptionist and may carry a password.
_CONNECTION_DETAIL = re.compile(
    r"(\w+(\+\w+)?://\S+|\b(host|hostaddr|dbname|user|password|port)=\S+|%2F\S*|"
    r"(/[\w.~ -]+)+/\.s\.PGSQL\.\d+|\(Background on this error at: [^)]*\))",
    re.IGNORECASE,
)
_DATABASE_ERRORS = (sqlalchemy.exc.OperationalError, sqlalchemy.exc.InterfaceError)


def scrub(text: str) -> str:
    """``text`` without connection strings, socket paths or SQLAlchemy's help links."""
    cleaned = _CONNECTION_DETAIL.sub("\x00", text)
    cleaned = re.sub(r"\s*\b(at|on|to)\s+\x00", "", cleaned).replace("\x00", "")
    cleaned = re.sub(r"\s+", " ", cleaned)
    return re.sub(r"\s+([.,:;])", r"\1", cleaned).strip()


def describe(error: BaseException | None) -> str:
    """Staff wording for any error: the kind of problem, the engine's explanation, what next."""
    if error is None:
        return UNEXPECTED.format(kind="no result")
    if isinstance(error, _DATABASE_ERRORS):
        # A raw driver error that escaped the engine's mapping is still a database outage.
        error = DatabaseUnavailable("The database cannot be reached.")
    if not isinstance(error, ClinicError):
        return UNEXPECTED.format(kind=type(error).__name__)
    detail = scrub(str(error).strip())
    prefix = next((p for kind, p in _PREFIXES if isinstance(error, kind)), "")
    advice = next((a for kind, a in _ADVICE.items() if isinstance(error, kind)), "")
    # "The database cannot be reached." is not repeated before "The database at X cannot be
    # reached.": the prefix is dropped when the detail already says the same thing.
    gist = prefix.rstrip(".").lower().split(" ", 2)[-1] if prefix else ""
    repeated = bool(gist) and gist in detail.lower() and detail != prefix
    parts = [prefix] if prefix and not repeated else []
    if detail and detail != prefix:
        parts.append(detail)
    if not parts:
        parts.append(error.public_message)
    if advice:
        parts.append(advice)
    return " ".join(parts)


def is_database_down(error: BaseException | None) -> bool:
    """True for errors that mean the database itself cannot be reached."""
    return isinstance(error, (DatabaseUnavailable, *_DATABASE_ERRORS))
