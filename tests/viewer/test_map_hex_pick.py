"""A hex field filled by a real click on the map (issue #29 item 4), in a Downtown game:
the player reports a flight, focuses its hex field, the map marks the hexes the narrowed
schema allows, a click on one of them fills the field, and the command is accepted. The
random player of test_table_play_to_end.py clicks the map when its game offers a hex field;
this test does it every time."""

from __future__ import annotations

from typing import Any

from tests.support.viewer_page import TIMEOUT, open_with_credential
from umpire.clients import UmpireClient
from umpire.server.app import Running


async def test_a_downtown_flight_hex_is_picked_on_the_map(
    browser: Any, viewer_gateway: Running
) -> None:
    port = viewer_gateway.port
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        created = await client.create("downtown", client_seed="hex-pick")
    page = await browser.new_page(viewport={"width": 1280, "height": 800})
    await open_with_credential(page, port, created.player_credential)
    box = page.locator('details.action-box[data-action="ReportUsFlights"]')
    await box.wait_for(timeout=TIMEOUT)
    if await box.get_attribute("open") is None:
        await box.locator("summary").click()
    form = box.locator("form")
    await form.locator('fieldset[data-field="flights"] button.add-row').click()
    row = form.locator('fieldset[data-field="flights"] li.row').first
    for field in await row.locator("input[type=text], input:not([type])").all():
        if await field.get_attribute("data-field") == "id":
            await field.fill("Buick")
    hex_field = row.locator('input[data-field="hex"]')
    await hex_field.focus()
    allowed = page.locator("svg.hexmap .hex.allowed")
    await allowed.first.wait_for(timeout=TIMEOUT)
    assert await allowed.count() > 0
    # The whole map in view (its Whole button), then a hex near its middle, clicked.
    await page.get_by_role("button", name="Fit the whole board in the pane").first.click()
    target = allowed.nth(await allowed.count() // 2)
    hex_id = await target.get_attribute("data-hex")
    await target.click()
    assert await hex_field.input_value() == hex_id
    await form.locator("button[type=submit]").click()
    recorded = page.locator('#events li[data-type="CommandRecorded"]', has_text=hex_id)
    await recorded.first.wait_for(timeout=TIMEOUT)
    await page.close()
