"""The doctor's chat model checks: each Ollama host reachable with the model pulled (and a chat
model, not a base model), or the OpenAI-compatible server reachable and serving the model; the
model router's measurement and the chat model's last qualification
(engine.answering.qualification). Every failure here is a warning: answers fall back to
extractive.

It must never pull a model, ask the model anything or record a measurement; it only reads.
"""

from __future__ import annotations

from engine.errors import ClinicError
from engine.ops import db as dbm
from engine.ops.doctor.report import Check
from engine.ops.settings import Settings


def _check_ollama(settings: Settings) -> list[Check]:
    o = settings.ollama
    if not o.hosts or o.generation == "extractive":
        reason = "no hosts configured" if not o.hosts else "generation = extractive"
        return [
            Check(
                "ollama",
                True,
                False,
                f"{reason}: answers are extractive (passages quoted with citations)",
                "",
            )
        ]
    from engine.answering.ollama_chat import OllamaChat

    checks: list[Check] = []
    for host in o.hosts:
        name = f"ollama {host}"
        try:
            chat = OllamaChat.from_settings(settings, host)
        except ClinicError as exc:
            checks.append(Check(name, False, False, str(exc), "Correct [ollama] hosts."))
            continue
        try:
            if not chat.is_reachable(timeout=o.connect_timeout):
                checks.append(
                    Check(
                        name,
                        False,
                        False,
                        "not reachable: answers fall back to extractive",
                        f"Start Ollama on {host} (OLLAMA_HOST=0.0.0.0 for other machines) and "
                        "check the firewall, or correct [ollama] hosts.",
                    )
                )
                continue
            try:
                present = chat.has_model()
            except ClinicError as exc:
                checks.append(Check(name, False, False, str(exc), "Check the Ollama server log."))
                continue
            if present and chat.has_chat_template() is False:
                checks.append(
                    Check(
                        name,
                        False,
                        False,
                        f"reachable; {o.model} is present but has no chat template (a base "
                        "model): it continues text instead of following the answer prompt",
                        "Use an instruct (chat) model, e.g. llama3.1:8b-instruct-q4_K_M, and "
                        "qualify it with 'clinic-assistant evaluate FILE --generate'.",
                    )
                )
            elif present:
                checks.append(Check(name, True, False, f"reachable; {o.model} is present", ""))
            else:
                checks.append(
                    Check(
                        name,
                        False,
                        False,
                        f"reachable, but the model {o.model} is not pulled: answers are extractive",
                        f"On {host}: ollama pull {o.model}",
                    )
                )
        finally:
            chat.close()
    return checks


def _check_openai(settings: Settings) -> list[Check]:
    """The OpenAI-compatible server ([generation] backend = "openai"): reachable, model served."""
    g = settings.generation
    if settings.ollama.generation == "extractive" or not g.openai_base_url:
        reason = "generation = extractive" if g.openai_base_url else "no openai_base_url"
        return [
            Check(
                "openai server",
                True,
                False,
                f"{reason}: answers are extractive (passages quoted with citations)",
            )
        ]
    from engine.answering.openai_chat import OpenAIChat

    try:
        chat = OpenAIChat.from_settings(settings)
    except ClinicError as exc:
        return [Check("openai server", False, False, str(exc), "Correct [generation].")]
    name = f"openai server {chat.base_url}"
    try:
        served = chat.available_models()
    except ClinicError as exc:
        return [
            Check(
                name,
                False,
                False,
                f"{exc} Answers fall back to extractive.",
                "Start the server (e.g. vLLM) there, or correct [generation] openai_base_url.",
            )
        ]
    finally:
        chat.close()
    if g.openai_model not in served:
        return [
            Check(
                name,
                False,
                False,
                f"reachable, but it does not serve {g.openai_model} (it serves "
                f"{', '.join(served) or 'nothing'}): answers are extractive",
                "Set [generation] openai_model to a served name, or start the server with it.",
            )
        ]
    return [Check(name, True, False, f"reachable; serves {g.openai_model}")]


def _chat_configured(settings: Settings) -> bool:
    if settings.ollama.generation == "extractive":
        return False
    if settings.generation.backend == "openai":
        return bool(settings.generation.openai_base_url)
    return bool(settings.ollama.hosts)


def _check_measurements(settings: Settings) -> list[Check]:
    """The router's measurement (when it is configured) and the last qualification of the chat
    model in use (engine.answering.qualification; written by 'clinic-assistant evaluate')."""
    from engine.answering.qualification import (
        GENERATION,
        chat_identity,
        latest_measurement,
        router_verdict,
    )

    if not _chat_configured(settings):
        return []
    backend, model = chat_identity(settings)
    checks: list[Check] = []
    try:
        database = dbm.Database(dbm.database_url(settings), pool_size=1)
    except Exception:
        return []
    try:
        if settings.ollama.router:
            verdict = router_verdict(database, backend, model)
            checks.append(
                Check("model router", verdict.allowed, False, verdict.detail, verdict.fix)
            )
        qualify = (
            "Run 'clinic-assistant evaluate evaluation/questions.yaml --generate' "
            "(docs/evaluation.md)."
        )
        try:
            last = latest_measurement(database, GENERATION, backend, model)
        except Exception:
            last = None
        threshold = settings.generation.min_useful_rate
        if last is None:
            checks.append(
                Check(
                    "model qualification",
                    False,
                    False,
                    f"{model} ({backend}) was never qualified on this database's documents",
                    qualify,
                )
            )
            return checks
        f = last.figures
        stamp = last.measured_at.date().isoformat() if last.measured_at else "?"
        detail = (
            f"{model}: {last.rate * 100:.1f}% useful answers ({f.get('useful', '?')}/"
            f"{last.questions} answerable), {f.get('false_refusals', '?')} false refusals, "
            f"{f.get('wrong_details_caught', '?')} wrong details caught, out-of-scope refused "
            f"{f.get('out_of_scope_refused', '?')}/{f.get('out_of_scope', '?')} ({stamp})"
        )
        if last.rate < threshold:
            checks.append(
                Check(
                    "model qualification",
                    False,
                    False,
                    f"{detail}: below the {threshold * 100:.0f}% threshold; most kiosk answers "
                    "will be refusals or quotes",
                    'Use a stronger chat model (or set [ollama] generation = "extractive"), '
                    "then " + qualify[0].lower() + qualify[1:],
                )
            )
        else:
            checks.append(Check("model qualification", True, False, detail))
    finally:
        database.dispose()
    return checks
