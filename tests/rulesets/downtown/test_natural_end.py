"""The default Downtown scenario played to its natural end through `games` (a real Valkey):
random legal choices from `actions` only, fields drawn from their schemas, never EndGame.
The raid ends by its scenario data (Raid end: the last US flight leaves, or the turn limit)
with GameEnded and the final reveal in the same batch; the DRV flights moved by themselves
(no accepted command named a DRV flight's hex); the log audits."""

from __future__ import annotations

import random
from typing import Any

from tests.support.gateway_games import create_bound
from umpire.engine.actions import legal_actions
from umpire.engine.audit import audit
from umpire.engine.game import codec_for
from umpire.engine.roles import Role
from umpire.engine.rulesets.downtown import RULESET
from umpire.engine.rulesets.downtown import events as ev
from umpire.events.errors import UmpireError
from umpire.events.types import CommandRecorded, GameEnded, SeedRevealed
from umpire.server.games import Games
from umpire.testing.support.schema_sampler import sample

LIMIT = 1500
SKIPPED = ("RollDice", "EndGame", "TakeBack")


def _hexes(command: dict[str, Any]) -> set[str]:
    """Every hex a command names (its own `hex` and its reported flights')."""
    found = {command["hex"]} if "hex" in command else set()
    if command["type"] == "ReportUsFlights":
        found |= {f["hex"] for f in command["flights"]}
    return found


async def test_default_scenario_plays_to_its_natural_end(games: Games) -> None:
    default = RULESET.default_scenario
    created = await create_bound(games, "downtown", None, "natural-end", scenario=default)
    gid = created.game_id
    rng = random.Random(28)
    sent = refused = 0
    while sent < LIMIT:
        _, game = await games.load(gid)
        if game.meta.ended:
            break
        listed = legal_actions(RULESET, game.state, Role.PLAYER, ended=False, game=game)
        own = [a for a in listed if a.type not in SKIPPED]
        assert own, "the game is running: the player must have something to send"
        command = sample(rng.choice(own).schema, rng)
        sent += 1
        try:
            await games.handle(gid, f"c{sent}", command)
        except UmpireError:
            refused += 1
    envelopes = await games.store.read(gid)
    codec = codec_for(RULESET)
    decoded = [codec.decode(e.type, e.version, e.payload, seq=e.seq) for e in envelopes]

    # Ended by its rules, with the final reveal last in the same batch; no EndGame sent.
    ended = [i for i, e in enumerate(decoded) if isinstance(e, GameEnded)]
    assert len(ended) == 1, f"no natural end after {sent} commands ({refused} refused)"
    end = decoded[ended[0]]
    assert end.rule.startswith(f"{RULESET.seed} Raid end") and "the raid is over" in end.result
    assert isinstance(decoded[-1], SeedRevealed) and ended[0] == len(decoded) - 2
    assert envelopes[-1].command_id == envelopes[ended[0]].command_id
    recorded = [e for e in decoded if isinstance(e, CommandRecorded)]
    assert all(c.command_type != "EndGame" for c in recorded)

    # The DRV flights moved on umpire's map, and no accepted command named their hexes.
    moves = [e for e in decoded if isinstance(e, ev.DrvFlightMoved) and e.path]
    assert moves, "no DRV flight moved"
    drv_ids = {e.flight_id for e in decoded if isinstance(e, ev.DrvFlightGenerated)}
    for c in recorded:
        assert c.command.get("flight_id") not in drv_ids or not _hexes(c.command), c
        if c.command_type == "ReportUsFlights":
            assert not {f["id"] for f in c.command["flights"]} & drv_ids, c
    assert {m.flight_id for m in moves} <= drv_ids
    assert refused == 0, "a listed command was refused"

    report = audit(envelopes)
    assert report.ok, report.failure
    assert report.seed_revealed and report.rolls_verified == report.server_rolls
