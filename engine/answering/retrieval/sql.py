"""The statements one search runs, and the audiences a reader may see.

``visible_audiences`` fails closed (only exactly 'staff' sees staff documents); the audiences go
into the SQL WHERE clause of both arms, written into the statement's text by
``search_statement`` from known values only. ``_PREPARE_SQL`` sets the search's settings and
reads the question's lexemes and the documents' generation; ``_VECTOR_SQL`` is the vector arm
alone (the benchmarks' and the plan test's reference). The comments beside each statement say
why it is written the way it is.

It must never filter audience in memory, bind the search statement's audiences or limit (a
generic plan would guess them and could leave the HNSW index), put the query vector in a CTE
column, or write a value that is not one of the known audiences into a statement.
"""

from __future__ import annotations

import functools

import sqlalchemy as sa


def visible_audiences(audience: str) -> list[str]:
    """The audiences a reader may see. Fails closed: only exactly 'staff' sees staff rows."""
    return ["public", "staff"] if audience == "staff" else ["public"]


_VECTOR_SQL = sa.text(
    """
    SELECT c.id, 1 - (c.embedding <=> CAST(:q AS vector)) AS similarity
    FROM chunks c JOIN documents d ON d.id = c.document_id
    WHERE d.audience = ANY(CAST(:audiences AS varchar[]))
    ORDER BY c.embedding <=> CAST(:q AS vector)
    LIMIT :k
    """
)

# Both arms and the passages' details in one statement (one round trip). Each arm keeps the
# audience in its own WHERE clause and the query vector is a statement parameter, so the vector arm
# is the same HNSW index scan as ``_VECTOR_SQL`` (a test checks the plan). The vector arm is
# re-sorted by exact distance: an iterative (relaxed order) index scan may return near-ties out of
# order. Terms are OR-ed for recall (the gate judges matched-term evidence, not this query).
# ``:orquery`` is NULL when the question has no lexemes (then the keyword arm is empty). Of each
# passage's lexemes only those among ``:words`` (the question's and their alternatives: all the
# term share looks at) are sent back, not the whole tsvector: the passage's lexemes less those
# that are not among ``:words`` (two ``ts_delete`` in C: about 0.3 ms of a 3 ms statement at 10k
# chunks less than unnesting every lexeme of every passage to compare it). A vector-arm passage's
# similarity reuses the distance that arm computed (the same operator on the same values). The
# details join also names the arms' ids as one array: under row-level security (the kiosk) the
# planner otherwise hashed every public chunk to find the few dozen it needs (10k chunks: 13 ms
# of 18).
_SEARCH_TEMPLATE = """
    WITH v AS (
        SELECT s.id, s.distance, row_number() OVER (ORDER BY s.distance, s.id) AS rank
        FROM (
            SELECT c.id, c.embedding <=> CAST(:q AS vector) AS distance
            FROM chunks c JOIN documents d ON d.id = c.document_id
            WHERE d.audience = ANY(CAST(:audiences AS varchar[]))
            ORDER BY c.embedding <=> CAST(:q AS vector)
            LIMIT :k
        ) s
    ),
    kw AS (
        SELECT s.id, row_number() OVER (ORDER BY s.score DESC, s.id) AS rank
        FROM ({keyword_arm}) s
    )
    SELECT c.id, d.slug, d.title, d.audience, c.heading_path, c.text, d.reviewed_on,
           1 - coalesce(v.distance, c.embedding <=> CAST(:q AS vector)) AS similarity,
           tsvector_to_array(ts_delete(c.tsv, tsvector_to_array(
               ts_delete(c.tsv, CAST(:words AS text[]))))) AS lexemes,
           v.rank AS vector_rank, kw.rank AS keyword_rank,
           1 - (c.embedding <=> CAST(:asked AS vector)) AS asked_similarity
    FROM v FULL JOIN kw ON kw.id = v.id
    JOIN chunks c ON c.id = coalesce(v.id, kw.id)
        AND c.id = ANY(ARRAY(SELECT id FROM v UNION ALL SELECT id FROM kw))
    JOIN documents d ON d.id = c.document_id
    WHERE d.audience = ANY(CAST(:audiences AS varchar[]))
    """
# The keyword arm for a reader who may see staff documents: the table's own GIN index.
_KEYWORD_ARM = """
            SELECT c.id, ts_rank_cd(c.tsv, q.query) AS score
            FROM chunks c JOIN documents d ON d.id = c.document_id,
                 (SELECT to_tsquery('english', CAST(:orquery AS text)) AS query) q
            WHERE CAST(:orquery AS text) IS NOT NULL
              AND d.audience = ANY(CAST(:audiences AS varchar[])) AND c.tsv @@ q.query
            ORDER BY score DESC, c.id
            LIMIT :k"""
# The keyword arm of a public search (migration 0010): a SECURITY DEFINER function fixed to public
# documents in its own body, because row-level security keeps a kiosk's ``@@`` off the GIN index
# (it is not leakproof) and every question would read every public chunk's tsvector. It returns
# ids and scores only; the passages' text is read above, under the reader's own policies.
_PUBLIC_KEYWORD_ARM = """
            SELECT f.id, f.score
            FROM clinic_public_keyword_arm(to_tsquery('english', CAST(:orquery AS text)), :k) f"""


@functools.lru_cache(maxsize=8)
def search_statement(audiences: tuple[str, ...], k: int) -> sa.TextClause:
    """The one-statement search for readers of ``audiences`` (``visible_audiences``; public only
    takes the public keyword arm), with the audiences and ``k`` written into the text.

    Written in, not bound, because the search runs on a generic plan (``_PREPARE_SQL`` forces it:
    planning this statement for every question cost about 0.5 ms of its 3 ms at 10k chunks). With
    the audiences and the limit known, the planner costs the vector arm exactly as it does for a
    plan made for one question's values (the query vector's value does not enter any estimate),
    so it picks the same plan, and the HNSW scan for the same tables (a test checks the plan);
    bound, a generic plan guessed the limit and could pick an exact scan instead. The keyword
    arm and the details are ordered in full (ties by id), so their plan never changes a row."""
    if any(a not in ("public", "staff") for a in audiences) or not audiences:
        raise ValueError(f"unknown audiences {audiences!r}")
    arm = _PUBLIC_KEYWORD_ARM if audiences == ("public",) else _KEYWORD_ARM
    literal = "CAST(ARRAY[" + ", ".join(f"'{a}'" for a in audiences) + "] AS varchar[])"
    text = (
        _SEARCH_TEMPLATE.replace("{keyword_arm}", arm)
        .replace("CAST(:audiences AS varchar[])", literal)
        .replace(":k)", f"{int(k)})")
        .replace("LIMIT :k", f"LIMIT {int(k)}")
    )
    return sa.text(text)


# The search's settings, the question's lexemes and the documents' generation (for the IDF
# cache) in one round trip. The settings last to the end of the transaction: the HNSW scan's
# candidate list, and generic plans for the statements that follow (``search_statement``).
_PREPARE_SQL = sa.text(
    """
    SELECT set_config('hnsw.ef_search', '100', true),
           set_config('hnsw.iterative_scan', 'relaxed_order', true),
           set_config('plan_cache_mode', 'force_generic_plan', true),
           ARRAY(SELECT DISTINCT unnest(tsvector_to_array(to_tsvector('english', :text)))),
           (SELECT count(*) FROM documents), (SELECT max(ingested_at) FROM documents)
    """
)


def _quote_lexeme(lexeme: str) -> str:
    return "'" + lexeme.replace("'", "''").replace("\\", "\\\\") + "'"
