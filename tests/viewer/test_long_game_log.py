"""A long game opens on its head and reads its log lazily (issue #41 item 4): the map and
the actions come from one `view` of the head, the game log from the last 200 events; the
older ones are read only when the reader asks ("Read the … events before #N"), on a second
connection that closes after, and nothing is refused over budget."""

from __future__ import annotations

from typing import Any

from tests.support.browser import wait_for
from tests.support.viewer_page import TIMEOUT
from umpire.engine.roles import Role
from umpire.server import credentials
from umpire.server.app import Running
from umpire.server.games import Games

EVENTS = 601  # a GameCreated and 300 Adds of two events each
RECENT = 200  # the events of the log the page reads as it opens (clients/web/viewer.js)


async def test_a_long_games_log_is_read_from_near_its_head_and_earlier_on_request(
    browser: Any, viewer_gateway: Running, games: Games
) -> None:
    game_id = (await games.create("counter", {"target": 10**6})).game_id
    for n in range((EVENTS - 1) // 2):
        await games.handle(game_id, f"add-{n}", {"type": "Add", "amount": 1})
    player = await credentials.issue(games.store, game_id, Role.PLAYER)
    page = await browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    await page.goto(f"http://127.0.0.1:{viewer_gateway.port}/#credential={player}")
    await wait_for(page, f"document.querySelector('#actions').dataset.seq === '{EVENTS}'")
    await page.wait_for_selector(f'#events li[data-seq="{EVENTS}"]', timeout=TIMEOUT)
    first = EVENTS - RECENT + 1
    earlier = page.locator("#earlier")
    assert await earlier.inner_text() == f"Read the {first - 1} events before #{first}"
    assert await page.locator('#events li[data-seq="1"]').count() == 0
    assert await page.locator(f'#events li[data-seq="{first - 1}"]').count() == 0

    await earlier.click()
    await earlier.wait_for(state="hidden", timeout=TIMEOUT)  # the whole log is read
    # The list's top: the game's first event, its creation.
    await page.locator("#events").evaluate(
        "(e) => { e.scrollTop = 0; e.dispatchEvent(new Event('scroll')); }"
    )
    await page.wait_for_selector('#events li[data-seq="1"]', timeout=TIMEOUT)
    assert "game created" in await page.inner_text('#events li[data-seq="1"]')
    assert sum(viewer_gateway.gateway.admission.refused.values()) == 0
    assert not errors, errors
    await page.close()
