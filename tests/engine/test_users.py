"""Staff accounts: hashing, sign-in failures that reveal nothing, disabling, resets, audit."""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa

from engine.errors import AuthenticationFailed, ValidationError
from engine.frontdesk import users
from engine.frontdesk.users import AUTH_FAILED, StaffUserView, UserService
from engine.ops.db import Database
from tests.support.fake_clock import FakeClock

PASSWORD = "correct horse battery"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def service(db: Database, clock: FakeClock) -> UserService:
    return UserService(db, clock=clock)


def stored_hash(db: Database, username: str) -> str:
    with db.engine.connect() as conn:
        return str(
            conn.execute(
                sa.text("SELECT password_hash FROM staff_users WHERE username = :u"),
                {"u": username},
            ).scalar_one()
        )


def test_add_then_sign_in(service: UserService) -> None:
    added = service.add("Meera", PASSWORD, display_name="Meera  Shah", by="admin")
    assert added == StaffUserView("meera", "Meera Shah", True)
    assert service.authenticate(" MEERA ", PASSWORD) == added
    assert service.list() == [added]


def test_hash_is_salted_scrypt_and_never_contains_the_password(
    service: UserService, db: Database
) -> None:
    service.add("meera", PASSWORD)
    service.add("tom", PASSWORD)
    stored = stored_hash(db, "meera")
    scheme, n, r, p, salt, digest = stored.split("$")
    assert (scheme, n, r, p) == ("scrypt", str(2**14), "8", "1")
    assert len(base64.b64decode(salt)) == 16 and len(base64.b64decode(digest)) == 32
    assert PASSWORD not in stored and "horse" not in stored
    assert stored != stored_hash(db, "tom")  # same password, different salt
    assert users.verify_password(PASSWORD, stored)
    assert not users.verify_password(PASSWORD + "!", stored)
    assert not users.verify_password(PASSWORD, "md5$abc")


@pytest.mark.parametrize(
    ("username", "password", "disable"),
    [
        ("meera", "wrong password!", False),
        ("nobody", PASSWORD, False),
        ("meera", PASSWORD, True),
    ],
)
def test_every_sign_in_failure_has_the_same_message(
    service: UserService, username: str, password: str, disable: bool
) -> None:
    service.add("meera", PASSWORD)
    if disable:
        service.disable("meera", by="admin")
    with pytest.raises(AuthenticationFailed) as caught:
        service.authenticate(username, password)
    assert str(caught.value) == AUTH_FAILED


def test_unknown_user_costs_a_scrypt_and_hashes_are_compared_in_constant_time(
    service: UserService, monkeypatch: pytest.MonkeyPatch
) -> None:
    service.add("meera", PASSWORD)
    calls: list[str] = []

    def spy(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            return real(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(users.hashlib, "scrypt", spy("scrypt", hashlib.scrypt))
    monkeypatch.setattr(users.hmac, "compare_digest", spy("compare", hmac.compare_digest))
    for name in ("meera", "nobody"):
        calls.clear()
        with pytest.raises(AuthenticationFailed):
            service.authenticate(name, "wrong password!")
        # One scrypt on both paths; the comparison happens in the database (sha256 of both).
        assert calls == ["scrypt"], name


def test_reset_password_replaces_the_old_one(service: UserService, clock: FakeClock) -> None:
    service.add("meera", PASSWORD)
    service.reset_password("meera", "a brand new secret", by="admin")
    with pytest.raises(AuthenticationFailed):
        service.authenticate("meera", PASSWORD)
    clock.advance(5)  # past the delay after one failure
    assert service.authenticate("meera", "a brand new secret").username == "meera"


def test_policy_and_username_rules_name_the_field(service: UserService) -> None:
    with pytest.raises(ValidationError, match="Password must be at least 10 characters"):
        service.add("meera", "short")
    with pytest.raises(ValidationError, match="Password must be at least 10 characters"):
        service.add("meera", " " * 12)
    with pytest.raises(ValidationError, match="Username must be"):
        service.add("meera shah", PASSWORD)
    service.add("meera", PASSWORD)
    with pytest.raises(ValidationError, match="already taken"):
        service.add("MEERA", PASSWORD)
    with pytest.raises(ValidationError, match="Password must be at least 10 characters"):
        service.reset_password("meera", "short")
    with pytest.raises(ValidationError, match="no staff account called 'ghost'"):
        service.disable("ghost")


def test_account_changes_are_audited_without_passwords(service: UserService, db: Database) -> None:
    service.add("meera", PASSWORD, by="admin")
    service.reset_password("meera", "a brand new secret", by="admin")
    service.disable("meera", by="boss")
    assert service.list() == [StaffUserView("meera", "meera", False)]
    with db.engine.connect() as conn:
        rows = conn.execute(
            sa.text("SELECT username, action, details::text FROM audit_events ORDER BY id")
        ).all()
    assert [(r[0], r[1]) for r in rows] == [
        ("admin", "user_add"),
        ("admin", "user_reset_password"),
        ("boss", "user_disable"),
    ]
    assert all("secret" not in r[2] and "horse" not in r[2] and "scrypt" not in r[2] for r in rows)
