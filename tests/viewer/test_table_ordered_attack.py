"""Downtown 3.4.4 at the table, as a solo wargamer meets it: the player's flight spends a
Movement Point in reach of a SAM that has it fully acquired; the SAM reacts and orders an
attack, and until that attack is rolled the rules take nothing else. The table must say
what the opponent did (the SAM's reaction, a table read with no dice and no candidates,
said as the rules' own step) and make the roll the obvious next step: said first,
its form the only one open. The raid is brought to the movement phase through the
gateway's own command path (the scripted raid of
tests/rulesets/downtown/test_s3_4_4_ordered_attack_waits.py, the SAM Activation Check
entered as the opponent's dice); the move and the roll are sent through the page's forms.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.rulesets.downtown.setups import SETUP, manual_for, to_a_sam_in_reach
from tests.support.browser import wait_for
from tests.support.viewer_page import TIMEOUT, listed, open_with_credential, send
from umpire.clients import UmpireClient
from umpire.engine.rulesets.downtown.state import State
from umpire.server.app import Running

# What the next-step line says before the roll's form (clients/web/play.js actionForms).
NEXT = "Next: "


async def _ordered_raid(running: Running) -> tuple[str, str, str, dict[str, Any]]:
    """A raid at its first Movement Phase with a SAM that fully acquired a US flight 2 to
    8 hexes away: (player credential, SAM id, flight id, the flight's move in place)."""
    games = running.gateway.games
    async with UmpireClient(f"ws://127.0.0.1:{running.port}/ws") as client:
        created = await client.create(
            "downtown", SETUP, client_seed="table-ordered", opponent_manual_dice=True
        )
        gid = created.game_id

        async def send_(
            command: dict[str, Any], choices: dict[str, tuple[int, ...]] | None = None
        ) -> None:
            state = (await games.load(gid))[1].state
            manual = None if choices is None else manual_for(state, command, choices)
            await client.send(gid, command, dice=manual)

        async def state_of() -> State:
            return (await games.load(gid))[1].state

        sam, target = await to_a_sam_in_reach(send_, state_of)
        stay = {"flight_id": target.id, "hex": target.hex, "altitude": target.altitude.value,
                "facing": str(target.facing)}  # fmt: skip
    return created.player_credential, sam.id, target.id, stay


async def test_a_sam_reaction_is_said_and_its_roll_is_the_next_step(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    credential, sam, flight, stay = await _ordered_raid(viewer_gateway)
    page = await browser.new_page(viewport={"width": 1280, "height": 800})
    await open_with_credential(page, viewer_gateway.port, credential)
    await page.wait_for_selector("#actions[data-seq] .action-list", timeout=TIMEOUT)
    # Many moves are open to the player: no single next step is said.
    assert await page.locator("#actions .next-step").count() == 0

    # The player reads the moves down the pane (it scrolls), then moves a Movement Point.
    await page.eval_on_selector("#actions", "(e) => { e.scrollTop = e.scrollHeight; }")
    assert await page.eval_on_selector("#actions", "(e) => e.scrollTop") > 0
    moved = await send(page, "MoveUsFlight", stay)
    assert moved["ok"], moved
    # The new moves are read from their top: the next step is in view, not scrolled away.
    assert await page.eval_on_selector("#actions", "(e) => e.scrollTop") == 0
    # The SAM's reaction is said in the play panel with its rule: a table read (no dice, no
    # candidates), so the rules' own step.
    await wait_for(
        page, "document.querySelector('#decisions').innerText.includes('SAM reacted')",
        timeout=TIMEOUT,
    )  # fmt: skip
    said = await page.inner_text("#decisions")
    assert f"The rules: {sam}: full acquisition" in said, said
    assert "SAM Reaction Table" in said, said

    # The roll is the one move the rules allow: said first, its form the only one open.
    assert await listed(page) == ["RollDrvAttack", "RollDice", "EndGame"]
    first = page.locator("#actions .action-list > *").first
    assert await first.get_attribute("class") == "next-step"
    assert await first.get_attribute("data-action") == "RollDrvAttack"
    said_next = await first.inner_text()
    assert said_next.startswith(NEXT) and "(Downtown solo rules" not in said_next, said_next
    # It names the attack the rules wait for: the unit, the flight and the roll.
    assert f"unit id {sam}, flight id {flight}, kind sam attack" in said_next, said_next
    opened = await page.eval_on_selector_all(
        "details.action-box[open]", "(es) => es.map((e) => e.dataset.action)"
    )
    assert opened == ["RollDrvAttack"], opened
    roll = page.locator('details.action-box[data-action="RollDrvAttack"] form')
    assert await roll.locator("button[type=submit]").is_visible()
    assert f"{sam}" in await roll.inner_text() and flight in await roll.inner_text()

    await page.screenshot(path=str(artifacts / "table-downtown-attack-waits.png"))
    rolled = await send(page, "RollDrvAttack")
    assert rolled["ok"], rolled
    await wait_for(
        page, "document.querySelector('#decisions').innerText.includes('DRV attack rolled')",
        timeout=TIMEOUT,
    )  # fmt: skip
    # The raid goes on: the moves are back, and no single step is said.
    await wait_for(page, "!document.querySelector('#actions .next-step')", timeout=TIMEOUT)
    assert "MoveUsFlight" in await listed(page)
    await page.screenshot(path=str(artifacts / "table-downtown-attack-rolled.png"))
    await page.close()
