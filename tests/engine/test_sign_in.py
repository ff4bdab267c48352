"""Sign-in throttling (issue #10 item 4): increasing delays and a lockout per account and per
machine, kept in the database across restarts, every failure audited, a password rule that refuses
trivial passwords, ``enable``, and the re-check the staff app makes before each write.

The password lists below were written before the rule: TRIVIAL must be refused, ACCEPTABLE must
pass. Neither list was tuned on afterwards."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from engine.errors import AuthenticationFailed, ValidationError
from engine.frontdesk.users import AccountClosed, SignInLocked, UserService, check_password_policy
from engine.ops.db import Database
from engine.ops.settings import SignInSettings
from tests.support.fake_clock import FakeClock

PASSWORD = "correct horse battery"
POLICY = SignInSettings(
    max_failures=5, machine_max_failures=8, lockout_minutes=15, first_delay_seconds=1.0
)

TRIVIAL = [
    "aaaaaaaaaa",  # one repeated character (the example)
    "AAAAAAAAAAAA",
    "1111111111",
    "ababababab",  # two characters
    "abcabcabcabc",
    "1234567890",
    "0987654321",
    "abcdefghijk",
    "qwertyuiop",
    "QWERTYUIOP",
    "asdfghjkl;",
    "zyxwvutsrqp",
    "meera.shah1",  # the username (meera.shah) inside
    "hahs.areem1",  # the username reversed
    "password123",
    "Password1!!",
    "letmein123",
    "welcome123",
    "iloveyou12",
    "changeme123",
]
ACCEPTABLE = [
    "correct horse battery",
    "tulip-lantern-47",
    "Bl4ck coffee at nine",
    "my dog eats carrots",
    "ZebraQuilt2029",
    "7 green onions!",
]


@pytest.mark.parametrize("password", TRIVIAL)
def test_trivial_passwords_are_refused(password: str) -> None:
    with pytest.raises(ValidationError, match="too easy to guess"):
        check_password_policy(password, "meera.shah")


@pytest.mark.parametrize("password", ACCEPTABLE)
def test_reasonable_passwords_pass(password: str) -> None:
    check_password_policy(password, "meera.shah")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def users(db: Database, clock: FakeClock) -> UserService:
    service = UserService(db, policy=POLICY, clock=clock)
    service.add("meera", PASSWORD)
    service.add("tom", PASSWORD)
    return service


def fail(users: UserService, name: str = "meera", machine: str = "desk-1") -> None:
    with pytest.raises(AuthenticationFailed) as caught:
        users.authenticate(name, "wrong password!", machine=machine)
    assert not isinstance(caught.value, SignInLocked)


def locked_for(users: UserService, name: str = "meera", machine: str = "desk-1") -> float:
    with pytest.raises(SignInLocked) as caught:
        users.authenticate(name, PASSWORD, machine=machine)
    assert "Too many failed sign-ins; please wait" in str(caught.value)
    return caught.value.wait.total_seconds()


def audit(db: Database, action: str) -> list[dict[str, object]]:
    with db.engine.connect() as conn:
        rows = conn.execute(
            sa.text("SELECT username, details FROM audit_events WHERE action = :a ORDER BY id"),
            {"a": action},
        ).all()
    return [{"username": r[0], **r[1]} for r in rows]


def test_delays_grow_then_the_account_locks_and_unlocks(
    users: UserService, clock: FakeClock, db: Database
) -> None:
    waits = []
    for _ in range(4):
        fail(users)
        waits.append(locked_for(users))  # even the right password must wait
        clock.advance(waits[-1])
    assert waits == [1.0, 2.0, 4.0, 8.0]
    fail(users)  # the fifth failure locks the account for 15 minutes
    assert locked_for(users) == 15 * 60
    assert locked_for(users, machine="desk-2") == 15 * 60  # per account, from any machine
    clock.advance(14 * 60)
    # A restart (a new service over the same database) does not forget the lockout.
    assert locked_for(UserService(db, policy=POLICY, clock=clock)) == 60
    clock.advance(61)
    assert users.authenticate("meera", PASSWORD, machine="desk-1").username == "meera"
    fail(users)  # a success cleared the count: back to the first delay
    assert locked_for(users) == 1.0


def test_every_failure_and_refusal_is_audited_without_the_password(
    users: UserService, clock: FakeClock, db: Database
) -> None:
    fail(users)
    locked_for(users)
    clock.advance(1)
    fail(users, name="nobody")
    failed = audit(db, "sign_in_failed")
    assert [(f["username"], f["reason"], f["machine"]) for f in failed] == [
        ("meera", "wrong password", "desk-1"),
        ("nobody", "unknown", "desk-1"),
    ]
    assert [r["username"] for r in audit(db, "sign_in_refused")] == ["meera"]
    with db.engine.connect() as conn:
        everything = json.dumps(
            [
                list(r)
                for r in conn.execute(
                    sa.text("SELECT username, action, details FROM audit_events")
                ).all()
            ],
            default=str,
        )
    assert "wrong password!" not in everything and PASSWORD not in everything


def test_one_machine_trying_many_accounts_is_locked(users: UserService, clock: FakeClock) -> None:
    names = [f"guess{i}" for i in range(POLICY.machine_max_failures)]
    for name in names:
        clock.advance(60)  # slower than any delay; the machine's count still adds up
        fail(users, name=name, machine="desk-9")
    assert locked_for(users, name="tom", machine="desk-9") == 15 * 60
    assert users.authenticate("tom", PASSWORD, machine="desk-2").username == "tom"


def test_unknown_and_disabled_accounts_fail_like_a_wrong_password(
    users: UserService, clock: FakeClock
) -> None:
    users.disable("tom", by="admin")
    for name, password in (("tom", PASSWORD), ("ghost", PASSWORD), ("meera", "nope nope!")):
        with pytest.raises(AuthenticationFailed) as caught:
            users.authenticate(name, password, machine="desk-1")
        assert str(caught.value) == "Wrong username or password, or the account is disabled."
        clock.advance(10)


def test_enable_switches_an_account_back_on_and_clears_its_lockout(
    users: UserService, clock: FakeClock
) -> None:
    for _ in range(POLICY.max_failures):
        fail(users)
        clock.advance(20)
    assert locked_for(users) > 60
    users.disable("meera", by="admin")
    with pytest.raises(AccountClosed):
        users.check_active("meera")
    users.enable("meera", by="admin")
    users.check_active("meera")
    assert users.authenticate("meera", PASSWORD, machine="desk-1").username == "meera"


def test_check_active_refuses_a_disabled_or_locked_out_account(
    users: UserService, clock: FakeClock
) -> None:
    users.check_active("meera")
    fail(users)
    users.check_active("meera")  # a short delay is not a lockout
    for _ in range(POLICY.max_failures - 1):
        clock.advance(20)
        fail(users)
    with pytest.raises(AccountClosed):
        users.check_active("meera")
    users.disable("tom")
    with pytest.raises(AccountClosed):
        users.check_active("tom")
    with pytest.raises(AccountClosed):
        users.check_active("nobody")
