"""Contract: no secret in any frame. Every frame sent to a player and to a spectator, across
whole games of every installed ruleset through the real gateway (commands drawn from the
legal actions, every command type the ruleset lists among them: testing/support/drivers.py),
is captured and searched. None holds the dice seed before its reveal, another game's id,
seed or credential, or a secret the ruleset declares (`Ruleset.secret_paths`, matched by
path: in that event type's payload, or in a role's view) with a value that is not redacted.
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


def _at(data: Any, keys: list[str], where: str) -> list[str]:
    """The values at `keys` under `data` (`*`: every key or item) that are not redacted."""
    if not keys:
        shown = data not in REDACTED_VALUES and "withheld" not in str(data)
        return [f"{where}={data!r}"] if shown else []
    head, rest = keys[0], keys[1:]
    if head == "*":
        items = data.items() if isinstance(data, dict) else enumerate(data or ())
        return [v for k, item in items for v in _at(item, rest, f"{where}.{k}")]
    if isinstance(data, dict) and head in data:
        return _at(data[head], rest, f"{where}.{head}")
    return []


def secret_values(frame: dict[str, Any], paths: tuple[str, ...]) -> list[str]:
    """Where `frame` shows a declared secret (engine/secret_fields.py paths): an event
    frame in its own event type's payload (a withheld event's tag alone: any payload at
    all), a state frame in its view. A field of the same name elsewhere is not a secret."""
    found: list[str] = []
    for path in paths:
        if frame.get("type") == "event":
            tag = frame["event_type"]
            if path == tag and frame.get("payload"):
                found.append(f"$.payload (a withheld {tag})")
            elif path.startswith(tag + "."):
                found += _at(frame.get("payload"), path[len(tag) + 1 :].split("."), "$.payload")
        elif frame.get("type") == "state" and path.startswith("state."):
            found += _at(frame.get("state"), path.removeprefix("state.").split("."), "$.state")
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

    paths = registry.get(name).secret_paths
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
                leaked = secret_values(frame, paths)
                assert not leaked, f"{where} shows secret fields: {leaked[:3]}"
        assert not before_reveal
        events = peer.events(gid)
        assert [e["seq"] for e in events] == list(range(1, last + 1)), f"{name}: {who} gap"
    for peer in (player, other, spectator):
        await peer.close()


def test_the_search_finds_an_unredacted_secret() -> None:
    """The checker itself: a secret is found by its path, at any depth, and only in its own
    event type or in the view; redacted forms are not found, nor a field of the same name
    in another event (a field named `hidden` is not `DiceRolled.hidden`)."""
    paths = ("d.Checked.bsan", "d.Bought.pool.*.density", "d.Rolled", "state.hidden_sams")

    def event(tag: str, payload: dict[str, Any]) -> dict[str, Any]:
        return {"type": "event", "event_type": tag, "payload": payload}

    assert secret_values(event("d.Checked", {"bsan": 3}), paths) == ["$.payload.bsan=3"]
    assert secret_values(event("d.Checked", {"bsan": -1}), paths) == []
    assert secret_values(event("d.Other", {"bsan": 3}), paths) == []  # same name, elsewhere
    bought = event("d.Bought", {"pool": [{"density": "heavy"}, {"density": ""}]})
    assert secret_values(bought, paths) == ["$.payload.pool.0.density='heavy'"]
    assert secret_values(event("d.Rolled", {"cell": "2"}), paths)  # withheld, yet sent
    assert secret_values({"type": "state", "state": {"hidden_sams": 2}}, paths)
    assert secret_values({"type": "state", "state": {"bsan": 2}}, paths) == []
