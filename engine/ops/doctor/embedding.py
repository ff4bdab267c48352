"""The doctor's embedding checks: the configured embedding model is one this installation loads
offline, its file is present and undamaged (sha256), its folder can be assembled, and it is the
model (and dimension) the database was built with; and the similarity floor in use is configured
for that model and agrees with the one evaluation last recommended.

It must never re-embed, download a model or change the config. Its one write is the embedding
model folder the apps assemble anyway.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from engine.errors import ClinicError
from engine.ops import db as dbm
from engine.ops.doctor.report import Check
from engine.ops.settings import Settings


def _check_embedding(settings: Settings, recorded: Any) -> Check:
    from engine.knowledge.embeddings import MODELS, prepare_model_dir, sha256_of

    name = settings.embedding.model
    reembed = f"Run '{dbm.REEMBED_COMMAND}', or set [embedding] model back."
    if settings.embedding.ollama_model:
        detail = f"embedding through Ollama ({settings.embedding.ollama_model})"
        if recorded is not None and recorded.model_name != settings.embedding.ollama_model:
            return Check(
                "embedding model",
                False,
                True,
                f"{detail}, but the database was built with {recorded.model_name}",
                reembed,
            )
        return Check("embedding model", True, False, detail, "")
    spec = MODELS.get(name)
    if spec is None:
        return Check(
            "embedding model",
            False,
            True,
            f"{name!r} is not a model this installation can load offline",
            f"Set [embedding] model to one of: {', '.join(MODELS)}.",
        )
    reinstall = "Reinstall Clinic Assistant (the model ships with it)."
    try:
        onnx = spec.onnx_path()
        if not onnx.is_file():
            return Check("embedding model", False, True, f"{onnx} is missing", reinstall)
        actual = sha256_of(onnx)
        if actual != spec.onnx_sha256:
            return Check(
                "embedding model",
                False,
                True,
                f"{onnx} is damaged (sha256 {actual[:12]}..., expected {spec.onnx_sha256[:12]}...)",
                reinstall,
            )
        prepare_model_dir(spec, settings.model_dir)
    except ClinicError as exc:
        return Check("embedding model", False, True, str(exc), reinstall)
    except OSError as exc:
        return Check(
            "embedding model",
            False,
            True,
            f"the model folder {settings.model_dir} cannot be prepared: {exc}",
            "Make the data folder writable for this user.",
        )
    detail = f"{name} ({spec.dimension} dimensions), sha256 verified"
    if recorded is None:
        return Check("embedding model", True, False, detail + "; no documents ingested yet", "")
    if recorded.model_name != name or recorded.dimension != spec.dimension:
        return Check(
            "embedding model",
            False,
            True,
            f"configured {name} ({spec.dimension} dimensions), but the database was built with "
            f"{recorded.model_name} ({recorded.dimension} dimensions)",
            reembed,
        )
    return Check("embedding model", True, False, detail + "; matches the database", "")


def _check_floor(settings: Settings, recorded: Any) -> Check:
    model = settings.embedding.ollama_model or settings.embedding.model
    floors = settings.retrieval.similarity_floors
    evaluate = "Run 'clinic-assistant evaluate' and set the floor it recommends."
    if model not in floors:
        return Check(
            "similarity floor",
            False,
            True,
            f"no similarity floor is configured for {model}: questions would be refused",
            evaluate + f' Put it under [retrieval.similarity_floors] as "{model}" = <floor>.',
        )
    configured = floors[model]
    if recorded is None or recorded.floor_calibrated_at is None:
        return Check(
            "similarity floor",
            False,
            False,
            f"{configured:.2f} from the config, never calibrated on this database's documents",
            evaluate,
        )
    when = recorded.floor_calibrated_at
    stamp = when.date().isoformat() if isinstance(when, dt.datetime) else str(when)
    measured = recorded.similarity_floor
    if measured is not None and abs(float(measured) - configured) > 0.01:
        return Check(
            "similarity floor",
            False,
            False,
            f"the config uses {configured:.2f} but evaluation on {stamp} recommended "
            f"{float(measured):.2f}",
            f'Set "{model}" = {float(measured):.2f} under [retrieval.similarity_floors].',
        )
    return Check("similarity floor", True, False, f"{configured:.2f}, calibrated on {stamp}", "")
