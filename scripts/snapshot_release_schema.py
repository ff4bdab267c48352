"""Write tests/data/release-<version>.sql: a database as the given release left it.

Run once per release (before the next migration is written):
    .venv/bin/python scripts/snapshot_release_schema.py 0.1.0

It starts a throw-away embedded server, migrates to head, adds a little data of every kind
(a document with chunks, an answer, an appointment) and dumps schema and data with the bundled
pg_dump. tests/engine/test_migrations.py restores each snapshot and upgrades it to head, checking
that no data is lost.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import sqlalchemy as sa

from engine.ops import db as dbm
from engine.ops.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = """
INSERT INTO embedding_config (id, model_name, dimension) VALUES
    (1, 'sentence-transformers/all-MiniLM-L6-v2', 384);
INSERT INTO documents (id, slug, title, audience, source_path, source_folder, content_hash,
    reviewed_on) VALUES
    (1, 'hours', 'Opening hours', 'public', '/k/public/hours.md', '/k', 'h1', '2026-10-01'),
    (2, 'rates', 'Internal rates', 'staff', '/k/staff/rates.md', '/k', 'h2', NULL);
INSERT INTO chunks (document_id, ordinal, heading_path, text, token_estimate, embedding)
SELECT 1, 0, 'Opening hours > Weekdays', 'We open at 8:00 and close at 18:30.', 10,
       array_fill(0.05, ARRAY[384])::vector
UNION ALL
SELECT 2, 0, 'Internal rates > Locums', 'Locum rate is 95 pounds per hour.', 9,
       array_fill(0.04, ARRAY[384])::vector;
INSERT INTO answers (channel, audience, question, route, outcome, shown_text) VALUES
    ('kiosk', 'public', 'do you have a gym?', 'information', 'no_answer', 'I don''t know.');
INSERT INTO staff_users (username, password_hash)
    VALUES ('amy', 'scrypt$16384$8$1$c2FsdA==$aGFzaA==');
INSERT INTO departments (id, name) VALUES (1, 'Cardiology');
INSERT INTO clinicians (id, name, department_id) VALUES (1, 'Dr Priya Patel', 1);
INSERT INTO slots (id, clinician_id, starts_at, duration_minutes) VALUES
    (1, 1, '2030-01-07 09:00+00', 20);
INSERT INTO appointments (slot_id, reference, patient_name, contact_number, created_by) VALUES
    (1, 'CL-7K2M9Q', 'Sam Example', '020 7946 0000', 'amy');
"""


def main(version: str) -> int:
    root = Path(tempfile.mkdtemp(prefix="clinic-snapshot-"))
    root.chmod(0o755)
    try:
        settings = Settings(data_dir=root)
        url = dbm.start_embedded_server(settings)
        database = dbm.Database(url)
        dbm.upgrade(database)
        with database.engine.begin() as conn:
            conn.exec_driver_sql(SAMPLE)
        database.dispose()
        pg_dump = dbm.pg_tool("pg_dump")
        parsed = sa.engine.make_url(url)
        dump = subprocess.run(
            [
                str(pg_dump),
                "--no-owner",
                "--no-privileges",
                "--host",
                str(parsed.query["host"]),
                "--username",
                "postgres",
                dbm.DATABASE_NAME,
            ],
            check=False,
            capture_output=True,
            text=True,
        )
        if dump.returncode != 0:
            print(dump.stderr, file=sys.stderr)
            return 1
        target = ROOT / "tests" / "data" / f"release-{version}.sql"
        target.write_text(dump.stdout, encoding="utf-8")
        print(f"wrote {target} ({len(dump.stdout.splitlines())} lines)")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "0.1.0"))
