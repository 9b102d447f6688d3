"""The viewer when the server's store lost events it was showing: told `log_rewound`, it
reads the game again from the log as it now is, says so, and follows it on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support.browser import wait_for
from tests.support.lost_writes import lose_writes_after_seq_1
from tests.support.viewer_page import TIMEOUT, open_with_credential
from umpire.clients import UmpireClient
from umpire.server.app import Running


async def test_the_viewer_reads_a_rewound_log_again(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    port = viewer_gateway.port
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        created = await client.create("counter", {"target": 100})
        gid = created.game_id
        for n in range(3):
            await client.send(gid, {"type": "Add", "amount": 1}, command_id=f"c{n}")
        head = await viewer_gateway.gateway.store.version(gid)
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        await open_with_credential(page, port, created.player_credential)
        await page.wait_for_selector(f'#events li[data-seq="{head}"]', timeout=TIMEOUT)

        await lose_writes_after_seq_1(viewer_gateway.gateway.store, gid, ["c0", "c1", "c2"])
        await page.wait_for_selector('#events li[data-seq="2"]', state="detached", timeout=TIMEOUT)
        said = "document.querySelector('#status').textContent.includes(\"log lost the events\")"
        await wait_for(page, said, timeout=TIMEOUT)
        assert "after seq 1" in await page.inner_text("#status")
        # The list is read again from the log as it now is: seq 1 alone (it may still be
        # on its way when the status says so).
        await page.wait_for_selector('#events li[data-seq="1"]', timeout=TIMEOUT)
        assert await page.locator("#events li").count() == 1
        await page.screenshot(path=str(artifacts / "log-rewound.png"), full_page=True)

        # It follows the game on from the log as it now is.
        await client.send(gid, {"type": "Add", "amount": 5}, command_id="after")
        await page.wait_for_selector('#events li[data-seq="2"]', timeout=TIMEOUT)
        await page.close()
