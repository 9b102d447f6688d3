"""Issue 41, item 6: one bad ruleset breaks nothing.

A ruleset package whose module fails to import is installed beside a running `umpire
serve` (a dist-info with an `umpire.rulesets` entry point on the server's path): the
ruleset is left out of /rulesets.json, /healthz names it with its error, and a game of
another ruleset is still created.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.processes import REPO, start_gateway
from umpire.clients import UmpireClient
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import http_get


def install_broken_package(site: Path) -> None:
    """A package `umpire_shattered` that raises on import, declared as ruleset `shattered`."""
    dist = site / "umpire_shattered-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: umpire-shattered\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[umpire.rulesets]\nshattered = umpire_shattered:RULESET\n"
    )
    (site / "umpire_shattered.py").write_text('raise RuntimeError("this ruleset is broken")\n')


async def test_a_ruleset_that_fails_to_import_leaves_the_others_working(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    install_broken_package(site)
    gateway, port = start_gateway(redis_server.url, prefix, PYTHONPATH=f"{REPO}:{site}")
    try:
        status, body = await http_get(port, "/rulesets.json")
        assert status == 200, body
        names = [entry["name"] for entry in json.loads(body)]
        assert "shattered" not in names
        assert "downtown" in names
        status, body = await http_get(port, "/healthz")
        assert status == 200, body
        assert "this ruleset is broken" in json.loads(body)["broken_rulesets"]["shattered"]
        async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
            created = await client.create("downtown")
            assert created.game_id
    finally:
        gateway.terminate()
        gateway.wait(20)
