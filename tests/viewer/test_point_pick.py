"""Age of Dogfights' report of the player's aircraft asks for its position, a point
[column, row] of the board the table draws. The form named its places "Position[0]" and
"Position[1]" and took them typed only, while the board beside it shows every point and
sends a click on one (`umpire:hex`). The places are named "Position: column" and
"Position: row", and a click on a point of the board fills both."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support.viewer_page import TIMEOUT, create_game, send
from umpire.server.app import Running


async def test_a_position_is_filled_by_clicking_a_point_of_the_board(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    page = await browser.new_page(viewport={"width": 1280, "height": 800})
    await create_game(page, viewer_gateway.port, "age_of_dogfights", "patrol")
    assert (await send(page, "RollSetup"))["ok"]
    box = page.locator('details.action-box[data-action="ReportAircraft"]')
    await box.evaluate("(d) => { d.open = true; }")
    position = box.locator('fieldset[data-field="position"]:visible').first
    said = " ".join((await position.inner_text()).split())
    assert "Position: column" in said and "Position: row" in said, said
    assert "[0]" not in said, said
    await position.locator("input").first.click()
    point = page.locator('#state .board-field [data-hex="[3,5]"]')
    await point.scroll_into_view_if_needed()
    await point.click(timeout=TIMEOUT)
    places = [await i.input_value() for i in await position.locator("input").all()]
    assert places == ["3", "5"], places
    await page.screenshot(path=str(artifacts / "table-age_of_dogfights-point-picked.png"))
    await page.close()
