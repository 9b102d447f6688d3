"""Fixtures for the audit, replay and export commands: the `umpire` CLI, called in process
as `umpire.server.cli.main`, against the suite's real Valkey under this test's own prefix."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.forgery import Cli
from umpire.server.embedded import EmbeddedRedis


@pytest.fixture
def cli(
    monkeypatch: pytest.MonkeyPatch,
    redis_server: EmbeddedRedis,
    prefix: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> Cli:
    """The command line on the suite's server, prefix `prefix`, counter ruleset loaded."""
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    monkeypatch.setenv("UMPIRE_PREFIX", prefix)
    monkeypatch.setenv("UMPIRE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("UMPIRE_EXTRA_RULESETS", "umpire_counter:RULESET")
    # The referee's view (--role referee) needs the operator token (server/referee.py).
    monkeypatch.setenv("UMPIRE_OPERATOR_TOKEN", "audit-tests-operator-token")
    return Cli(monkeypatch, capsys, prefix, redis_server.url, tmp_path)
