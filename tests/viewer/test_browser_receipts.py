"""Issue #30 item 1: the browser client (clients/web/umpire.js) keeps the receipts of the
games it plays in IndexedDB, with each mid-game reveal's next commitment, and exports them
as the receipts file the verifiers take (docs/audit.md 8.1); they outlive the page."""

from __future__ import annotations

import json
from typing import Any

from tests.support.browser import wait_for
from tests.support.viewer_page import create_game
from umpire.engine import registry
from umpire.events.receipt import check_anchors, read_receipts
from umpire.server.app import Running
from umpire.server.receipts_file import check_state_hashes

PLAY = """async (url) => {
    const { UmpireClient } = await import("/umpire.js");
    const client = new UmpireClient(url);
    await client.connect();
    const created = await client.create("counter", { target: 50 });
    window.receiptKey = created.receipt_key;
    await client.send(created.game_id, { type: "Push" });
    window.revealed = false;
    await client.subscribe(created.game_id, 0, (frame) => {
        if (frame.event_type === "SeedRevealed") window.revealed = true;
    });
    window.client = client;
    return created.game_id;
}"""

BIND_AND_EXPORT = """async (gameId) => {
    await window.client.bindSeed(gameId);
    const text = await window.client.receipts.exportText(gameId);
    window.client.close();
    return text;
}"""

EXPORT_AGAIN = """async (gameId) => {
    const { IndexedDBReceipts } = await import("/umpire.js");
    return new IndexedDBReceipts().exportText(gameId);
}"""


async def test_the_browser_keeps_receipts_in_indexeddb_and_exports_them(
    browser: Any, viewer_gateway: Running
) -> None:
    port = viewer_gateway.port
    context = await browser.new_context()
    page = await context.new_page()
    await page.goto(f"http://127.0.0.1:{port}/")
    game = await page.evaluate(PLAY, f"ws://127.0.0.1:{port}/ws")
    await viewer_gateway.gateway.games.reveal(game)  # the owner's mid-game reveal
    await wait_for(page, "window.revealed")
    key = await page.evaluate("window.receiptKey")
    text = await page.evaluate(BIND_AND_EXPORT, game)
    await page.close()
    lines = [json.loads(line) for line in text.splitlines()]
    # The header names the game's receipt key, as the Python client's file does.
    assert len(key) == 64
    assert lines[0] == {"format": "umpire-receipts/3", "game_id": game, "public_key": key}
    kinds = [(a["kind"], a.get("reply", a.get("epoch"))) for a in lines[1:]]
    accepted = ("receipt", "accepted")
    assert kinds == [("commitment", 0), ("receipt", "created"), accepted, accepted,
                     ("commitment", 1), accepted]  # fmt: skip
    log = await viewer_gateway.gateway.store.read(game)
    _, anchors = read_receipts(text)
    failure, reach = check_anchors(anchors, log)
    assert failure is None and f"up to seq {len(log)}" in reach, reach
    # Every created and accepted receipt is kept with the game's signature, and counts.
    assert all(a.signature for a in anchors if a.reply in ("created", "accepted"))
    assert reach.startswith("anchored: 4 signed receipts"), reach
    # Another page of the same browser finds them in IndexedDB.
    again = await context.new_page()
    await again.goto(f"http://127.0.0.1:{port}/")
    assert await again.evaluate(EXPORT_AGAIN, game) == text
    await context.close()


async def test_the_page_saves_the_games_receipts_as_a_file(
    browser: Any, viewer_gateway: Running, tmp_path: Any
) -> None:
    """The table's "Save receipts" downloads the receipts this browser kept of the game
    it shows, in the format the verifiers take."""
    context = await browser.new_context(accept_downloads=True)
    page = await context.new_page()
    game = await create_game(page, viewer_gateway.port, "age_of_dogfights", "patrol")
    await page.click("#tab-audit")  # the receipts are on the Audit tab (issue #41)
    async with page.expect_download() as download_info:
        await page.click("#save-receipts")
    download = await download_info.value
    assert download.suggested_filename == f"{game}.receipts.jsonl"
    path = tmp_path / download.suggested_filename
    await download.save_as(path)
    text = path.read_text()
    read_game, anchors = read_receipts(text)
    assert read_game == game and anchors[0].kind == "commitment"
    log = await viewer_gateway.gateway.store.read(game)
    failure, _ = check_anchors(anchors, log)
    assert failure is None
    # The page's pushed states are kept too, and hash to the views the log gives.
    assert any(a.reply == "state" for a in anchors)
    assert check_state_hashes(anchors, log, registry.get("age_of_dogfights")) is None
    await context.close()
