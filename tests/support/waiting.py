"""Waiting for a condition with a generous bound, never for a fixed time.

A test that sleeps a fixed time bets that the machine is fast enough; on a busy machine it
loses. `until` polls a condition until it holds, and fails after a bound far past any
honest wait with a message naming what never happened. `until_sync` is the same for code
outside an event loop (a subprocess, a thread). `buckets_full` is the condition for a
token bucket's refill: wait for it rather than sleep the computed refill time."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from umpire.server.gateway import Gateway

T = TypeVar("T")

BOUND = 30.0  # seconds: generous; a condition that holds at all holds well within it
POLL = 0.02  # seconds between two looks at the condition


async def until(
    predicate: Callable[[], T | Awaitable[T]],
    *,
    what: str | Callable[[], str],
    timeout: float = BOUND,
    poll: float = POLL,
) -> T:
    """Poll `predicate` (sync or async) until it returns a truthy value, and return that
    value; after `timeout` seconds fail with `what` (the condition that never held; a
    callable is asked at the failure, to say what was seen instead)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value  # type: ignore[return-value]
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:g} s: {_said(what)}")
        await asyncio.sleep(poll)


def until_sync(
    predicate: Callable[[], T],
    *,
    what: str | Callable[[], str],
    timeout: float = BOUND,
    poll: float = POLL,
) -> T:
    """`until` for code outside an event loop: blocks the calling thread while it polls."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:g} s: {_said(what)}")
        time.sleep(poll)


def _said(what: str | Callable[[], str]) -> str:
    return what if isinstance(what, str) else what()


def buckets_full(gateway: Gateway) -> bool:
    """Whether the cost bucket of every connection at `gateway` is full again
    (server/admission.py): a test that needs a connection's whole burst waits for this."""
    now = time.monotonic()
    return all(conn.session.budget.full(now) for conn in gateway.connections)
