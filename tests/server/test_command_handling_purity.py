"""Command handling's steps (server/command_handling.py) do no I/O (issue #44 item 1,
STYLE.md habits 1 and 22): with asyncio, redis-py, websockets, sockets, subprocesses and
the embedded Valkey's launcher blocked, the module and what it pulls in (the rules job,
the records it answers with) still import, in a fresh interpreter as
tests/server/test_session_purity.py does for the session; and its source reads no clock,
draws no random number and awaits nothing: the driver (server/games.py `Games.handle`)
does all of that."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.io_blocked import import_with_io_blocked
from tests.support.project_modules import modules

REPO = Path(__file__).resolve().parents[2]
STEPS = "umpire.server.command_handling"
# What the steps' own source must not import: the loop, the clock, chance, the store and
# the services that hold them.
FORBIDDEN = (
    "asyncio", "time", "random", "secrets", "socket", "websockets", "umpire.server.clock",
    "umpire.events.redis_store", "umpire.server.games", "umpire.server.rules_pool",
)  # fmt: skip


def test_the_steps_import_with_io_modules_blocked() -> None:
    loaded = import_with_io_blocked(STEPS)
    # The rules job came with it (the block did not just skip it).
    assert "umpire.server.rules_job" in loaded, loaded


def test_the_steps_read_no_clock_draw_no_chance_and_await_nothing() -> None:
    path = modules()[STEPS]
    bad = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        bad += [
            f"{path}:{node.lineno} imports {name}"
            for name in names
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN)
        ]
        if isinstance(node, ast.AsyncFunctionDef | ast.Await | ast.AsyncWith | ast.AsyncFor):
            bad.append(f"{path}:{node.lineno} {type(node).__name__}")
    assert bad == [], "command handling's steps have no I/O (Games.handle does it):\n" + "\n".join(
        bad
    )
