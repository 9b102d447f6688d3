"""The free-space watermark of the embedded store's disk.

Valkey with `appendfsync always` exits when an AOF write comes up short (the disk full),
and then reads go down with writes, and it restarts in a loop until space returns. So
umpire stops accepting writes first: a background task looks at the free space of the
data directory's filesystem once a second (`statvfs`, one system call) and keeps a flag;
a write checks the flag (an attribute read: no cost per command) and is refused with
`store_full` while the free space is under `UMPIRE_STORE_MIN_FREE_MB`. Reads are served
throughout; writes are accepted again by themselves once the space is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from pathlib import Path

from umpire.events.errors import StoreFull
from umpire.server import background

log = logging.getLogger("umpire.store")

CHECK_SECONDS = 1.0
MB = 1024 * 1024


class DiskWatch:
    """Whether the data directory's disk is under its watermark, refreshed in the
    background."""

    def __init__(self, path: Path, min_free_bytes: int, every: float = CHECK_SECONDS) -> None:
        self.path = path
        self.min_free_bytes = min_free_bytes
        self.every = every
        self.full = False
        self._task: asyncio.Task[None] | None = None

    def free_bytes(self) -> int | None:
        """Bytes an unprivileged process may still write there; None if unknown."""
        try:
            found = os.statvfs(self.path)
        except OSError:
            return None
        return found.f_bavail * found.f_frsize

    def check(self) -> bool:
        """Look once; whether writes are refused now (a change is logged once)."""
        free = self.free_bytes()
        full = free is not None and free < self.min_free_bytes
        if full != self.full:
            if full:
                log.error(
                    "the store's disk has %d MB free, under UMPIRE_STORE_MIN_FREE_MB (%d): "
                    "writes are refused with store_full until space is freed (reads go on)",
                    (free or 0) // MB,
                    self.min_free_bytes // MB,
                )
            else:
                log.warning("the store's disk has space again: writes are accepted")
        self.full = full
        return full

    def refuse_if_full(self) -> None:
        """StoreFull while the disk is under the watermark (no path, no figures)."""
        if self.full:
            raise StoreFull(
                "the store's disk is nearly full: writes are refused until the operator "
                "frees space (reads still work); nothing was written, retry later with "
                "the same command id"
            )

    def start(self) -> None:
        """Look now, then every `every` s (in the running event loop)."""
        self.check()
        self._task = asyncio.get_running_loop().create_task(self._watch(), name="disk-watch")

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            with contextlib.suppress(Exception):  # a look that fails keeps the last answer
                self.check()

    async def stop(self) -> None:
        """Stop looking."""
        if self._task is not None:
            await background.stop(self._task)
