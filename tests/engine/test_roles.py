"""The kiosk's database role cannot see staff text, whatever SQL it runs; staff sees everything."""

from __future__ import annotations

import io
from collections.abc import Iterator

import psycopg
import pytest
import sqlalchemy as sa

from engine.ops.db import Database
from engine.ops.roles import KIOSK_ROLE, STAFF_ROLE, init_roles

VECTOR = "[" + ", ".join(["0.1"] * 384) + "]"
STAFF_SECRET = "Internal rate for locum cover is 412 pounds"
PUBLIC_TEXT = "Bring your appointment letter and a list of your medicines"


def _as(url: str, user: str, password: str) -> str:
    return (
        sa.engine.make_url(url)
        .set(username=user, password=password)
        .render_as_string(hide_password=False)
    )


def _psycopg_dsn(url: str) -> str:
    return (
        sa.engine.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    )


@pytest.fixture
def seeded(db: Database) -> Database:
    with db.engine.begin() as conn:
        for slug, audience, text in (
            ("what-to-bring", "public", PUBLIC_TEXT),
            ("locum-rates", "staff", STAFF_SECRET),
        ):
            doc_id = conn.execute(
                sa.text(
                    "INSERT INTO documents (slug, title, audience, source_path, source_folder, "
                    "content_hash) VALUES (:s, :title, :a, '/x', '/', 'h') RETURNING id"
                ),
                {"s": slug, "title": slug, "a": audience},
            ).scalar_one()
            conn.execute(
                sa.text(
                    "INSERT INTO chunks (document_id, ordinal, heading_path, text, "
                    "token_estimate, embedding) VALUES (:d, 0, :s, :t, 10, CAST(:v AS vector))"
                ),
                {"d": doc_id, "s": slug, "t": text, "v": VECTOR},
            )
    return db


@pytest.fixture
def roles_ready(seeded: Database) -> Iterator[Database]:
    lines = init_roles(seeded, kiosk_password="kiosk-pw'1", staff_password="staff-pw")
    assert any("Row-level security" in line for line in lines)
    assert not any("kiosk-pw" in line or "staff-pw" in line for line in lines)
    yield seeded


@pytest.fixture
def kiosk(roles_ready: Database) -> Iterator[sa.Engine]:
    engine = sa.create_engine(
        _as(roles_ready.url, KIOSK_ROLE, "kiosk-pw'1"), poolclass=sa.pool.NullPool
    )
    yield engine
    engine.dispose()


def _rows(engine: sa.Engine, sql: str) -> list[tuple[object, ...]]:
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(sa.text(sql))]


def test_kiosk_sees_only_public_text_whatever_the_query(kiosk: sa.Engine) -> None:
    assert _rows(kiosk, "SELECT current_user") == [(KIOSK_ROLE,)]
    assert _rows(kiosk, "SELECT text FROM chunks") == [(PUBLIC_TEXT,)]
    assert _rows(kiosk, "SELECT * FROM documents WHERE audience = 'staff'") == []
    assert _rows(kiosk, "SELECT slug FROM documents ORDER BY slug") == [("what-to-bring",)]
    joined = _rows(
        kiosk,
        "SELECT c.text FROM chunks c LEFT JOIN documents d ON d.id = c.document_id "
        "WHERE d.audience IS DISTINCT FROM 'public' OR true",
    )
    assert joined == [(PUBLIC_TEXT,)]
    nearest = _rows(kiosk, f"SELECT text FROM chunks ORDER BY embedding <=> '{VECTOR}' LIMIT 10")
    assert nearest == [(PUBLIC_TEXT,)]
    keyword = _rows(kiosk, "SELECT text FROM chunks WHERE tsv @@ plainto_tsquery('locum')")
    assert keyword == []


def test_public_search_functions_never_reach_staff_chunks(kiosk: sa.Engine) -> None:
    """The SECURITY DEFINER search functions (migration 0010) run as the owner, so they must
    filter on public themselves: no argument, quoting or tsquery trick reaches a staff chunk,
    and they return ids and counts, never text."""
    public_id = _rows(kiosk, "SELECT id FROM chunks")[0][0]
    for query in (
        "to_tsquery('english', 'locum')",
        "to_tsquery('english', 'locum | rate | 412 | pound')",
        "to_tsquery('simple', 'internal & rate')",
        "'locum'::tsquery",
        "to_tsquery('english', 'medicin | locum')",
    ):
        rows = _rows(kiosk, f"SELECT id FROM clinic_public_keyword_arm({query}, 1000)")
        assert all(r == (public_id,) for r in rows), query
    assert _rows(
        kiosk, "SELECT id FROM clinic_public_keyword_arm(to_tsquery('english', 'medicin'), 5)"
    ) == [(public_id,)]
    assert _rows(kiosk, "SELECT * FROM clinic_public_keyword_arm(NULL, 5)") == []
    assert _rows(kiosk, "SELECT * FROM clinic_public_keyword_arm('locum', -1)") == []
    counts = dict(
        _rows(kiosk, "SELECT * FROM clinic_public_term_counts(ARRAY['locum', 'rate', 'medicin'])")
    )
    assert counts == {"locum": 0, "rate": 0, "medicin": 1}
    assert _rows(kiosk, "SELECT clinic_public_chunk_count()") == [(1,)]
    words = {str(r[0]) for r in _rows(kiosk, "SELECT word FROM clinic_public_vocabulary()")}
    assert "medicin" in words
    assert not words & {"locum", "rate", "412", "intern", "pound"}
    # Another function of the same name in a schema the kiosk controls cannot stand in for it.
    with pytest.raises(sa.exc.ProgrammingError), kiosk.connect() as conn:
        conn.execute(sa.text("CREATE SCHEMA kiosk_tricks"))


def test_public_search_functions_are_not_for_everyone(roles_ready: Database) -> None:
    """EXECUTE is granted to the kiosk and staff roles only, not to PUBLIC."""
    with roles_ready.engine.connect() as conn:
        granted = conn.execute(
            sa.text(
                "SELECT p.proname, array_agg(DISTINCT r.rolname) FROM pg_proc p "
                "CROSS JOIN LATERAL aclexplode(p.proacl) a "
                "LEFT JOIN pg_roles r ON r.oid = a.grantee "
                "WHERE p.proname LIKE 'clinic_public_%' AND a.privilege_type = 'EXECUTE' "
                "GROUP BY p.proname"
            )
        ).all()
        owner = conn.execute(sa.text("SELECT current_user")).scalar_one()
    assert len(granted) == 4
    for name, roles in granted:
        assert None not in roles, f"{name} is executable by PUBLIC"
        assert set(roles) == {KIOSK_ROLE, STAFF_ROLE, owner}, name


def test_kiosk_copy_export_leaks_no_staff_row(roles_ready: Database) -> None:
    dsn = _psycopg_dsn(_as(roles_ready.url, KIOSK_ROLE, "kiosk-pw'1"))
    out = io.BytesIO()
    with psycopg.connect(dsn) as conn, conn.cursor() as cur:
        with cur.copy("COPY (SELECT text FROM chunks) TO STDOUT") as copy:
            for block in copy:
                out.write(block)
        with cur.copy("COPY documents TO STDOUT") as copy:
            for block in copy:
                out.write(block)
    dumped = out.getvalue().decode()
    assert PUBLIC_TEXT in dumped
    assert "what-to-bring" in dumped
    assert "locum" not in dumped and STAFF_SECRET not in dumped


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE documents SET audience = 'public'",
        "DELETE FROM documents",
        "DELETE FROM chunks",
        "INSERT INTO documents (slug, title, audience, source_path, source_folder, content_hash) "
        "VALUES ('x', 'x', 'public', '/x', '/', 'h')",
        "SELECT question FROM answers",
        "SELECT * FROM staff_users",
        "SELECT * FROM appointments",
        "UPDATE embedding_config SET similarity_floor = 0",
        "ALTER TABLE documents DISABLE ROW LEVEL SECURITY",
        "SET row_security = off; SELECT text FROM chunks",
    ],
)
def test_kiosk_cannot_write_or_read_anything_else(kiosk: sa.Engine, statement: str) -> None:
    with pytest.raises(sa.exc.DBAPIError), kiosk.begin() as conn:
        for part in statement.split("; "):
            conn.exec_driver_sql(part)


def test_kiosk_records_answers_but_cannot_read_them_back(
    kiosk: sa.Engine, roles_ready: Database
) -> None:
    with kiosk.begin() as conn:
        new_id = conn.execute(
            sa.text(
                "INSERT INTO answers (channel, audience, question, route, outcome, shown_text) "
                "VALUES ('kiosk', 'public', 'Where do I park?', 'information', 'refused', 'x') "
                "RETURNING id"
            )
        ).scalar_one()
    assert isinstance(new_id, int)
    with roles_ready.engine.connect() as conn:
        stored = conn.execute(
            sa.text("SELECT question FROM answers WHERE id = :i"), {"i": new_id}
        ).scalar()
    assert stored == "Where do I park?"


def test_staff_sees_staff_rows_and_owner_keeps_full_access(roles_ready: Database) -> None:
    staff = sa.create_engine(
        _as(roles_ready.url, STAFF_ROLE, "staff-pw"), poolclass=sa.pool.NullPool
    )
    try:
        texts = {r[0] for r in _rows(staff, "SELECT text FROM chunks")}
        assert texts == {PUBLIC_TEXT, STAFF_SECRET}
        with staff.begin() as conn:
            conn.execute(sa.text("UPDATE documents SET title = 'Rates' WHERE slug = 'locum-rates'"))
        with pytest.raises(sa.exc.DBAPIError), staff.begin() as conn:
            conn.exec_driver_sql("DROP TABLE chunks")
    finally:
        staff.dispose()
    owner_texts = {r[0] for r in _rows(roles_ready.engine, "SELECT text FROM chunks")}
    assert owner_texts == {PUBLIC_TEXT, STAFF_SECRET}


def test_init_roles_is_idempotent_and_keeps_rls_forced(roles_ready: Database) -> None:
    again = init_roles(roles_ready, kiosk_password="other", staff_password="other2")
    assert any(line.startswith(f"Updated role {KIOSK_ROLE}") for line in again)
    flags = _rows(
        roles_ready.engine,
        "SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class "
        "WHERE relname IN ('documents', 'chunks') ORDER BY relname",
    )
    assert flags == [("chunks", True, True), ("documents", True, True)]
    policies = _rows(
        roles_ready.engine,
        "SELECT tablename, policyname FROM pg_policies WHERE tablename = 'documents' "
        "ORDER BY policyname",
    )
    assert policies == [
        ("documents", "kiosk_public"),
        ("documents", "owner_all"),
        ("documents", "staff_all"),
    ]
