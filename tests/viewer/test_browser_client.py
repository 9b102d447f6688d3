"""The browser client (clients/web/umpire.js) in a real headless Chromium: a create whose
answer is lost to a dropped connection is re-sent on reconnect and names the same game."""

from __future__ import annotations

from typing import Any

import pytest

from umpire.server.app import Running
from umpire.testing.support.drivers import driver, rulesets

# A WebSocket that loses the first `created` answer: it closes instead of delivering it,
# as a dropped connection would, after the server has made the game.
LOSE_FIRST_CREATED = """async ([url, ruleset, setup]) => {
    class Lossy extends WebSocket {
        set onmessage(handler) {
            super.onmessage = (msg) => {
                const message = JSON.parse(msg.data);
                if (message.type === "created" && window.lost === undefined) {
                    window.lost = message.game_id;
                    this.close();
                    return;
                }
                handler(msg);
            };
        }
    }
    window.WebSocket = Lossy;
    const { UmpireClient } = await import("/umpire.js");
    const client = new UmpireClient(url, { reconnectDelay: 20 });
    await client.connect();
    const created = await client.create(ruleset, setup);
    client.close();
    return { lost: window.lost, created: created.game_id };
}"""


@pytest.mark.parametrize("ruleset", rulesets())
async def test_a_create_whose_answer_was_lost_names_the_same_game(
    browser: Any, viewer_gateway: Running, ruleset: str
) -> None:
    # Each ruleset's own setup: on main every one with a list in it got game_exists.
    setup, _ = driver(ruleset)
    port = viewer_gateway.port
    page = await browser.new_page()
    await page.goto(f"http://127.0.0.1:{port}/")
    url = f"ws://127.0.0.1:{port}/ws"
    result = await page.evaluate(LOSE_FIRST_CREATED, [url, ruleset, setup])
    assert result["lost"] == result["created"]
    assert viewer_gateway.gateway.metrics.games_created == 1
    await page.close()
