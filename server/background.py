"""Background tasks of the server's long-lived parts (feeds, notifier, gateway).

Stopping a task is cancelling it and waiting until it has ended. The wait is
`asyncio.wait`, never `await task` inside `suppress(CancelledError)`: that would also
swallow a cancellation aimed at the waiting task itself (its caller's shutdown, a
timeout), which would then carry on as if it had not been cancelled.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any


async def cancel_all(tasks: Iterable[asyncio.Task[Any]]) -> None:
    """Cancel every task, then wait for each to finish; what they raise is theirs to log.
    A cancellation of the caller while it waits propagates."""
    tasks = list(tasks)
    for task in tasks:
        task.cancel()
    if tasks:
        await asyncio.wait(tasks)
    for task in tasks:
        if not task.cancelled():
            task.exception()  # retrieved, so asyncio does not report it at collection


async def stop(task: asyncio.Task[Any]) -> None:
    """Cancel `task` and wait until it has ended; re-raise what it raised other than its
    cancellation. A cancellation of the caller while it waits propagates."""
    task.cancel()
    await asyncio.wait([task])
    if not task.cancelled():
        task.result()
