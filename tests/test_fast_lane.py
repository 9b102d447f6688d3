"""The fast lane (`pytest -m "not integration"`): the marker is derived from what a test
uses, and a test outside it that starts a process or opens a socket fails by name."""

from __future__ import annotations

import importlib
import socket

import pytest

from umpire.events.redis_store import RedisEventStore


def test_a_test_outside_the_marker_cannot_start_a_process(request: pytest.FixtureRequest) -> None:
    # The module is looked up by a string: naming it would (rightly) mark this test
    # integration, and then the guard would not be on.
    start = getattr(importlib.import_module("sub" + "process"), "Po" + "pen")
    assert request.node.get_closest_marker("integration") is None
    with pytest.raises(RuntimeError, match="not marked integration"):
        start(["true"])
    with pytest.raises(RuntimeError, match="not marked integration"), socket.socket() as sock:
        sock.connect(("127.0.0.1", 9))


async def test_a_test_with_a_store_is_marked_integration(
    store: RedisEventStore, request: pytest.FixtureRequest
) -> None:
    assert request.node.get_closest_marker("integration") is not None
    assert await store.version("no-such-game") == 0
