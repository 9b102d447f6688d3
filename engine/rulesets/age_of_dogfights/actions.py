"""The commands the player may send now (engine/actions.py): the setup rolls, then rounds.

Seed 001_989a2f850da69b66.txt. Before combat only the Game Setup rolls; in combat the
bots fly a round (Combat) while any is left, and the player reports their own aircraft
(Introduction: the player moves them by the base game) and base-game results on bots
(General Rules). Aircraft are narrowed to those still in the Combat Zone, positions to
the board, levels to each aircraft's service ceiling (Game Setup).
"""

from __future__ import annotations

from umpire.engine.actions import Action, offer, offer_each, one_of
from umpire.engine.roles import Role
from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.commands import (
    FlyBots,
    ReportAircraft,
    ReportBotDamage,
    RollSetup,
)
from umpire.engine.rulesets.age_of_dogfights.state import Phase, State


def actions(state: State, role: Role) -> list[Action]:
    """The setup rolls, or this round's commands."""
    if state.phase is Phase.SETUP:
        return [offer(RollSetup, c.GAME_SETUP, "Roll pilot skills, aggressiveness, altitudes")]
    out: list[Action] = []
    bots = [p.id for p in state.bots()]
    if bots:
        out.append(offer(FlyBots, c.COMBAT, "Fly one game round for every bot"))
        out.append(
            offer(
                ReportBotDamage,
                c.GENERAL,
                "Report a base-game result on a bot",
                aircraft=one_of(bots),
            )
        )
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
        out.append(offer_each(ReportAircraft, c.INTRODUCTION, text, reports))
    return out
