"""Database roles for a shared PostgreSQL server: the kiosk's and the staff desk's.

``clinic-assistant db init-roles`` (run by IT as the role that owns the schema, i.e. the one that
ran the migrations) calls :func:`init_roles`. It is idempotent: run it again after every
``db upgrade`` and whenever a password changes.

What each role can do:

- ``clinic_kiosk`` reads only public documents and their chunks. Row-level security is ENABLED
  and FORCED on ``documents`` and ``chunks``, and its policies only return rows whose (document's)
  audience is ``'public'``; so even a bug in a retrieval query cannot show staff text on a kiosk.
  It can INSERT into ``answers`` (and read back only the new row's ``id``: INSERT ... RETURNING),
  read ``embedding_config`` and ``alembic_version`` (to check the model and schema), and nothing
  else: no UPDATE, no DELETE, no other table, no other person's question.
- ``clinic_staff`` reads every row except password hashes (it signs people in through the
  SECURITY DEFINER functions of migration 0008), maintains the documents (re-ingest from the staff
  desk), and writes appointments, slots, clinicians, departments, review decisions and answers;
  it only appends to ``audit_events`` (a trigger refuses UPDATE/DELETE/TRUNCATE for everyone). It
  cannot create or alter tables, or change ``embedding_config`` or ``staff_users``.
- Neither role may connect to another database: CONNECT is revoked from PUBLIC on this database
  (granted to the owner and the two roles) and, where this role is allowed, on ``postgres`` and
  ``template1``. Run as a superuser, row counts and sizes (pg_class.reltuples, pg_stat_* views,
  size functions) are hidden from all but the owner and staff; EXPLAIN estimates cannot be.
- The table owner keeps full access through an explicit permissive ``owner_all`` policy (FORCE
  applies row-level security to the owner too; a superuser bypasses it anyway). Migrations and
  ``evaluate`` run as the owner.

This module must never run migrations, never grant the application roles ownership, CREATE,
BYPASSRLS or superuser, and never print a password.
"""

from __future__ import annotations

import sqlalchemy as sa

from engine.errors import ConfigError
from engine.ops.db import Database

KIOSK_ROLE = "clinic_kiosk"
STAFF_ROLE = "clinic_staff"
RLS_TABLES = ("documents", "chunks")

# Tables the staff desk writes (INSERT/UPDATE/DELETE); review_decisions is append-only by trigger.
STAFF_WRITABLE = (
    "documents",
    "chunks",
    "answers",
    "review_decisions",
    "appointments",
    "slots",
    "clinicians",
    "departments",
    "queue_entries",
    "alerts",
)
# The kiosk reaches the waiting room only through these SECURITY DEFINER functions (migration
# 0002): check-in by reference or date of birth + initial, and a ticket's place in the queue.
QUEUE_FUNCTIONS = (
    "clinic_check_in(text, date, text, boolean, text, text, integer, integer)",
    "clinic_queue_position(integer, integer)",
    "clinic_call_staff(text)",
    "clinic_called_tickets(text, integer)",
)
# Retention purge (migration 0005): deletes only answers past their retention, never others.
PURGE_FUNCTION = "clinic_purge_expired_answers(integer)"
# A public search's full-text side (migration 0010): fixed to public documents in their own body.
PUBLIC_SEARCH_FUNCTIONS = (
    "clinic_public_keyword_arm(tsquery, integer)",
    "clinic_public_term_counts(text[])",
    "clinic_public_chunk_count()",
    "clinic_public_vocabulary()",
)
KIOSK_READABLE = (
    "documents",
    "chunks",
    "embedding_config",
    "alembic_version",
    # the router may be used only once measured (engine.answering.qualification)
    "model_measurements",
)
# Staff reads staff_users without password_hash, signs in through these functions (migration
# 0008), appends to audit_events (a trigger refuses UPDATE/DELETE for everyone) and keeps the
# sign-in throttle. sign_in_secret is the owner's alone.
STAFF_USER_COLUMNS = ("id", "username", "display_name", "is_active", "created_at")
SIGN_IN_FUNCTIONS = ("clinic_password_salt(text)", "clinic_password_matches(text, text)")
OWNER_ONLY = ("staff_users", "sign_in_secret")
# Where the runner is a superuser: statistics that count rows (staff documents included) are
# hidden from everyone but the owner and the staff role, in this database.
ROW_COUNT_COLUMNS = ("reltuples", "relpages", "relallvisible", "relallfrozen")
STATS_VIEWS = (
    "pg_stat_all_tables",
    "pg_stat_user_tables",
    "pg_stat_xact_all_tables",
    "pg_stat_xact_user_tables",
    "pg_statio_all_tables",
    "pg_statio_user_tables",
    "pg_stat_all_indexes",
    "pg_stat_user_indexes",
    "pg_statio_all_indexes",
    "pg_statio_user_indexes",
)
SIZE_FUNCTIONS = (
    "pg_relation_size(regclass)",
    "pg_relation_size(regclass, text)",
    "pg_total_relation_size(regclass)",
    "pg_table_size(regclass)",
    "pg_indexes_size(regclass)",
    "pg_stat_get_live_tuples(oid)",
    "pg_stat_get_dead_tuples(oid)",
    "pg_stat_get_tuples_inserted(oid)",
    "pg_stat_get_tuples_deleted(oid)",
    "pg_stat_get_numscans(oid)",
)
OTHER_DATABASES = ("postgres", "template1")

_PUBLIC_CHUNK = (
    "EXISTS (SELECT 1 FROM documents d WHERE d.id = chunks.document_id AND d.audience = 'public')"
)


def _literal(password: str) -> str:
    """A SQL string literal for a password (DDL takes no bind parameters)."""
    if not password or "\x00" in password:
        raise ConfigError("A role password must be non-empty text.")
    return "'" + password.replace("'", "''") + "'"


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _ensure_role(conn: sa.Connection, role: str, password: str) -> str:
    options = "LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS NOREPLICATION INHERIT"
    exists = conn.execute(sa.text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": role}).first()
    if exists is None:
        try:
            with conn.begin_nested():
                conn.exec_driver_sql(f"CREATE ROLE {role} {options} PASSWORD {_literal(password)}")
            return f"Created role {role}."
        except sa.exc.ProgrammingError:
            pass  # created concurrently (roles are cluster-wide): fall through to ALTER
    conn.exec_driver_sql(f"ALTER ROLE {role} {options} PASSWORD {_literal(password)}")
    return f"Updated role {role} (password set)."


def _create_policy(conn: sa.Connection, table: str, name: str, clause: str) -> None:
    conn.exec_driver_sql(f"DROP POLICY IF EXISTS {name} ON {table}")
    conn.exec_driver_sql(f"CREATE POLICY {name} ON {table} {clause}")


def _may_change(conn: sa.Connection, database: str) -> bool:
    """True when the current role is a superuser or owns ``database``."""
    return bool(
        conn.execute(
            sa.text(
                "SELECT r.rolsuper OR d.datdba = r.oid FROM pg_roles r, pg_database d "
                "WHERE r.rolname = current_user AND d.datname = :d"
            ),
            {"d": database},
        ).scalar()
    )


def _restrict_connect(conn: sa.Connection, database: str, owner: str) -> list[str]:
    """Only the owner and the two clinic roles may connect to this database; nobody but
    superusers and owners to ``postgres`` and ``template1`` (where this role may change that).
    CONNECT granted to PUBLIC cannot be taken from one role alone, hence from PUBLIC."""
    conn.exec_driver_sql(f"REVOKE CONNECT, TEMPORARY ON DATABASE {_ident(database)} FROM PUBLIC")
    conn.exec_driver_sql(f"GRANT CONNECT ON DATABASE {_ident(database)} TO {_ident(owner)}")
    done, skipped = [], []
    for other in OTHER_DATABASES:
        if other == database:
            continue
        if _may_change(conn, other):
            conn.exec_driver_sql(f"REVOKE CONNECT ON DATABASE {_ident(other)} FROM PUBLIC")
            done.append(other)
        else:
            skipped.append(other)
    lines = [
        f"CONNECT on {database}: {owner}, {KIOSK_ROLE} and {STAFF_ROLE} only"
        + (f"; revoked from PUBLIC on {', '.join(done)}." if done else ".")
    ]
    if skipped:
        lines.append(
            f"NOT DONE (needs a superuser or the owner): REVOKE CONNECT ON DATABASE "
            f"{', '.join(skipped)} FROM PUBLIC, so {KIOSK_ROLE} cannot connect there."
        )
    return lines


def _hide_row_counts(conn: sa.Connection, owner: str) -> list[str]:
    """Row counts and sizes in pg_class and the pg_stat views are readable by every role by
    default; a superuser can take them from PUBLIC in this database (pg_stats already hides
    tables under row-level security). EXPLAIN estimates cannot be hidden by any grant."""
    superuser = conn.execute(
        sa.text("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
    ).scalar()
    if not superuser:
        return [
            f"NOT DONE (needs a superuser): hiding row counts (pg_class.reltuples, pg_stat_* "
            f"views) from {KIOSK_ROLE}; run 'db init-roles' as a superuser to do it."
        ]
    trusted = f"{_ident(owner)}, {STAFF_ROLE}"
    columns: list[str] = list(
        conn.execute(
            sa.text(
                "SELECT attname FROM pg_attribute "
                "WHERE attrelid = 'pg_catalog.pg_class'::regclass AND attnum > 0 "
                "AND NOT attisdropped AND NOT (attname = ANY(:hidden)) ORDER BY attnum"
            ),
            {"hidden": list(ROW_COUNT_COLUMNS)},
        ).scalars()
    )
    conn.exec_driver_sql("REVOKE SELECT ON pg_catalog.pg_class FROM PUBLIC")
    conn.exec_driver_sql(
        f"GRANT SELECT ({', '.join(_ident(c) for c in columns)}) ON pg_catalog.pg_class TO PUBLIC"
    )
    conn.exec_driver_sql(f"GRANT SELECT ON pg_catalog.pg_class TO {trusted}")
    for view in STATS_VIEWS:
        conn.exec_driver_sql(f"REVOKE SELECT ON pg_catalog.{view} FROM PUBLIC")
        conn.exec_driver_sql(f"GRANT SELECT ON pg_catalog.{view} TO {trusted}")
    for function in SIZE_FUNCTIONS:
        conn.exec_driver_sql(f"REVOKE EXECUTE ON FUNCTION pg_catalog.{function} FROM PUBLIC")
        conn.exec_driver_sql(f"GRANT EXECUTE ON FUNCTION pg_catalog.{function} TO {trusted}")
    return [
        f"Row counts and sizes (pg_class.{'/'.join(ROW_COUNT_COLUMNS[:2])}, pg_stat_* views, "
        f"size functions) hidden from {KIOSK_ROLE} and PUBLIC in this database."
    ]


def init_roles(db: Database, *, kiosk_password: str, staff_password: str) -> list[str]:
    """Create or update the kiosk and staff roles, their grants and the row-level policies.

    Returns one human-readable line per thing done (printed by the CLI). Must run as the owner of
    the tables (or a superuser), after the schema is migrated."""
    lines: list[str] = []
    with db.engine.begin() as conn:
        # One init at a time across processes sharing this database.
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(7306120003)"))
        database: str = conn.execute(sa.text("SELECT current_database()")).scalar_one()
        owner = conn.execute(
            sa.text(
                "SELECT tableowner FROM pg_tables WHERE schemaname = 'public' AND tablename = :t"
            ),
            {"t": "documents"},
        ).scalar()
        if owner is None:
            raise ConfigError(
                "The database has no schema yet. Run 'clinic-assistant db upgrade' first."
            )
        lines.append(_ensure_role(conn, KIOSK_ROLE, kiosk_password))
        lines.append(_ensure_role(conn, STAFF_ROLE, staff_password))

        for role in (KIOSK_ROLE, STAFF_ROLE):
            conn.exec_driver_sql(f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {role}")
            conn.exec_driver_sql(f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM {role}")
            conn.exec_driver_sql(f"GRANT CONNECT ON DATABASE {_ident(database)} TO {role}")
            conn.exec_driver_sql(f"GRANT USAGE ON SCHEMA public TO {role}")

        # Kiosk: read public knowledge, write answers only.
        conn.exec_driver_sql(f"GRANT SELECT ON {', '.join(KIOSK_READABLE)} TO {KIOSK_ROLE}")
        conn.exec_driver_sql(f"GRANT INSERT, SELECT (id) ON answers TO {KIOSK_ROLE}")
        sequence = conn.execute(sa.text("SELECT pg_get_serial_sequence('answers', 'id')")).scalar()
        if sequence:
            conn.exec_driver_sql(f"GRANT USAGE ON SEQUENCE {sequence} TO {KIOSK_ROLE}")
        lines.append(
            f"{KIOSK_ROLE}: SELECT on {', '.join(KIOSK_READABLE)} (public rows only); "
            "INSERT on answers."
        )

        # Staff: read everything but password hashes, write the working tables.
        conn.exec_driver_sql(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {STAFF_ROLE}")
        conn.exec_driver_sql(f"REVOKE ALL ON {', '.join(OWNER_ONLY)} FROM {STAFF_ROLE}")
        conn.exec_driver_sql(
            f"GRANT SELECT ({', '.join(STAFF_USER_COLUMNS)}) ON staff_users TO {STAFF_ROLE}"
        )
        conn.exec_driver_sql(f"GRANT INSERT ON audit_events TO {STAFF_ROLE}")
        conn.exec_driver_sql(f"GRANT INSERT, UPDATE, DELETE ON sign_in_throttle TO {STAFF_ROLE}")
        for signature in SIGN_IN_FUNCTIONS:
            conn.exec_driver_sql(f"REVOKE ALL ON FUNCTION {signature} FROM PUBLIC")
            conn.exec_driver_sql(f"GRANT EXECUTE ON FUNCTION {signature} TO {STAFF_ROLE}")
        conn.exec_driver_sql(
            f"GRANT INSERT, UPDATE, DELETE ON {', '.join(STAFF_WRITABLE)} TO {STAFF_ROLE}"
        )
        conn.exec_driver_sql(
            f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {STAFF_ROLE}"
        )
        lines.append(
            f"{STAFF_ROLE}: SELECT on every table but password hashes (sign-in through "
            "clinic_password_salt/clinic_password_matches); INSERT/UPDATE/DELETE on "
            f"{', '.join(STAFF_WRITABLE)}, sign_in_throttle; INSERT only on audit_events."
        )
        lines += _restrict_connect(conn, database, owner)
        lines += _hide_row_counts(conn, owner)
        for signature in QUEUE_FUNCTIONS:
            conn.exec_driver_sql(
                f"GRANT EXECUTE ON FUNCTION {signature} TO {KIOSK_ROLE}, {STAFF_ROLE}"
            )
        lines.append(
            f"{KIOSK_ROLE}, {STAFF_ROLE}: check-in, queue position and call-staff functions."
        )
        conn.exec_driver_sql(
            f"GRANT EXECUTE ON FUNCTION {PURGE_FUNCTION} TO {KIOSK_ROLE}, {STAFF_ROLE}"
        )
        lines.append(f"{KIOSK_ROLE}, {STAFF_ROLE}: purge of answers past their retention.")
        for signature in PUBLIC_SEARCH_FUNCTIONS:
            conn.exec_driver_sql(
                f"GRANT EXECUTE ON FUNCTION {signature} TO {KIOSK_ROLE}, {STAFF_ROLE}"
            )
        lines.append(
            f"{KIOSK_ROLE}, {STAFF_ROLE}: public search functions (ids, scores and word counts of "
            "public chunks only)."
        )

        # Row-level security: forced, so the owner needs its own policy too.
        for table in RLS_TABLES:
            conn.exec_driver_sql(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
            conn.exec_driver_sql(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
            _create_policy(
                conn,
                table,
                "owner_all",
                f"FOR ALL TO {_ident(owner)} USING (true) WITH CHECK (true)",
            )
            _create_policy(
                conn, table, "staff_all", f"FOR ALL TO {STAFF_ROLE} USING (true) WITH CHECK (true)"
            )
        _create_policy(
            conn,
            "documents",
            "kiosk_public",
            f"FOR SELECT TO {KIOSK_ROLE} USING (audience = 'public')",
        )
        _create_policy(
            conn, "chunks", "kiosk_public", f"FOR SELECT TO {KIOSK_ROLE} USING ({_PUBLIC_CHUNK})"
        )
        lines.append(
            f"Row-level security enabled and forced on {', '.join(RLS_TABLES)}: {KIOSK_ROLE} "
            f"sees public rows only; {STAFF_ROLE} and the owner {owner} see all."
        )
        lines.append(
            f"Kiosk DSN: postgresql://{KIOSK_ROLE}:<password>@<host>/{database} "
            "(set [database] url or CLINIC_DATABASE_URL on each kiosk)."
        )
    return lines
