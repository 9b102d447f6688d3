"""The state pane's tracks on a phone (390×844): each value has room beside its label.
A label of many words (Downtown's "AAA attacks on a flight per Movement Point") set the
label column's width to the whole line (`max-content`), so every value was squeezed
into the few pixels left, a letter a line, and read as a blank; labels now wrap at most
at 60% of the line (viewer.css `.tracks`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support.viewer_page import TIMEOUT, open_with_credential
from umpire.clients import UmpireClient
from umpire.server.app import Running

MEASURE = """() => [...document.querySelectorAll('#state-details dl.tracks')].flatMap((dl) => {
  const box = dl.getBoundingClientRect();
  return [...dl.querySelectorAll('dd')].map((dd) => {
    const r = dd.getBoundingClientRect();
    return [dd.previousElementSibling.textContent, dd.textContent, Math.round(r.width),
            Math.round(box.width), Math.round(r.right - box.right)];
  });
})"""


async def test_each_track_s_value_has_room_on_a_phone(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    port = viewer_gateway.port
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        created = await client.create("downtown", {})
    page = await browser.new_page(viewport={"width": 390, "height": 844})
    await open_with_credential(page, port, created.player_credential)
    await page.wait_for_selector("#state-details dl.tracks dd", timeout=TIMEOUT)
    rows = await page.evaluate(MEASURE)
    assert len(rows) > 20, rows
    for label, value, width, line, over in rows:
        assert width >= line * 0.35, (label, value, width, line)  # room for "no limit"
        assert over <= 0, (label, value, over)
    await page.locator("#state-details").screenshot(path=str(artifacts / "state-tracks-390.png"))
    await page.close()
