"""Issue 29, item 2: a subscriber that asked for `views` is sent its role's new `state`
frame after each batch, without asking and without being charged: the player's with its
actions, the spectator's with none, each what a `view` of that role answers at that head
(the counter's hidden secret stays hidden from both)."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

from tests.support.watched_game import watched_counter
from umpire.clients import UmpireClient
from umpire.engine.roles import Role
from umpire.events.wire import EventFrame, ViewState
from umpire.server.app import Running
from umpire.server.games import Games
from umpire.testing.support.peer import Peer


def _pushed(peer: Peer, game_id: str, seq: int) -> list[dict[str, Any]]:
    return [
        f
        for f in peer.frames
        if f["type"] == "state" and f.get("id") is None and f["game_id"] == game_id
        and f["seq"] == seq
    ]  # fmt: skip


async def test_player_and_spectator_get_their_state_after_each_batch(
    gateway: Running, ws_url: str
) -> None:
    player, spectator, created = await watched_counter(ws_url)
    gid = created["game_id"]
    charged = gateway.gateway.admission.charged
    views_charged = charged["getview"]
    for n, command in enumerate(({"type": "Add", "amount": 2}, {"type": "Hide"})):
        accepted = await player.ok({"type": "command", "game_id": gid, "command_id": f"c{n}",
                                    "command": command})  # fmt: skip
        head = accepted["head_seq"]
        for peer, role in ((player, "player"), (spectator, "spectator")):
            pushed = await peer.wait_for(
                lambda f, head=head: (
                    f["type"] == "state" and f.get("id") is None and f["seq"] == head
                )
            )
            # After the batch's events, never before them.
            seqs = [
                f["seq"] for f in peer.frames[: peer.frames.index(pushed)] if f["type"] == "event"
            ]
            assert seqs and seqs[-1] == head
            assert pushed["role"] == role
            assert charged["getview"] == views_charged  # pushed: nothing charged
            asked = await peer.ok({"type": "view", "game_id": gid})
            views_charged = charged["getview"]
            # The same frame, but for its signature's tree (each is a leaf of its own turn's).
            tree = {
                "id": None,
                "signature": "",
                "leaf_index": 0,
                "tree_size": 0,
                "proof": [],
                "blind": "",
            }
            assert {**pushed, **tree} == {**asked, **tree}
            assert len(_pushed(peer, gid, head)) == 1  # one per batch
        assert player.frames[-1]["actions"] and not spectator.frames[-1]["actions"]
    # The counter's hidden number (R3) is the referee's alone: in neither role's frame.
    assert "secret" not in _pushed(player, gid, head)[0]["state"]
    assert "secret" not in _pushed(spectator, gid, head)[0]["state"]
    await player.close()
    await spectator.close()


async def test_no_state_frame_is_pushed_without_views(gateway: Running, ws_url: str) -> None:
    player = await Peer.open(ws_url)
    created = await player.ok({"type": "create", "ruleset": "counter", "client_entropy": "waived",
                               "setup": {"target": 1000}})  # fmt: skip
    gid = created["game_id"]
    await player.ok({"type": "subscribe", "game_id": gid})
    for n in range(3):
        await player.ok({"type": "command", "game_id": gid, "command_id": f"c{n}",
                         "command": {"type": "Add", "amount": 1}})  # fmt: skip
    await player.wait_for(lambda f: f["type"] == "event" and f["seq"] == 7)
    assert not [f for f in player.frames if f["type"] == "state"]
    await player.close()


async def test_the_python_client_yields_the_pushed_state_after_the_batch(
    gateway: Running, ws_url: str
) -> None:
    async with UmpireClient(ws_url) as player:
        created = await player.create("counter", {"target": 1000}, client_entropy="waived")
        gid = created.game_id
        seen: list[EventFrame | ViewState] = []
        subscription = player.subscribe(gid, view=True, views=True)
        seen.append(await anext(subscription))  # the state now
        accepted = await player.send(gid, {"type": "Add", "amount": 3})
        while not (isinstance(seen[-1], ViewState) and seen[-1].seq == accepted.head_seq):
            seen.append(await asyncio.wait_for(anext(subscription), 10))
        await subscription.aclose()
    pushed = seen[-1]
    assert isinstance(pushed, ViewState)
    assert [f.seq for f in seen if isinstance(f, EventFrame)][-1] == pushed.seq
    assert pushed.state["total"] == 3 and "Add" in [a.type for a in pushed.actions]


async def test_one_state_frame_is_built_per_role_per_batch(gateway: Running, ws_url: str) -> None:
    """Three spectators and a player: one build for each role, the same bytes to every
    spectator (server/feed.py encodes once, as it does events)."""
    built: list[str] = []
    notifier = gateway.gateway.notifier
    build = notifier.state_builder
    assert build is not None

    async def counted(game_id: str, role: Role) -> tuple[int, bytes]:
        built.append(role.value)
        return await build(game_id, role)

    notifier.state_builder = counted
    player = await Peer.open(ws_url)
    created = await player.ok({"type": "create", "ruleset": "counter", "client_entropy": "waived",
                               "setup": {"target": 1000}})  # fmt: skip
    gid = created["game_id"]
    spectators = [await Peer.open(ws_url) for _ in range(3)]
    for peer in [player, *spectators]:
        credential = created["spectator_credential"] if peer is not player else None
        await peer.ok({"type": "subscribe", "game_id": gid, "views": True,
                       **({"credential": credential} if credential else {})})  # fmt: skip
    accepted = await player.ok({"type": "command", "game_id": gid, "command_id": "c",
                                "command": {"type": "Add", "amount": 1}})  # fmt: skip
    raws = []
    for peer in [player, *spectators]:
        pushed = await peer.wait_for(lambda f: f["type"] == "state" and f.get("id") is None)
        assert pushed["seq"] == accepted["head_seq"]
        raws.append(peer.raw[peer.frames.index(pushed)])
    assert sorted(built) == ["player", "spectator"]
    assert raws[1] == raws[2] == raws[3] != raws[0]
    for peer in [player, *spectators]:
        await peer.close()


async def test_after_a_reconnect_the_python_client_yields_the_heads_state_after_its_events(
    gateway: Running, ws_url: str, games: Games
) -> None:
    """Batches appended while the connection was down: the resubscribe asks view and
    views, and the head's state is yielded once the missed events are."""
    async with UmpireClient(ws_url, retry_delay=0.01) as player:
        created = await player.create("counter", {"target": 1000}, client_entropy="waived")
        gid = created.game_id
        seen: list[EventFrame | ViewState] = []

        async def follow() -> None:
            async for item in player.subscribe(gid, view=True, views=True):
                seen.append(item)

        following = asyncio.create_task(follow())
        async with asyncio.timeout(10):
            while not seen:
                await asyncio.sleep(0.01)
        with socket.socket() as probe:  # a port nothing listens on: reconnects fail
            probe.bind(("127.0.0.1", 0))
            url, player.url = player.url, f"ws://127.0.0.1:{probe.getsockname()[1]}/ws"
        assert player._ws is not None and player._ws.transport is not None
        player._ws.transport.abort()  # a network failure
        for n in range(2):
            await games.handle(gid, f"away-{n}", {"type": "Add", "amount": 1})
        head = await games.store.version(gid)
        player.url = url  # back: the reconnect restores the subscription
        async with asyncio.timeout(10):
            while not any(isinstance(f, ViewState) and f.seq == head for f in seen):
                await asyncio.sleep(0.01)
        following.cancel()
    events = [f.seq for f in seen if isinstance(f, EventFrame)]
    assert events == list(range(seen[0].seq + 1, head + 1))  # exactly once, in order
    for at, item in enumerate(seen[1:], start=1):
        if isinstance(item, ViewState):  # never before the events it follows
            assert max(f.seq for f in seen[:at] if isinstance(f, EventFrame)) >= item.seq
