"""Many kiosks against one PostgreSQL: retrieval latency, throughput and time to first token.

A throw-away embedded PostgreSQL (temporary folder under /tmp, deleted afterwards) gets the sample
knowledge/ ingested for real, then synthetic chunks (benchmarks/_synthetic.py: real sentences
recombined, perturbed real vectors, ~80% public / 20% staff) up to --chunks, HNSW rebuilt after
the load, ANALYZE. Kiosks are threads; each connects as the ``clinic_kiosk`` role (row-level
security on, exactly as a real kiosk on the embedded server does) and runs the real
``Assistant`` (safety router, Retriever, gate, prompt, citation guard, answer-log INSERT) on
public information and out-of-scope questions from evaluation/questions.yaml. A share of the
questions (--stream-share) streams its answer from one local FakeOllama at --tokens-per-second
through the real ``OllamaChat`` (one client per kiosk); the rest are answered extractively.

Query vectors are computed once, up front, by the real embedder: embedding is CPU work done on
each kiosk's own hardware, not load on the shared server. Everything else a kiosk does in Python
(SQLAlchemy, the gate, the HTTP client) runs here in one process on the same cores as PostgreSQL
and the fake model server, so the figures are pessimistic for the server side.

Phases: a 1-kiosk baseline (as the table owner without row-level security, and as the kiosk
role), then --kiosks kiosks with a pool of 1 each (one process per kiosk,
as deployed) and with one shared pool sized to the kiosk count (--pool chooses), asking back to
back with no think time (a stress test: real patients ask far less often); then the same kiosks
pausing --think seconds on average between questions (still ~10x a busy waiting room).

Only 127.0.0.1 and the server's Unix socket are used.

Run: .venv/bin/python benchmarks/load.py [--kiosks 50] [--chunks 10000] [--seconds 30]
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import secrets
import statistics
import sys
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa  # noqa: E402
import yaml  # noqa: E402

from benchmarks._clinic import start_sample_clinic  # noqa: E402
from benchmarks._synthetic import add_recombined_chunks  # noqa: E402
from engine.answering.assistant import WRITING, Assistant  # noqa: E402
from engine.answering.ollama_chat import OllamaChat  # noqa: E402
from engine.answering.retrieval.sql import _VECTOR_SQL  # noqa: E402
from engine.events import DoneEvent, Outcome, StatusEvent, TokenEvent  # noqa: E402
from engine.ops.db import Database, vector_literal  # noqa: E402
from engine.ops.roles import KIOSK_ROLE, init_roles  # noqa: E402
from engine.ops.settings import Settings  # noqa: E402
from tests.support.fake_ollama import DEFAULT_MODEL, FakeOllama, Script  # noqa: E402

# A short cited answer (~30 tokens, ~1 s at 30 tokens/s) with no figures for the guard to check.
ANSWER = (
    "The clinic's documents cover this. Please read the passage shown below for the details, "
    "and ask at the front desk if anything in it is unclear for you [1]."
)


class PrecomputedEmbedder:
    """The Embedder protocol over query vectors computed beforehand by the real model."""

    def __init__(self, model_name: str, dimension: int, vectors: dict[str, list[float]]) -> None:
        self.model_name = model_name
        self.dimension = dimension
        self._vectors = vectors

    def embed_query(self, text: str) -> list[float]:
        return self._vectors[text]

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        raise NotImplementedError("kiosks never embed passages")


@dataclass
class Phase:
    name: str
    kiosks: int
    pool: str
    url: str  # the role the kiosks connect as is in it
    think: float = 0.0  # mean seconds between a kiosk's questions (exponential)
    search_ms: list[float] = field(default_factory=list)
    answer_ms: list[float] = field(default_factory=list)  # whole answer, extractive ones
    ttft_ms: list[float] = field(default_factory=list)  # question -> first model token
    outcomes: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    asked: int = 0
    streamed: int = 0
    started: float = 0.0
    cpu_started: float = 0.0
    deadline: float = 0.0
    elapsed: float = 0.0
    cpu_cores: float = 0.0
    server_cpu: ServerCpu | None = None
    server_cpu_started: float = 0.0
    server_cores: float = 0.0
    peak_connections: int = 0
    peak_active: int = 0
    mean_active: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def begin(self, seconds: float) -> None:
        self.started = time.perf_counter()
        self.cpu_started = time.process_time()
        if self.server_cpu is not None:
            self.server_cpu_started = self.server_cpu.seconds()
        self.deadline = self.started + seconds


class ServerCpu:
    """CPU seconds used by the PostgreSQL server's processes (Linux /proc; 0 elsewhere)."""

    def __init__(self, pgdata: Path) -> None:
        pid_file = pgdata / "postmaster.pid"
        self.postmaster = int(pid_file.read_text().split()[0]) if pid_file.exists() else 0
        self.tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def seconds(self) -> float:
        total = 0
        for entry in Path("/proc").iterdir() if Path("/proc/self/stat").exists() else ():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # the process ended meanwhile
            pid, ppid = int(entry.name), int(fields[1])
            if self.postmaster and self.postmaster in (pid, ppid):
                total += int(fields[11]) + int(fields[12])  # utime + stime
        return total / self.tick


class WarningCounter(logging.Handler):
    """Counts warnings the engine logs (answer log not written, model failed, ...)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.counts: Counter[str] = Counter()
        self.lock_ = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        with self.lock_:
            self.counts[f"{record.name}: {record.getMessage()[:80]}"] += 1


def public_questions() -> list[str]:
    rows = yaml.safe_load((ROOT / "evaluation" / "questions.yaml").read_text(encoding="utf-8"))
    return [
        r["question"]
        for r in rows
        if r.get("intent") in ("information", "out_of_scope")
        and r.get("audience", "public") == "public"
    ]


def ask(assistant: Assistant, question: str, phase: Phase, *, record: bool) -> None:
    start = time.perf_counter()
    writing = False
    first: float | None = None
    done: DoneEvent | None = None
    try:
        for event in assistant.answer(question):
            if isinstance(event, StatusEvent) and event.text == WRITING:
                writing = True
            elif isinstance(event, TokenEvent) and writing and first is None:
                first = time.perf_counter()
            elif isinstance(event, DoneEvent):
                done = event
    except Exception as exc:  # counted, never fatal: the run must report it
        if record:
            with phase.lock:
                phase.asked += 1
                phase.errors[type(exc).__name__] += 1
        return
    if not record or done is None:
        return
    with phase.lock:
        phase.asked += 1
        phase.outcomes[done.outcome.value] += 1
        if "search" in done.timings:
            phase.search_ms.append(done.timings["search"] * 1000)
        if first is not None:
            phase.streamed += 1
            phase.ttft_ms.append((first - start) * 1000)
        elif assistant.chat is None:
            phase.answer_ms.append((time.perf_counter() - start) * 1000)
        if assistant.chat is not None and done.outcome in (Outcome.EXTRACTIVE, Outcome.GUARDED):
            phase.errors[f"streamed answer ended {done.outcome.value}"] += 1


def kiosk(
    number: int,
    db: Database,
    settings: Settings,
    embedder: PrecomputedEmbedder,
    model_url: str,
    questions: list[str],
    stream_share: float,
    phase: Phase,
    barrier: threading.Barrier,
) -> None:
    rng = random.Random(number)
    o = settings.ollama
    chat = OllamaChat(
        model_url,
        DEFAULT_MODEL,
        num_ctx=o.num_ctx,
        keep_alive=o.keep_alive,
        connect_timeout=o.connect_timeout,
        read_timeout=o.read_timeout,
        temperature=o.temperature,
    )
    streaming = Assistant(db, embedder, settings, audience="public", chat=chat, channel="kiosk")
    extractive = Assistant(db, embedder, settings, audience="public", channel="kiosk")
    try:
        ask(extractive, rng.choice(questions), phase, record=False)  # connect, warm caches
        barrier.wait(timeout=120)
        if phase.think:  # kiosks start out of step, as people do
            time.sleep(rng.uniform(0, phase.think))
        while time.perf_counter() < phase.deadline:
            assistant = streaming if rng.random() < stream_share else extractive
            ask(assistant, rng.choice(questions), phase, record=True)
            if phase.think:
                pause = rng.expovariate(1 / phase.think)
                time.sleep(max(0.0, min(pause, phase.deadline - time.perf_counter())))
    finally:
        chat.close()


def monitor(owner: Database, phase: Phase, stop: threading.Event) -> None:
    """Samples the kiosks' server connections (their role's, not this one's) every 0.2 s."""
    samples: list[int] = []
    query = sa.text(
        "SELECT count(*), count(*) FILTER (WHERE state = 'active') FROM pg_stat_activity "
        "WHERE usename = :role AND pid <> pg_backend_pid()"
    )
    role = sa.engine.make_url(phase.url).username
    while not stop.wait(0.2):
        with owner.engine.connect() as conn:
            row = conn.execute(query, {"role": role}).one()
        total, active = int(row[0]), int(row[1])
        phase.peak_connections = max(phase.peak_connections, total)
        phase.peak_active = max(phase.peak_active, active)
        if phase.started:
            samples.append(active)
    phase.mean_active = statistics.fmean(samples) if samples else 0.0


def run_phase(
    phase: Phase,
    seconds: float,
    owner: Database,
    settings: Settings,
    embedder: PrecomputedEmbedder,
    model_url: str,
    questions: list[str],
    stream_share: float,
) -> Phase:
    if phase.pool == "shared":
        shared = Database(phase.url, pool_size=phase.kiosks)
        dbs = [shared] * phase.kiosks
    else:
        dbs = [Database(phase.url, pool_size=1) for _ in range(phase.kiosks)]
    barrier = threading.Barrier(phase.kiosks, action=lambda: phase.begin(seconds))
    threads = [
        threading.Thread(
            target=kiosk,
            args=(
                n,
                dbs[n],
                settings,
                embedder,
                model_url,
                questions,
                stream_share,
                phase,
                barrier,
            ),
            name=f"kiosk-{n}",
        )
        for n in range(phase.kiosks)
    ]
    stop = threading.Event()
    watcher = threading.Thread(target=monitor, args=(owner, phase, stop), name="monitor")
    watcher.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    phase.elapsed = time.perf_counter() - phase.started
    phase.cpu_cores = (time.process_time() - phase.cpu_started) / phase.elapsed
    if phase.server_cpu is not None:
        used = phase.server_cpu.seconds() - phase.server_cpu_started
        phase.server_cores = used / phase.elapsed
    stop.set()
    watcher.join()
    for db in set(dbs):
        db.dispose()
    return phase


def pct(values: list[float], *points: int) -> str:
    if len(values) < 2:
        return "n/a"
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return " / ".join(f"{cuts[p - 1]:.0f}" for p in points)


def report(phases: list[Phase]) -> None:
    print(
        "\n| kiosks | role | pool | think (s) | questions | q/s | retrieval p50 / p95 / p99 (ms) | "
        "extractive answer p50 / p95 (ms) | streamed | TTFT p50 / p95 (ms) | errors | "
        "kiosk connections peak (active peak / mean) | CPU cores: PostgreSQL / kiosks+fake |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for p in phases:
        pool = "1 per kiosk" if p.pool == "per-kiosk" else f"shared, size {p.kiosks}"
        role = sa.engine.make_url(p.url).username
        errors = sum(p.errors.values())
        print(
            f"| {p.kiosks} | {role} | {pool} | {p.think:g} | {p.asked} | "
            f"{p.asked / p.elapsed:.1f} | "
            f"{pct(p.search_ms, 50, 95, 99)} | {pct(p.answer_ms, 50, 95)} | {p.streamed} | "
            f"{pct(p.ttft_ms, 50, 95)} | {errors} | "
            f"{p.peak_connections} ({p.peak_active} / {p.mean_active:.1f}) | "
            f"{p.server_cores:.2f} / {p.cpu_cores:.2f} |"
        )
    for p in phases:
        outcomes = ", ".join(f"{k} {v}" for k, v in sorted(p.outcomes.items()))
        print(f"  {p.name}: {p.elapsed:.1f} s; outcomes: {outcomes}")
        for name, count in p.errors.items():
            print(f"    error {name}: {count}")


def server_facts(owner: Database, kiosk_db: Database, vector: list[float]) -> dict[str, str]:
    with owner.session() as session:
        facts = {
            "PostgreSQL": str(session.execute(sa.text("SHOW server_version")).scalar_one()),
            "pgvector": str(
                session.execute(
                    sa.text("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
                ).scalar_one()
            ),
            "max_connections": str(session.execute(sa.text("SHOW max_connections")).scalar_one()),
            "shared_buffers": str(session.execute(sa.text("SHOW shared_buffers")).scalar_one()),
        }
        counts = session.execute(
            sa.text(
                "SELECT d.audience, count(*) FROM chunks c JOIN documents d "
                "ON d.id = c.document_id GROUP BY d.audience ORDER BY 1"
            )
        ).all()
        facts["chunks"] = ", ".join(f"{a} {n}" for a, n in counts)
    with kiosk_db.session() as session:
        plan = "\n".join(
            str(r[0])
            for r in session.execute(
                sa.text("EXPLAIN " + str(_VECTOR_SQL.text)),
                {"q": vector_literal(vector), "audiences": ["public"], "k": 30},
            )
        )
        visible = int(session.execute(sa.text("SELECT count(*) FROM chunks")).scalar_one())
    facts["HNSW in the kiosk's plan"] = "yes" if "chunks_embedding_hnsw" in plan else "NO"
    facts["chunks visible to clinic_kiosk (RLS)"] = str(visible)
    return facts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kiosks", type=int, default=50)
    parser.add_argument("--chunks", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each phase")
    parser.add_argument("--baseline-seconds", type=float, default=10.0)
    parser.add_argument("--pool", choices=("per-kiosk", "shared", "both"), default="both")
    parser.add_argument(
        "--think",
        type=float,
        default=5.0,
        help="mean pause between a kiosk's questions in an extra phase (0: no such phase)",
    )
    parser.add_argument("--stream-share", type=float, default=0.3)
    parser.add_argument("--tokens-per-second", type=float, default=30.0)
    parser.add_argument("--first-token-delay", type=float, default=0.15, help="prompt eval, s")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    warnings = WarningCounter()
    logging.getLogger("engine").addHandler(warnings)
    logging.getLogger("engine").setLevel(logging.WARNING)
    clinic = start_sample_clinic("clinic-load-")
    try:
        settings, owner, embedder = clinic.settings, clinic.db, clinic.embedder
        started = time.perf_counter()
        added = add_recombined_chunks(owner, args.chunks, random.Random(7))
        print(
            f"synthetic: {added} chunks COPYed, HNSW rebuilt, ANALYZE in "
            f"{time.perf_counter() - started:.1f} s",
            flush=True,
        )
        init_roles(
            owner,
            kiosk_password=secrets.token_urlsafe(16),
            staff_password=secrets.token_urlsafe(16),
        )
        kiosk_url = (
            sa.engine.make_url(owner.url)
            .set(username=KIOSK_ROLE, password=None)
            .render_as_string(hide_password=False)
        )
        questions = public_questions()
        timings = []
        vectors = {}
        for question in questions:
            t = time.perf_counter()
            vectors[question] = embedder.embed_query(question)
            timings.append((time.perf_counter() - t) * 1000)
        precomputed = PrecomputedEmbedder(embedder.model_name, embedder.dimension, vectors)
        print(
            f"questions: {len(questions)} public (information + out_of_scope); query vectors "
            f"precomputed by the real embedder, {statistics.median(timings):.1f} ms each (p50). "
            "Embedding runs on each kiosk's own CPU in production, so it is not part of the "
            "shared load measured here."
        )
        probe = Database(kiosk_url, pool_size=1)
        for name, value in server_facts(owner, probe, vectors[questions[0]]).items():
            print(f"{name}: {value}")
        probe.dispose()
        print(
            f"cores: {os.cpu_count()}; kiosks are threads in this process, sharing the cores "
            "with PostgreSQL and the fake model server; no think time between questions; "
            f"{args.stream_share:.0%} of questions stream from FakeOllama at "
            f"{args.tokens_per_second:g} tokens/s after {args.first_token_delay:g} s "
            f"(a {len(ANSWER.split())}-word answer), the rest are extractive.",
            flush=True,
        )
        cpu = ServerCpu(settings.pgdata_dir)
        plan = [
            Phase("1 kiosk as the owner (no RLS)", 1, "per-kiosk", owner.url, server_cpu=cpu),
            Phase("1 kiosk", 1, "per-kiosk", kiosk_url, server_cpu=cpu),
        ]
        pools = ("per-kiosk", "shared") if args.pool == "both" else (args.pool,)
        plan += [
            Phase(f"{args.kiosks} kiosks, {p}", args.kiosks, p, kiosk_url, server_cpu=cpu)
            for p in pools
        ]
        if args.think > 0:
            plan.append(
                Phase(
                    f"{args.kiosks} kiosks, {pools[0]}, think {args.think:g} s",
                    args.kiosks,
                    pools[0],
                    kiosk_url,
                    think=args.think,
                    server_cpu=cpu,
                )
            )
        done: list[Phase] = []
        with FakeOllama() as model_server:
            model_server.default = Script.paced(
                ANSWER, args.tokens_per_second, first_delay=args.first_token_delay
            )
            for phase in plan:
                seconds = args.baseline_seconds if phase.kiosks == 1 else args.seconds
                print(f"running {phase.name} for {seconds:g} s...", flush=True)
                done.append(
                    run_phase(
                        phase,
                        seconds,
                        owner,
                        settings,
                        precomputed,
                        model_server.url,
                        questions,
                        args.stream_share,
                    )
                )
        report(done)
        if warnings.counts:
            print("engine warnings:")
            for message, count in warnings.counts.most_common(10):
                print(f"  {count} x {message}")
    finally:
        clinic.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
