"""The store boundary (docs/architecture.md "The store boundary"): server/ types against
the store's protocols (events/store.py, events/credential_store.py,
events/notifications.py) and never speaks Redis; only the Redis adapter in events/ does,
and "the store is unreachable" is defined once (events/unreachable.py).

Fails on 0c7eb26: server/credentials.py, games.py and gateway.py imported redis, five
server modules imported RedisEventStore, and credentials.py, feed.py, revocations.py and
gateway.py called the client through `store.redis`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.support.project_modules import modules

# The Redis adapter: the only modules that import redis-py.
ADAPTER = {
    "umpire.events.redis_store",  # the event store: append script, reads, tails, snapshots
    "umpire.events.redis_credentials",  # credential digests
    "umpire.events.redis_channels",  # pub/sub: game channels, revocations, cluster shards
    "umpire.events.append_batch",  # the append pipeline packed by hand
    "umpire.events.resp",  # commands packed by hand, written and read on a connection
    "umpire.events.cluster_append",  # on a cluster, the append sent to its slot's master
    "umpire.events.durability",  # WAITAOF after an append
    "umpire.events.unreachable",  # the one definition of "the store is unreachable"
}
# Bootstrap: builds the client (URL, TLS, cluster) and waits for the embedded server.
BOOTSTRAP = {"umpire.server.store_access"}
# What the server may import of events/'s Redis modules besides the bootstrap.
SHARED = {"umpire.events.unreachable"}
# Attributes that are the client's, not the store protocols'.
CLIENT_ATTRIBUTES = {"redis", "pipeline", "pubsub", "execute_command", "register_script"}


def _imported(tree: ast.AST) -> Iterator[tuple[str, list[str], int]]:
    """Every import anywhere in a module: (module, names, line)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, [], node.lineno
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module, [alias.name for alias in node.names], node.lineno


def _is_redis(module: str) -> bool:
    return module == "redis" or module.startswith("redis.")


def _parsed(package: str) -> Iterator[tuple[str, Path, ast.AST]]:
    """Every module of `package` ("events", "server", ...): `umpire.<package>.*`."""
    found = False
    for name, path in modules().items():
        if name.split(".")[:2] == ["umpire", package]:
            found = True
            yield name, path, ast.parse(path.read_text(), str(path))
    # Never vacuous: these checks passed on nothing after the folders became one package.
    assert found, f"no module of umpire.{package}"


def test_no_server_module_but_the_bootstrap_imports_redis_or_the_adapter() -> None:
    found = []
    for name, path, tree in _parsed("server"):
        if name in BOOTSTRAP:
            continue
        for module, _names, line in _imported(tree):
            adapter = module in ADAPTER - SHARED
            if _is_redis(module) or adapter:
                found.append(f"{path.name}:{line} imports {module}")
    assert not found, "server/ types against the store protocols:\n" + "\n".join(found)


def test_no_server_module_reaches_for_the_client() -> None:
    found = []
    for _name, path, tree in _parsed("server"):
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in CLIENT_ATTRIBUTES:
                found.append(f"{path.name}:{node.lineno} .{node.attr}")
    assert not found, "server/ never holds the Redis client:\n" + "\n".join(found)


def test_only_the_adapter_imports_redis_in_events() -> None:
    found = []
    for name, path, tree in _parsed("events"):
        if name in ADAPTER:
            continue
        found += [f"{path.name}:{line}" for module, _, line in _imported(tree) if _is_redis(module)]
    assert not found, f"events/ modules outside the adapter import redis: {found}"


def test_unreachable_is_defined_once() -> None:
    """Only events/unreachable.py names redis-py's connection and timeout errors."""
    found = []
    for package in ("events", "server", "engine", "clients"):
        for name, path, tree in _parsed(package):
            for module, names, line in _imported(tree):
                wanted = {"ConnectionError", "TimeoutError"} & set(names)
                if _is_redis(module) and wanted and name != "umpire.events.unreachable":
                    found.append(f"{path.name}:{line} imports {sorted(wanted)} from {module}")
    assert not found, "use events.unreachable.UNREACHABLE:\n" + "\n".join(found)
