"""The shape of the session and of server/ (issue 31 item 5), checked on the source:

- the session (server/session.py and the job modules it is made of) imports no asyncio,
  no clock and no store: it is a protocol state machine, and its I/O is the driver's
  (server/driver.py), through the requests of server/requests.py;
- no class in server/ is longer than MAX_CLASS_LINES: one job per class and module.

Broken once each on purpose: an `import asyncio` (and an `import time`) added to
server/session.py failed the first; before they were split, the second named `GameFeed`
(307 lines), `Games` (590) and the gateway's `Connection` (351).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tests.support.project_modules import modules

# The session and the modules of its jobs: none of them does I/O.
SESSION = (
    "umpire.server.session",
    "umpire.server.commands",
    "umpire.server.grants",
    "umpire.server.views",
    "umpire.server.subscriptions",
    "umpire.server.requests",
)
# What a module with no I/O must not import: the event loop, the clock, the store, and the
# services and connection that hold them.
FORBIDDEN = (
    "asyncio",
    "time",
    "socket",
    "websockets",
    "umpire.server.clock",
    "umpire.events.store",
    "umpire.events.redis_store",
    "umpire.server.games",
    "umpire.server.replay_cache",
    "umpire.server.driver",
    "umpire.server.gateway",
    "umpire.server.connection",
)
MAX_CLASS_LINES = 300


def _imports(tree: ast.AST) -> Iterator[tuple[str, int]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module, node.lineno


def _forbidden(module: str) -> bool:
    return any(module == f or module.startswith(f + ".") for f in FORBIDDEN)


def test_the_session_imports_no_event_loop_no_clock_and_no_store() -> None:
    found = modules()
    bad = []
    for name in SESSION:
        path = found[name]
        for module, line in _imports(ast.parse(path.read_text(), str(path))):
            if _forbidden(module):
                bad.append(f"{path}:{line} imports {module}")
    assert bad == [], "the session has no I/O (server/driver.py does it):\n" + "\n".join(bad)


def test_the_session_awaits_nothing() -> None:
    """No coroutine in the session: its work is generators that yield requests."""
    found = modules()
    bad = []
    for name in SESSION:
        path = found[name]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.AsyncFunctionDef | ast.Await | ast.AsyncWith | ast.AsyncFor):
                bad.append(f"{path}:{node.lineno} {type(node).__name__}")
    assert bad == [], "\n".join(bad)


def test_no_class_in_server_is_longer_than_300_lines() -> None:
    long = []
    server = [(n, p) for n, p in modules().items() if n.split(".")[:2] == ["umpire", "server"]]
    assert server, "no module of umpire.server"
    for _, path in server:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef):
                assert node.end_lineno is not None
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_CLASS_LINES:
                    long.append(f"{path}:{node.lineno} {node.name}: {lines} lines")
    assert long == [], f"classes over {MAX_CLASS_LINES} lines (split them by job):\n" + "\n".join(
        long
    )
