"""On a phone (390×844) what grows with the game or the ruleset scrolls in its own box
(viewer.css), as the forms, the decisions and the log do: the Audit tab's dice log (a row
a roll: a long game's was dozens of screens), and a new game's scenario settings
(Downtown's: three screens of fields)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support.browser import wait_for
from tests.support.viewer_page import TIMEOUT, open_with_credential
from umpire.clients import UmpireClient
from umpire.server.app import Running

PHONE = {"width": 390, "height": 844}
ROLLS = 120
SHOWN = 50  # the page reads the last 200 events as it opens: the last rolls


async def test_a_long_dice_log_scrolls_in_its_box(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    port = viewer_gateway.port
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        created = await client.create("counter", {"target": 10**6})
        roll = {"type": "RollDice", "dice": "d6", "purpose": "a morale check"}
        for n in range(ROLLS):
            await client.send(created.game_id, roll, command_id=f"r{n}")
    page = await browser.new_page(viewport=PHONE)
    await open_with_credential(page, port, created.player_credential)
    await page.click("#tab-audit")
    await wait_for(
        page, f"document.querySelectorAll('#dice tbody tr').length >= {SHOWN}", timeout=TIMEOUT
    )
    height = await page.evaluate("document.documentElement.scrollHeight")
    assert height <= 3 * PHONE["height"], height
    wrap = page.locator("#audit .table-wrap").first
    assert await wrap.evaluate("(e) => e.scrollHeight > e.clientHeight + 100")
    await page.screenshot(path=str(artifacts / "audit-dice-log-390.png"))
    await page.close()


async def test_the_scenario_settings_scroll_in_their_box(
    browser: Any, viewer_gateway: Running
) -> None:
    page = await browser.new_page(viewport=PHONE)
    await page.goto(f"http://127.0.0.1:{viewer_gateway.port}/")
    await page.wait_for_selector('#ruleset option[value="downtown"]', state="attached")
    await page.select_option("#ruleset", "downtown")
    await page.click("#settings-box summary")
    await page.wait_for_selector('#settings [data-field="turn_limit"]', timeout=TIMEOUT)
    box = await page.locator("#settings").bounding_box()
    assert box is not None and box["height"] <= PHONE["height"], box
    inner = page.locator("#settings")
    assert await inner.evaluate("(e) => e.scrollHeight > e.clientHeight + 100")
    await page.close()
