"""Staff accounts: add, disable, enable, reset passwords, sign in (throttled) and re-check.

Passwords are hashed with scrypt (n=2**14, r=8, p=1, 16-byte random salt) and stored as
``scrypt$n$r$p$salt_b64$hash_b64``. Sign-in never reads the stored hash: the database function
``clinic_password_salt`` gives the parameters and salt (a fake one for an unknown name), scrypt
runs here, and ``clinic_password_matches`` compares inside the database (migration 0008), so the
``clinic_staff`` role needs no SELECT on ``password_hash``. Every path costs one scrypt, so timing
does not reveal which usernames exist, and every wrong-password failure has the same message.

Throttling (state in ``sign_in_throttle``, so a restart does not reset it): after each failure the
account waits ``first_delay_seconds``, doubled per failure, and after ``max_failures`` it is locked
for ``lockout_minutes``; a machine starts waiting after ``max_failures`` failures (any accounts)
and is locked after ``machine_max_failures``. Failures older than the lockout are forgotten. A
success clears the account's count (not the machine's). Every success, failure and refusal is
audited (username and machine, never the password). A client holding the staff database password
could still roll back its own failure records; the hashes stay unreadable to it either way.

The password rule: at least 10 characters, not one repeated character or fewer than four
different ones, not a run such as 1234567890/abcdefghij/qwertyuiop (or reversed), not the
username, not a well-known password.

This module must never log, audit or return a password or a password hash.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import socket
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.orm import Session

from engine.errors import AuthenticationFailed, ValidationError
from engine.frontdesk import audit
from engine.ops.db import Database
from engine.ops.settings import SignInSettings
from engine.validation import clean_text

MIN_PASSWORD_LENGTH = 10
SCRYPT_N = 2**14
SCRYPT_R = 8
SCRYPT_P = 1
SALT_BYTES = 16
AUTH_FAILED = "Wrong username or password, or the account is disabled."
ACCOUNT_CLOSED = "This account is disabled or locked; sign in again or ask IT."

# Judged against tests/engine/test_sign_in.py (trivial and acceptable lists written first).
COMMON_PASSWORDS = frozenset(
    {
        "password",
        "password1",
        "password12",
        "password123",
        "password1234",
        "passw0rd",
        "qwertyuiop",
        "qwerty123",
        "qwerty1234",
        "1q2w3e4r5t",
        "1qaz2wsx3edc",
        "iloveyou",
        "iloveyou1",
        "iloveyou12",
        "letmein",
        "letmein123",
        "welcome",
        "welcome1",
        "welcome123",
        "admin",
        "admin123",
        "admin12345",
        "administrator",
        "changeme",
        "changeme1",
        "changeme123",
        "trustno1",
        "football",
        "football1",
        "baseball",
        "sunshine",
        "sunshine1",
        "princess",
        "dragon",
        "monkey",
        "master",
        "superman",
        "starwars",
        "whatever",
        "abc123",
        "abc12345",
        "abcd1234",
        "abcdef123",
        "123123123",
        "1234512345",
        "11223344",
        "1122334455",
        "123qwe",
        "123qweasd",
        "qweasdzxc",
        "zaq12wsx",
        "clinic",
        "clinic123",
        "clinic1234",
        "doctor",
        "doctor123",
        "nurse",
        "nurse123",
        "reception",
        "reception1",
        "hospital",
        "hospital1",
        "medical",
        "medical123",
        "staff",
        "staff123",
        "staff12345",
        "frontdesk",
        "frontdesk1",
        "winter2024",
        "summer2024",
        "spring2025",
        "autumn2025",
        "winter2025",
        "summer2025",
        "winter2026",
        "summer2026",
    }
)
_RUNS = (
    "0123456789",
    "abcdefghijklmnopqrstuvwxyz",
    "qwertyuiop[]",
    "asdfghjkl;'",
    "zxcvbnm,./",
    "1234567890-=",
    "qwertzuiop",
    "azertyuiop",
)

_USERNAME = re.compile(r"^[a-z0-9][a-z0-9._-]{1,49}$")


@dataclass(frozen=True)
class StaffUserView:
    username: str
    display_name: str
    is_active: bool


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def hash_password(password: str, *, salt: bytes | None = None) -> str:
    """``scrypt$n$r$p$salt_b64$hash_b64`` for a password."""
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    digest = hashlib.scrypt(
        password.encode("utf-8"), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32
    )
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${_b64(salt)}${_b64(digest)}"


def verify_password(password: str, stored: str) -> bool:
    """True when ``password`` matches ``stored``; a malformed hash never matches."""
    try:
        scheme, n, r, p, salt_b64, hash_b64 = stored.split("$")
        if scheme != "scrypt":
            return False
        salt = base64.b64decode(salt_b64, validate=True)
        expected = base64.b64decode(hash_b64, validate=True)
        actual = hashlib.scrypt(
            password.encode("utf-8"),
            salt=salt,
            n=int(n),
            r=int(r),
            p=int(p),
            dklen=len(expected),
            maxmem=256 * 1024 * 1024,
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(actual, expected)


def normalise_username(username: str) -> str:
    name = clean_text(username, "The username").strip().lower()
    if not _USERNAME.match(name):
        raise ValidationError(
            "Username must be 2 to 50 characters: lower-case letters, digits, dot, dash or "
            "underscore, starting with a letter or digit."
        )
    return name


def _is_run(text: str) -> bool:
    """True when ``text`` is a stretch of a keyboard row or the alphabet/digits (either way)."""
    if len(text) < 4:
        return False
    for run in _RUNS:
        for source in (run, run[::-1]):
            doubled = source + source  # 7890123... wraps
            if text in doubled:
                return True
    return False


def check_password_policy(password: str, username: str = "") -> None:
    """ValidationError (one sentence) for a password too short or trivial to guess."""
    clean_text(password, "The password")
    if len(password) < MIN_PASSWORD_LENGTH or not password.strip():
        raise ValidationError(f"Password must be at least {MIN_PASSWORD_LENGTH} characters long.")
    folded = password.casefold()
    squeezed = "".join(ch for ch in folded if not ch.isspace())
    name = username.strip().casefold()
    trivial = (
        len(set(squeezed)) < 4
        or _is_run(squeezed)
        or squeezed in COMMON_PASSWORDS
        or squeezed.rstrip("0123456789!?.") in COMMON_PASSWORDS
        or (len(name) >= 2 and (name in folded or folded in name or name[::-1] in folded))
    )
    if trivial:
        raise ValidationError(
            "Password is too easy to guess (a repeated character, a run such as 12345 or "
            "qwerty, the username or a common password); choose a phrase of a few words."
        )


class SignInLocked(AuthenticationFailed):
    """Too many failed sign-ins for this account or machine: ``wait`` until the next try."""

    def __init__(self, wait: timedelta) -> None:
        seconds = max(1, int(wait.total_seconds() + 0.999))
        when = f"{seconds} seconds" if seconds < 120 else f"{(seconds + 59) // 60} minutes"
        super().__init__(f"Too many failed sign-ins; please wait {when} and try again.")
        self.wait = wait


class AccountClosed(AuthenticationFailed):
    """The signed-in account was disabled or locked since sign-in: sign out."""


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _digest(password: str, prefix: str) -> str:
    """base64 scrypt of ``password`` with the parameters and salt in ``prefix``
    (``scrypt$n$r$p$salt``); a malformed prefix still costs one scrypt and never matches."""
    try:
        scheme, n, r, p, salt_b64 = prefix.split("$")
        salt = base64.b64decode(salt_b64, validate=True)
        if scheme != "scrypt":
            raise ValueError(scheme)
        params = (int(n), int(r), int(p))
    except ValueError:
        salt, params = secrets.token_bytes(SALT_BYTES), (SCRYPT_N, SCRYPT_R, SCRYPT_P)
    digest = hashlib.scrypt(
        password.encode("utf-8"),
        salt=salt,
        n=params[0],
        r=params[1],
        p=params[2],
        dklen=32,
        maxmem=256 * 1024 * 1024,
    )
    return _b64(digest)


class UserService:
    """Staff accounts in the shared database. Every change and every sign-in is audited."""

    def __init__(
        self,
        db: Database,
        *,
        policy: SignInSettings | None = None,
        clock: Callable[[], datetime] = _utc_now,
    ) -> None:
        self.db = db
        self.policy = policy or SignInSettings()
        self.clock = clock

    def add(
        self, username: str, password: str, display_name: str = "", by: str = "cli"
    ) -> StaffUserView:
        name = normalise_username(username)
        check_password_policy(password, name)
        display = " ".join(clean_text(display_name, "The display name").split()) or name
        with self.db.session() as s:
            inserted = s.execute(
                sa.text(
                    "INSERT INTO staff_users (username, display_name, password_hash) "
                    "VALUES (:u, :d, :h) ON CONFLICT (username) DO NOTHING RETURNING id"
                ),
                {"u": name, "d": display, "h": hash_password(password)},
            ).scalar()
            if inserted is None:
                raise ValidationError(f"Username {name!r} is already taken.")
            audit.record(s, by, "user_add", {"username": name})
        return StaffUserView(name, display, True)

    def _update(
        self, username: str, sql: str, params: dict[str, object], by: str, action: str
    ) -> None:
        name = clean_text(username, "The username").strip().lower()
        with self.db.session() as s:
            found = s.execute(
                sa.text(f"UPDATE staff_users SET {sql} WHERE username = :u RETURNING id"),
                {**params, "u": name},
            ).scalar()
            if found is None:
                raise ValidationError(f"There is no staff account called {name!r}.")
            audit.record(s, by, action, {"username": name})
            if action == "user_reset_password":  # a new password lifts the account's lockout
                s.execute(
                    sa.text("DELETE FROM sign_in_throttle WHERE key = :k"), {"k": "account:" + name}
                )

    def disable(self, username: str, by: str = "cli") -> None:
        self._update(username, "is_active = false", {}, by, "user_disable")

    def reset_password(self, username: str, password: str, by: str = "cli") -> None:
        check_password_policy(password, username)
        self._update(
            username,
            "password_hash = :h",
            {"h": hash_password(password)},
            by,
            "user_reset_password",
        )

    def enable(self, username: str, by: str = "cli") -> None:
        """Switch an account back on and clear its sign-in lockout."""
        self._update(username, "is_active = true", {}, by, "user_enable")
        with self.db.session() as s:
            s.execute(
                sa.text("DELETE FROM sign_in_throttle WHERE key = :k"),
                {"k": "account:" + username.strip().lower()},
            )

    def _blocked(self, s: Session, keys: list[str], now: datetime) -> datetime | None:
        until = s.execute(
            sa.text("SELECT max(blocked_until) FROM sign_in_throttle WHERE key = ANY(:k)"),
            {"k": keys},
        ).scalar()
        return until if until is not None and until > now else None

    def _record_failure(
        self, s: Session, key: str, limits: tuple[int, int], now: datetime
    ) -> datetime:
        """Count one failure for ``key``; blocked until when. ``limits``: (failures before the
        delays start, failures that lock)."""
        policy = self.policy
        lockout = timedelta(minutes=policy.lockout_minutes)
        failures: int = s.execute(
            sa.text(
                "INSERT INTO sign_in_throttle AS t (key, failures, last_failure_at) "
                "VALUES (:k, 1, :now) ON CONFLICT (key) DO UPDATE SET failures = CASE "
                "WHEN t.last_failure_at < :forget THEN 1 ELSE t.failures + 1 END, "
                "last_failure_at = :now RETURNING failures"
            ),
            {"k": key, "now": now, "forget": now - lockout},
        ).scalar_one()
        grace, limit = limits
        if failures >= limit:
            until = now + lockout
        elif failures >= grace:
            delay = policy.first_delay_seconds * 2 ** (failures - grace)
            until = now + timedelta(seconds=min(delay, lockout.total_seconds()))
        else:
            until = now
        s.execute(
            sa.text("UPDATE sign_in_throttle SET blocked_until = :u WHERE key = :k"),
            {"u": until, "k": key},
        )
        return until

    def _password_ok(self, name: str, password: str) -> bool:
        with self.db.session() as s:
            prefix = s.execute(sa.text("SELECT clinic_password_salt(:u)"), {"u": name}).scalar()
        digest = _digest(password, str(prefix or ""))
        with self.db.session() as s:
            return bool(
                s.execute(
                    sa.text("SELECT clinic_password_matches(:u, :d)"), {"u": name, "d": digest}
                ).scalar()
            )

    def authenticate(
        self, username: str, password: str, machine: str | None = None
    ) -> StaffUserView:
        """The account, or AuthenticationFailed: one message for every wrong-password cause,
        ``SignInLocked`` (with the wait) while the account or this machine must wait."""
        name = clean_text(username, "The username").strip().lower()[:100]
        clean_text(password, "The password")
        host = clean_text(machine or socket.gethostname(), "The machine name")[:100]
        keys = ["account:" + name, "machine:" + host]
        now = self.clock()
        with self.db.session() as s:
            until = self._blocked(s, keys, now)
            if until is not None:
                audit.record(s, name, "sign_in_refused", {"machine": host, "until": until})
        if until is not None:
            raise SignInLocked(until - now)
        password_ok = self._password_ok(name, password)
        with self.db.session() as s:
            row = s.execute(
                sa.text(
                    "SELECT username, display_name, is_active FROM staff_users WHERE username = :u"
                ),
                {"u": name},
            ).first()
            if row is not None and password_ok and row.is_active:
                s.execute(sa.text("DELETE FROM sign_in_throttle WHERE key = :k"), {"k": keys[0]})
                audit.record(s, name, "sign_in", {"machine": host})
                return StaffUserView(str(row.username), str(row.display_name), True)
            reason = "unknown" if row is None else "disabled" if password_ok else "wrong password"
            policy = self.policy
            account = self._record_failure(s, keys[0], (1, policy.max_failures), now)
            box = self._record_failure(
                s, keys[1], (policy.max_failures, policy.machine_max_failures), now
            )
            audit.record(
                s,
                name,
                "sign_in_failed",
                {"machine": host, "reason": reason, "blocked_until": max(account, box)},
            )
        raise AuthenticationFailed(AUTH_FAILED)

    def check_active(self, username: str) -> None:
        """AccountClosed unless ``username`` exists, is active and is not locked out: called
        before every write the staff app makes for a signed-in person."""
        name = username.strip().lower()
        with self.db.session() as s:
            active = s.execute(
                sa.text("SELECT is_active FROM staff_users WHERE username = :u"), {"u": name}
            ).scalar()
            locked = s.execute(
                sa.text(
                    "SELECT 1 FROM sign_in_throttle WHERE key = :k AND failures >= :n "
                    "AND blocked_until > :now"
                ),
                {"k": "account:" + name, "n": self.policy.max_failures, "now": self.clock()},
            ).first()
        if not active or locked is not None:
            raise AccountClosed(ACCOUNT_CLOSED)

    def list(self) -> list[StaffUserView]:
        with self.db.session() as s:
            rows = s.execute(
                sa.text(
                    "SELECT username, display_name, is_active FROM staff_users ORDER BY username"
                )
            ).all()
        return [StaffUserView(str(r[0]), str(r[1]), bool(r[2])) for r in rows]
