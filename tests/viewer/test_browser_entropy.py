"""The browser client (clients/web/umpire.js) binds fresh browser entropy to a new game only
after the server's commitment has arrived (docs/audit.md (4.1))."""

from __future__ import annotations

from typing import Any

from umpire_counter import RULESET

from umpire.engine.game import codec_for
from umpire.events.types import ClientSeedBound, GameCreated
from umpire.server.app import Running

# Records every frame the page sends and receives, in order.
CREATE_AND_RECORD = """async (url) => {
    const log = [];
    class Recording extends WebSocket {
        send(data) { log.push(["sent", JSON.parse(data)]); super.send(data); }
        set onmessage(handler) {
            super.onmessage = (msg) => {
                log.push(["received", JSON.parse(msg.data)]);
                handler(msg);
            };
        }
    }
    window.WebSocket = Recording;
    const { UmpireClient } = await import("/umpire.js");
    const client = new UmpireClient(url);
    await client.connect();
    const one = await client.create("counter", { target: 50 });
    const two = await client.create("counter", { target: 50 });
    client.close();
    return { log, one, two };
}"""


async def test_the_browser_binds_fresh_entropy_after_seeing_the_commitment(
    browser: Any, viewer_gateway: Running
) -> None:
    port = viewer_gateway.port
    page = await browser.new_page()
    await page.goto(f"http://127.0.0.1:{port}/")
    result = await page.evaluate(CREATE_AND_RECORD, f"ws://127.0.0.1:{port}/ws")
    await page.close()
    log = result["log"]
    one, two = result["one"], result["two"]
    assert len(one["client_seed"]) == 32 and one["client_seed"] != two["client_seed"]
    kinds = [(way, frame["type"]) for way, frame in log if frame["type"] != "welcome"]
    assert kinds == [("sent", "create"), ("received", "created"), ("sent", "bind_seed"),
                     ("received", "accepted")] * 2  # fmt: skip
    assert all("client_seed" not in frame for way, frame in log if frame["type"] == "create")
    codec = codec_for(RULESET)
    envelopes = await viewer_gateway.gateway.store.read(one["game_id"])
    events = [codec.decode(e.type, e.version, e.payload) for e in envelopes]
    assert isinstance(events[0], GameCreated) and events[0].client_seed == ""
    assert events[0].seed_commitment == one["seed_commitment"]
    assert events[1] == ClientSeedBound(epoch=0, client_seed=one["client_seed"])
