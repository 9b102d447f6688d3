"""Issue #30 item 4 for Nightfighter: a failed localisation's rolled cell (LocationRolled,
withheld, and LocalisationFailed's candidates) stays sealed through a mid-game reveal.

The game follows the EXAMPLE OF PLAY (004_c3eb2ad371d7bb6a.txt, scenario 4B) with its own
dice, up to its first failed localisation (turn 3's SearchAI), then the owner reveals."""

from __future__ import annotations

import json
from typing import Any

from tests.rulesets.nightfighter.setups import setup_4b_phase_by_phase
from tests.support.gateway_games import create_bound
from umpire.engine.game import codec_for
from umpire.engine.replay import seen_by, state_at
from umpire.engine.roles import Role
from umpire.engine.rulesets.nightfighter import RULESET
from umpire.server.game_feed import GameFeed
from umpire.server.games import Games

LIMITED = (Role.PLAYER, Role.SPECTATOR)


async def _play_to_a_failed_localisation(games: Games) -> str:
    created = await create_bound(
        games, "nightfighter", setup_4b_phase_by_phase(), "4B", opponent_manual_dice=True
    )
    gid = created.game_id
    n = 0

    async def do(kind: str, rolls: list[list[int]] | None = None, **fields: Any) -> None:
        nonlocal n
        n += 1
        await games.handle(gid, f"c{n}", {"type": kind, **fields}, manual_dice=rolls or [])

    async def start_turn(path: list[str]) -> None:
        if n:  # the game opens at turn 1's bomber movement: no combat phase to end
            await do("EndPhase")
        await do("MoveBombers", accelerate=[])
        await do("MoveFighter", fighter="F1", path=path, facing=0)
        await do("EndPhase")

    await start_turn(["1019", "1018", "1017"])
    await do("PlaceRadarSearches", [[2]], searches=[{"radar": "Wurzburg", "hex": "0403"}])
    for _ in range(4):
        await do("EndPhase")
    await start_turn(["1016", "1015", "1014", "1013"])
    await do("PlaceRadarSearches", [[4]], searches=[{"radar": "Wurzburg", "hex": "1606"}])
    for _ in range(4):
        await do("EndPhase")
    await start_turn(["1012", "1011", "1010"])
    await do("PlaceRadarSearches", [[5], [3]], searches=[{"radar": "Wurzburg", "hex": "0306"}])
    await do("EndPhase")
    await do("SearchAI", [[2, 5]], fighter="F1", hex="1009")
    return gid


async def _channels(games: Games, gid: str) -> dict[str, Any]:
    envelopes = await games.store.read(gid)
    events = [codec_for(RULESET).decode(e.type, e.version, e.payload) for e in envelopes]
    feed = GameFeed(games.store, gid, RULESET)
    await feed.refresh()
    seen: dict[str, Any] = {}
    for role in LIMITED:
        frames = [json.loads(f) for f in await feed.frames(1, role)]
        seen[f"frames/{role}"] = {f["seq"]: f["payload"] for f in frames if "seq" in f}
        seen[f"events/{role}"] = [
            seen_by(RULESET, events, seq, role) for seq in range(1, len(events) + 1)
        ]
        seen[f"states/{role}"] = [
            state_at(envelopes, seq, role).state for seq in range(1, len(envelopes) + 1)
        ]
    return seen


async def test_a_failed_localisation_stays_sealed_through_a_mid_game_reveal(
    games: Games,
) -> None:
    gid = await _play_to_a_failed_localisation(games)
    envelopes = await games.store.read(gid)
    sealed = [e.seq for e in envelopes if e.committed and e.type != "DiceRolled"]
    assert {envelopes[s - 1].type for s in sealed} >= {
        "nightfighter.LocationRolled", "nightfighter.LocalisationFailed",
    }  # fmt: skip
    before = await _channels(games, gid)
    await games.reveal(gid)
    after = await _channels(games, gid)
    for role in LIMITED:
        for seq in sealed:
            assert after[f"frames/{role}"].get(seq) == before[f"frames/{role}"].get(seq)
            assert after[f"events/{role}"][seq - 1] == before[f"events/{role}"][seq - 1]
        head = len(envelopes)  # the state at every seq before the reveal is unchanged
        assert after[f"states/{role}"][:head] == before[f"states/{role}"]
        # the withheld event is still withheld from the role
        rolled = next(s for s in sealed if envelopes[s - 1].type.endswith("LocationRolled"))
        assert after[f"events/{role}"][rolled - 1] is None
