"""A scripted engagement through the command path on a real Redis (Valkey): escorts, a
bomber formation, damage, an altitude change and a rocket attack; then the audit, secrecy
and bad input (RuleError naming the rule, nothing written)."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from tests.rulesets.down_in_flames.setups import ENGAGEMENT_SETUP as SETUP
from tests.rulesets.down_in_flames.setups import entry
from tests.support.gateway_games import create_bound
from umpire.engine.audit import audit
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.engine.rulesets.down_in_flames import RULESET
from umpire.events.codec import EventRegistry
from umpire.server.games import Games


def _leaks(data: Any) -> list[str]:
    """Values of side B's unrevealed pilots that must not appear in side A's frames."""
    text = json.dumps(data, default=str)
    found = [name for name in RULESET.secret_fields if f'"{name}"' in text]
    found += [word for word in ('"ace"', '"green"') if word in text]
    return found


async def _script(games: Games) -> str:
    created = await create_bound(
        games, "down_in_flames", SETUP, "engagement", opponent_manual_dice=True
    )
    gid = created.game_id
    n = iter(range(1000))

    async def do(command: dict[str, Any], dice: list[list[int]] | None = None) -> None:
        await games.handle(gid, f"c{next(n)}", command, manual_dice=dice)

    await do({"type": "RollStartingAltitude"}, [[12]])
    # Side B's move: the Fw 190 attacks the bomber box, the Bf 110 fires its rockets.
    await do({"type": "BeginTurn", "side": "B"})
    await do({"type": "SetPosition", "attacker": "f1", "target": "bomber1", "position": "neutral"})
    # 3 hits x HV 20 = 60: 7 points, the 4 left over score on 2: 8 of 16, damaged (4.1.8).
    await do({"type": "Attack", "attacker": "f1", "target": "bomber1", "card": "in_my_sights",
              "hits": 3, "bursts": 1}, [[2]])  # fmt: skip
    # The box's turrets answer the attack in side B's move (4.1.9): HV 8 against the Fw
    # 190's defense 7 is 1:1: a 3 has no effect (3.2.6).
    await do({"type": "ResolveDefensiveFire", "shooter": "bomber1", "target": "f1",
              "kind": "turret", "hits": 1}, [[3]])  # fmt: skip
    await do({"type": "SetPosition", "attacker": "r1", "target": "bomber2", "position": "neutral"})
    await do({"type": "Attack", "attacker": "r1", "target": "bomber2", "card": "out_of_the_sun",
              "hits": 1, "bursts": 1, "rockets": True}, [[2]])  # fmt: skip
    await do({"type": "Dive", "element": "JG", "levels": 1})  # altitude change, +1 card
    await do({"type": "Discard", "aircraft": "f1", "count": 1})
    await do({"type": "Discard", "aircraft": "r1", "count": 2})  # green, rockets: holds 2
    await do({"type": "EndTurn", "side": "B"})
    # Side A's move: the escort dives on the Fw 190 and fires with server dice.
    await do({"type": "BeginTurn", "side": "A"})
    await do({"type": "Dive", "element": "ESC", "levels": 1})
    await do({"type": "SetPosition", "attacker": "p1", "target": "f1", "position": "tailing"})
    # Server dice: 2 hits x HV 12 against defense 7 is 3:1, one d6, whatever it shows.
    await do({"type": "Attack", "attacker": "p1", "target": "f1", "card": "in_my_sights",
              "hits": 2, "bursts": 2})  # fmt: skip
    await do({"type": "EndTurn", "side": "A"})
    return gid


async def test_scripted_engagement_audits_and_keeps_secrets(games: Games) -> None:
    gid = await _script(games)
    _, game = await games.load(gid)
    state = game.state
    assert (
        state.aircraft["bomber1"].damage_points == 8 and not state.aircraft["bomber1"].in_formation
    )
    assert state.aircraft["bomber2"].shot_down  # Bf 110 rocket hit on 1-2 (7.1.3)
    assert state.aircraft["r1"].rockets_used
    assert state.elements["JG"].altitude == 11 and state.elements["ESC"].altitude == 11
    envelopes = await games.store.read(gid)
    report = audit(envelopes)
    assert report.ok, report.failure
    assert report.player_rolls == 4 and report.server_rolls == 1
    # Side A's player never sees side B's unrevealed pilots; spectators see no pilot at all.
    for role in (Role.PLAYER, Role.SPECTATOR):
        view = RULESET.view(state, role)
        assert not _leaks({k: v for k, v in view["aircraft"].items() if v["side"] == "B"}), role
    assert RULESET.view(state, Role.PLAYER)["aircraft"]["p1"]["pilot"]["quality"] == "veteran"
    codec = EventRegistry(RULESET.event_types)
    for env in envelopes:
        event = codec.decode(env.type, env.version, env.payload, seq=env.seq)
        shown = RULESET.redact(event, Role.PLAYER)
        assert shown is not None
        assert not _leaks(msgspec.to_builtins(shown)), env.type
    # Ending the game reveals the seed: every server roll then verifies.
    await games.handle(gid, "end", {"type": "EndGame", "result": "side A disengages"})
    final = audit(await games.store.read(gid))
    assert final.ok and final.seed_revealed and final.rolls_verified == final.server_rolls


SIDE_A_ONLY = [
    *SETUP["aircraft"][:4],
    entry("h1", "P-51D-10", "B", "H", "leader", hand=6),
]
POSITION = {"type": "SetPosition", "attacker": "f1", "target": "bomber1", "position": "neutral"}


@pytest.mark.parametrize(
    ("setup_change", "prelude", "command", "rule"),
    [
        # an attack by an aircraft without a position on its target
        ({}, [], {"type": "Attack", "attacker": "f1", "target": "p1", "card": "in_my_sights",
                  "hits": 1, "bursts": 1}, "3.1"),
        # a climb above the ceiling (the P-51D-10 sample's ceiling is level 20)
        ({"starting_altitude": 20, "aircraft": SIDE_A_ONLY}, [], {"type": "Climb",
                                                                 "element": "ESC"}, "2.2"),
        # a rocket attack by an aircraft that carries none
        ({}, [POSITION], {"type": "Attack", "attacker": "f1", "target": "bomber1",
                          "card": "in_my_sights", "hits": 1, "bursts": 1, "rockets": True},
         "7.1.2"),
        # an unknown element
        ({}, [], {"type": "Dive", "element": "NOPE", "levels": 1}, "2.1"),
        # an unknown aircraft
        ({}, [], {"type": "SetPosition", "attacker": "zz", "target": "p1",
                  "position": "neutral"}, "3.1"),
    ],
)  # fmt: skip
async def test_bad_input_writes_nothing(
    games: Games,
    setup_change: dict[str, Any],
    prelude: list[dict[str, Any]],
    command: dict[str, Any],
    rule: str,
) -> None:
    setup = {**SETUP, "starting_altitude": 12, **setup_change}
    created = await games.create("down_in_flames", setup)
    gid = created.game_id
    side = "A" if command["type"] == "Climb" else "B"
    await games.handle(gid, "turn", {"type": "BeginTurn", "side": side})
    for i, step in enumerate(prelude):
        await games.handle(gid, f"pre{i}", step)
    before = await games.store.version(gid)
    with pytest.raises(RuleError) as info:
        await games.handle(gid, "bad", command, manual_dice=[[1]] if "card" in command else None)
    assert info.value.rule.endswith(" " + rule)
    assert await games.store.version(gid) == before


async def test_agility_card_beyond_the_limit_writes_nothing(games: Games) -> None:
    """8.4.4: the P-51D-10 at level 18 plays at most 5 Agility Cards a turn."""
    setup = {**SETUP, "starting_altitude": 18, "aircraft": SIDE_A_ONLY}
    gid = (await games.create("down_in_flames", setup)).game_id
    await games.handle(gid, "t", {"type": "BeginTurn", "side": "A"})
    await games.handle(gid, "h", {"type": "ReportHand", "aircraft": "p1", "cards": 9})
    for i in range(5):
        await games.handle(gid, f"m{i}", {"type": "PlayCard", "aircraft": "p1",
                                          "card": "maneuvering"})  # fmt: skip
    before = await games.store.version(gid)
    with pytest.raises(RuleError) as info:
        await games.handle(gid, "m6", {"type": "PlayCard", "aircraft": "p1", "card": "half_loop"})
    assert info.value.rule.endswith(" 8.4")
    assert await games.store.version(gid) == before


async def test_out_of_ammunition_attack_writes_nothing(games: Games) -> None:
    """10.15: a card whose right-hand Hit Value is 0 has no weapons left once depleted."""
    empty = {
        "name": "Empty",
        "aircraft_class": "fighter",
        "ceiling_level": 20,
        "defense": 40,
        "hit_value": 8,
        "reduced_hit_value": 0,
        "performance": [{"low": 1, "high": 20, "agility": 5, "speed": 5, "hp": 3}],
    }
    setup = {**SETUP, "starting_altitude": 12, "custom_aircraft": {"Empty": empty}}
    setup["aircraft"] = [
        *SETUP["aircraft"][:4],
        entry("e1", "Empty", "B", "E", "leader", hand=6),
    ]
    gid = (await games.create("down_in_flames", setup, opponent_manual_dice=True)).game_id
    await games.handle(gid, "t", {"type": "BeginTurn", "side": "B"})
    await games.handle(gid, "p", {"type": "SetPosition", "attacker": "e1", "target": "p1",
                                  "position": "tailing"})  # fmt: skip
    attack = {"type": "Attack", "attacker": "e1", "target": "p1", "card": "in_my_sights",
              "hits": 1, "bursts": 1}  # fmt: skip
    # 8 against the P-51's 7 is 1:1: a 1 rolls again (5: damaged), then ammunition (1).
    await games.handle(gid, "a1", attack, manual_dice=[[1], [5], [1]])
    _, game = await games.load(gid)
    assert game.state.aircraft["e1"].ammo_depleted
    before = await games.store.version(gid)
    with pytest.raises(RuleError) as info:
        await games.handle(gid, "a2", attack, manual_dice=[[6]])
    assert info.value.rule.endswith(" 10.15")
    assert await games.store.version(gid) == before


async def test_unknown_aircraft_type_creates_nothing(games: Games) -> None:
    setup = {**SETUP, "aircraft": [entry("x", "Me 262", "A", "X", "leader")]}
    with pytest.raises(RuleError) as info:
        await games.create("down_in_flames", setup)
    assert info.value.rule.endswith(" 2.4")
    assert await games.store.games() == []
