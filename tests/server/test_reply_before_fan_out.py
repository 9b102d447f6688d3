"""A player's `accepted` is written before the command's events go to the game's other
subscribers (issue #20: "a player's `accepted` reply is sent before the event is fanned
out to other subscribers of the game").

Over real websockets on one gateway: the player (subscribed to its own game too) and a
spectator subscribed live. Every write the gateway makes to either socket is recorded in
order (a hook on each connection's transport, which both the direct writes of
server/framing.py and the writer task's library sends go through), and for every command
the player's `accepted` must come before any frame of its events on any socket.

Checked against a gateway that fans out first: with `_command` made to wait for the feed
before replying, every command fails here ("event frame before accepted")."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import websockets

from umpire.server.app import running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import gateway_settings
from umpire.testing.support.nonces import nonce_of

COMMANDS = 20


def _frames(data: bytes) -> list[dict[str, Any]]:
    """The JSON messages of the unmasked text frames in one write (server frames)."""
    out = []
    at = 0
    while at < len(data):
        size = data[at + 1] & 0x7F
        head = 2
        if size == 126:
            size, head = int.from_bytes(data[at + 2 : at + 4], "big"), 4
        elif size == 127:
            size, head = int.from_bytes(data[at + 2 : at + 10], "big"), 10
        payload = data[at + head : at + head + size]
        if data[at] & 0x0F == 0x1:  # text; pings and closes are not messages
            out.append(msgspec.json.decode(payload))
        at += head + size
    return out


async def _request(ws: Any, message: dict[str, Any], kind: str) -> dict[str, Any]:
    await ws.send(msgspec.json.encode(message).decode())
    while True:
        frame = msgspec.json.decode(await asyncio.wait_for(ws.recv(), 10))
        if frame["type"] == kind:
            return frame  # type: ignore[no-any-return]
        assert frame["type"] != "error", frame


async def test_accepted_is_written_before_the_events_reach_any_subscriber(
    redis_server: EmbeddedRedis, prefix: str
) -> None:
    async with running_gateway(gateway_settings(prefix), redis_server.url) as running:
        url = f"ws://127.0.0.1:{running.port}/ws"
        # Unbounded: the test reads the gateway's writes, not these clients' queues.
        player = await websockets.connect(url, max_queue=None)
        spectator = await websockets.connect(url, max_queue=None)
        try:
            await player.recv()
            await spectator.recv()  # welcomes
            create = {"type": "create", "ruleset": "counter", "setup": {"target": 1000000}}
            created = await _request(player, create, "created")
            gid = created["game_id"]
            await _request(
                spectator,
                {"type": "subscribe", "game_id": gid, "from_seq": 0,
                 "credential": created["spectator_credential"]},
                "subscribed",
            )  # fmt: skip
            await _request(
                player, {"type": "subscribe", "game_id": gid, "from_seq": 0}, "subscribed"
            )
            feed = running.gateway.notifier.feeds[gid]
            for _ in range(1500):  # up to 30 s: returns when they are
                if len(feed.live) == 2:
                    break
                await asyncio.sleep(0.02)
            assert len(feed.live) == 2, "both subscriptions live (fed by the feed's push)"
            # Every frame so far written (none queued, none being sent): the hook below
            # must count only what comes next, however slowly a loaded runner drains them.
            for _ in range(1500):
                if all(c.out.empty() and c.blocked_since is None
                       for c in running.gateway.connections):  # fmt: skip
                    break
                await asyncio.sleep(0.02)

            writes: list[tuple[str, dict[str, Any]]] = []
            names = {}
            for conn in running.gateway.connections:
                name = (
                    "player"
                    if gid in conn.session.roles and conn.session.roles[gid].value == "player"
                    else "spectator"
                )
                names[conn] = name

                def hook(real: Any, name: str = name) -> Any:
                    def write(data: bytes) -> None:
                        writes.extend((name, frame) for frame in _frames(bytes(data)))
                        real(data)

                    return write

                conn.ws.transport.write = hook(conn.ws.transport.write)  # type: ignore[method-assign]
            assert sorted(names.values()) == ["player", "spectator"]

            for n in range(COMMANDS):
                command_id = f"order-{n}"
                await player.send(
                    msgspec.json.encode(
                        {"type": "command", "game_id": gid, "command_id": command_id,
                         "nonce": nonce_of(command_id),
                         "command": {"type": "Add", "amount": 1}}
                    ).decode()
                )  # fmt: skip
                seqs: list[int] = []
                # Wait for the last event of the command on both sockets (the spectator's
                # frames and the player's own).
                for _ in range(500):
                    accepted = [f for _, f in writes if f.get("command_id") == command_id
                                and f["type"] == "accepted"]  # fmt: skip
                    if accepted:
                        seqs = accepted[0]["seqs"]
                        delivered = {who for who, f in writes
                                     if f["type"] == "event" and f["seq"] == seqs[-1]}  # fmt: skip
                        if delivered == {"player", "spectator"}:
                            break
                    await asyncio.sleep(0.01)
                assert seqs, f"no accepted for {command_id}"
                order = [
                    (who, f["type"])
                    for who, f in writes
                    if (f["type"] == "accepted" and f.get("command_id") == command_id)
                    or (f["type"] == "event" and f["seq"] in seqs)
                ]
                assert order[0] == ("player", "accepted"), (
                    f"{command_id}: event frame before accepted: {order}"
                )
                assert {who for who, kind in order if kind == "event"} == {"player", "spectator"}
        finally:
            await player.close()
            await spectator.close()
