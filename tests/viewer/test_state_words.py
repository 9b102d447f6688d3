"""The state pane says a ruleset's fields in its own words (issue #41 item 2, the page's
side): the `labels` and `value_labels` a ruleset's entry of /rulesets.json carries (keyed
by the bare field name) name the fields and their values; a field without a label is its
key in words ("last_roll" reads "Last roll"), never the snake_case key. The listing is
given here through the browser (the rulesets' own labels are the server's part)."""

from __future__ import annotations

import json
from typing import Any

from tests.support.viewer_page import TIMEOUT
from umpire.engine.roles import Role
from umpire.server import credentials
from umpire.server.app import Running
from umpire.server.games import Games

LABELS = {"total": "Running total"}
VALUE_LABELS = {"pushes": {"0": "no push yet"}}


async def test_the_state_pane_names_fields_by_the_rulesets_labels(
    browser: Any, viewer_gateway: Running, games: Games
) -> None:
    game_id = (await games.create("counter", {"target": 10})).game_id
    player = await credentials.issue(games.store, game_id, Role.PLAYER)
    page = await browser.new_page()

    async def labelled(route: Any) -> None:
        answer = await route.fetch()
        listing = await answer.json()
        for entry in listing:
            if entry["name"] == "counter":
                entry["labels"], entry["value_labels"] = LABELS, VALUE_LABELS
        await route.fulfill(response=answer, body=json.dumps(listing))

    await page.route("**/rulesets.json", labelled)
    # The game's link (as `umpire new` prints it: its game id and the credential).
    link = f"http://127.0.0.1:{viewer_gateway.port}/#game={game_id}&credential={player}"
    await page.goto(link)
    await page.wait_for_selector("#state-details .tracks dt", timeout=TIMEOUT)
    shown = await page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#state-details .tracks dt')]
             .map((dt) => [dt.textContent, dt.nextElementSibling.textContent]))"""
    )
    assert shown["Running total"] == "0"  # the ruleset's label
    assert shown["Pushes"] == "no push yet"  # the key in words, its value by its label
    assert shown["Last roll"] == "0"  # no label: the key in words
    assert not [key for key in shown if "_" in key], shown
    # The ruleset picker names the game's ruleset (a link selects it; the first in the
    # list is another), and the link's game id is not typed into the operator's box.
    assert await page.locator("#ruleset option").first.get_attribute("value") != "counter"
    assert await page.input_value("#ruleset") == "counter"
    assert await page.input_value("#game-id") == ""
    await page.close()
