"""Nightfighter adjacency on the drawn map matches the engine's (issue #18): the page's hex
centres, read from the SVG it draws, give every hex the same six neighbours as the
ruleset's HexGrid. On main the viewer drew odd columns lower while nightfighter's grid
puts even columns lower, so every hex's diagonal neighbours were drawn the wrong way round.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from umpire.clients import UmpireClient
from umpire.engine.hexgrid import Hex
from umpire.engine.rulesets.nightfighter.geometry import grid_of
from umpire.engine.rulesets.nightfighter.setup import Setup
from umpire.server.app import Running

TIMEOUT = 30_000  # ms; generous: it passes as soon as the page shows it
CENTRES = """() => [...document.querySelectorAll('#state svg.hexmap polygon.hex')].map(
    (p) => [p.dataset.hex, Number(p.dataset.cx), Number(p.dataset.cy)])"""


async def test_the_drawn_nightfighter_map_has_the_engine_neighbours(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    port = viewer_gateway.port
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        created = await client.create("nightfighter", {}, scenario="4B", client_entropy="waived")
        page = await browser.new_page(viewport={"width": 1280, "height": 1000})
        await page.goto(f"http://127.0.0.1:{port}/")
        await page.fill("#credential", created.player_credential)
        await page.click("#open-game button[type=submit]")
        await page.wait_for_selector("#state svg.hexmap polygon.hex", timeout=TIMEOUT)
        centres = {hex_: (x, y) for hex_, x, y in await page.evaluate(CENTRES)}
        await page.screenshot(path=str(artifacts / "nightfighter-map.png"))
        await page.close()

    grid = grid_of(Setup())
    assert len(centres) == 18 * 27  # the whole declared map, 0101 to 1827
    step = min(
        math.dist(centres["0101"], centres[other]) for other in ("0102", "0201")
    )  # the distance between the centres of two touching hexes
    for label, at in centres.items():
        drawn = {
            other
            for other, there in centres.items()
            if other != label and math.isclose(math.dist(at, there), step, rel_tol=0.02)
        }
        engine = {h.label for h in grid.neighbours(Hex.parse(label))}
        assert drawn == engine, f"{label}: drawn next to {sorted(drawn)}, engine {sorted(engine)}"
