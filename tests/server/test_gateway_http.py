"""Plain HTTP on the gateway's port: health, metrics, the viewer's static files."""

from __future__ import annotations

import json

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


async def test_rulesets_listing_carries_each_rulesets_labels(gateway: Running) -> None:
    """Issue 41 item 2: each ruleset's view in its words, by bare field name, for the page."""
    status, body = await http_get(gateway.port, "/rulesets.json")
    listing = {entry["name"]: entry for entry in json.loads(body)}
    assert status == 200 and all("labels" in e and "value_labels" in e for e in listing.values())
    downtown = listing["downtown"]
    assert downtown["labels"]["vid_limit"] == "Visual identifications left (5.6.2)"
    assert downtown["value_labels"]["vid_limit"]["-1"] == "no limit"
    assert downtown["value_labels"]["acq_phase_reading"]["minus_1"] == "-1 (default)"
