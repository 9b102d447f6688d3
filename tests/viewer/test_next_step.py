"""The sequence of play's next step at the table (docs/protocol.md "Legal actions",
`next`): where the rules mark the step they expect now among several allowed moves, the
table says it first, puts its form first in the list, marked "▶ Next" in words (not by
colour alone), and opens it alone. A Nightfighter game opens at turn 1's bomber movement
(MoveBombers, the rules' only move then); a Conflict of Heroes game after the player's Pass is at
the AI's turn (TakeAiTurn, beside the reports of any time), where the table said no next
step before the flag."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support.viewer_page import TIMEOUT, listed, open_with_credential, send
from umpire.clients import UmpireClient
from umpire.server.app import Running


async def _marked(page: Any, kind: str, *, alone: bool = False) -> None:
    """The table shows `kind` as the next step: said first, its form first, marked, the
    only one open; `alone`: the rules take no other move of theirs until it is done (the
    universal ones, a free roll and the end, stay listed)."""
    await page.wait_for_selector(f'#actions .next-step[data-action="{kind}"]', timeout=TIMEOUT)
    first = page.locator("#actions .action-list > *").first
    assert await first.get_attribute("class") == "next-step"
    said = await first.inner_text()
    told = (
        "The rules take no other move until it is done"
        if alone
        else ("the other moves listed are allowed too")
    )
    assert said.startswith("Next: ") and told in said, said
    assert (await listed(page))[0] == kind
    box = page.locator(f'details.action-box[data-action="{kind}"]')
    assert "next" in (await box.get_attribute("class") or "")
    assert (await box.locator("summary").inner_text()).startswith("▶ Next: ")
    opened = await page.eval_on_selector_all(
        "details.action-box[open]", "(es) => es.map((e) => e.dataset.action)"
    )
    assert opened == [kind], opened
    if not alone:
        assert len(await listed(page)) > 3  # other moves are allowed beside it


async def test_the_next_step_is_said_first_and_marked_among_other_moves(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    port = viewer_gateway.port
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        night = await client.create("nightfighter", {})
        heroes = await client.create("conflict_of_heroes", {})
    page = await browser.new_page(viewport={"width": 1280, "height": 800})
    await open_with_credential(page, port, night.player_credential)
    await page.wait_for_selector("#actions[data-seq] .action-list", timeout=TIMEOUT)
    await _marked(page, "MoveBombers", alone=True)  # Nightfighter v9: turn 1 opens with it
    await page.screenshot(path=str(artifacts / "table-next-step-nightfighter.png"))
    moved = await send(page, "MoveBombers")
    assert moved["ok"], moved
    # The fighter's move: what the rules fix of it said in words, a yes or no as such.
    await _marked(page, "MoveFighter")
    said = await page.inner_text("#actions .next-step")
    assert "fighter F1, exit no" in said and "false" not in said, said

    await open_with_credential(page, port, heroes.player_credential)
    await page.wait_for_selector("#actions[data-seq] .action-list", timeout=TIMEOUT)
    # The player's turn: many moves, none the rules expect before the others.
    assert await page.locator("#actions .next-step").count() == 0
    assert await page.locator("details.action-box.next").count() == 0
    passed = await send(page, "Pass")
    assert passed["ok"], passed
    await _marked(page, "TakeAiTurn")
    await page.screenshot(path=str(artifacts / "table-next-step-heroes.png"))
    await page.close()
