"""Live waiting-room changes from PostgreSQL ``LISTEN clinic_queue`` (and other channels).

A trigger on ``queue_entries`` sends a JSON payload (entry id, state, ticket, room, day,
department id; never a name) on every change. :class:`ChangeListener` holds one dedicated
autocommit connection per process, yields :class:`Change` records as they arrive, and reconnects
with backoff when the database restarts, yielding a ``reconnected`` change so the caller reloads
(notifications sent while it was away are not replayed by PostgreSQL).

This module must never poll the tables, never hold a pooled connection, never raise out of
:meth:`ChangeListener.changes` for a lost connection, and never import Qt (``engine/qt`` adapts it).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import psycopg
import sqlalchemy as sa

log = logging.getLogger(__name__)

QUEUE_CHANNEL = "clinic_queue"
BACKOFF_SECONDS = (0.5, 1.0, 2.0, 5.0, 10.0)


@dataclass(frozen=True)
class Change:
    """One notification: its channel and decoded payload; ``reconnected`` after an outage."""

    channel: str
    payload: dict[str, Any] = field(default_factory=dict)
    reconnected: bool = False


def libpq_dsn(url: str) -> str:
    """A SQLAlchemy URL (``postgresql+psycopg://``) as a libpq connection URI."""
    return (
        sa.engine.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    )


def _decode(payload: str) -> dict[str, Any]:
    try:
        value = json.loads(payload)
    except ValueError:
        return {"raw": payload[:200]}
    return value if isinstance(value, dict) else {"value": value}


class ChangeListener:
    """``for change in listener.changes(): ...`` until :meth:`stop` is called (any thread)."""

    def __init__(
        self,
        url: str,
        channels: tuple[str, ...] = (QUEUE_CHANNEL,),
        *,
        poll_seconds: float = 0.5,
        sleep: Callable[[float], bool] | None = None,
    ) -> None:
        for channel in channels:
            if not channel.isidentifier():
                raise ValueError(f"not a channel name: {channel!r}")
        self.dsn = libpq_dsn(url)
        self.channels = channels
        self.poll_seconds = poll_seconds
        self._stopped = threading.Event()
        self._sleep = sleep or self._stopped.wait

    def stop(self) -> None:
        self._stopped.set()

    @property
    def stopped(self) -> bool:
        return self._stopped.is_set()

    def _connect(self) -> psycopg.Connection[Any]:
        conn = psycopg.connect(self.dsn, autocommit=True, connect_timeout=5)
        try:
            for channel in self.channels:
                conn.execute(f"LISTEN {channel}")  # checked identifier, not user text
        except BaseException:
            conn.close()  # a connection that cannot listen is closed, never left to the GC
            raise
        return conn

    def changes(self) -> Iterator[Change]:
        """Changes as they come; on a lost connection, reconnect and yield ``reconnected``."""
        failures = 0
        down_logged = False
        while not self.stopped:
            try:
                conn = self._connect()
            except psycopg.OperationalError:
                if not down_logged:
                    log.warning("queue updates: database unreachable; retrying")
                    down_logged = True
                self._sleep(BACKOFF_SECONDS[min(failures, len(BACKOFF_SECONDS) - 1)])
                failures += 1
                continue
            try:
                # The connection is closed however this ends, including a consumer that stops
                # iterating at any change (the ``reconnected`` one too).
                with conn:
                    if failures or down_logged:
                        log.info("queue updates: connected again")
                        yield Change("", reconnected=True)
                    failures, down_logged = 0, False
                    while not self.stopped:
                        for note in conn.notifies(timeout=self.poll_seconds):
                            yield Change(note.channel, _decode(note.payload))
                            if self.stopped:
                                break
            except psycopg.OperationalError:
                log.warning("queue updates: connection lost; reconnecting")
                down_logged = True
                failures = 1
                self._sleep(BACKOFF_SECONDS[0])
