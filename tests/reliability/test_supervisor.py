"""The database supervisor: backoff for a shared server, one log line per state change."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from engine.ops import db as dbm
from engine.ops.settings import DatabaseSettings, Settings


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_shared_server_is_probed_with_backoff_and_logged_once_per_state_change(
    tmp_path: Path, database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    down = Settings(
        data_dir=tmp_path,
        database=DatabaseSettings(
            url="postgresql://x:secret@127.0.0.1:1/clinic", connect_timeout=1
        ),
    )
    clock = Clock()
    supervisor = dbm.DatabaseSupervisor(down, clock=clock)
    caplog.set_level(logging.INFO, logger="engine.ops.db")
    probes = 0
    real_probe = supervisor._probe

    def counting_probe() -> None:
        nonlocal probes
        probes += 1
        real_probe()

    supervisor._probe = counting_probe  # type: ignore[method-assign]

    # 25 minutes of a kiosk's unavailable screen asking every 5 seconds.
    for _ in range(300):
        assert supervisor.check() is False
        clock.now += 5
    assert not supervisor.is_up
    assert "cannot be reached" in supervisor.last_error
    assert "secret" not in supervisor.last_error
    # Backoff 1, 2, 4, ... capped at 60 s: about 30 probes in 25 minutes, not 300.
    assert 20 <= probes <= 35

    # The server comes back (same supervisor, now pointing at a live database).
    supervisor.settings = down.replace(database=DatabaseSettings(url=database_url))
    clock.now += 60
    assert supervisor.check() is True
    assert supervisor.is_up and supervisor.last_error == ""

    lines = [r for r in caplog.records if r.name == "engine.ops.db"]
    messages = [r.getMessage().split(":")[0].split(" after")[0] for r in lines]
    assert messages == [
        "database down",
        "database still down",
        "database still down",
        "database back",
    ]
    assert all(r.exc_info is None for r in lines)  # never a traceback
    assert all("secret" not in r.getMessage() for r in lines)


def test_a_connection_that_failed_before_the_database_came_back_retries_without_a_new_outage(
    tmp_path: Path, database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Two kiosk threads saw the same crash; the first brought the server back. The second must
    retry, not log a second "down" and "back" (the kiosk's outage is at most 3 log lines)."""
    clock = Clock()
    supervisor = dbm.DatabaseSupervisor(
        Settings(data_dir=tmp_path, database=DatabaseSettings(url=database_url)), clock=clock
    )
    caplog.set_level(logging.INFO, logger="engine.ops.db")
    first_try = second_try = supervisor.now()
    assert supervisor.recover("connection refused", first_try) is False  # shared: probe later
    clock.now += 2
    assert supervisor.check() is True  # back
    assert supervisor.recover("connection refused", second_try) is True  # just retry
    clock.now += 1
    assert supervisor.recover("connection refused", supervisor.now()) is False  # a new outage
    messages = [r.getMessage().split(":")[0].split(" after")[0] for r in caplog.records]
    assert messages == ["database down", "database back", "database down"]
