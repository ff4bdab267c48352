"""The full-text side of a public search, fixed to public documents, for a role under row-level
security.

Row-level security keeps a kiosk's full-text match off the GIN index: ``@@`` is not leakproof, so
PostgreSQL may not evaluate it before the kiosk's policy, and every question read every public
chunk's tsvector (a 30 ms keyword arm at 10k chunks, the whole search 4-5x the owner's). These
SECURITY DEFINER functions run as the tables' owner, so the index is usable, and each filters on
``audience = 'public'`` in its own body: they take no audience argument, so no caller can widen them
to staff documents. They return only chunk ids, scores and word counts; a passage's text is still
read under the caller's own policies. The keyword arm declares ``ROWS 20`` (a search's usual
limit): with the default estimate of 1,000 rows the planner joined the passages' details by
hashing every chunk instead of looking up the few it needs.

- ``clinic_public_keyword_arm(query, lim)``: the best ``lim`` public chunks matching ``query``.
- ``clinic_public_term_counts(lexemes)``: how many public chunks hold each lexeme (IDF weights).
- ``clinic_public_chunk_count()``: how many public chunks there are (IDF weights).
- ``clinic_public_vocabulary()``: every lexeme of public chunks with its chunk count (typo
  correction's word list), so a public question is never corrected towards a staff-only word.

Revision ID: 0010
Revises: 0009
"""

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

SIGNATURES = (
    "clinic_public_keyword_arm(tsquery, integer)",
    "clinic_public_term_counts(text[])",
    "clinic_public_chunk_count()",
    "clinic_public_vocabulary()",
)

FUNCTIONS = (
    r"""
CREATE OR REPLACE FUNCTION clinic_public_keyword_arm(query tsquery, lim integer)
RETURNS TABLE (id integer, score real)
LANGUAGE sql STABLE SECURITY DEFINER ROWS 20 SET search_path = public, pg_temp AS $fn$
    SELECT c.id, ts_rank_cd(c.tsv, query) AS score
      FROM chunks c JOIN documents d ON d.id = c.document_id
     WHERE d.audience = 'public' AND c.tsv @@ query
     ORDER BY score DESC, c.id
     LIMIT least(greatest(lim, 0), 200)
$fn$
""",
    r"""
CREATE OR REPLACE FUNCTION clinic_public_term_counts(lexemes text[])
RETURNS TABLE (lex text, chunks bigint)
LANGUAGE sql STABLE SECURITY DEFINER ROWS 10 SET search_path = public, pg_temp AS $fn$
    SELECT l.lex,
           (SELECT count(*) FROM chunks c JOIN documents d ON d.id = c.document_id
             WHERE d.audience = 'public'
               AND c.tsv @@ to_tsquery('simple', quote_literal(l.lex)))
      FROM unnest(lexemes[1:200]) AS l(lex)
$fn$
""",
    r"""
CREATE OR REPLACE FUNCTION clinic_public_chunk_count()
RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
    SELECT count(*) FROM chunks c JOIN documents d ON d.id = c.document_id
     WHERE d.audience = 'public'
$fn$
""",
    r"""
CREATE OR REPLACE FUNCTION clinic_public_vocabulary()
RETURNS TABLE (word text, ndoc integer)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
    SELECT s.word, s.ndoc FROM ts_stat(
        'SELECT c.tsv FROM chunks c JOIN documents d ON d.id = c.document_id '
        'WHERE d.audience = ''public''') AS s
$fn$
""",
)


def upgrade() -> None:
    for function in FUNCTIONS:
        op.execute(function)
    for signature in SIGNATURES:
        op.execute(f"REVOKE ALL ON FUNCTION {signature} FROM PUBLIC")
    # Databases whose roles were made before this migration: grant what init_roles now grants.
    op.execute(
        "DO $$ BEGIN "
        "IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'clinic_kiosk') THEN "
        + " ".join(f"GRANT EXECUTE ON FUNCTION {s} TO clinic_kiosk;" for s in SIGNATURES)
        + " END IF; "
        "IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'clinic_staff') THEN "
        + " ".join(f"GRANT EXECUTE ON FUNCTION {s} TO clinic_staff;" for s in SIGNATURES)
        + " END IF; END $$"
    )


def downgrade() -> None:
    for signature in SIGNATURES:
        op.execute(f"DROP FUNCTION IF EXISTS {signature}")
