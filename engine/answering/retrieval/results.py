"""What a search returns: each candidate passage with its evidence (``RetrievedPassage``: the
similarity, the arms' ranks, the term share, the fused score) and the search's result
(``SearchResult``: the passages the gate kept, every candidate, the term weights, the quotes and
what ``Retriever.judge`` needs to judge the candidates again).

Plain frozen values: this module must never query the database, judge a passage or hold an ORM
row (nothing here leaves the engine but these values).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.answering.extractive import Quote


@dataclass(frozen=True)
class RetrievedPassage:
    chunk_id: int
    document_slug: str
    document_title: str
    audience: str
    heading_path: str
    text: str
    similarity: float
    vector_rank: int | None
    keyword_rank: int | None
    reviewed_on: dt.date | None
    term_share: float = 0.0  # IDF-weighted share of the question's terms found in the passage
    fused_score: float = 0.0
    # For a question that says the asker's situation before or after what it asks
    # (``extractive.question_parts.situation_parts``): the similarity and term share of what is
    # asked alone.
    asked_similarity: float | None = None
    asked_share: float | None = None

    @property
    def label(self) -> str:
        return self.heading_path or self.document_title

    @property
    def prompt_text(self) -> str:
        """Heading path and body: what is offered to the model and checked by the guard."""
        return f"{self.label}\n{self.text}"


@dataclass(frozen=True)
class SearchResult:
    passages: tuple[RetrievedPassage, ...]  # passed the gate, fused order, at most max_passages
    candidates: tuple[RetrievedPassage, ...]  # everything both arms returned (for evaluation)
    term_weights: Mapping[str, float] = field(default_factory=dict)  # question lexeme -> IDF
    # The sentences of ``passages`` that answer, best first (``Quote.passage`` indexes passages).
    quotes: tuple[Quote, ...] = ()
    # The question as searched (chat spellings rewritten) and, per question lexeme, the document
    # lexemes that count as it: what ``Retriever.judge`` needs to judge the candidates again.
    question_text: str = ""
    alternatives: Mapping[str, frozenset[str]] = field(default_factory=dict)

    @property
    def best_similarity(self) -> float | None:
        return max((c.similarity for c in self.candidates), default=None)
