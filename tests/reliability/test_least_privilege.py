"""Least privilege (issue #10 item 3), one test per rule, each connecting as the role with
hand-written SQL: clinic_staff cannot read password hashes yet signs people in; nobody can change
or delete audit events; the clinic roles cannot connect to other databases; row counts of staff
tables are hidden from the kiosk; init-roles never takes a password from argv."""

from __future__ import annotations

import io
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from engine.frontdesk.users import UserService
from engine.ops import cli
from engine.ops.db import Database, open_database
from engine.ops.roles import KIOSK_ROLE, STAFF_ROLE, init_roles
from engine.ops.service import ServiceBackend
from engine.ops.settings import Settings
from tests.support.fake_clock import FakeClock

KIOSK_PW = "kiosk-db-pw-1"
STAFF_PW = "staff-db-pw-1"
PASSWORD = "correct horse battery"
DENIED = (sa.exc.ProgrammingError, sa.exc.InternalError)


def as_role(db: Database, role: str, password: str, database: str | None = None) -> str:
    url = sa.engine.make_url(db.url).set(username=role, password=password)
    if database is not None:
        url = url.set(database=database)
    return url.render_as_string(hide_password=False)


@pytest.fixture
def ready(db: Database) -> Database:
    UserService(db).add("meera", PASSWORD, "Meera Shah")
    with db.engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO documents (slug, title, audience, source_path, source_folder, "
                "content_hash) SELECT 'staff-' || g, 't', 'staff', '/x', '/', 'h' "
                "FROM generate_series(1, 40) g"
            )
        )
    with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.exec_driver_sql("ANALYZE documents")
    init_roles(db, kiosk_password=KIOSK_PW, staff_password=STAFF_PW)
    return db


@pytest.fixture
def staff(ready: Database) -> Iterator[sa.Engine]:
    engine = sa.create_engine(as_role(ready, STAFF_ROLE, STAFF_PW), poolclass=sa.pool.NullPool)
    yield engine
    engine.dispose()


@pytest.fixture
def kiosk(ready: Database) -> Iterator[sa.Engine]:
    engine = sa.create_engine(as_role(ready, KIOSK_ROLE, KIOSK_PW), poolclass=sa.pool.NullPool)
    yield engine
    engine.dispose()


def fails(engine: sa.Engine, sql: str) -> bool:
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql(sql)
    except DENIED:
        return True
    return False


def rows(engine: sa.Engine, sql: str) -> list[tuple[object, ...]]:
    with engine.begin() as conn:
        return [tuple(r) for r in conn.exec_driver_sql(sql)]


def test_staff_cannot_read_password_hashes(staff: sa.Engine) -> None:
    assert rows(staff, "SELECT current_user") == [(STAFF_ROLE,)]
    for sql in (
        "SELECT password_hash FROM staff_users",
        "SELECT * FROM staff_users",
        "SELECT s FROM staff_users s",
        "COPY staff_users TO STDOUT",
        "SELECT * FROM sign_in_secret",
    ):
        assert fails(staff, sql), sql
    assert rows(staff, "SELECT username, is_active FROM staff_users") == [("meera", True)]
    salt = rows(staff, "SELECT clinic_password_salt('meera')")[0][0]
    assert isinstance(salt, str) and salt.count("$") == 4  # parameters and salt, no hash
    assert rows(staff, "SELECT clinic_password_matches('meera', 'guess')") == [(False,)]


def test_staff_role_signs_in_through_the_functions(ready: Database, staff: sa.Engine) -> None:
    as_staff = Database(staff.url.render_as_string(hide_password=False))
    try:
        users = UserService(as_staff, clock=FakeClock())
        assert users.authenticate("meera", PASSWORD, machine="desk-1").display_name == (
            "Meera Shah"
        )
        with pytest.raises(Exception, match="Wrong username or password"):
            users.authenticate("meera", "not the password", machine="desk-1")
        users.check_active("meera")
    finally:
        as_staff.dispose()


def test_audit_events_are_append_only_for_staff_and_owner(
    ready: Database, staff: sa.Engine
) -> None:
    assert not fails(staff, "INSERT INTO audit_events (username, action) VALUES ('meera', 'test')")
    for sql in (
        "UPDATE audit_events SET username = 'someone else'",
        "DELETE FROM audit_events",
        "TRUNCATE audit_events",
    ):
        assert fails(staff, sql), sql
        assert fails(ready.engine, sql), f"owner: {sql}"
    count = rows(ready.engine, "SELECT count(*) FROM audit_events")[0][0]
    assert isinstance(count, int) and count >= 2


@pytest.mark.parametrize("role,password", [(KIOSK_ROLE, KIOSK_PW), (STAFF_ROLE, STAFF_PW)])
def test_clinic_roles_cannot_connect_to_other_databases(
    ready: Database, role: str, password: str
) -> None:
    for other in ("postgres", "template1"):
        engine = sa.create_engine(as_role(ready, role, password, other), poolclass=sa.pool.NullPool)
        with pytest.raises(sa.exc.OperationalError, match="permission denied"), engine.connect():
            pass
        engine.dispose()
    own = sa.create_engine(as_role(ready, role, password), poolclass=sa.pool.NullPool)
    with own.connect() as conn:
        assert conn.exec_driver_sql("SELECT 1").scalar() == 1
    own.dispose()


def test_kiosk_cannot_count_staff_rows(kiosk: sa.Engine, ready: Database) -> None:
    for sql in (
        "SELECT reltuples FROM pg_class WHERE relname = 'documents'",
        "SELECT relpages FROM pg_class WHERE relname = 'chunks'",
        "SELECT * FROM pg_class",
        "SELECT n_live_tup FROM pg_stat_user_tables",
        "SELECT n_tup_ins FROM pg_stat_all_tables",
        "SELECT pg_relation_size('documents')",
        "SELECT pg_total_relation_size('chunks')",
        "SELECT pg_stat_get_live_tuples('documents'::regclass)",
    ):
        assert fails(kiosk, sql), sql
    # pg_stats hides tables under row-level security from the kiosk by itself.
    assert rows(kiosk, "SELECT attname FROM pg_stats WHERE tablename = 'documents'") == []
    assert rows(ready.engine, "SELECT count(*) FROM pg_stats WHERE tablename = 'documents'")[0][0]
    # What the kiosk's own code needs from the catalogue still works.
    assert rows(kiosk, "SELECT relname FROM pg_class WHERE relname = 'chunks'") == [("chunks",)]
    assert rows(kiosk, "SELECT count(*) FROM documents") == [(0,)]
    owner = rows(ready.engine, "SELECT reltuples FROM pg_class WHERE relname = 'documents'")
    assert owner[0][0] == 40
    assert fails(kiosk, "SELECT clinic_password_salt('meera')")


def run_init_roles(
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    extra: list[str],
    stdin: str = "",
) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    monkeypatch.setenv("CLINIC_DATABASE_URL", settings.database.url)
    return cli.main(["--data-dir", str(settings.data_dir), "db", "init-roles", *extra])


def test_init_roles_never_takes_a_password_from_argv(
    settings: Settings,
    db: Database,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    flags = ["--kiosk-password", "pw-one-1", "--staff-password", "pw-two-2"]
    assert run_init_roles(settings, monkeypatch, flags) == 2
    err = capsys.readouterr().err
    assert "no longer accepted" in err and "CLINIC_KIOSK_DB_PASSWORD" in err

    def scram(role: str) -> object:
        return rows(db.engine, f"SELECT rolpassword FROM pg_authid WHERE rolname = '{role}'")

    assert (
        run_init_roles(settings, monkeypatch, ["--passwords-stdin"], "k-one-111\ns-two-222\n") == 0
    )
    out = capsys.readouterr().out
    assert "k-one-111" not in out and "s-two-222" not in out
    first = scram(KIOSK_ROLE), scram(STAFF_ROLE)
    monkeypatch.setenv("CLINIC_KIOSK_DB_PASSWORD", "k-three-333")
    monkeypatch.setenv("CLINIC_STAFF_DB_PASSWORD", "s-four-444")
    assert run_init_roles(settings, monkeypatch, []) == 0
    assert (scram(KIOSK_ROLE), scram(STAFF_ROLE)) != first  # both changed
    assert run_init_roles(settings, monkeypatch, ["--passwords-stdin"], "\n\n") == 2
    assert "No password was given for the kiosk database role" in capsys.readouterr().err


def test_the_kiosk_on_the_embedded_server_gets_the_same_rules() -> None:
    """A kiosk on the embedded server creates clinic_kiosk itself (engine.ops.service) through
    init_roles, so every rule above holds there too."""
    root = Path(tempfile.mkdtemp(prefix="clinic-kiosk-rules-"))
    root.chmod(0o755)
    try:
        settings = Settings(data_dir=root)
        owner = open_database(settings)
        UserService(owner).add("meera", PASSWORD)
        owner.dispose()
        backend = ServiceBackend(settings, audience="public", channel="kiosk")
        kiosk_db = backend.database()
        engine = kiosk_db.engine
        assert rows(engine, "SELECT current_user") == [(KIOSK_ROLE,)]
        for sql in (
            "SELECT username FROM staff_users",
            "SELECT * FROM audit_events",
            "DELETE FROM audit_events",
            "SELECT reltuples FROM pg_class WHERE relname = 'chunks'",
            "SELECT n_live_tup FROM pg_stat_user_tables",
            "SELECT clinic_password_salt('meera')",
        ):
            assert fails(engine, sql), sql
        other = sa.create_engine(
            kiosk_db.engine.url.set(database="postgres"), poolclass=sa.pool.NullPool
        )
        with pytest.raises(sa.exc.OperationalError, match="permission denied"), other.connect():
            pass
        other.dispose()
        kiosk_db.dispose()
    finally:
        shutil.rmtree(root, ignore_errors=True)
