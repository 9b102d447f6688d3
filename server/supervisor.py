"""The watch `umpire serve` keeps on its embedded Valkey: a death is reaped, logged and
followed by a restart from the AOF, with backoff while it keeps dying.

The restarted server listens on the same unix socket with the same users, so the
gateway's connection pool and pub/sub listener reconnect by themselves; commands that were
in flight were answered `store_unavailable` and apply exactly once when retried with the
same command id (the id is checked inside the append script).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from umpire.server import background
from umpire.server.embedded import EmbeddedRedis

log = logging.getLogger("umpire.store")

POLL_SECONDS = 0.1
FIRST_DELAY = 0.1
MAX_DELAY = 5.0
START_TIMEOUT = 30.0  # a long AOF takes a while to load
STABLE_SECONDS = 10.0  # a server that lived this long resets the backoff


class Supervisor:
    """Restarts an embedded server whenever its process exits, until stopped."""

    def __init__(
        self,
        server: EmbeddedRedis,
        *,
        on_restart: Callable[[EmbeddedRedis], None] | None = None,
    ) -> None:
        """`on_restart` runs after each restart (it republishes where the server
        listens). There is no TCP port to lose to another process between a death and its
        restart: the server listens on a socket in its owner-only directory alone."""
        self.server = server
        self.on_restart = on_restart
        # Told the new cause (see `restarting`) at each change of state: the parent of
        # `umpire serve --workers N` shares it with its workers (server/store_status.py).
        self.on_change: Callable[[str | None], None] | None = None
        self.restarts = 0
        self.state = "running"  # or "restarting"
        self.attempt = 0  # while restarting: the restart being waited for or tried (1, 2...)
        self._task: asyncio.Task[None] | None = None

    def restarting(self) -> str | None:
        """While the server is being restarted, the cause /healthz names ("store
        restarting, attempt N"); None while it runs."""
        if self.state != "restarting":
            return None
        return f"store restarting, attempt {self.attempt}"

    def _set(self, state: str, attempt: int) -> None:
        self.state, self.attempt = state, attempt
        if self.on_change is not None:
            self.on_change(self.restarting())

    def start(self) -> None:
        """Start watching (in the running event loop)."""
        self._task = asyncio.get_running_loop().create_task(self._watch(), name="supervisor")

    async def stop(self) -> None:
        """Stop watching; the server itself is stopped by its owner afterwards."""
        if self._task is not None:
            await background.stop(self._task)  # a cancellation of stop() itself propagates

    async def _restart(self) -> None:
        """Launch the server from this (the event loop's) thread, which lives as long as
        `umpire serve`: the child dies with the thread that forked it (PR_SET_PDEATHSIG).
        Only the blocking PING waits run in a worker thread."""
        self.server.launch()
        deadline = time.monotonic() + START_TIMEOUT
        while not await asyncio.to_thread(self.server.ready):
            if time.monotonic() >= deadline:
                self.server.kill()
                raise RuntimeError(f"it did not answer PING within {START_TIMEOUT:g} s")
            await asyncio.sleep(0.05)

    async def _watch(self) -> None:
        delay = FIRST_DELAY
        started = time.monotonic()
        while True:
            await asyncio.sleep(POLL_SECONDS)
            process = self.server.process
            if process is None or process.poll() is None:  # poll() reaps a dead child
                continue
            self._set("restarting", 1)
            if time.monotonic() - started >= STABLE_SECONDS:
                delay = FIRST_DELAY
            log.error(
                "embedded Valkey (pid %d) exited with status %s; restarting it from the AOF "
                "in %.1f s",
                process.pid,
                process.returncode,
                delay,
            )
            while True:
                await asyncio.sleep(delay)
                delay = min(delay * 2, MAX_DELAY)
                try:
                    await self._restart()
                    break
                except (RuntimeError, OSError) as exc:
                    self._set("restarting", self.attempt + 1)
                    log.error("embedded Valkey did not restart (%s); next try in %.1f s",
                              str(exc)[-600:], delay)  # fmt: skip
            started = time.monotonic()
            if self.on_restart is not None:
                self.on_restart(self.server)
            self.restarts += 1
            self._set("running", 0)
            assert self.server.process is not None
            log.warning("embedded Valkey restarted (pid %d)", self.server.process.pid)
