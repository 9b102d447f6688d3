"""Plain HTTP on the gateway's port: health, metrics, the viewer's static files."""

from __future__ import annotations

from umpire.clients import UmpireClient
from umpire.server.app import Running
from umpire.testing.support.gateways import http_get


async def test_healthz_reports_the_store(gateway: Running) -> None:
    status, body = await http_get(gateway.port, "/healthz")
    assert status == 200 and '"store":"reachable"' in body


async def test_metrics_count_commands_and_connections(gateway: Running, ws_url: str) -> None:
    async with UmpireClient(ws_url) as client:
        created = await client.create("counter", {})
        await client.send(created.game_id, {"type": "Push"})
        status, body = await http_get(gateway.port, "/metrics")
    assert status == 200
    assert "umpire_connections_open 1" in body
    assert "umpire_commands_total 1" in body and "umpire_appends_total 1" in body
    assert 'umpire_command_seconds_bucket{le="+Inf"} 1' in body


async def test_static_viewer_is_served_and_paths_cannot_escape(gateway: Running) -> None:
    status, body = await http_get(gateway.port, "/")
    assert status == 200 and "<html" in body.lower()
    status, _ = await http_get(gateway.port, "/umpire.js")
    assert status == 200
    status, _ = await http_get(gateway.port, "/../../server/config.py")
    assert status == 404
