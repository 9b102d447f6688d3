"""One nonce per command id, for good, in the browser (issue 42): the page derives each
nonce with WebCrypto HMAC-SHA256 under a key kept in IndexedDB beside its receipts, so a
later page of the same browser profile sends a command id again with the same nonce."""

from __future__ import annotations

from typing import Any

from umpire_counter import RULESET

from umpire.engine.game import codec_for
from umpire.events.types import CommandRecorded
from umpire.server.app import Running

FIRST = """async (url) => {
    const { UmpireClient } = await import("/umpire.js");
    const client = new UmpireClient(url);
    await client.connect();
    const game = await client.create("counter", { target: 1000 });
    const nonce = await client.nonceFor(game.game_id, "b-1");
    const accepted = await client.send(game.game_id, { type: "Push" }, { commandId: "b-1" });
    client.close();
    return { gameId: game.game_id, credential: game.player_credential, nonce,
             seqs: accepted.seqs };
}"""

AGAIN = """async ([url, gameId, credential]) => {
    const sent = [];
    class Recording extends WebSocket {
        send(data) { sent.push(JSON.parse(data)); super.send(data); }
    }
    window.WebSocket = Recording;
    const { UmpireClient } = await import("/umpire.js");
    const client = new UmpireClient(url);
    await client.connect();
    await client.auth(credential);
    const again = await client.send(gameId, { type: "Push" }, { commandId: "b-1" });
    client.close();
    const command = sent.find((m) => m.type === "command");
    return { nonce: command.nonce, duplicate: again.duplicate, seqs: again.seqs };
}"""

OTHER = """async (gameId) => {
    const { UmpireClient } = await import("/umpire.js");
    return await new UmpireClient("ws://unused").nonceFor(gameId, "b-1");
}"""


async def test_a_later_page_resends_a_command_id_with_the_same_nonce(
    browser: Any, viewer_gateway: Running
) -> None:
    port = viewer_gateway.port
    home, url = f"http://127.0.0.1:{port}/", f"ws://127.0.0.1:{port}/ws"
    profile = await browser.new_context()  # one browser profile: one IndexedDB
    try:
        page = await profile.new_page()
        await page.goto(home)
        first = await page.evaluate(FIRST, url)
        await page.close()
        page = await profile.new_page()  # a reload: nothing kept in memory
        await page.goto(home)
        again = await page.evaluate(AGAIN, [url, first["gameId"], first["credential"]])
        await page.close()
    finally:
        await profile.close()
    assert len(first["nonce"]) == 32 and again["nonce"] == first["nonce"]
    assert again["duplicate"] and again["seqs"] == first["seqs"]
    # Another profile holds another key.
    stranger = await browser.new_page()
    await stranger.goto(home)
    assert await stranger.evaluate(OTHER, first["gameId"]) != first["nonce"]
    await stranger.close()
    codec = codec_for(RULESET)
    envelopes = await viewer_gateway.gateway.store.read(first["gameId"])
    recorded = [
        e for e in (codec.decode(v.type, v.version, v.payload) for v in envelopes)
        if isinstance(e, CommandRecorded)
    ]  # fmt: skip
    assert [r.entropy for r in recorded] == [first["nonce"]]
