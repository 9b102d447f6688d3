"""Downtown's map keeps the flight the player moved in view (docs/viewer.md "Pan and
zoom"): the view stays where the reader left it when a new state arrives, but a piece of
the player's own that moved since the state before is brought into it, at the same zoom
(the view moved no more than it must). Before, a US flight moved on, Movement Point by
Movement Point, walked out of a zoomed-in view and the map stayed behind."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.rulesets.downtown.setups import flight
from tests.support.viewer_page import TIMEOUT, open_with_credential
from umpire.clients import UmpireClient
from umpire.engine.hexgrid import Hex
from umpire.engine.rulesets.downtown.board import board_of
from umpire.server.app import Running

VIEWBOX = re.compile(r"^(-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+)$")


async def _view(page: Any) -> tuple[float, float, float, float]:
    box = str(await page.get_attribute("svg.hexmap", "viewBox"))
    match = VIEWBOX.match(box)
    assert match, box
    x, y, w, h = (float(v) for v in match.groups())
    return x, y, w, h


async def _in_view(page: Any, hex_: str) -> bool:
    x, y, w, h = await _view(page)
    poly = page.locator(f'svg.hexmap .hex[data-hex="{hex_}"]')
    cx = float(str(await poly.get_attribute("data-cx")))
    cy = float(str(await poly.get_attribute("data-cy")))
    return x <= cx <= x + w and y <= cy <= y + h


def _report(hex_: str) -> dict[str, Any]:
    flights = [flight("S1", "strike", "bombing", hex_, bomber=True, altitude="medium", facing=2)]
    return {"type": "ReportUsFlights", "flights": flights}


async def test_the_flight_you_moved_stays_in_view(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    port = viewer_gateway.port
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        created = await client.create("downtown", {})
        gid = created.game_id
        grid = board_of((await viewer_gateway.gateway.games.load(gid))[1].state.setup.map).grid
        middle = Hex((grid.min_col + grid.max_col) // 2, (grid.min_row + grid.max_row) // 2)
        await client.send(gid, _report(middle.label))
        page = await browser.new_page(viewport={"width": 1280, "height": 800})
        await open_with_credential(page, port, created.player_credential)
        await page.wait_for_selector(
            f'svg.hexmap [data-piece="S1"][data-at="{middle.label}"]', timeout=TIMEOUT
        )
        for _ in range(3):  # the reader zooms in on the flight
            await page.click('.map-tools button[aria-label="Zoom in"]')
        zoomed = await _view(page)
        assert await _in_view(page, middle.label)
        # The flight moves on, east, a few hexes at a time, until it would be out of view.
        col = middle.col
        for step in range(6):
            col = min(col + 3, grid.max_col)
            hex_ = Hex(col, middle.row).label
            await client.send(gid, _report(hex_), command_id=f"on-{step}")
            await page.wait_for_selector(
                f'svg.hexmap [data-piece="S1"][data-at="{hex_}"]', timeout=TIMEOUT
            )
            assert await _in_view(page, hex_), (step, hex_, await _view(page))
        now = await _view(page)
        assert now[2:] == zoomed[2:], (now, zoomed)  # the same zoom: only moved
        assert now[0] > zoomed[0], (now, zoomed)  # moved east with the flight
        await page.screenshot(path=str(artifacts / "map-downtown-keeps-your-flight.png"))
        await page.close()
