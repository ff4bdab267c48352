"""What ingest reads from and writes to PostgreSQL, apart from removing one document by hand.

The ingest lock (one ingest at a time per database, :class:`IngestBusy` for the second), the
stored documents under a run's slugs (read once, at the start), one document's write, and the
run's end: the removal of documents whose files left the folders given, the audit event, the
planner statistics and the full-text index's pending list. A document's write (an upsert of its
row, its chunks replaced) goes to the server in one round trip (psycopg's pipeline mode), in its
own transaction, committed without waiting for its WAL flush; the run's end is one last
transaction, committed synchronously, which flushes them all.

What it must never do: leave a document half replaced (its row and chunks change together or not
at all), let two ingests run at once against one database, remove a document that is not under a
folder the run was given, or fail a run over an optimisation (statistics and the pending list
run in savepoints).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
import sqlalchemy as sa

from engine.errors import ClinicError
from engine.knowledge.documents import display_path
from engine.knowledge.ingest.reading import _Existing, _Read
from engine.knowledge.ingest.results import IngestReport, IngestResult
from engine.ops import db as dbm

# The package's one logger: log lines name engine.knowledge.ingest, whichever module wrote them.
log = logging.getLogger(__package__)

# Empties the full-text index's pending list into the index (see ``_refresh_statistics``).
_CLEAN_PENDING_SQL = "SELECT gin_clean_pending_list('chunks_tsv_gin')"

# A document's write (``_write``): its row inserted or updated (a file re-ingested on
# its own stays owned by the folder it came from, so a later run over that folder still removes
# it when it is deleted), then its chunks replaced. ``xmax = 0`` only on a freshly inserted row.
_UPSERT_DOCUMENT_SQL = (
    "INSERT INTO documents (slug, title, audience, source_path, source_folder, content_hash, "
    "reviewed_on, ingested_by, loader_warnings) VALUES (%(slug)s, %(title)s, %(audience)s, "
    "%(path)s, %(folder)s, %(hash)s, %(reviewed)s, %(user)s, CAST(%(warnings)s AS jsonb)) "
    "ON CONFLICT (slug) DO UPDATE SET title = EXCLUDED.title, audience = EXCLUDED.audience, "
    "source_folder = CASE WHEN documents.source_path = EXCLUDED.source_path "
    "THEN documents.source_folder ELSE EXCLUDED.source_folder END, "
    "source_path = EXCLUDED.source_path, content_hash = EXCLUDED.content_hash, "
    "reviewed_on = EXCLUDED.reviewed_on, ingested_at = now(), "
    "ingested_by = EXCLUDED.ingested_by, loader_warnings = EXCLUDED.loader_warnings "
    "RETURNING (xmax = 0)"
)
_DELETE_CHUNKS_SQL = (
    "DELETE FROM chunks WHERE document_id = (SELECT id FROM documents WHERE slug = %(slug)s)"
)
_INSERT_CHUNKS_SQL = (
    "INSERT INTO chunks (document_id, ordinal, heading_path, text, token_estimate, embedding) "
    "SELECT d.id, c.ordinal, c.heading, c.body, c.tokens, CAST(c.embedding AS vector) "
    "FROM documents d, unnest(CAST(%(ordinals)s AS integer[]), CAST(%(headings)s AS text[]), "
    "CAST(%(texts)s AS text[]), CAST(%(tokens)s AS integer[]), CAST(%(embeddings)s AS text[])) "
    "AS c(ordinal, heading, body, tokens, embedding) WHERE d.slug = %(slug)s"
)


#: pg_try_advisory_lock key shared by every ingest against one database ("CLINGEST").
INGEST_LOCK_KEY = 0x434C494E47455354


class IngestBusy(ClinicError):
    """Another ingest holds the database's ingest lock."""


@contextmanager
def _exclusive(db: dbm.Database) -> Iterator[None]:
    """Hold the database's ingest lock for the run, or raise :class:`IngestBusy` at once.

    Two ingests of a new folder at once both inserted the same slugs (IntegrityError); one
    at a time is also what a person expects from "ingest"."""
    with db.engine.connect() as conn:
        locked = conn.execute(
            sa.text("SELECT pg_try_advisory_lock(:key)"), {"key": INGEST_LOCK_KEY}
        ).scalar()
        conn.commit()
        if not locked:
            raise IngestBusy(
                "Another ingest is running on this database (from the staff app or the "
                "command line); try again when it has finished."
            )
        try:
            yield
        finally:
            conn.execute(sa.text("SELECT pg_advisory_unlock(:key)"), {"key": INGEST_LOCK_KEY})
            conn.commit()


def _existing_for(db: dbm.Database, slugs: Sequence[str]) -> dict[str, _Existing]:
    """What is stored under these slugs, in one query for the whole run (no other ingest
    can change it meanwhile: the run holds the ingest lock, and a run's slugs are unique)."""
    if not slugs:
        return {}
    with db.session() as session:
        rows = session.execute(
            sa.text(
                "SELECT d.slug, d.source_path, d.content_hash, d.audience, d.title, "
                "(SELECT count(*) FROM chunks c WHERE c.document_id = d.id) AS n "
                "FROM documents d WHERE d.slug = ANY(:slugs)"
            ),
            {"slugs": list(dict.fromkeys(slugs))},
        ).all()
    return {row[0]: _Existing(row[1], row[2], row[3], row[4], int(row[5])) for row in rows}


def _write(db: dbm.Database, user: str, item: _Read, vectors: Sequence[Sequence[float]]) -> str:
    """Replace the document's row and chunks in one transaction, its statements sent in
    one round trip (psycopg's pipeline mode: none needs an earlier one's answer)."""
    with db.session() as session:
        connection = session.connection().connection.driver_connection
        assert connection is not None
        try:
            row = _replace_document(connection, user, item, vectors)
        except psycopg.Error as exc:  # as SQLAlchemy raises it (a lost server: "unreachable")
            raise sa.exc.DBAPIError.instance(None, None, exc, psycopg.Error) from exc
    assert row is not None
    return "created" if row[0] else "updated"


def _remove_missing(
    session: sa.orm.Session, roots: Sequence[str], kept: set[str]
) -> list[IngestResult]:
    if not roots:
        return []
    removed: list[IngestResult] = []
    rows = session.execute(
        sa.text(
            "SELECT id, slug, title, audience, source_path FROM documents "
            "WHERE source_folder = ANY(:roots)"
        ),
        {"roots": list(roots)},
    ).all()
    for row in rows:
        if row.source_path in kept:
            continue
        session.execute(sa.text("DELETE FROM documents WHERE id = :id"), {"id": row.id})
        removed.append(
            IngestResult(row.source_path, row.slug, row.title, row.audience, "removed", 0)
        )
    return removed


def _audit(session: sa.orm.Session, user: str, report: IngestReport, sources: list[str]) -> None:
    changed = [r for r in report.results if r.status != "unchanged"]
    _insert_audit(
        session,
        user,
        "ingest",
        {
            "sources": sources,
            "changes": [{"slug": r.slug, "status": r.status, "error": r.error} for r in changed],
            "unchanged": report.count("unchanged"),
        },
    )


def _replace_document(
    connection: psycopg.Connection[Any], user: str, item: _Read, vectors: Sequence[Sequence[float]]
) -> Any:
    """Send a document's statements in one round trip; the upsert's row ``(created,)``."""
    chunks = item.chunks
    with connection.pipeline(), connection.cursor() as upsert, connection.cursor() as rest:
        # A document's commit does not wait for its WAL flush (2-3 ms each, most of a
        # write): the run's last transaction, committed synchronously, flushes them all,
        # so a finished run is as durable as before. A crash mid-run can lose only
        # documents not yet reported, and their files re-ingest on the next run.
        rest.execute("SET LOCAL synchronous_commit = off")
        upsert.execute(
            _UPSERT_DOCUMENT_SQL,
            {
                "slug": item.slug,
                "title": item.title,
                "audience": item.audience,
                "path": item.shown,
                "folder": display_path(item.root),
                "hash": item.digest,
                "reviewed": item.reviewed_on,
                "user": user,
                "warnings": json.dumps(list(item.warnings)),
            },
        )
        rest.execute(_DELETE_CHUNKS_SQL, {"slug": item.slug})
        rest.execute(
            _INSERT_CHUNKS_SQL,
            {
                "slug": item.slug,
                "ordinals": [c.ordinal for c in chunks],
                "headings": [c.heading_label for c in chunks],
                "texts": [c.text for c in chunks],
                "tokens": [c.token_estimate for c in chunks],
                "embeddings": [dbm.vector_literal(v) for v in vectors],
            },
        )
        return upsert.fetchone()


def _refresh_statistics(session: sa.orm.Session) -> None:
    """Refresh the planner's statistics after a change. Autovacuum never analyzes a table of
    fewer than 50 rows, and without statistics for ``documents`` the planner misjudges the
    audience filter and sorts every chunk instead of using the HNSW index (10k chunks:
    53 ms instead of 3 ms per question, see benchmarks/README.md). Each step runs in a
    savepoint of the run's last transaction: a failure costs the optimisation, never the
    audit event or the removals."""
    try:
        with session.begin_nested():
            session.execute(sa.text("ANALYZE documents, chunks"))
    except Exception:  # statistics are an optimisation: never fail an ingest over them
        log.warning("could not refresh planner statistics", exc_info=True)
    # New chunks wait in the full-text index's pending list (GIN fastupdate, up to 4 MB),
    # which only VACUUM or autovacuum empties: every keyword lookup scans it, and its size
    # makes the planner cost the index so high that it reads every chunk's tsvector instead
    # (10k chunks: a 45 ms keyword arm instead of 1 ms; benchmarks/README.md). Moved into
    # the index proper here, once per ingest that changed something.
    try:
        with session.begin_nested():
            session.execute(sa.text(_CLEAN_PENDING_SQL))
    except Exception:  # an optimisation too
        log.info("could not flush the full-text index's pending list", exc_info=True)


def _insert_audit(session: sa.orm.Session, user: str, action: str, details: object) -> None:
    session.execute(
        sa.text(
            "INSERT INTO audit_events (username, action, details) "
            "VALUES (:u, :a, CAST(:d AS jsonb))"
        ),
        {"u": user, "a": action, "d": json.dumps(details)},
    )
