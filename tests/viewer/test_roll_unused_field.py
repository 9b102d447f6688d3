"""A roll of the player's own with a field its dice do not use (sides for a d10, a count
for a d20: the listed RollDice schema's `not`, engine/actions.py), at the table: the form
says what is wrong in the player's words, as its fields are labelled, and what to do
instead, and sends nothing; it said "this is what the game holds already, so it would
change nothing", which is not what is wrong with a roll."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support.browser import wait_for
from tests.support.viewer_page import TIMEOUT, open_with_credential
from umpire.clients import UmpireClient
from umpire.server.app import Running


async def _refused(page: Any, dice: str, field: str, value: str) -> str:
    """The form's answer to RollDice of `dice` with `field` set to `value`."""
    box = page.locator('details.action-box[data-action="RollDice"]')
    await box.evaluate("(d) => { d.open = true; }")
    form = box.locator("form")
    await form.locator('[data-field="dice"]').select_option(dice)
    await form.locator('[data-field="purpose"]').fill("morale check")
    for name in ("sides", "count"):
        await form.locator(f'[data-field="{name}"]').fill("6" if name == "sides" else "1")
    await form.locator(f'[data-field="{field}"]').fill(value)
    before = int(await page.evaluate("Number(document.body.dataset.answers || 0)"))
    await form.locator("button[type=submit]").click()
    await wait_for(page, f"Number(document.body.dataset.answers || 0) > {before}", timeout=TIMEOUT)
    assert await page.get_attribute("#play-error", "data-code") == "form"
    return str(await page.inner_text("#play-error"))


async def test_a_roll_s_unused_field_is_said_in_the_player_s_words(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    port = viewer_gateway.port
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        created = await client.create("counter", {"target": 100})
        head = await viewer_gateway.gateway.store.version(created.game_id)
    page = await browser.new_page(viewport={"width": 1280, "height": 800})
    await open_with_credential(page, port, created.player_credential)
    await page.wait_for_selector("#actions[data-seq] .action-list", timeout=TIMEOUT)

    said = await _refused(page, "d10", "sides", "10")
    assert "Sides counts for custom dice only: d10 dice have their own number of sides" in said
    assert "Choose custom dice to roll dice of 10 sides, or set Sides back to 6" in said
    said = await _refused(page, "d20", "count", "3")
    assert "Count counts for d6, nd6 and custom dice only: d20 is one roll" in said, said
    assert "roll 3 dice, or set Count back to 1" in said, said
    for text in (said, await page.inner_text("#actions")):
        assert "change nothing" not in text and "holds already" not in text, text
    await page.screenshot(path=str(artifacts / "table-roll-unused-field.png"))
    assert await viewer_gateway.gateway.store.version(created.game_id) == head  # nothing sent
    await page.close()
