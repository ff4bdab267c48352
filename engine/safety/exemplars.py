"""The second routing signal: the nearest labelled exemplars of a question's embedding.

The rules (:mod:`engine.safety.router`) are the floor and run first. This signal compares the
question's MiniLM query embedding (the same vector retrieval uses, computed once) with a bank of
labelled phrasings in ``exemplars.yaml``, organised by class of phrasing: emergency,
clinical-advice, appointment, and information near-misses (published guidance that sounds
clinical or urgent). It only ever raises a question to a safer or more specific route:

* emergency or clinical advice when the best exemplar of that route reaches a similarity and
  beats the best information near-miss by a margin (``THRESHOLDS``: a looser similarity needs
  a wider margin); emergency is checked first;
* appointment (from information only) on the same test with its own pair;
* between the two stop routes, the nearer decides (:func:`nearer_emergency`): a clinical
  verdict whose nearest emergency phrasing is at least as near as its nearest clinical one is
  an emergency, unless the question dates it weeks or more ago. The caller applies it only
  where the rules found nothing.

Its verdict feeds :func:`engine.safety.router.combine`: a stop route from either signal wins,
and information needs both. The thresholds were set on evaluation/questions.yaml and
evaluation/tuning.yaml (never on evaluation/unseen.yaml or evaluation/holdout.yaml) and are
reported in docs/evaluation.md.

It must never: call the embedder itself for a question (the caller passes the vector it already
has), lower a route, raise on any vector, or be consulted before the deterministic emergency
rules (the instant emergency path needs no embedding).
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import yaml

from engine.events import Route
from engine.protocols import Embedder
from engine.safety.danger_signs import dated
from engine.safety.router import canonical_question

BANK_PATH = Path(__file__).with_name("exemplars.yaml")
ROUTES: Mapping[str, Route] = {
    "emergency": Route.EMERGENCY,
    "clinical_advice": Route.CLINICAL,
    "appointment": Route.APPOINTMENT,
    "information": Route.INFORMATION,
}
# (similarity, margin) pairs: a route is suggested when its nearest exemplar reaches the
# similarity AND beats the nearest information near-miss by the margin, for any pair. A looser
# similarity needs a wider margin. Measured, see the module docstring.
THRESHOLDS: Mapping[Route, tuple[tuple[float, float], ...]] = {
    Route.EMERGENCY: ((0.55, 0.10), (0.62, 0.03)),
    Route.CLINICAL: ((0.40, 0.12), (0.55, 0.05)),
    Route.APPOINTMENT: ((0.52, 0.10),),
}


@dataclass(frozen=True)
class Exemplar:
    route: Route
    phrasing_class: str
    text: str


@dataclass(frozen=True)
class ExemplarVerdict:
    """The route the exemplars suggest (None: no opinion) and why, for the review log."""

    route: Route | None
    label: str
    similarity: float
    # The similarity of the nearest exemplar of each route (read again by the safety net,
    # engine.safety.safety_net, without embedding anything).
    nearest: Mapping[Route, float] = field(default_factory=dict)


def load_bank(path: Path = BANK_PATH) -> tuple[Exemplar, ...]:
    """The exemplars of ``path``: ``route -> phrasing class -> list of phrasings``."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(raw, dict):
        raise ValueError(f"{path}: expected a mapping of routes")
    out: list[Exemplar] = []
    for route_name, classes in raw.items():
        route = ROUTES.get(str(route_name))
        if route is None or not isinstance(classes, dict):
            raise ValueError(f"{path}: unknown route {route_name!r}")
        for phrasing_class, texts in classes.items():
            if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
                raise ValueError(f"{path}: {route_name}/{phrasing_class} is not a list of text")
            out += [Exemplar(route, str(phrasing_class), t) for t in texts]
    return tuple(out)


class ExemplarBank:
    """The labelled exemplars and their embeddings (computed once per embedding model)."""

    def __init__(self, exemplars: Sequence[Exemplar]) -> None:
        self.exemplars = tuple(exemplars)
        self._routes = np.array([list(ROUTES.values()).index(e.route) for e in self.exemplars])
        digest = hashlib.sha256("\n".join(e.text for e in self.exemplars).encode()).hexdigest()
        self._digest = digest
        self._vectors: dict[tuple[str, int], np.ndarray] = {}
        self._lock = threading.Lock()

    def vectors(self, embedder: Embedder) -> np.ndarray:
        key = (embedder.model_name, embedder.dimension)
        with self._lock:
            matrix = self._vectors.get(key)
            if matrix is None:
                rows = [embedder.embed_query(e.text) for e in self.exemplars]
                matrix = np.asarray(rows, dtype=np.float32)
                norms = np.linalg.norm(matrix, axis=1, keepdims=True)
                matrix = matrix / np.where(norms == 0, 1.0, norms)
                self._vectors[key] = matrix
            return matrix

    def best_per_route(
        self, vector: Sequence[float], embedder: Embedder
    ) -> dict[Route, tuple[float, str]]:
        """For each route, the similarity of its nearest exemplar and that exemplar's class."""
        matrix = self.vectors(embedder)
        query = np.asarray(vector, dtype=np.float32)
        norm = float(np.linalg.norm(query))
        if not self.exemplars or norm == 0 or query.shape[0] != matrix.shape[1]:
            return {}
        sims = matrix @ (query / norm)
        best: dict[Route, tuple[float, str]] = {}
        for index, route in enumerate(ROUTES.values()):
            members = np.flatnonzero(self._routes == index)
            if members.size == 0:
                continue
            top = int(members[np.argmax(sims[members])])
            best[route] = (float(sims[top]), self.exemplars[top].phrasing_class)
        return best

    def classify(self, vector: Sequence[float], embedder: Embedder) -> ExemplarVerdict:
        """The safest route whose nearest exemplar is close enough and beats information."""
        best = self.best_per_route(vector, embedder)
        nearest = {route: similarity for route, (similarity, _) in best.items()}
        info = best.get(Route.INFORMATION, (0.0, ""))[0]
        for route in (Route.EMERGENCY, Route.CLINICAL, Route.APPOINTMENT):
            similarity, phrasing_class = best.get(route, (0.0, ""))
            if any(similarity >= t and similarity >= info + m for t, m in THRESHOLDS[route]):
                return ExemplarVerdict(
                    route, f"{route.value}/{phrasing_class}", similarity, nearest
                )
        similarity, phrasing_class = best.get(Route.INFORMATION, (0.0, ""))
        return ExemplarVerdict(None, f"information/{phrasing_class}", similarity, nearest)


def nearer_emergency(verdict: ExemplarVerdict, question: str) -> bool:
    """Whether a clinical verdict of the exemplars is really an emergency: the question's
    nearest emergency phrasing is at least as near as its nearest clinical-advice phrasing, and
    the question does not date what it describes weeks or more ago.

    The clinical verdict already says the question is not published information; between the
    two stop routes, the nearer class decides. The emergency thresholds are measured against
    the information near-misses, so an emergency in words no exemplar uses ("my grandad is
    muddled and his lips look dark, is it his heart?") often passes only the clinical pair.
    The caller applies this only where the rules found nothing (measured: where the rules said
    clinical it raised true clinical questions, docs/evaluation.md, "Fourth safety round")."""
    if verdict.route is not Route.CLINICAL:
        return False
    emergency = verdict.nearest.get(Route.EMERGENCY, 0.0)
    if emergency < verdict.nearest.get(Route.CLINICAL, 0.0):
        return False
    return not dated(canonical_question(question))


_DEFAULT: ExemplarBank | None = None
_DEFAULT_LOCK = threading.Lock()


def default_bank() -> ExemplarBank:
    """The shipped bank, loaded once per process."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            _DEFAULT = ExemplarBank(load_bank())
        return _DEFAULT
