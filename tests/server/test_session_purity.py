"""The session's module imports nothing that does I/O (issue #44, STYLE.md habit 1): with
asyncio, redis-py, websockets, sockets, subprocesses and the embedded Valkey's launcher
blocked, `umpire.server.session` and every module it pulls in (its jobs, the requests it
makes, the subscription it holds) still import. The driver (server/driver.py) and the
connection (server/connection.py) do the I/O; as tests/engine/test_purity.py does for
engine/, the import runs in a fresh interpreter with those modules blocked at import."""

from __future__ import annotations

from tests.support.io_blocked import import_with_io_blocked


def test_the_session_imports_with_io_modules_blocked() -> None:
    loaded = import_with_io_blocked("umpire.server.session")
    # Its jobs and what they share came with it (the block did not just skip them).
    assert len(loaded) >= 10, loaded
