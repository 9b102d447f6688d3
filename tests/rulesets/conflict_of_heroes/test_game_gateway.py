"""A scripted mission of several rounds through `games` on a real Redis, audited; bad input
refused with nothing written; views and events hold no secret (003_368c69a730e6e14a.txt)."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from tests.support.gateway_games import create_bound
from umpire.engine.audit import audit
from umpire.engine.errors import OpponentDiceRefused, RuleError
from umpire.engine.roles import Role
from umpire.engine.rulesets.conflict_of_heroes import RULESET
from umpire.engine.rulesets.conflict_of_heroes.terms import Side, WhoseTurn
from umpire.events.types import SeedRevealed
from umpire.server.games import Games


def _player_command(state: Any) -> dict[str, Any]:
    """A legal player action for whatever state the server dice led to."""
    mine = [u for u in state.units if u.side is Side.PLAYER and not u.destroyed and u.in_play]
    fresh = [u for u in mine if u.fresh]
    if fresh:
        u = fresh[0]
        return {
            "type": "UnitAction",
            "units": [u.id],
            "action": "fire",
            "ap": 2,
            "caps": 1 if state.caps else 0,
        }
    if state.caps:
        return {"type": "CommandAction", "units": [mine[0].id], "action": "rally", "caps": 1}
    return {"type": "Pass"}


async def test_scripted_mission_of_several_rounds_audits_ok(games: Games) -> None:
    """Several rounds of play: player actions, AI turns, reports (a hit, a destroyed AI,
    a reinforcement), consecutive passes ending rounds; then the seed is revealed and the
    audit recomputes every draw and roll and re-makes every decision."""
    created = await create_bound(games, "conflict_of_heroes", {}, "coh-mission")
    gid = created.game_id
    n = 0

    async def send(command: dict[str, Any]) -> None:
        nonlocal n
        n += 1
        await games.handle(gid, f"c{n}", command)

    await send({"type": "ReportCounters", "rumored": 1, "reinforcements": 1})
    views: list[str] = []
    for step in range(400):
        _, game = await games.load(gid)
        s = game.state
        views.append(json.dumps(RULESET.view(s, Role.PLAYER), default=str))
        if s.round >= 4:
            break
        if step == 5:
            await send({"type": "ReportHit", "unit": "P-RIFLE-2", "hit": True})
        if step == 9 and not s.unit("AI-RIFLE-2").destroyed:
            await send({"type": "ReportDestroyed", "unit": "AI-RIFLE-2"})
        if step == 12:
            await send({"type": "ReportPosition", "unit": "P-SMG", "hex": "0405", "facing": 1})
        if s.turn is WhoseTurn.PLAYER:
            await send(_player_command(s))
        else:
            await send({"type": "TakeAiTurn"})
    _, game = await games.load(gid)
    assert game.state.round >= 3, "the script should play several rounds"
    assert game.state.removed, "the destroyed AI cost the AI a Command card (7.3)"
    await games.reveal(gid)
    envelopes = await games.store.read(gid)
    report = audit(envelopes)
    assert report.ok, report.failure
    assert report.seed_revealed and report.rolls_verified == report.server_rolls > 10
    assert report.decisions_checked == n
    seed = next(e for e in envelopes if e.type == "SeedRevealed")
    revealed = msgspec.json.decode(msgspec.json.encode(msgspec.msgpack.decode(seed.payload)))
    secret = revealed["seed"]
    assert all(secret not in v for v in views)
    for env in envelopes[:-1]:
        assert secret.encode() not in env.payload and bytes.fromhex(secret) not in env.payload
    types = {e.type for e in envelopes}
    assert {
        "conflict_of_heroes.AiOrderSelected",
        "conflict_of_heroes.SpentCheckMade",
        "conflict_of_heroes.RoundEnded",
        "conflict_of_heroes.CommandCardRemoved",
    } <= types
    assert SeedRevealed.__struct_config__.tag in types


async def test_bad_input_is_refused_and_nothing_is_written(games: Games) -> None:
    """Bad input: a spent unit acting where a fresh one is needed (3.1), CAPs that are not
    there (3.2.1), APs a unit does not have (3.1), an order card not in the deck (3.1.1),
    the wrong side's turn (3.0 / 4.0): RuleError naming the rule, store unchanged."""
    created = await create_bound(
        games, "conflict_of_heroes", {}, "coh-bad", opponent_manual_dice=True
    )
    gid = created.game_id
    await games.handle(
        gid, "ok1", {"type": "CommandAction", "units": ["P-RIFLE-1"], "action": "move", "caps": 3}
    )
    await games.handle(gid, "ok2", {"type": "TakeAiTurn"})
    version = await games.store.version(gid)
    _, game = await games.load(gid)
    assert game.state.caps == 0
    spent = {"type": "UnitAction", "units": ["P-RIFLE-1"], "action": "fire", "ap": 1}
    named = next(
        c.number for c in game.state.cards if c.number in game.state.deck and not c.remain_fresh
    )
    await games.handle(
        gid,
        "spend",
        {"type": "UnitAction", "units": ["P-RIFLE-1"], "action": "fire", "ap": 7, "cards": [named]},
    )
    version = await games.store.version(gid)
    _, game = await games.load(gid)
    assert not game.state.unit("P-RIFLE-1").fresh  # 7 AP >= any sample AP Spent Number
    assert named in game.state.discards
    await games.handle(gid, "ai2", {"type": "TakeAiTurn"})
    version = await games.store.version(gid)
    bad = [
        (spent, "3.1", "is spent"),
        (
            {"type": "CommandAction", "units": ["P-RIFLE-2"], "action": "fire", "caps": 1},
            "3.2.1",
            "CAPs are not there",
        ),
        (
            {"type": "UnitAction", "units": ["P-RIFLE-2"], "action": "move", "ap": 9},
            "3.1",
            "more than a Unit has",
        ),
        (
            {
                "type": "UnitAction",
                "units": ["P-RIFLE-2"],
                "action": "move",
                "ap": 1,
                "cards": [named],
            },
            "3.1.1",
            "not in the deck",
        ),
        ({"type": "TakeAiTurn"}, "4.0", "player's turn"),
    ]
    for i, (command, rule, message) in enumerate(bad):
        with pytest.raises(RuleError, match=message) as info:
            await games.handle(gid, f"bad{i}", command)
        assert info.value.rule.startswith("003_368c69a730e6e14a.txt " + rule)
        assert await games.store.version(gid) == version


async def test_cards_drawn_for_the_ai_follow_the_opponent_dice_policy(games: Games) -> None:
    """Issue #16 item 6 for Order Cards: the AP Spent Check's card (3.1.1) is drawn for the
    AI, so naming it from a physical deck is the player choosing the opponent's draw. A
    game not created to allow the opponent's dice refuses it (OpponentDiceRefused, nothing
    written) and takes the same command without cards; a game created to allow them takes
    the named card, and its audit says the game allows them."""
    command = {"type": "UnitAction", "units": ["P-RIFLE-1"], "action": "fire", "ap": 1}
    strict = (await create_bound(games, "conflict_of_heroes", {}, "coh-strict")).game_id
    _, game = await games.load(strict)
    named = sorted(game.state.deck)[0]
    version = await games.store.version(strict)
    with pytest.raises(OpponentDiceRefused, match="opponent") as info:
        await games.handle(strict, "named", {**command, "cards": [named]})
    assert info.value.details["rule"].startswith("003_368c69a730e6e14a.txt 3.1.1")
    assert await games.store.version(strict) == version
    await games.handle(strict, "drawn", command)  # the server draws it
    assert await games.store.version(strict) > version

    allowed = await create_bound(
        games, "conflict_of_heroes", {}, "coh-allowed", opponent_manual_dice=True
    )
    await games.handle(allowed.game_id, "named", {**command, "cards": [named]})
    _, game = await games.load(allowed.game_id)
    assert named in game.state.discards
    await games.reveal(allowed.game_id)
    report = audit(await games.store.read(allowed.game_id))
    assert report.ok, report.failure
    assert report.opponent_manual_dice


async def test_a_bad_setup_is_refused_at_creation(games: Games) -> None:
    """A deck whose orders break the grammar is refused when the game is created."""
    from umpire.engine.errors import InvalidSetup

    bad = {
        "deck": [
            {"number": 1, "colour": "blue", "ap_spent_number": 3, "priority_orders": ["AI dances"]}
        ]
    }
    with pytest.raises(InvalidSetup, match="card 1"):
        await games.create("conflict_of_heroes", bad)
    with pytest.raises(InvalidSetup, match="colour"):
        await games.create(
            "conflict_of_heroes", {"deck": [{"number": 1, "colour": "red", "ap_spent_number": 3}]}
        )
    assert await games.store.games() == []
