"""Health checks for IT: can this machine answer questions, and if not, what to do about it.

:func:`run_checks` returns one :class:`Check` per concern: the config file, the database (reachable,
PostgreSQL and pgvector versions, schema revision), the embedding model (file, hash, tokenizer,
dimension recorded in the database), the similarity floor's calibration, the Ollama hosts (or
the OpenAI-compatible server), the model router's measurement and the chat model's last
qualification (engine.answering.qualification), the log folder, the embedded server's socket (a
private folder, peer sign-in only) and the permissions of logs, backups and the data folder (each
with the command that fixes it). A check is *blocking* when its failure stops answering (database
down, schema behind and not upgradable, embedding model broken or mismatched); everything else is a
warning (no model server still answers extractively).

This module must never change anything: no migrations, no ingest, no model pulls. The only writes
are a probe file in the log folder (removed at once) and the embedding model folder the apps
assemble anyway.
"""

from __future__ import annotations

import datetime as dt
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic.script import ScriptDirectory

from engine.errors import ClinicError
from engine.ops import db as dbm
from engine.ops import private_files
from engine.ops.settings import Settings, load_settings

MIN_POSTGRES = 15
MIN_PGVECTOR = (0, 5, 0)  # HNSW indexes


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    blocking: bool
    detail: str
    fix: str = ""

    @property
    def label(self) -> str:
        if self.ok:
            return "OK"
        return "FAIL" if self.blocking else "WARN"


def _check_config(settings: Settings) -> Check:
    path = settings.config_file
    if path is None:
        return Check(
            "config",
            True,
            False,
            "no config file found; built-in defaults and CLINIC_* variables are in use",
            "",
        )
    try:
        load_settings(path, settings.data_dir)
    except ClinicError as exc:
        return Check("config", False, True, str(exc), f"Correct {path} (docs/configuration.md).")
    return Check("config", True, False, f"{path} is valid", "")


def _version_tuple(text: str) -> tuple[int, ...]:
    parts = []
    for piece in text.split("."):
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


def _check_server(conn: sa.Connection) -> list[Check]:
    checks: list[Check] = []
    number = int(conn.execute(sa.text("SHOW server_version_num")).scalar_one())
    shown: str = conn.execute(sa.text("SHOW server_version")).scalar_one()
    major = number // 10000
    checks.append(
        Check(
            "postgresql",
            major >= MIN_POSTGRES,
            major < MIN_POSTGRES,
            f"PostgreSQL {shown}",
            "" if major >= MIN_POSTGRES else f"Upgrade the server to PostgreSQL {MIN_POSTGRES}+.",
        )
    )
    installed = conn.execute(
        sa.text("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
    ).scalar()
    available = conn.execute(
        sa.text("SELECT default_version FROM pg_available_extensions WHERE name = 'vector'")
    ).scalar()
    version = installed or available
    if version is None:
        checks.append(
            Check(
                "pgvector",
                False,
                True,
                "the pgvector extension is not available on this server",
                "Install pgvector 0.5+ on the database server (package postgresql-NN-pgvector).",
            )
        )
    else:
        good = _version_tuple(str(version)) >= MIN_PGVECTOR
        state = "installed" if installed else "available, not yet created"
        checks.append(
            Check(
                "pgvector",
                good,
                not good,
                f"pgvector {version} ({state})",
                "" if good else "Upgrade pgvector to 0.5 or later (HNSW indexes).",
            )
        )
    return checks


def _can_migrate(conn: sa.Connection) -> bool:
    return bool(
        conn.execute(
            sa.text(
                "SELECT rolsuper OR has_schema_privilege('public', 'CREATE') "
                "FROM pg_roles WHERE rolname = current_user"
            )
        ).scalar()
    )


def _check_schema(db: dbm.Database) -> Check:
    head = dbm.head_revision()
    current = dbm.current_revision(db)
    if current == head:
        return Check("schema", True, False, f"at revision {head} (latest)", "")
    known = {
        script.revision
        for script in ScriptDirectory.from_config(dbm.alembic_config()).walk_revisions()
    }
    if current is not None and current not in known:
        return Check(
            "schema",
            False,
            True,
            f"the database is at revision {current}, which this version does not know "
            f"(its latest is {head}): the database was upgraded by a newer version",
            "Install the same Clinic Assistant version on this machine as on the others.",
        )
    with db.engine.connect() as conn:
        upgradable = _can_migrate(conn)
    detail = f"at revision {current or 'nothing'}, this version needs {head}"
    if upgradable:
        return Check(
            "schema",
            False,
            False,
            detail + " (applied automatically when an app starts)",
            "Run 'clinic-assistant db upgrade' now to apply it once, as IT.",
        )
    return Check(
        "schema",
        False,
        True,
        detail + "; this database role cannot apply migrations",
        "Run 'clinic-assistant db upgrade' with the owner's DSN, then 'db init-roles' again.",
    )


def _recorded_model(db: dbm.Database) -> Any:
    with db.engine.connect() as conn:
        return conn.execute(
            sa.text(
                "SELECT model_name, dimension, similarity_floor, floor_calibrated_at "
                "FROM embedding_config WHERE id = 1"
            )
        ).first()


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


def _check_logs(settings: Settings) -> Check:
    folder = settings.log_dir
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-", delete=True) as probe:
            probe.write(b"ok")
    except OSError as exc:
        return Check(
            "logs",
            False,
            False,
            f"{folder} is not writable: {exc}",
            "Make the folder writable for this user, or move the data with --data-dir.",
        )
    return Check("logs", True, False, f"{folder} is writable", "")


def _check_socket(settings: Settings) -> Check:
    """The embedded server's socket: a 0700 folder owned by its user, peer rules only."""
    name = "database socket"
    if settings.database.url.strip():
        return Check(name, True, False, "a shared server: who connects is its pg_hba.conf's rule")
    if os.name != "posix":  # pragma: no cover
        return Check(name, True, False, "not checked on this system")
    from engine.ops import embedded_pg

    pgdata = settings.pgdata_dir.resolve()
    info = embedded_pg.read_pid_file(pgdata)
    restart = (
        "Close every clinic app on this machine and start one again: the embedded server then "
        "restarts with a private socket (docs/deployment.md)."
    )
    if info is None or not info.socket_dir:
        return Check(name, True, False, "the embedded server is not running (checked at start)")
    folder = Path(info.socket_dir)
    problems = embedded_pg.socket_problems(pgdata, folder)
    if problems:
        return Check(name, False, False, f"{folder}: {'; '.join(problems)}", restart)
    return Check(name, True, False, f"{folder} is 0700, owned by the server; peer sign-in only")


def _check_private_files(settings: Settings) -> list[Check]:
    """Logs and backups: 0600 files in 0700 folders; the data folder not readable by others."""
    checks = []
    for name, folder in (
        ("log files", settings.log_dir),
        ("backups", settings.data_dir / "backups"),
    ):
        loose = private_files.exposed(private_files.tree(folder))
        if loose:
            checks.append(
                Check(
                    name,
                    False,
                    False,
                    f"readable by other users: {', '.join(loose[:3])}"
                    + (f" and {len(loose) - 3} more" if len(loose) > 3 else ""),
                    f"chmod 700 '{folder}' && chmod 600 '{folder}'/*",
                )
            )
        else:
            checks.append(Check(name, True, False, f"{folder}: files 0600 in a 0700 folder"))
    data = settings.data_dir
    try:
        mode = stat.S_IMODE(data.stat().st_mode)
    except OSError:
        return checks
    if mode & 0o066:
        wanted = "711" if os.geteuid() == 0 else "700"
        checks.append(
            Check(
                "data folder",
                False,
                False,
                f"{data} is {mode:04o}: other users can list or change it",
                f"chmod {wanted} '{data}'",
            )
        )
    else:
        checks.append(Check("data folder", True, False, f"{data} is {mode:04o}"))
    return checks


def _database_checks(settings: Settings) -> tuple[list[Check], Any]:
    try:
        url = dbm.database_url(settings)
        database = dbm.Database(url, pool_size=1, connect_timeout=settings.database.connect_timeout)
    except ClinicError as exc:
        return [_database_down(settings, str(exc))], None
    except Exception as exc:  # a malformed DSN
        return [_database_down(settings, f"the database URL is not valid: {exc}")], None
    try:
        try:
            database.ping()
        except ClinicError as exc:
            cause = exc.__cause__
            reason = getattr(cause, "orig", cause) or exc
            return [_database_down(settings, f"{dbm.redact(url)}: {reason}".strip())], None
        checks = [Check("database", True, True, f"reachable at {dbm.redact(url)}", "")]
        with database.engine.connect() as conn:
            checks.extend(_check_server(conn))
        schema = _check_schema(database)
        checks.append(schema)
        recorded = None
        if schema.ok or not schema.blocking:
            try:
                recorded = _recorded_model(database)
            except sa.exc.ProgrammingError:
                recorded = None  # no schema yet
        return checks, recorded
    finally:
        database.dispose()


def _database_down(settings: Settings, detail: str) -> Check:
    if settings.database.url:
        fix = (
            "Check [database] url (or CLINIC_DATABASE_URL): host, port, database name, user and "
            "password; that the server is running; and that pg_hba.conf admits this machine."
        )
    else:
        fix = (
            f"The embedded database in {settings.pgdata_dir} did not start: read "
            f"{settings.pgdata_dir / 'log'}, and check the folder is writable."
        )
    return Check("database", False, True, f"cannot connect: {detail}", fix)


def _check_kiosk_pin(settings: Settings) -> Check:
    from engine.ops.settings import KioskSettings

    pin = settings.kiosk.exit_pin
    if pin == KioskSettings().exit_pin:
        return Check(
            "kiosk exit PIN",
            False,
            False,
            "the kiosk's staff exit PIN is still the shipped default",
            "Set [kiosk] exit_pin (or CLINIC_KIOSK_PIN) to a PIN only staff know.",
        )
    if len(pin) < 4 or not pin.isdigit():
        return Check(
            "kiosk exit PIN",
            False,
            False,
            "the kiosk's exit PIN should be at least 4 digits (the PIN pad has digits only)",
            "Set [kiosk] exit_pin to 4 or more digits.",
        )
    return Check("kiosk exit PIN", True, False, "set (not the default)", "")


def _check_ocr(settings: Settings) -> Check:
    from engine.knowledge.loaders.ocr import ocr_status

    available, detail = ocr_status()
    if not settings.ingest.ocr:
        return Check(
            "OCR", True, False, "switched off ([ingest] ocr = false): scanned PDFs are refused"
        )
    return Check(
        "OCR",
        available,
        False,
        detail,
        "" if available else "Optional: apt-get install tesseract-ocr to read scanned PDFs.",
    )


def run_checks(settings: Settings) -> list[Check]:
    """Every health check, in the order a person would fix them."""
    checks = [_check_config(settings)]
    db_checks, recorded = _database_checks(settings)
    checks.extend(db_checks)
    checks.append(_check_embedding(settings, recorded))
    if db_checks[0].ok:
        checks.append(_check_floor(settings, recorded))
    if settings.generation.backend == "openai":
        checks.extend(_check_openai(settings))
    else:
        checks.extend(_check_ollama(settings))
    if db_checks[0].ok:
        checks.extend(_check_measurements(settings))
    checks.append(_check_logs(settings))
    checks.append(_check_socket(settings))
    checks.extend(_check_private_files(settings))
    checks.append(_check_ocr(settings))
    checks.append(_check_kiosk_pin(settings))
    return checks


def report_lines(checks: list[Check]) -> list[str]:
    """The doctor's printout: ``OK|WARN|FAIL name: detail`` and an indented ``fix:`` hint."""
    lines: list[str] = []
    for check in checks:
        lines.append(f"{check.label:<4} {check.name}: {check.detail}")
        if not check.ok and check.fix:
            lines.append(f"     fix: {check.fix}")
    return lines


def healthy(checks: list[Check]) -> bool:
    """True unless a blocking check failed."""
    return not any(c.blocking and not c.ok for c in checks)
