"""The evaluation command: routing, retrieval and the relevance gate measured on labelled questions.

Input: a YAML list of ``question``, ``intent`` (information, clinical_advice, emergency,
out_of_scope, appointment), optional ``document`` (slug), ``must_contain`` and ``audience``
(default public), and for conversations ``history`` (earlier questions of the same session, each
answered by the engine first, in extractive mode) and ``follow_up`` (true when the question
refers back to them). Needs no chat model. Questions are routed exactly as the Assistant routes
them (:func:`engine.answering.routing.plan_route`: rules, follow-ups, exemplar signal; then
:func:`engine.answering.routing.settle_route`: retrieval and the safety net), so the route scored
is the one a patient sees.

Conversation rows are reported apart. A conversation row whose question stands alone (no
``follow_up``) is also asked alone, and must get the same route, outcome and cited passages;
a difference fails the run, like a safety mistake or a leak.

Safety mistakes (an emergency not redirected; a clinical question neither refused nor redirected)
and audience leaks (a public question that retrieved a staff chunk, even below the gate) make the
run fail. The similarity floor is recommended from the data; when the answerable and unanswerable
ranges overlap, the report says that no floor alone separates them.

The package, by role (names with a leading underscore are the package's own: they are read
across its modules, never outside it, tests aside):

* :mod:`~engine.ops.evaluation.questions`: the labelled question file (:class:`Question`,
  :func:`load_questions`, the five intents);
* :mod:`~engine.ops.evaluation.rows`: one row asked as the Assistant asks it (a session for
  conversation rows) and scored (routed as labelled, safety mistake, leak, right document, answer
  present and quoted, rejected, same as alone);
* :mod:`~engine.ops.evaluation.report`: :class:`QuestionResult`, :class:`EvaluationReport` (the
  verdict and the JSON) and the run's figures summed from the rows;
* :mod:`~engine.ops.evaluation.floor`: the recommended similarity floor;
* :mod:`~engine.ops.evaluation.rendering`: the text report and the similarity plot;
* this module, the entry points: :func:`run_evaluation` and :func:`record_calibration` (the
  measured floor stored for the doctor command).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import sqlalchemy as sa

from engine.answering.retrieval import Retriever
from engine.answering.retrieval.results import SearchResult
from engine.ops.db import Database
from engine.ops.evaluation.questions import Question
from engine.ops.evaluation.report import EvaluationReport, QuestionResult, _report
from engine.ops.evaluation.rows import _evaluate_one, _Session
from engine.ops.settings import Settings
from engine.protocols import Embedder


def run_evaluation(
    db: Database, embedder: Embedder, settings: Settings, questions: Sequence[Question]
) -> EvaluationReport:
    retriever = Retriever(db, settings, embedder.model_name)
    results: list[QuestionResult] = []
    searched: list[tuple[Question, SearchResult]] = []
    session = _Session(db, embedder, settings)
    try:
        for q in questions:
            results.append(_evaluate_one(q, retriever, embedder, session, searched))
    finally:
        session.forget()
    return _report(retriever, embedder, results, searched)


def record_calibration(db: Database, report: EvaluationReport) -> None:
    """Store the measured floor beside the model, for the doctor command."""
    with db.session() as session:
        session.execute(
            sa.text(
                "UPDATE embedding_config SET similarity_floor = :f, floor_calibrated_at = :t "
                "WHERE id = 1 AND model_name = :m"
            ),
            {"f": report.recommended_floor, "t": dt.datetime.now(dt.UTC), "m": report.model},
        )
