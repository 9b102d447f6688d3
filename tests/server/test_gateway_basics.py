"""The gateway over real websocket connections: create, subscribe, command, roles."""

from __future__ import annotations

import asyncio

import msgspec
import pytest
from websockets.asyncio.client import connect

from umpire.clients import UmpireClient, UmpireError
from umpire.testing.support.wire import text


async def collect(client: UmpireClient, game_id: str, n: int, from_seq: int = 0) -> list:
    out = []
    async for frame in client.subscribe(game_id, from_seq):
        out.append(frame)
        if len(out) == n:
            return out
    return out


async def test_create_command_and_live_events(ws_url: str) -> None:
    async with UmpireClient(ws_url) as client:
        created = await client.create("counter", {"target": 1000}, client_seed="seed-1")
        assert created.player_credential.startswith(created.game_id + ".")
        watcher = asyncio.create_task(collect(client, created.game_id, 7))
        accepted = await client.send(created.game_id, {"type": "Push"}, command_id="p1")
        assert accepted.seqs == [3, 4, 5] and not accepted.duplicate
        await client.send(created.game_id, {"type": "Add", "amount": 3})
        frames = await asyncio.wait_for(watcher, 10)
        assert [f.seq for f in frames] == list(range(1, 8))
        assert frames[0].event_type == "GameCreated"
        assert frames[1].event_type == "ClientSeedBound"
        assert frames[1].payload["client_seed"] == "seed-1"
        assert frames[3].payload["type"] == "DiceRolled"


async def test_same_command_id_twice_is_applied_once(ws_url: str) -> None:
    async with UmpireClient(ws_url) as client:
        created = await client.create("counter", {"target": 1000})
        first = await client.send(created.game_id, {"type": "Push"}, command_id="dup")
        second = await client.send(created.game_id, {"type": "Push"}, command_id="dup")
        assert second.duplicate and second.seqs == first.seqs
        view = await client.view(created.game_id)
        assert view.state["pushes"] == 1


async def test_spectator_is_read_only_and_sees_no_secret(gateway, ws_url: str) -> None:
    async with UmpireClient(ws_url) as player:
        created = await player.create("counter", {"target": 1000})
        for i in range(3):
            await player.send(created.game_id, {"type": "Hide"}, command_id=f"h{i}")
        async with connect(ws_url) as raw:
            frames = [await raw.recv()]
            await raw.send(
                text({"type": "auth", "id": "a", "credential": created.spectator_credential})
            )
            await raw.send(
                text(
                    {
                        "type": "subscribe",
                        "game_id": created.game_id,
                        "view": True,
                        "from_seq": 0,
                        "id": "s",
                    }
                )
            )
            await raw.send(
                text(
                    {
                        "type": "command",
                        "game_id": created.game_id,
                        "command_id": "x",
                        "command": {"type": "Push"},
                        "id": "c",
                    }
                )
            )
            while True:
                frame = await asyncio.wait_for(raw.recv(), 5)
                frames.append(frame)
                if '"id":"c"' in frame:
                    break
            refusal = msgspec.json.decode(frames[-1])
            assert refusal["type"] == "error" and refusal["code"] == "unauthorized"
            # Wait for all 10 events to arrive, then search every frame for secrets.
            while sum('"type":"event"' in f for f in frames) < 10:
                frames.append(await asyncio.wait_for(raw.recv(), 5))
        joined = "\n".join(frames)
        assert '"secret"' not in joined  # the ruleset's secret field
        assert "counter.SecretChosen" in joined  # the event exists, its payload is withheld
        seed = await gateway.gateway.store.secret(created.game_id)
        assert seed.hex() not in joined and seed.hex().upper() not in joined
        view = next(msgspec.json.decode(f) for f in frames if '"type":"state"' in f)
        assert "secret" not in view["state"] and view["role"] == "spectator"


async def test_credentials_are_scoped_to_one_game(ws_url: str) -> None:
    async with UmpireClient(ws_url) as a, UmpireClient(ws_url) as b:
        game_a = await a.create("counter", {"target": 1000})
        game_b = await b.create("counter", {"target": 1000})
        async with UmpireClient(ws_url) as c:
            await c.auth(game_a.player_credential)
            with pytest.raises(UmpireError, match="unauthorized"):
                await c.send(game_b.game_id, {"type": "Push"})
            with pytest.raises(UmpireError, match="unauthorized"):
                await c.auth(game_b.game_id + "." + "x" * 32)
            with pytest.raises(UmpireError, match="malformed"):
                await c.auth("nonsense")
        async with UmpireClient(ws_url) as d:
            with pytest.raises(UmpireError, match="send 'auth' first"):
                await d.send(game_a.game_id, {"type": "Push"})


async def test_view_at_a_past_seq_is_the_state_then_as_the_role_sees_it(ws_url: str) -> None:
    async with UmpireClient(ws_url) as player:
        created = await player.create("counter", {"target": 1000}, client_entropy="waived")
        await player.send(created.game_id, {"type": "Add", "amount": 2})  # seqs 2-3
        await player.send(created.game_id, {"type": "Hide"})  # seqs 4-6
        await player.send(created.game_id, {"type": "Add", "amount": 3})  # seqs 7-8
        then = await player.request({"type": "view", "game_id": created.game_id, "at_seq": 3})
        assert then.seq == 3 and then.state["total"] == 2
        now = await player.view(created.game_id)
        assert now.seq == 8 and now.state["total"] == 5
        assert "secret" not in then.state and "secret" not in now.state
        for bad in (0, 9):
            with pytest.raises(UmpireError) as info:
                await player.request({"type": "view", "game_id": created.game_id, "at_seq": bad})
            assert info.value.code in ("seq_out_of_range", "bad_message")
        with pytest.raises(UmpireError, match="out of range"):
            await player.request({"type": "view", "game_id": created.game_id, "at_seq": 9})
