"""Where the game stands, said above the moves (clients/web/play.js `whereWeAre`): a hex
map's table (Nightfighter, Conflict of Heroes, Downtown) said the turn and the phase
nowhere but in the state pane, under the map and the log (three screens down on a
phone), so a wargamer reading the moves could not tell which phase they end. The line
names the tracks by the ruleset's labels and their values in words, and leaves the
table at the end (the end screen says how it ended)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support.browser import wait_for
from tests.support.viewer_page import TIMEOUT, create_game, send
from umpire.server.app import Running

WHERE = "#play-where"


async def test_the_turn_and_phase_are_said_above_the_moves(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    page = await browser.new_page(viewport={"width": 390, "height": 844})
    await create_game(page, viewer_gateway.port, "nightfighter", "4B")
    before = await page.inner_text(WHERE)
    # A new game opens at turn 1's Bomber Movement (v9); the bombers' move ends the phase.
    assert before.startswith("Turn: 1 · Phase: Bomber Movement"), before
    assert await send(page, "MoveBombers") == {"ok": True, "head": 8}
    await wait_for(
        page, f"document.querySelector('{WHERE}').innerText !== {before!r}", timeout=TIMEOUT
    )
    now = await page.inner_text(WHERE)
    assert now.startswith("Turn: 1 · Phase: Fighter Movement") and "_" not in now, now
    # Above the moves, in view right under the map on a phone.
    above = await page.evaluate(
        f"document.querySelector('{WHERE}').getBoundingClientRect().bottom"
        " <= document.querySelector('#actions').getBoundingClientRect().top"
    )
    assert above
    await page.screenshot(path=str(artifacts / "table-where-phone.png"), full_page=True)
    await page.close()


async def test_the_larger_unit_comes_first(table_page: Any) -> None:
    """Age of Dogfights' view holds its phase before its round: said "Phase: Combat ·
    Round: 3", where a wargamer reads the round first."""
    page = table_page
    said = await page.evaluate(
        """async () => {
      const { whereWeAre } = await import('./play.js');
      const names = { labels: { phase: 'Phase', round: 'Round' },
        value_labels: { phase: { combat: 'Combat' } } };
      return whereWeAre({ player_edge: 'west', phase: 'combat', round: 3, planes: [] }, names);
    }"""
    )
    assert said == "Round: 3 · Phase: Combat", said
