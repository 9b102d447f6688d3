"""The browser client (clients/web/umpire.js) sends a nonce with every command without dice
(issue #30 item 5): fresh browser randomness, recorded in CommandRecorded, the same for
every sending of one command id; a command with physical dice carries none."""

from __future__ import annotations

from typing import Any

from umpire_counter import RULESET

from umpire.engine.game import codec_for
from umpire.events.types import CommandRecorded
from umpire.server.app import Running

PLAY = """async (url) => {
    const sent = [];
    class Recording extends WebSocket {
        send(data) { sent.push(JSON.parse(data)); super.send(data); }
    }
    window.WebSocket = Recording;
    const { UmpireClient } = await import("/umpire.js");
    const client = new UmpireClient(url);
    await client.connect();
    const game = await client.create("counter", { target: 1000 });
    const first = await client.send(game.game_id, { type: "Push" }, { commandId: "b-1" });
    const again = await client.send(game.game_id, { type: "Push" }, { commandId: "b-1" });
    await client.send(game.game_id, { type: "Push" }, { commandId: "b-2" });
    await client.send(game.game_id, { type: "Add", amount: 1 }, { commandId: "b-3", dice: [] });
    client.close();
    return { gameId: game.game_id, again: again.duplicate && again.seqs[0] === first.seqs[0],
             commands: sent.filter((m) => m.type === "command") };
}"""


async def test_the_browser_sends_a_fresh_nonce_with_each_command(
    browser: Any, viewer_gateway: Running
) -> None:
    port = viewer_gateway.port
    page = await browser.new_page()
    await page.goto(f"http://127.0.0.1:{port}/")
    result = await page.evaluate(PLAY, f"ws://127.0.0.1:{port}/ws")
    await page.close()
    commands = result["commands"]
    nonces = [c.get("nonce") for c in commands]
    assert result["again"]
    assert len(nonces[0]) == 32 and nonces[0] == nonces[1]  # one command id: one nonce
    assert nonces[2] != nonces[0] and len(nonces[2]) == 32
    assert nonces[3] is None  # physical dice: no nonce
    codec = codec_for(RULESET)
    envelopes = await viewer_gateway.gateway.store.read(result["gameId"])
    recorded = [
        e for e in (codec.decode(v.type, v.version, v.payload) for v in envelopes)
        if isinstance(e, CommandRecorded)
    ]  # fmt: skip
    assert [r.entropy for r in recorded] == [nonces[0], nonces[2], ""]
