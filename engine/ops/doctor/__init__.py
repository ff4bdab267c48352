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

This package must never change anything: no migrations, no ingest, no model pulls. The only writes
are a probe file in the log folder (removed at once) and the embedding model folder the apps
assemble anyway.

The package, by role (names with a leading underscore are the package's own: this module calls
the checks, nothing outside the package does, tests aside):

* :mod:`~engine.ops.doctor.report`: :class:`Check`, the printout (``report_lines``) and the
  verdict (``healthy``);
* :mod:`~engine.ops.doctor.configuration`: the config file, the kiosk's exit PIN and OCR;
* :mod:`~engine.ops.doctor.database`: reachable, PostgreSQL and pgvector versions, the schema
  revision, and the embedding model the database was built with;
* :mod:`~engine.ops.doctor.embedding`: the embedding model's files against the database, and the
  similarity floor's calibration;
* :mod:`~engine.ops.doctor.chat_model`: the Ollama hosts or the OpenAI-compatible server, the
  model router's measurement and the chat model's last qualification;
* :mod:`~engine.ops.doctor.permissions`: the log folder writable, the embedded server's socket,
  and who can read logs, backups and the data folder;
* this module, the entry point: :func:`run_checks`, every check in the order a person would fix
  them.
"""

from __future__ import annotations

from engine.ops.doctor.chat_model import _check_measurements, _check_ollama, _check_openai
from engine.ops.doctor.configuration import _check_config, _check_kiosk_pin, _check_ocr
from engine.ops.doctor.database import _database_checks
from engine.ops.doctor.embedding import _check_embedding, _check_floor
from engine.ops.doctor.permissions import _check_logs, _check_private_files, _check_socket
from engine.ops.doctor.report import Check
from engine.ops.settings import Settings


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
