"""A ruleset's default scenario played to its natural end through `Games` on a real store:
random legal choices from `actions` only (fields drawn from each action's schema,
testing/support/schema_sampler.py), seeded, never `EndGame`, `RollDice` or `TakeBack`. The
game must end by its own rules; the log must audit.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tests.support.gateway_games import create_bound
from umpire.engine import registry
from umpire.engine.actions import legal_actions
from umpire.engine.audit import AuditReport, audit
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.events.envelope import Envelope
from umpire.server.games import Games
from umpire.testing.support.schema_sampler import sample

SKIPPED = ("EndGame", "RollDice", "TakeBack")


@dataclass
class NaturalEnd:
    """What a played game did: commands accepted and refused, by type, and its log."""

    game_id: str
    accepted: int = 0
    refused: int = 0
    types: dict[str, int] = field(default_factory=dict)
    result: str = ""
    envelopes: list[Envelope] = field(default_factory=list)
    report: AuditReport | None = None


async def play_to_end(
    games: Games, name: str, seed: int, *, limit: int, avoid: tuple[str, ...] = ()
) -> NaturalEnd:
    """Play `name`'s default scenario by random listed actions until it ends (or `limit`
    commands were sent), then read its log and audit it. `avoid`: command types this
    player never picks (to reach another of the game's ends)."""
    ruleset = registry.get(name)
    created = await create_bound(
        games, name, None, f"natural-end-{seed}", scenario=ruleset.default_scenario
    )
    rng = random.Random(seed)
    played = NaturalEnd(created.game_id)
    for n in range(limit):
        _, game = await games.load(created.game_id)
        if game.meta.ended:
            played.result = game.meta.result
            break
        listed = legal_actions(ruleset, game.state, Role.PLAYER, ended=False, game=game)
        own = [a for a in listed if a.type not in SKIPPED and a.type not in avoid]
        assert own, f"nothing to do but {[a.type for a in listed]}"
        action = rng.choice(own)
        try:
            await games.handle(created.game_id, f"n{n}", sample(action.schema, rng))
        except RuleError:
            played.refused += 1
            continue
        played.accepted += 1
        played.types[action.type] = played.types.get(action.type, 0) + 1
    played.envelopes = await games.store.read(created.game_id, 1)
    played.report = audit(played.envelopes)
    return played
