"""umpire's own suite: the shared fixtures (a real Valkey started by the suite, on a unix
socket, a store under each test's own prefix, a real gateway, the in-process CLI) come from
the plugin umpire.testing.fixtures, which the cross-ruleset tests (umpire.testing) use too;
here, the check that the rulesets are installed and the fast lane.

Never a mock: every store test talks to the suite's server. Each test gets its own key
prefix, so tests do not see each other's games.
"""

from __future__ import annotations

from typing import Any

import pytest

from umpire.engine import registry

pytest_plugins = ("umpire.testing.fixtures",)

# Rulesets are found through their entry points (engine/registry.py), which exist only once
# installed: umpire's own five, and the example ruleset, its own package
# (examples/umpire-counter), which many tests play. The test command installs both; an
# environment installed before the entry points existed needs the install rerun.
if "counter" not in registry.available() or not registry.shipped():
    raise pytest.UsageError(
        "the rulesets' entry points are not installed: run the README's test command, which "
        "installs them (.venv/bin/pip install -e '.[test]' -e examples/umpire-counter)"
    )


# --- The fast lane: tests that start real parts are `integration`, found automatically. ---
#
# A test is integration when it uses a fixture that starts a store, a gateway or a browser
# (directly or through another fixture: `item.fixturenames` is the whole closure), or when
# its module names something that starts a process, a store or a gateway itself. The
# guard below runs every other test with process starts and network sockets refused, so a
# test the rule misses fails loudly in `-m "not integration"` instead of hiding there.

# Fixtures that start a Valkey, a gateway, a cluster or a browser (in any conftest).
INTEGRATION_FIXTURES = frozenset(
    {
        "redis_server",
        "gateway",
        "two_gateways",
        "operator_gateway",
        "viewer_gateway",
        "browser",
        "cluster",
        "cluster_store",
        "durable_cluster_store",
        "tls_redis",
        "site",
        "cli",
        "cli_env",
    }
)
# Names whose presence in a test module means the module starts real parts itself.
INTEGRATION_NAMES = frozenset(
    {
        "subprocess",
        "EmbeddedRedis",
        "running_gateway",
        "serve_workers",
        "LocalCluster",
        "Popen",
        "websockets",
        "Peer",
        "processes",
        "typecheck",
    }
)


# Support modules whose helpers start a serve, a gateway process, a cluster or a CLI.
INTEGRATION_MODULES = frozenset(
    {
        "tests.support.embedded_site",
        "tests.support.io_blocked",
        "tests.support.fleet",
        "tests.support.processes",
        "tests.support.serving",
        "umpire.testing.support.peer",
        "bench.append_client",
        "bench.cluster",
        "bench.hostile_load",
        "bench.valkey_append",
    }
)


def _starts_real_parts(item: pytest.Item) -> bool:
    if INTEGRATION_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        return True
    module = getattr(item, "module", None)
    if module is not None and not INTEGRATION_NAMES.isdisjoint(vars(module)):
        return True
    if module is not None and any(
        getattr(value, "__module__", None) in INTEGRATION_MODULES for value in vars(module).values()
    ):
        return True
    # A name imported inside the test function itself (IMPORT_FROM keeps it in co_names).
    code = getattr(getattr(item, "function", None), "__code__", None)
    return code is not None and not INTEGRATION_NAMES.isdisjoint(code.co_names)


# The longest modules (a minute or more each on a quiet machine), started first: the test
# command's workers (-n 3, docs/architecture.md) take tests in collection order, and these
# collect last (tests/viewer, testing/), so they ran alone at the end while the other
# workers sat idle. Any order is correct (each test sets up its own game and key prefix).
LONG_FIRST = (
    "tests/viewer/test_table_play_to_end.py",
    "tests/disputes/test_disputes.py",
    "testing/access/test_twin_differential.py",
    "testing/contract/test_actions_truth.py",
)


def _long_first(item: pytest.Item) -> int:
    path = item.nodeid.split("::", 1)[0]
    return LONG_FIRST.index(path) if path in LONG_FIRST else len(LONG_FIRST)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _starts_real_parts(item):
            item.add_marker(pytest.mark.integration)
    items.sort(key=_long_first)  # stable: the rest keep their order


class _RealPartRefused(RuntimeError):
    """A test outside the integration marker tried to start a process or open a socket."""


@pytest.fixture(autouse=True)
def _fast_lane_guard(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside `integration`, starting a process or a network connection is an error that
    names the test: the marker is derived, so the derivation is checked on every run."""
    if request.node.get_closest_marker("integration") is not None:
        return
    import socket
    import subprocess

    def refuse(*args: object, **kwargs: object) -> None:
        raise _RealPartRefused(
            f"{request.node.nodeid} starts a process or opens a socket but is not marked "
            "integration: teach tests/conftest.py's INTEGRATION_FIXTURES/NAMES about it"
        )

    monkeypatch.setattr(subprocess.Popen, "__init__", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket.socket, "bind", refuse)


# --- The rule documents: provenance checks skip on a clone without them. ---


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """One line for every provenance check skipped for want of the rule documents."""
    from umpire.testing.support.seeds import HINT, SKIP_REASON

    skipped = [
        report
        for report in terminalreporter.stats.get("skipped", [])
        if SKIP_REASON in str(getattr(report, "longrepr", ""))
    ]
    if skipped:
        terminalreporter.write_line(f"{len(skipped)} provenance checks skipped: {HINT}")
