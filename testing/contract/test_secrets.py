"""Contract: no secret in any frame. Every frame sent to a player and to a spectator, across
whole games of every installed ruleset through the real gateway (commands drawn from the
legal actions, every command type the ruleset lists among them: testing/support/drivers.py),
is captured and searched. None holds the dice seed before its reveal, another game's id,
seed or credential, or a field the ruleset marks secret (`secret_fields`) with a value
that is not redacted.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
from typing import Any

import pytest

from umpire.engine import registry
from umpire.server.app import Running
from umpire.testing.support.drivers import driver, play, rulesets
from umpire.testing.support.peer import Peer

COMMANDS = 300  # commands tried per game (refused ones included)

# What a redacted secret field may hold: the rulesets remove it, empty it or mark it -1.
REDACTED_VALUES: tuple[Any, ...] = (None, -1, "", [], {})


def secret_values(data: Any, names: frozenset[str], path: str = "$") -> list[str]:
    """Paths of fields named in `names` whose value is not a redacted one."""
    found: list[str] = []
    if isinstance(data, dict):
        for key, value in data.items():
            here = f"{path}.{key}"
            if key in names and value not in REDACTED_VALUES and "withheld" not in str(value):
                found.append(f"{here}={value!r}")
            found += secret_values(value, names, here)
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found += secret_values(value, names, f"{path}[{i}]")
    return found


@pytest.mark.parametrize("name", rulesets())
async def test_no_frame_leaks_a_secret(gateway: Running, ws_url: str, name: str) -> None:
    setup, _ = driver(name)
    store = gateway.gateway.store
    # A game the rules end (and so reveal) while frames are still on their way is played
    # again from the same seeds and commands, stopped before the command that ended it:
    # the test ends it itself once every frame has arrived (a hi-lo game ends in six).
    count = COMMANDS
    for _ in range(2):
        draws = itertools.count()
        gateway.gateway.games.draw_seed = lambda draws=draws: hashlib.sha256(
            f"secrets:{name}:{next(draws)}".encode()
        ).digest()
        player = await Peer.open(ws_url)
        other = await Peer.open(ws_url)
        spectator = await Peer.open(ws_url)
        created = await player.ok(
            {"type": "create", "client_entropy": "waived", "ruleset": name, "setup": setup}
        )
        foreign = await other.ok(
            {"type": "create", "client_entropy": "waived", "ruleset": name, "setup": setup}
        )
        gid, fid = created["game_id"], foreign["game_id"]
        await player.ok({"type": "subscribe", "game_id": gid, "from_seq": 0})
        await spectator.ok({"type": "subscribe", "game_id": gid, "view": True, "from_seq": 0,
                            "credential": created["spectator_credential"]})  # fmt: skip
        seed = (await store.secret(gid)).hex()
        foreign_seed = (await store.secret(fid)).hex()

        # The two games are played interleaved, so the gateway is busy with both at once.
        played, _ = await asyncio.gather(
            play(gateway, player, gid, name, 1, count), play(gateway, other, fid, name, 2, 10)
        )
        if not played.ended:
            break
        count = played.ending
        for peer in (player, other, spectator):
            await peer.close()
    # At least three, or every command of a game stopped before its end.
    assert played.accepted >= min(3, count), f"{name}: the driver got too few commands accepted"
    played.coverage.check()  # every rule the game offered was played, hidden ones too
    await spectator.ok({"type": "view", "game_id": gid})
    head = await store.version(gid)
    for peer in (player, spectator):
        await peer.wait_for(lambda f: f["type"] == "event" and f["seq"] == head)
    _, game = await gateway.gateway.games.load(gid)
    if game.meta.ended:
        last = head
    else:
        ended = await player.ok(
            {
                "type": "command",
                "game_id": gid,
                "command_id": "end",
                "command": {"type": "EndGame", "result": "test over"},
            }
        )
        last = ended["seqs"][-1]
    for peer in (player, spectator):
        revealed = await peer.wait_for(lambda f: f["type"] == "event" and f["seq"] == last)
        assert revealed["event_type"] == "SeedRevealed"
        assert revealed["payload"]["seed"] == seed  # the reveal itself reaches everyone

    names = frozenset(registry.get(name).secret_fields)
    for who, peer in (("player", player), ("spectator", spectator)):
        before_reveal = True
        for raw, frame in zip(peer.raw, peer.frames, strict=True):
            if frame["type"] == "event" and frame["event_type"] == "SeedRevealed":
                before_reveal = False
            # A reply (to `view`) is not ordered with the subscription's events: at the
            # reveal's seq or later it shows the revealed game, whenever it arrives (a
            # game the rules ended is revealed before the test's last `view`).
            hidden = before_reveal and (frame.get("seq") or 0) < last
            where = f"{name}: {who} frame {frame['type']} {frame.get('seq')}"
            for secret in (fid, foreign_seed, foreign["player_credential"],
                           foreign["spectator_credential"]):  # fmt: skip
                assert secret not in raw, f"{where} holds another game's data"
            assert frame.get("game_id") in (None, gid), where
            if who == "spectator":
                assert created["player_credential"] not in raw, where
            if hidden:
                assert seed not in raw, f"{where} holds the dice seed before its reveal"
                leaked = secret_values(frame, names)
                assert not leaked, f"{where} shows secret fields: {leaked[:3]}"
        assert not before_reveal
        events = peer.events(gid)
        assert [e["seq"] for e in events] == list(range(1, last + 1)), f"{name}: {who} gap"
    for peer in (player, other, spectator):
        await peer.close()


def test_the_search_finds_an_unredacted_secret() -> None:
    """The checker itself: a secret value is found at any depth; redacted forms are not."""
    names = frozenset({"bsan", "pool_densities"})
    frame = {"payload": {"x": [{"bsan": 3}], "pool_densities": [], "y": {"bsan": -1}}}
    assert secret_values(frame, names) == ["$.payload.x[0].bsan=3"]
    assert secret_values({"pool_densities": ["heavy"]}, names)
