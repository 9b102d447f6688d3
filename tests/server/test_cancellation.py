"""Stopping a background task never swallows a cancellation of the stopper itself
(server/background.py): a caller cancelled while it waits for the task to end is
cancelled, as asyncio's docs require of code that catches CancelledError."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from tests.support.waiting import until
from umpire.server import background
from umpire.server.embedded import EmbeddedRedis
from umpire.server.supervisor import Supervisor


async def _slow_to_stop(released: asyncio.Event) -> None:
    """A task whose cleanup, once it is cancelled, lasts until `released` is set."""
    try:
        await asyncio.sleep(3600)
    finally:
        await released.wait()


async def _cancelled_while_waiting(
    stop: Callable[[], Awaitable[None]], stopped: list[asyncio.Task[None]]
) -> asyncio.Task[None]:
    """Run `stop()` until it waits for the cleanup of the `stopped` tasks, cancel it
    there, and return it once it has ended."""

    async def stopping() -> None:
        await stop()

    stopper = asyncio.create_task(stopping())
    # stop() has cancelled the tasks (it cancels, then waits, without yielding between)
    await until(lambda: all(task.cancelling() for task in stopped), what="stop() cancelled")
    assert not stopper.done()
    stopper.cancel()
    await asyncio.wait([stopper], timeout=5)
    return stopper


async def test_a_supervisor_stop_cancelled_while_it_waits_is_cancelled(
    redis_server: EmbeddedRedis,
) -> None:
    """On main stop() awaited the watch task in suppress(CancelledError): its own
    cancellation was swallowed and it returned as if it had finished."""
    supervisor = Supervisor(redis_server)  # never started: only its watch task is stopped
    released = asyncio.Event()
    watch = asyncio.create_task(_slow_to_stop(released))
    await asyncio.sleep(0)
    supervisor._task = watch
    stopper = await _cancelled_while_waiting(supervisor.stop, [watch])
    assert stopper.cancelled()
    assert not watch.done()  # its cleanup was not interrupted by the stopper's cancellation
    released.set()
    await asyncio.wait([watch])
    assert watch.cancelled()


async def test_cancel_all_cancelled_while_it_waits_is_cancelled() -> None:
    released = asyncio.Event()
    tasks = [asyncio.create_task(_slow_to_stop(released)) for _ in range(2)]
    await asyncio.sleep(0)
    stopper = await _cancelled_while_waiting(lambda: background.cancel_all(tasks), tasks)
    assert stopper.cancelled()
    released.set()
    await asyncio.wait(tasks)
    assert all(task.cancelled() for task in tasks)


async def test_stop_reraises_what_the_task_raised_and_cancel_all_does_not() -> None:
    async def failing() -> None:
        try:
            await asyncio.sleep(3600)
        finally:
            raise RuntimeError("cleanup failed")

    task = asyncio.create_task(failing())
    await asyncio.sleep(0)
    with pytest.raises(RuntimeError, match="cleanup failed"):
        await background.stop(task)
    other = asyncio.create_task(failing())
    await asyncio.sleep(0)
    await background.cancel_all([other])  # theirs to log: not raised here
    assert isinstance(other.exception(), RuntimeError)
