"""The database foundation: schema, constraints, indexes, embedded server, model mismatch."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from engine.errors import DatabaseUnavailable, SchemaMismatch
from engine.ops import db as dbm
from engine.ops.settings import DatabaseSettings, Settings


def test_schema_has_hnsw_gin_and_audience_check(db: dbm.Database) -> None:
    with db.engine.connect() as conn:
        indexes = dict(
            conn.execute(
                sa.text("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'chunks'")
            ).all()
        )
        checks = conn.execute(
            sa.text(
                "SELECT pg_get_constraintdef(oid) FROM pg_constraint "
                "WHERE conname = 'documents_audience_check'"
            )
        ).scalar_one()
    assert "USING hnsw (embedding vector_cosine_ops)" in indexes["chunks_embedding_hnsw"]
    assert "USING gin (tsv)" in indexes["chunks_tsv_gin"]
    assert "public" in checks and "staff" in checks


def test_audience_outside_public_and_staff_is_rejected_by_the_database(db: dbm.Database) -> None:
    with pytest.raises(sa.exc.IntegrityError), db.engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO documents (slug, title, audience, source_path, source_folder, "
                "content_hash) VALUES ('x', 'X', 'everyone', 'x.md', '.', 'h')"
            )
        )


def test_schema_is_at_head_after_open(db: dbm.Database) -> None:
    assert dbm.current_revision(db) == dbm.head_revision()


def test_migrations_match_the_models(db: dbm.Database) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from engine.models import Base

    with db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []


def test_different_embedding_model_is_refused_with_the_reembed_command(
    db: dbm.Database,
) -> None:
    dbm.check_embedding_model(db, "model-a", 384)
    dbm.check_embedding_model(db, "model-a", 384)  # same model: fine
    with pytest.raises(SchemaMismatch, match="clinic-assistant db reembed"):
        dbm.check_embedding_model(db, "model-b", 384)


def test_switching_model_changes_the_vector_dimension(db: dbm.Database) -> None:
    dbm.check_embedding_model(db, "model-a", 384)
    dbm.switch_embedding_model(db, "model-b", 768)
    dbm.check_embedding_model(db, "model-b", 768)
    with db.engine.connect() as conn:
        typmod = conn.execute(
            sa.text(
                "SELECT atttypmod FROM pg_attribute WHERE attrelid = 'chunks'::regclass "
                "AND attname = 'embedding'"
            )
        ).scalar()
    assert typmod == 768


def test_review_decisions_cannot_be_changed(db: dbm.Database) -> None:
    with db.engine.begin() as conn:
        answer_id = conn.execute(
            sa.text(
                "INSERT INTO answers (channel, audience, question, route, outcome, shown_text) "
                "VALUES ('kiosk', 'public', 'q', 'information', 'no_answer', 't') RETURNING id"
            )
        ).scalar()
        conn.execute(
            sa.text(
                "INSERT INTO review_decisions (answer_id, decision, reviewer, prev_hash, hash) "
                "VALUES (:a, 'other', 'amy', '0', 'h1')"
            ),
            {"a": answer_id},
        )
    with pytest.raises(sa.exc.DBAPIError, match="append-only"), db.engine.begin() as conn:
        conn.execute(sa.text("UPDATE review_decisions SET comment = 'x'"))
    with pytest.raises(sa.exc.DBAPIError, match="append-only"), db.engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM review_decisions"))


def test_unreachable_database_is_a_user_safe_error(tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path,
        database=DatabaseSettings(
            url="postgresql://nobody:secret@127.0.0.1:1/clinic", connect_timeout=1
        ),
    )
    with pytest.raises(DatabaseUnavailable) as info:
        dbm.open_database(settings)
    assert "secret" not in str(info.value)
    assert "***" in str(info.value)


def test_embedded_server_starts_in_the_data_dir_and_is_shared(pg_server_root: Path) -> None:
    # The session's server is already running under pg_server_root: joining it is instant.
    settings = Settings(data_dir=pg_server_root)
    url = dbm.start_embedded_server(settings)
    assert str(pg_server_root) in url or "host=" in url
    assert (pg_server_root / "pgdata" / "PG_VERSION").read_text().strip() == "18"
    database = dbm.Database(url)
    database.ping()
    database.dispose()


def test_vector_literal_is_pgvectors_text_form_to_seven_significant_digits() -> None:
    """Ingest writes and the search sends vectors through this one function: the same text as
    formatting each value on its own, for tiny, huge, negative-zero and ordinary values."""
    values = [0.123456789, -0.5, 1e-40, 1.5e30, -0.0, 3.0, 0.1 + 0.2]
    assert dbm.vector_literal(values) == "[" + ",".join(f"{x:.7g}" for x in values) + "]"
    assert dbm.vector_literal(values) == "[0.1234568,-0.5,1e-40,1.5e+30,-0,3,0.3]"
    assert dbm.vector_literal([]) == "[]"


def test_rows_through_the_driver_are_the_statements_rows_in_the_same_transaction(
    db: dbm.Database,
) -> None:
    """What every question's search runs (``fetch_rows``): the rows ``execute`` would give,
    inside the caller's transaction (a setting made there is seen), on a cursor kept for the
    pooled connection."""
    statement = sa.text("SELECT :a + 1, CAST(:b AS text[]), current_setting('hnsw.ef_search')")
    with db.connection() as connection:
        connection.execute(sa.text("SET LOCAL hnsw.ef_search = 77"))
        first = dbm.fetch_rows(connection, statement, {"a": 41, "b": ["x", "y"]})
        again = dbm.fetch_rows(connection, statement, {"a": 1, "b": []})
        expected = [tuple(r) for r in connection.execute(statement, {"a": 41, "b": ["x", "y"]})]
    assert first == expected == [(42, ["x", "y"], "77")]
    assert again == [(2, [], "77")]
    with db.session() as session:  # a session's connection works the same way
        assert dbm.fetch_rows(session, sa.text("SELECT 100 % 7"), {}) == [(2,)]


def test_a_connection_lost_mid_search_is_a_user_safe_error_and_the_next_search_works(
    db: dbm.Database,
) -> None:
    with pytest.raises(DatabaseUnavailable) as info, db.connection() as connection:
        dbm.fetch_rows(
            connection,
            sa.text("SELECT pg_terminate_backend(pg_backend_pid()), :secret"),
            {"secret": "Mrs Example, 07700 900123"},
        )
    assert "07700" not in str(info.value)
    with db.connection() as connection:
        assert dbm.fetch_rows(connection, sa.text("SELECT :n"), {"n": 5}) == [(5,)]


def test_a_failing_statement_through_the_driver_hides_its_parameters(db: dbm.Database) -> None:
    with pytest.raises(sa.exc.ProgrammingError) as info, db.connection() as connection:
        dbm.fetch_rows(connection, sa.text("SELECT no_such_column, :who"), {"who": "Jane"})
    assert "Jane" not in str(info.value)
    assert "parameters hidden" in str(info.value)
