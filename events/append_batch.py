"""Appends that arrive in the same event-loop turn share one round trip to Redis.

Each append is still its own script call, atomic on its own and answered on its own; only
the connection, the write and the read are shared, in a pipeline. Measured with redis-py
on this project's benchmark machine: a lone `EVALSHA` cost the client about 52 us of CPU
(77 us through redis-py's `Script` object), a pipeline about 45 us per call at 5 calls and
27 us at 20. A lone append is sent on its own (a pipeline of one costs more, 115 us).

With a durability setting, one `WAITAOF` ends each pipeline: it waits for every earlier
write of its connection, so the appends of one turn share one wait.
"""

from __future__ import annotations

import asyncio
from typing import Any

from redis.exceptions import NoScriptError

from events.durability import Durability

MAX_BATCH = 256  # calls per pipeline

# One waiting append: the script's keys and arguments, and the future its caller awaits.
Waiting = tuple[list[str], list[Any], "asyncio.Future[tuple[Any, Any]]"]


class AppendBatcher:
    """Sends the append script for every waiting append, once per event-loop turn."""

    def __init__(
        self, client: Any, *, script: str, sha: str, wait: Durability | None = None
    ) -> None:
        self.client = client
        self.script = script
        self.sha = sha
        self.wait = wait if wait is not None and wait.active else None
        self._waiting: list[Waiting] = []
        self._sending: set[asyncio.Task[None]] = set()
        self.batches = 0  # pipelines and lone calls sent (a figure for the benchmark)
        self.calls = 0

    async def run(self, keys: list[str], argv: list[Any]) -> tuple[Any, Any]:
        """(the script's reply, WAITAOF's reply or None when not waiting) for one append;
        the error the store gave is raised."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[tuple[Any, Any]] = loop.create_future()
        self._waiting.append((keys, argv, future))
        if len(self._waiting) == 1:
            loop.call_soon(self._flush)
        return await future

    def _flush(self) -> None:
        waiting, self._waiting = self._waiting, []
        for start in range(0, len(waiting), MAX_BATCH):
            task = asyncio.create_task(self._send(waiting[start : start + MAX_BATCH]))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)

    async def _send(self, batch: list[Waiting]) -> None:
        for _ in range(2):  # a second pass only after loading the script (NOSCRIPT)
            self.batches += 1
            self.calls += len(batch)
            try:
                replies, waited = await self._call(batch)
            except asyncio.CancelledError:
                for *_, future in batch:
                    future.cancel()
                raise
            except Exception as exc:  # the connection failed: each may or may not have run
                for *_, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                return
            again: list[Waiting] = []
            for (keys, argv, future), reply in zip(batch, replies, strict=True):
                if isinstance(reply, NoScriptError):
                    again.append((keys, argv, future))
                elif future.done():
                    continue  # its caller went away; the append ran or not, as it would
                elif isinstance(reply, Exception):
                    future.set_exception(reply)
                else:
                    future.set_result((reply, waited))
            if not again:
                return
            try:
                await self.client.script_load(self.script)
            except Exception as exc:
                for *_, future in again:
                    if not future.done():
                        future.set_exception(exc)
                return
            batch = again

    async def _call(self, batch: list[Waiting]) -> tuple[list[Any], Any]:
        """Each call's reply (errors in place), and WAITAOF's (None when not waiting)."""
        if len(batch) == 1 and self.wait is None:
            keys, argv, _ = batch[0]
            try:
                return [await self.client.evalsha(self.sha, len(keys), *keys, *argv)], None
            except NoScriptError as exc:
                return [exc], None
        async with self.client.pipeline(transaction=False) as pipe:
            for keys, argv, _ in batch:
                pipe.evalsha(self.sha, len(keys), *keys, *argv)
            if self.wait is not None:
                pipe.execute_command(*self.wait.command)
            replies = list(await pipe.execute(raise_on_error=False))
        if self.wait is None:
            return replies, None
        return replies[:-1], replies[-1]
