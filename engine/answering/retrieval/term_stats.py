"""The term statistics behind the IDF weights: a per-process cache (``_TERM_STATS``) of lexeme
document frequencies and chunk counts per database and audience, the typo-correction vocabulary
(every lexeme of the visible chunks by first letter), the statements that read them, and the
IDF weight itself (``_idf``).

It must never count a staff chunk for a public search (public counts and the public vocabulary
go through the migration 0010 functions, whatever role asks), keep counts across a change of the
visible documents, or let the vocabulary read slow an answer past ``VOCABULARY_TIMEOUT``.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence

import sqlalchemy as sa

from engine.answering.query_words import by_initial
from engine.ops.db import fetch_rows

_DOC_FREQ_SQL = sa.text(
    """
    SELECT lex, (SELECT count(*) FROM chunks WHERE tsv @@ to_tsquery('simple', quote_literal(lex)))
    FROM unnest(CAST(:lexemes AS text[])) AS lex
    """
)
_PUBLIC_DOC_FREQ_SQL = sa.text(
    "SELECT lex, chunks FROM clinic_public_term_counts(CAST(:lexemes AS text[]))"
)
_CHUNK_COUNT_SQL = sa.text("SELECT count(*) FROM chunks")
_PUBLIC_CHUNK_COUNT_SQL = sa.text("SELECT clinic_public_chunk_count()")


# At most this long for the once-per-generation vocabulary read (typo correction's word list).
VOCABULARY_TIMEOUT = "1000ms"
# Sets the statement timeout for the rest of the transaction; returns the one it replaced.
_TIMEOUT_SQL = sa.text(
    "SELECT current_setting('statement_timeout'), set_config('statement_timeout', :value, true)"
)
_VOCABULARY_SQL = sa.text("SELECT word, ndoc FROM ts_stat('SELECT tsv FROM chunks')")
_PUBLIC_VOCABULARY_SQL = sa.text("SELECT word, ndoc FROM clinic_public_vocabulary()")

_GENERATION_SQL = sa.text("SELECT count(*), max(ingested_at) FROM documents")


class _TermStats:
    """Per-process cache of lexeme document frequencies and the chunk count, for the IDF weights.

    Counts are kept per database and audience: a public search counts public chunks only
    (through the migration 0010 functions, whatever role asks), so a kiosk and the owner running
    ``evaluate`` weigh a public question's words alike. Only missing lexemes are counted. The cache
    is dropped whenever the visible documents change (their count or latest ingest time).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._generation: dict[str, object] = {}
        self._counts: dict[str, dict[str, int]] = {}
        self._totals: dict[str, int] = {}
        self._vocabularies: dict[str, dict[str, dict[str, int]]] = {}

    def lookup(
        self,
        session: sa.orm.Session | sa.Connection,
        key: str,
        lexemes: Sequence[str],
        generation: tuple[object, ...] | None = None,
        *,
        public: bool,
    ) -> tuple[dict[str, int], int]:
        """``generation`` is the documents' (count, latest ingest) when the caller read it;
        ``public``: count public chunks only (a public search), else every chunk."""
        if generation is None:
            generation = tuple(session.execute(_GENERATION_SQL).one())
        with self._lock:
            if self._generation.get(key) != generation:
                self._generation[key] = generation
                self._counts[key] = {}
                self._totals.pop(key, None)
                self._vocabularies.pop(key, None)
            counts = self._counts[key]
            missing = [lex for lex in lexemes if lex not in counts]
            total = self._totals.get(key)
        if missing:
            fresh = {
                str(r[0]): int(r[1])
                for r in fetch_rows(
                    session, _PUBLIC_DOC_FREQ_SQL if public else _DOC_FREQ_SQL, {"lexemes": missing}
                )
            }
        else:
            fresh = {}
        if total is None:
            counted = fetch_rows(
                session, _PUBLIC_CHUNK_COUNT_SQL if public else _CHUNK_COUNT_SQL, {}
            )
            total = max(1, int(counted[0][0]))
        with self._lock:
            if self._generation.get(key) == generation:
                self._counts[key].update(fresh)
                self._totals[key] = total
            known = {lex: self._counts[key].get(lex, fresh.get(lex, 0)) for lex in lexemes}
        return known, total

    def vocabulary(
        self, session: sa.orm.Session | sa.Connection, key: str, *, public: bool
    ) -> dict[str, dict[str, int]]:
        """Every lexeme of the chunks ``lookup`` counts, with its chunk count, by first letter
        (for typo correction; read once per generation, after ``lookup`` has checked it): a
        public question is never corrected towards a word only staff documents hold.

        Reading it scans every chunk's tsvector (measured 0.2 s at 1k chunks and 1.4 s at 10k
        on the loaded 2-core machine), so it runs under ``VOCABULARY_TIMEOUT``; past that,
        this generation gets no typo correction (empty vocabulary) rather than a slow answer."""
        with self._lock:
            known = self._vocabularies.get(key)
        if known is None:
            try:
                with session.begin_nested():  # a timeout rolls back to here, not the search
                    before = session.execute(_TIMEOUT_SQL, {"value": VOCABULARY_TIMEOUT}).scalar()
                    rows = session.execute(
                        _PUBLIC_VOCABULARY_SQL if public else _VOCABULARY_SQL
                    ).all()
                    session.execute(_TIMEOUT_SQL, {"value": before})
                known = by_initial((str(r[0]), int(r[1])) for r in rows)
            except sa.exc.OperationalError:
                known = {}
            with self._lock:
                self._vocabularies[key] = known
        return known


_TERM_STATS = _TermStats()


def _idf(total: int, frequency: int) -> float:
    return math.log(1 + total / (1 + frequency))
