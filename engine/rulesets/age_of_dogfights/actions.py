"""The commands the player may send now (engine/actions.py): the setup rolls, then rounds.

Seed 001_989a2f850da69b66.txt. Before combat only the Game Setup rolls; in combat the
bots fly a round (Combat) while any is left, and the player reports their own aircraft
(Introduction: the player moves them by the base game) and base-game results on bots
(General Rules). Aircraft are narrowed to those still in the Combat Zone, positions to
the board, levels to each aircraft's service ceiling (Game Setup).
"""

from __future__ import annotations

from umpire.engine.actions import Action, as_next, but_not, offer, offer_each, one_of
from umpire.engine.roles import Role
from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.commands import (
    FlyBots,
    ReportAircraft,
    ReportBotDamage,
    RollSetup,
    changes_nothing,
    restated,
)
from umpire.engine.rulesets.age_of_dogfights.state import Phase, State
from umpire.engine.rulesets.age_of_dogfights.terms import Damage


def actions(state: State, role: Role) -> list[Action]:
    """The setup rolls, or this round's commands."""
    if state.phase is Phase.SETUP:
        text = "Roll pilot skills, aggressiveness, altitudes"
        return [as_next(offer(RollSetup, c.GAME_SETUP, text))]
    out: list[Action] = []
    bots = state.bots()
    if bots:
        # Combat: each round the bots move first, then the players (README, order of play).
        out.append(as_next(offer(FlyBots, c.COMBAT, "Fly one game round for every bot")))
        # Each bot with the results that would change it (issue 41 item 8): jammed guns
        # are not reported again on a bot whose guns are jammed.
        groups: dict[tuple[Damage, ...], list[str]] = {}
        for b in bots:
            kinds = tuple(d for d in Damage if not changes_nothing(b, d))
            groups.setdefault(kinds, []).append(b.id)
        results = [
            {"aircraft": one_of(ids)} if len(kinds) == len(Damage)
            else {"aircraft": one_of(ids), "damage": one_of(kinds)}
            for kinds, ids in groups.items()
        ]  # fmt: skip
        text = "Report a base-game result on a bot"
        out.append(offer_each(ReportBotDamage, c.GENERAL, text, results))
    width, height = state.model.width, state.model.height
    position = {
        "prefixItems": [
            {"type": "integer", "minimum": 0, "maximum": width - 1},
            {"type": "integer", "minimum": 0, "maximum": height - 1},
        ]
    }
    reports = [
        {
            "aircraft": one_of([p.id]),
            "position": position,
            "level": {"maximum": state.ceiling(p)},
        }
        for p in state.players()
    ]
    if reports:
        text = "Report your aircraft after its move and the base game's results"
        # Not the report of an aircraft as umpire holds it: it changes nothing (issue 41).
        reported = offer_each(ReportAircraft, c.INTRODUCTION, text, reports)
        out.append(but_not(reported, [restated(p) for p in state.players()]))
    return out
