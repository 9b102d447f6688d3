"""The browser client (clients/web/umpire.js) in a real headless Chromium: a create whose
answer is lost to a dropped connection is re-sent on reconnect and names the same game."""

from __future__ import annotations

from typing import Any

from server.app import Running

# A WebSocket that loses the first `created` answer: it closes instead of delivering it,
# as a dropped connection would, after the server has made the game.
LOSE_FIRST_CREATED = """async (url) => {
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
    const created = await client.create("counter", { target: 5 });
    client.close();
    return { lost: window.lost, created: created.game_id };
}"""


async def test_a_create_whose_answer_was_lost_names_the_same_game(
    browser: Any, viewer_gateway: Running
) -> None:
    port = viewer_gateway.port
    page = await browser.new_page()
    await page.goto(f"http://127.0.0.1:{port}/")
    result = await page.evaluate(LOSE_FIRST_CREATED, f"ws://127.0.0.1:{port}/ws")
    assert result["lost"] == result["created"]
    assert viewer_gateway.gateway.metrics.games_created == 1
    await page.close()
