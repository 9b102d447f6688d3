"""Issue 29, items 1 and 2, in a real browser at the gateway's default budgets: a person
opening a long game or playing big opponent steps through the page is never refused
`over_budget`, and the page follows the game on the states the server pushes (subscribe
`views`): one `view` of the head as the game opens (issue #41: the map and the actions
before the log, a message's unit), none after it. On main the page asked a replay (`view`
with `at_seq`) for every event it received and a `view` after every burst: opening a
335-event game was refused over and over ("over budget: this request costs 83 units…")."""

from __future__ import annotations

from typing import Any

from tests.support.browser import wait_for
from tests.support.viewer_page import TIMEOUT, create_game, send
from umpire.engine.roles import Role
from umpire.server import credentials
from umpire.server.app import Running
from umpire.server.games import Games

LONG_GAME = 335  # events: a GameCreated and 167 Adds of two events each


def _refusals(running: Running) -> int:
    return sum(running.gateway.admission.refused.values())


async def test_a_335_event_game_opens_at_its_head_with_no_over_budget(
    browser: Any, viewer_gateway: Running, games: Games
) -> None:
    game_id = (await games.create("counter", {"target": 10**6})).game_id
    for n in range((LONG_GAME - 1) // 2):
        await games.handle(game_id, f"add-{n}", {"type": "Add", "amount": 1})
    assert await games.store.version(game_id) == LONG_GAME
    player = await credentials.issue(games.store, game_id, Role.PLAYER)
    page = await browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    await page.goto(f"http://127.0.0.1:{viewer_gateway.port}/#credential={player}")
    await wait_for(page, f"document.querySelector('#actions').dataset.seq === '{LONG_GAME}'",
                   timeout=TIMEOUT)  # fmt: skip
    await wait_for(
        page,
        f"document.querySelector('#state-label').dataset.stateSeq === '{LONG_GAME}'",
        timeout=TIMEOUT,
    )
    assert "Latest state" in await page.inner_text("#state-label")
    assert "over budget" not in await page.inner_text("#status")
    charged = viewer_gateway.gateway.admission.charged
    assert _refusals(viewer_gateway) == 0, viewer_gateway.gateway.admission.refused
    assert charged["view_at"] == 0 and charged["getview"] == 1, charged  # the opening view
    assert not errors, errors
    await page.close()


async def test_big_opponent_steps_update_the_table_with_no_view_and_no_over_budget(
    browser: Any, viewer_gateway: Running
) -> None:
    page = await browser.new_page(viewport={"width": 1280, "height": 1000})
    game_id = await create_game(page, viewer_gateway.port, "age_of_dogfights", "patrol")
    charged = viewer_gateway.gateway.admission.charged
    rolled = await send(page, "RollSetup")
    assert rolled["ok"], rolled
    for _ in range(3):  # each round flies every bot: dozens of events a batch
        before = await viewer_gateway.gateway.games.store.version(game_id)
        flown = await send(page, "FlyBots")
        assert flown["ok"], flown
        # The table shows the actions of the state after the whole batch, pushed.
        assert int(await page.get_attribute("#actions", "data-seq") or 0) >= flown["head"] > before
        await wait_for(
            page,
            "(s) => document.querySelector('#state-label').dataset.stateSeq === s",
            arg=str(flown["head"]),
            timeout=TIMEOUT,
        )
    # Item 5: the opponent's decisions of the last batch in plain words above their details.
    said = page.locator("#decisions .opponent-said")
    assert await said.count() > 0
    assert (await said.first.inner_text()).startswith("The opponent: ")
    # Item 5: the actions cite the rulebook by its own words, the seed file in the tooltip.
    summary = page.locator('details.action-box[data-action="FlyBots"] summary')
    assert ".txt" not in await summary.inner_text()
    assert "Age of Dogfights solo rules" in await summary.inner_text()
    assert ".txt" in str(await summary.get_attribute("title"))
    # No view was asked as the game went on: only the one as it opened.
    assert charged["getview"] == 1 and charged["view_at"] == 0, charged
    assert _refusals(viewer_gateway) == 0, viewer_gateway.gateway.admission.refused
    assert "over budget" not in await page.inner_text("#status")
    await page.close()


async def test_one_clean_takeback_label_and_only_the_latest_outcome(
    browser: Any, viewer_gateway: Running, games: Games
) -> None:
    game_id = (await games.create("counter", {"target": 10**6})).game_id
    player = await credentials.issue(games.store, game_id, Role.PLAYER)
    page = await browser.new_page()
    await page.goto(f"http://127.0.0.1:{viewer_gateway.port}/#credential={player}")
    await page.wait_for_selector("#actions[data-seq] .action-list", timeout=TIMEOUT)
    added = await send(page, "Add", {"amount": 2})
    assert added["ok"], added
    button = page.locator("#takeback")
    await button.wait_for(timeout=TIMEOUT)
    label = await button.inner_text()
    assert label.startswith("↶ Take back: Add (seq 2)") and label.count("Take back") == 1, label
    assert "umpire: takeback" in str(await button.get_attribute("title"))
    refused = await send(page, "Add", {"amount": 9})
    assert refused["ok"] is False
    assert await page.inner_text("#play-answer") == ""  # no old "✓ accepted" beside the error
    await page.close()
