"""``clinic-assistant``: the command line for ingest, the database, asking, evaluation and health.

Every subcommand takes the global ``--data-dir`` and ``--config``. Errors from the engine
(``ClinicError``) are printed as one sentence and exit 2; nothing prints a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from engine.errors import ClinicError
from engine.ops import cli_admin, cli_inspect, cli_ops, cli_queue
from engine.ops.settings import Settings, load_settings
from engine.validation import clean_text, loggable

Handler = Callable[[argparse.Namespace, Settings], int]


def _progress_printer() -> Callable[[str, int, int], None]:
    def show(slug: str, done: int, total: int) -> None:
        width = 30
        filled = int(width * done / max(total, 1))
        bar = "#" * filled + "-" * (width - filled)
        end = "\n" if done >= total else ""
        print(f"\r  embedding {slug[:32]:<32} [{bar}] {done}/{total}", end=end, file=sys.stderr)

    return show


def cmd_ingest(args: argparse.Namespace, settings: Settings) -> int:
    from engine.knowledge.embeddings import load_embedder
    from engine.knowledge.ingest import Ingester
    from engine.ops.db import open_database
    from engine.ops.paths import knowledge_dir

    folders = [Path(f) for f in args.folders] or [knowledge_dir()]
    db = open_database(settings)
    ingester = Ingester(
        db,
        load_embedder(settings),
        settings,
        user=args.user,
        progress=None if args.quiet else _progress_printer(),
    )
    report = ingester.ingest_folders(
        folders, audience=args.audience, remove_missing=not args.keep_missing
    )
    rows = [("document", "audience", "status", "chunks")]
    for r in sorted(report.results, key=lambda r: (r.status == "failed", r.slug)):
        rows.append((r.slug, r.audience or "-", r.status, str(r.chunks)))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for index, row in enumerate(rows):
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        if index == 0:
            print("  ".join("-" * w for w in widths))
    counts = ", ".join(
        f"{report.count(s)} {s}"
        for s in ("created", "updated", "unchanged", "removed", "failed")
        if report.count(s)
    )
    print(f"\n{len(report.results)} documents: {counts or 'none found'}.")
    for failure in report.failed:
        print(f"FAILED {failure.path}: {failure.error}", file=sys.stderr)
    return 1 if report.failed else 0


def cmd_db(args: argparse.Namespace, settings: Settings) -> int:
    from engine.ops import db as dbm

    if args.db_command == "upgrade":
        db = dbm.open_database(settings)
        print(f"Database schema is at {dbm.current_revision(db)} (latest).")
        return 0
    if args.db_command == "status":
        url = dbm.database_url(settings)
        db = dbm.Database(url)
        db.ping()
        current, head = dbm.current_revision(db), dbm.head_revision()
        print(f"Database: {dbm.redact(url)}")
        print(f"Schema: {current or 'empty'} (latest {head})")
        return 0 if current == head else 1
    if args.db_command == "reembed":
        from engine.knowledge.embeddings import load_embedder
        from engine.knowledge.ingest import Ingester

        db = dbm.open_database(settings)
        embedder = load_embedder(settings)
        dbm.switch_embedding_model(db, embedder.model_name, embedder.dimension)
        with db.session() as session:
            import sqlalchemy as sa

            folders = [
                Path(r[0])
                for r in session.execute(sa.text("SELECT DISTINCT source_folder FROM documents"))
            ]
        report = Ingester(db, embedder, settings, user=args.user).ingest_folders(folders)
        print(
            f"Re-embedded {report.embedded_chunks} chunks with {embedder.model_name}; "
            f"{len(report.failed)} documents failed."
        )
        print("Run 'clinic-assistant evaluate' to calibrate the similarity floor for this model.")
        return 1 if report.failed else 0
    if args.db_command == "backup":
        import datetime as dt
        import subprocess

        import sqlalchemy as sa

        from engine.ops.private_files import private_folder

        dsn = sa.engine.make_url(dbm.database_url(settings))
        target = (
            Path(args.file)
            if args.file
            else settings.data_dir
            / "backups"
            / f"clinic-assistant-{dt.datetime.now():%Y%m%d-%H%M%S}.dump"
        )
        try:
            if args.file:
                target.parent.mkdir(parents=True, exist_ok=True)
            else:
                private_folder(target.parent)  # backups hold password hashes and bookings
        except OSError as exc:
            print(f"error: cannot write the backup to {target}: {exc.strerror}.", file=sys.stderr)
            return 1
        command = [str(dbm.pg_tool("pg_dump")), "--format=custom", "--file", str(target)]
        if dsn.host:
            command += ["--host", dsn.host]
        elif dsn.query.get("host"):
            command += ["--host", str(dsn.query["host"])]
        if dsn.port:
            command += ["--port", str(dsn.port)]
        command += ["--username", dsn.username or "postgres", str(dsn.database)]
        env = dict(os.environ)
        if dsn.password:
            env["PGPASSWORD"] = dsn.password
        done = subprocess.run(
            command, capture_output=True, text=True, env=env, check=False, umask=0o077
        )
        if done.returncode != 0:
            print(f"error: the backup failed: {done.stderr.strip()}", file=sys.stderr)
            return 1
        print(f"Backup written to {target} ({target.stat().st_size:,} bytes).")
        print(f"Restore with: pg_restore --clean --if-exists --dbname DSN {target}")
        return 0
    if args.db_command == "init-roles":
        from engine.ops.cli_admin import role_passwords
        from engine.ops.roles import init_roles

        kiosk_password, staff_password = role_passwords(args)
        db = dbm.open_database(settings)
        try:
            lines = init_roles(db, kiosk_password=kiosk_password, staff_password=staff_password)
        finally:
            db.dispose()
        for line in lines:
            print(line)
        return 0
    raise AssertionError(args.db_command)


def cmd_ask(args: argparse.Namespace, settings: Settings) -> int:
    from engine.events import DoneEvent, ReplaceEvent, StatusEvent, TokenEvent
    from engine.ops.service import build_backend

    if args.extractive:
        from dataclasses import replace

        settings = settings.replace(ollama=replace(settings.ollama, generation="extractive"))
    backend = build_backend(settings, audience=args.audience, channel="cli", username=args.user)
    streamed = False
    for event in backend.answer(args.question):
        if isinstance(event, StatusEvent):
            print(f"[{event.text}]", file=sys.stderr)
        elif isinstance(event, TokenEvent):
            print(event.text, end="", flush=True)
            streamed = True
        elif isinstance(event, ReplaceEvent):
            print(f"\n[replaced: {event.reason}]", file=sys.stderr)
            print(event.text, end="", flush=True)
            streamed = True
        elif isinstance(event, DoneEvent):
            if not streamed:
                print(event.text, end="")
            print()
            print(
                f"\n[route: {event.route.value}, outcome: {event.outcome.value}]", file=sys.stderr
            )
            for citation in event.citations:
                print(f"{citation.label}  (similarity {citation.similarity:.2f})")
    return 0


def cmd_evaluate(args: argparse.Namespace, settings: Settings) -> int:
    import json

    from engine.knowledge.embeddings import load_embedder
    from engine.ops.db import open_database
    from engine.ops.evaluation import record_calibration, run_evaluation
    from engine.ops.evaluation.questions import load_questions
    from engine.ops.evaluation.rendering import format_report, write_plot

    questions = load_questions(Path(args.file))
    db = open_database(settings)
    embedder = load_embedder(settings)
    from engine.ops.db import check_embedding_model

    check_embedding_model(db, embedder.model_name, embedder.dimension)
    report = run_evaluation(db, embedder, settings, questions)
    record_calibration(db, report)
    print(format_report(report))
    if args.verbose_failures:
        for failure in report.failures:
            print(f"  - {failure['question']!r}: {'; '.join(failure['problems'])}")
    # The chat model: the router's false escalation (when configured) and, with --generate,
    # the qualification (engine.ops.generation_qualification).
    from engine.ops.generation_qualification import evaluate_models

    model_lines, model_figures, qualified = evaluate_models(
        db, embedder, settings, questions, generate=args.generate
    )
    for line in model_lines:
        print(f"\n{line}")
    if args.json:
        data = {**report.to_json(), **model_figures}
        Path(args.json).write_text(json.dumps(data, indent=2), encoding="utf-8")
        print(f"JSON report: {args.json}")
    if args.plot:
        write_plot(report, Path(args.plot))
        print(f"Plot: {args.plot}")
    return 0 if report.passed and qualified else 1


COMMANDS: dict[str, Handler] = {
    "ingest": cmd_ingest,
    "db": cmd_db,
    "ask": cmd_ask,
    "evaluate": cmd_evaluate,
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="clinic-assistant",
        description="Clinic Assistant: ingest documents, manage the database, ask and evaluate.",
    )
    parser.add_argument("--data-dir", help="folder for every file the product writes")
    parser.add_argument("--config", help="TOML config file")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug details")
    sub = parser.add_subparsers(dest="command", required=True)

    ingest = sub.add_parser("ingest", help="ingest documents (default: the sample knowledge/)")
    ingest.add_argument("folders", nargs="*", help="folders or files to ingest")
    ingest.add_argument(
        "--audience", choices=["public", "staff"], help="audience for files that do not declare one"
    )
    ingest.add_argument(
        "--keep-missing", action="store_true", help="do not remove documents whose files are gone"
    )
    ingest.add_argument("--user", default="cli", help="name recorded in the audit log")
    ingest.add_argument("-q", "--quiet", action="store_true", help="no progress bar")

    db = sub.add_parser("db", help="database: upgrade, status, reembed, init-roles")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    db_sub.add_parser("upgrade", help="apply pending schema migrations")
    db_sub.add_parser("status", help="show the database and schema version")
    reembed = db_sub.add_parser("reembed", help="re-embed every document with the configured model")
    reembed.add_argument("--user", default="cli")
    backup = db_sub.add_parser("backup", help="write a pg_dump backup (custom format)")
    backup.add_argument("file", nargs="?", help="default: <data dir>/backups/<timestamp>.dump")
    roles = db_sub.add_parser("init-roles", help="create kiosk and staff roles on a shared server")
    roles.add_argument(
        "--passwords-stdin",
        action="store_true",
        help="read the kiosk password, then the staff password, one per line from standard input "
        "(default: CLINIC_KIOSK_DB_PASSWORD / CLINIC_STAFF_DB_PASSWORD, else a prompt)",
    )
    for removed in ("--kiosk-password", "--staff-password"):  # argv is readable by every user
        roles.add_argument(removed, dest=removed[2:].replace("-", "_"), help=argparse.SUPPRESS)

    ask = sub.add_parser("ask", help="ask a question and stream the answer")
    ask.add_argument("question")
    ask.add_argument("--audience", choices=["public", "staff"], default="public")
    ask.add_argument("--extractive", action="store_true", help="quote passages, no chat model")
    ask.add_argument("--user", default=None)

    evaluate = sub.add_parser(
        "evaluate", help="measure routing and retrieval on labelled questions"
    )
    evaluate.add_argument("file", help="YAML list of labelled questions")
    evaluate.add_argument("--json", help="also write every figure and failing question as JSON")
    evaluate.add_argument("--plot", help="write a PNG of the similarity distributions")
    evaluate.add_argument("--verbose-failures", action="store_true", help="list every failure")
    evaluate.add_argument(
        "--generate",
        action="store_true",
        help="also qualify the configured chat model: answer every information and "
        "out-of-scope question with it (exit 1 below [generation] min_useful_rate)",
    )

    # Imported plainly: a broken module must fail loudly, not silently lose its commands.
    for registrar in (cli_admin, cli_ops, cli_queue, cli_inspect):
        COMMANDS.update(registrar.register(sub))
    return parser


# Arguments that name files or folders: a non-UTF-8 byte is legal in a POSIX file name.
PATH_ARGUMENTS = frozenset({"folders", "file", "config", "data_dir", "json", "plot"})


def check_arguments(args: argparse.Namespace) -> None:
    """ValidationError (one sentence) for a NUL, control character or non-UTF-8 byte in any
    argument that is not a path (a question, a username, a display name...)."""
    for name, value in sorted(vars(args).items()):
        if isinstance(value, str) and name not in PATH_ARGUMENTS:
            label = name if name in ("question", "username") else "--" + name.replace("_", "-")
            clean_text(value, f"The argument {label}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from engine.ops import logs
    from engine.ops.preflight import check_start

    try:
        check_arguments(args)
        settings = load_settings(args.config, args.data_dir)
        check_start(settings)
        logs.configure_logging(settings, "cli", verbose=args.verbose)
        return COMMANDS[args.command](args, settings)
    except ClinicError as exc:
        print(f"error: {loggable(str(exc))}", file=sys.stderr)
        return 2
    except OSError as exc:  # a file the command was told to write or read: one sentence
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"error: {exc.strerror or exc}{where}.", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        logs.remove_logging()


if __name__ == "__main__":
    sys.exit(main())
