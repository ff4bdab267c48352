"""Staff accounts: add, disable, reset passwords, and sign in.

Passwords are hashed with scrypt (n=2**14, r=8, p=1, 16-byte random salt) and stored as
``scrypt$n$r$p$salt_b64$hash_b64``; hashes are compared with ``hmac.compare_digest``. A sign-in
for an unknown account still runs scrypt against a dummy hash, so timing does not reveal which
usernames exist, and every failure has the same message.

This module must never log, audit or return a password or a password hash.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

import sqlalchemy as sa

from engine import audit
from engine.db import Database
from engine.errors import AuthenticationFailed, ValidationError

MIN_PASSWORD_LENGTH = 10
SCRYPT_N = 2**14
SCRYPT_R = 8
SCRYPT_P = 1
SALT_BYTES = 16
AUTH_FAILED = "Wrong username or password, or the account is disabled."

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


# Checked against when the username is unknown, so both paths cost one scrypt.
_DUMMY_HASH = hash_password(secrets.token_urlsafe(16))


def normalise_username(username: str) -> str:
    name = username.strip().lower()
    if not _USERNAME.match(name):
        raise ValidationError(
            "Username must be 2 to 50 characters: lower-case letters, digits, dot, dash or "
            "underscore, starting with a letter or digit."
        )
    return name


def check_password_policy(password: str) -> None:
    if len(password) < MIN_PASSWORD_LENGTH or not password.strip():
        raise ValidationError(f"Password must be at least {MIN_PASSWORD_LENGTH} characters long.")


class UserService:
    """Staff accounts in the shared database. Every change is audited."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def add(
        self, username: str, password: str, display_name: str = "", by: str = "cli"
    ) -> StaffUserView:
        name = normalise_username(username)
        check_password_policy(password)
        display = " ".join(display_name.split()) or name
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
        name = username.strip().lower()
        with self.db.session() as s:
            found = s.execute(
                sa.text(f"UPDATE staff_users SET {sql} WHERE username = :u RETURNING id"),
                {**params, "u": name},
            ).scalar()
            if found is None:
                raise ValidationError(f"There is no staff account called {name!r}.")
            audit.record(s, by, action, {"username": name})

    def disable(self, username: str, by: str = "cli") -> None:
        self._update(username, "is_active = false", {}, by, "user_disable")

    def reset_password(self, username: str, password: str, by: str = "cli") -> None:
        check_password_policy(password)
        self._update(
            username,
            "password_hash = :h",
            {"h": hash_password(password)},
            by,
            "user_reset_password",
        )

    def authenticate(self, username: str, password: str) -> StaffUserView:
        """The account, or AuthenticationFailed with one message for every cause."""
        with self.db.session() as s:
            row = s.execute(
                sa.text(
                    "SELECT username, display_name, password_hash, is_active FROM staff_users "
                    "WHERE username = :u"
                ),
                {"u": username.strip().lower()},
            ).first()
        stored = _DUMMY_HASH if row is None else str(row.password_hash)
        password_ok = verify_password(password, stored)
        if row is None or not password_ok or not row.is_active:
            raise AuthenticationFailed(AUTH_FAILED)
        return StaffUserView(str(row.username), str(row.display_name), True)

    def list(self) -> list[StaffUserView]:
        with self.db.session() as s:
            rows = s.execute(
                sa.text(
                    "SELECT username, display_name, is_active FROM staff_users ORDER BY username"
                )
            ).all()
        return [StaffUserView(str(r[0]), str(r[1]), bool(r[2])) for r in rows]
