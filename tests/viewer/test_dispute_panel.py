"""The dispute panel at the table (issue 40 item 5), in a real headless Chromium against a
real gateway: a Conflict of Heroes game's AI decision gets a "Dispute" control; the player
files a claim under the declared reading `sideways_moves = true` and sees the finding
(the verdict, and as played / under the reading side by side where the lines part), as
`dispute_filed` answered it. Its screenshot is docs/screenshots/dispute-panel.png
(docs/viewer.md)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import msgspec

from tests.support.viewer_page import TIMEOUT, open_with_credential
from umpire.clients import UmpireClient
from umpire.engine import registry
from umpire.server.app import Running

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "dispute-panel.png"


async def test_a_decision_is_disputed_from_the_table(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    port = viewer_gateway.port
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        created = await client.create("conflict_of_heroes", {}, client_entropy="waived")
        for n, command in enumerate(registry.get("conflict_of_heroes").openings):
            accepted = await client.send(created.game_id, msgspec.to_builtins(command),
                                         command_id=f"o{n}")  # fmt: skip
        head = accepted.seqs[-1]
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        await open_with_credential(page, port, created.player_credential)
        await page.wait_for_selector(f'#events li[data-seq="{head}"]', timeout=TIMEOUT)
        # Seq 1 (GameCreated) and 2 (CommandRecorded) are no decision: no control.
        assert await page.locator('#events li[data-seq="2"] details.dispute').count() == 0
        box = page.locator('#events li[data-seq="3"] details.dispute')
        await box.locator("summary").click()
        await box.locator("textarea").fill("the AI could have stepped sideways")
        await box.locator("select").select_option("sideways_moves=true")
        await box.locator("button").click()
        await page.wait_for_selector('#events li[data-seq="3"] .finding .verdict', timeout=TIMEOUT)
        verdict = await box.locator(".verdict").inner_text()
        assert verdict.startswith("Finding: ")
        filed = await box.get_attribute("data-dispute")
        assert filed is not None and int(filed) == head + 1
        await box.scroll_into_view_if_needed()
        await page.screenshot(path=str(artifacts / "dispute-panel.png"), full_page=False)
        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(artifacts / "dispute-panel.png", SCREENSHOT)
