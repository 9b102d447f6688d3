"""Through `games` on a real Redis: bad input writes nothing; a server-dice game audits
clean and never shows the player a secret."""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.nightfighter.setups import setup_4b_phase_by_phase
from tests.support.gateway_games import create_bound
from umpire.engine.audit import audit
from umpire.engine.errors import InvalidSetup, RuleError
from umpire.engine.game import codec_for
from umpire.engine.roles import Role
from umpire.engine.rulesets.nightfighter import RULESET
from umpire.events.types import DiceRolled
from umpire.server.games import Games


async def _to_ai_phase(games: Games, gid: str) -> None:
    await games.handle(gid, "t2", {"type": "MoveBombers"})
    await games.handle(gid, "t3", {"type": "MoveFighter", "fighter": "F1",
                                   "path": ["1019", "1018", "1017"], "facing": 0})  # fmt: skip
    await games.handle(gid, "t4", {"type": "EndPhase"})
    await games.handle(gid, "t5", {"type": "EndPhase"})


async def test_bad_input_is_refused_citing_the_rule_and_writes_nothing(games: Games) -> None:
    """Ineligible search, second AI search in a phase, non-adjacent move, phase order."""
    created = await create_bound(games, "nightfighter", setup_4b_phase_by_phase(), "bad")
    gid = created.game_id
    await games.handle(gid, "s2", {"type": "MoveBombers"})  # the game opens at turn 1's
    with pytest.raises(RuleError, match="bomber movement phase") as info:
        await games.handle(gid, "b0", {"type": "MoveBombers"})  # the bombers have moved
    assert "S7.0" in info.value.rule
    version = await games.store.version(gid)
    bad = [
        ({"type": "MoveFighter", "fighter": "F1", "path": ["1018"], "facing": 0},
         "adjacent", "S3.0"),
        ({"type": "SearchAI", "fighter": "F1", "hex": "1003"}, "AI radar phase", "S19.0"),
        ({"type": "PlaceRadarSearches", "searches": [{"radar": "Wurzburg", "hex": "0403"}]},
         "radar search phase", "S13.0"),
    ]  # fmt: skip
    for command, match, rule in bad:
        with pytest.raises(RuleError, match=match) as info:
            await games.handle(gid, f"x{version}{rule}", command)
        assert rule in info.value.rule
    assert await games.store.version(gid) == version
    await games.handle(gid, "s3", {"type": "EndPhase"})  # fighter movement over
    with pytest.raises(RuleError, match="only in hexes containing bomber counters"):
        await games.handle(
            gid,
            "x1",
            {"type": "PlaceRadarSearches", "searches": [{"radar": "Wurzburg", "hex": "0505"}]},
        )
    await games.handle(gid, "s4", {"type": "EndPhase"})
    with pytest.raises(RuleError, match="lies nowhere within") as info:
        await games.handle(gid, "x2", {"type": "SearchAI", "fighter": "F1", "hex": "0403"})
    assert "S19.0" in info.value.rule
    version = await games.store.version(gid)
    with pytest.raises(RuleError):
        await games.handle(gid, "x3", {"type": "SearchAI", "fighter": "F1", "hex": "9999"})
    assert await games.store.version(gid) == version


async def test_second_ai_search_in_a_phase_is_refused(games: Games) -> None:
    setup = setup_4b_phase_by_phase()
    setup["fighters"] = [{"id": "F1", "hex": "1006", "facing": 0, "ai_range": 2}]
    created = await create_bound(games, "nightfighter", setup, "ai2")
    gid = created.game_id
    await games.handle(gid, "t2", {"type": "MoveBombers"})
    await games.handle(gid, "t3", {"type": "EndPhase"})
    await games.handle(gid, "t4", {"type": "EndPhase"})
    await games.handle(gid, "a1", {"type": "SearchAI", "fighter": "F1", "hex": "1003"})
    version = await games.store.version(gid)
    with pytest.raises(RuleError, match="already made its AI search") as info:
        await games.handle(gid, "a2", {"type": "SearchAI", "fighter": "F1", "hex": "1003"})
    assert "S19.0" in info.value.rule
    assert await games.store.version(gid) == version


async def test_bad_setup_is_refused(games: Games) -> None:
    with pytest.raises(InvalidSetup):
        await games.create("nightfighter", {"bombers": [{"id": "B", "turn": 0}]})
    with pytest.raises(InvalidSetup, match="at most three"):
        await games.create("nightfighter", {"bombers": [{"id": str(i), "turn": 1}
                                                        for i in range(4)]})  # fmt: skip


async def test_server_dice_game_audits_and_hides_location_rolls(games: Games) -> None:
    """Six turns with server dice: searches every phase; the audit passes; the player sees
    no rolled cell or hex of a failed location and no face of a hidden roll."""
    setup = setup_4b_phase_by_phase()
    setup["fighters"] = [{"id": "F1", "hex": "1012", "facing": 0, "ai_range": 2}]
    created = await create_bound(games, "nightfighter", setup, "server")
    gid = created.game_id
    n = 0

    async def send(command: dict[str, object]) -> bool:
        nonlocal n
        n += 1
        try:
            await games.handle(gid, f"c{n}", command)
        except RuleError:
            return False
        return True

    async def hidden_rolled() -> bool:
        codec = codec_for(RULESET)
        for env in await games.store.read(gid):
            if env.type == "DiceRolled":
                event = codec.decode(env.type, env.version, env.payload)
                if isinstance(event, DiceRolled) and event.hidden:
                    return True
        return False

    # Server dice differ every run: play at least six turns, and on until a hidden roll
    # has happened (bounded), so the redaction check below always has something to check.
    for turn in range(20):
        if turn >= 6 and await hidden_rolled():
            break
        await send({"type": "EndPhase"})
        await send({"type": "MoveBombers"})
        await send({"type": "EndPhase"})
        _, game = await games.load(gid)
        on_map = sorted(c.hex for c in game.state.counters if c.status == "on_map")
        for hex_label in on_map:
            if await send({"type": "PlaceRadarSearches",
                           "searches": [{"radar": "Wurzburg", "hex": hex_label}]}):  # fmt: skip
                break
        await send({"type": "EndPhase"})
        _, game = await games.load(gid)
        for c in sorted(game.state.counters, key=lambda c: c.id):
            if c.status == "on_map" and await send(
                {"type": "SearchAI", "fighter": "F1", "hex": c.hex}
            ):
                break
        for _ in range(3):
            await send({"type": "EndPhase"})
    envelopes = await games.store.read(gid)
    report = audit(envelopes)
    assert report.ok, report.failure
    assert report.server_rolls > 5
    codec = codec_for(RULESET)
    hidden = 0
    for env in envelopes:
        if not codec.knows(env.type):
            continue
        event = codec.decode(env.type, env.version, env.payload)
        shown = RULESET.redact(event, Role.PLAYER)
        if isinstance(event, DiceRolled) and event.hidden:
            hidden += 1
            assert shown is not None and shown.faces == ()  # type: ignore[attr-defined]
        data = msgspec.to_builtins(shown) if shown is not None else {}
        for field in RULESET.secret_fields:
            assert field not in data
    assert hidden > 0
    _, game = await games.load(gid)
    player_view = RULESET.view(game.state, Role.PLAYER)
    assert all(c["status"] != "pending" for c in player_view["counters"])
