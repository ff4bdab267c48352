"""Live waiting-room updates at clinic scale: 50 kiosks and 10 desks listening while the queue
changes once a second. Prints latency from a desk's call to receipt by every listener p50/p95/
p99/max and the database connections used.

    .venv/bin/python benchmarks/live_queue.py [--kiosks 50] [--desks 10] [--seconds 30]

Each listener is an ``engine.frontdesk.queue_listener.ChangeListener`` (one dedicated connection, as
every kiosk, display and desk holds); the changes are real queue moves through ``QueueService``
(walk-in, call, in consultation, done), each committed and timed. Throw-away embedded PostgreSQL in
/tmp; no embedding model is needed. Benchmarks only: nothing here is a test.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa  # noqa: E402

from benchmarks._clinic import percentile  # noqa: E402
from engine.frontdesk.queue_listener import ChangeListener  # noqa: E402
from engine.frontdesk.waiting_queue import QueueService  # noqa: E402
from engine.ops.db import open_database  # noqa: E402
from engine.ops.settings import Settings  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kiosks", type=int, default=50)
    parser.add_argument("--desks", type=int, default=10)
    parser.add_argument("--seconds", type=int, default=30)
    args = parser.parse_args()
    temp = Path(tempfile.mkdtemp(prefix="clinic-live-", dir="/tmp"))
    temp.chmod(0o755)
    try:
        return run(temp, args.kiosks + args.desks, args.seconds)
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def run(temp: Path, listeners: int, seconds: int) -> int:
    db = open_database(Settings(data_dir=temp / "data"))
    with db.session() as s:
        s.execute(sa.text("INSERT INTO departments (name) VALUES ('Physiotherapy')"))
    queue = QueueService(db)
    sent: dict[tuple[int, str], float] = {}
    received: list[list[tuple[tuple[int, str], float]]] = [[] for _ in range(listeners)]
    runners = [ChangeListener(db.url, poll_seconds=0.2) for _ in range(listeners)]

    def listen(index: int) -> None:
        for change in runners[index].changes():
            if change.payload:
                key = (int(change.payload["id"]), str(change.payload["state"]))
                received[index].append((key, time.perf_counter()))

    threads = [threading.Thread(target=listen, args=(i,), daemon=True) for i in range(listeners)]
    for thread in threads:
        thread.start()
    time.sleep(2.0)  # every listener connected and LISTENing
    with db.session() as s:
        connections = s.execute(
            sa.text("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        ).scalar_one()

    moves = 0
    started = time.perf_counter()
    open_entries: list[int] = []
    while time.perf_counter() - started < seconds:
        tick = time.perf_counter()  # the desk's click: latency is measured from here
        step = moves % 4
        if step == 0 or not open_entries:
            entry = queue.walk_in("physio", "bench").entry_id
            open_entries.append(entry)
            key = (entry, "arrived")
        elif step == 1:
            entry = open_entries[-1]
            queue.call(entry, "Room 1", "bench")
            key = (entry, "called")
        elif step == 2:
            entry = open_entries[-1]
            queue.start(entry, "bench")
            key = (entry, "in_consultation")
        else:
            entry = open_entries.pop()
            queue.finish(entry, "bench")
            key = (entry, "done")
        sent[key] = tick
        moves += 1
        time.sleep(max(0.0, 1.0 - (time.perf_counter() - tick)))
    time.sleep(2.0)
    for runner in runners:
        runner.stop()
    for thread in threads:
        thread.join(timeout=5)

    latencies = [
        (at - sent[key]) * 1000
        for per_listener in received
        for key, at in per_listener
        if key in sent
    ]
    expected = len(sent) * listeners
    missing = expected - len(latencies)
    print(f"{listeners} listeners, {moves} queue moves in {seconds} s (1 per second)")
    print(f"database connections while listening: {connections} (listeners + 1 pool)")
    if latencies:
        print(
            "latency from the call (transaction + commit + NOTIFY) to each listener, ms: "
            f"p50 {percentile(latencies, 0.5):.1f}  p95 {percentile(latencies, 0.95):.1f}  "
            f"p99 {percentile(latencies, 0.99):.1f}  max {max(latencies):.1f}"
        )
    print(f"notifications received {len(latencies)} of {expected} ({missing} missing)")
    db.dispose()
    return 0 if missing == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
