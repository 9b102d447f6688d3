"""Game Setup rolls: pilot skill, aggressiveness and the bots' altitude stands.

001_989a2f850da69b66.txt Game Setup:
- pilot skill, a die for each fighter aircraft (bot and player): 1-2 rookie | 3-5 average
  | 6 ace (a skill fixed in the setup is kept and not rolled);
- aggressiveness, a die for each bot fighter: 1-2 cautious | 3-4 average | 5-6 aggressive;
- altitude: a die for each bot; with a service ceiling of L5 or higher a 4-6 puts it at its
  maximum height; on 1-3, or with a ceiling of L4 or lower, a second die gives the level
  (a result above the ceiling means the maximum allowed height).
"""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.events import (
    AggressivenessRolled,
    AltitudeRolled,
    SetupCompleted,
    SkillRolled,
)
from umpire.engine.rulesets.age_of_dogfights.state import Side
from umpire.engine.rulesets.age_of_dogfights.tables.seed_tables import (
    AGGRESSIVENESS,
    BOT_ALTITUDE_FIRST,
    PILOT_SKILL,
)
from umpire.engine.rulesets.age_of_dogfights.terms import Aggressiveness, Kind, Skill
from umpire.engine.rulesets.age_of_dogfights.turn import AgeOfDogfightsTurn
from umpire.events.types import Owner


def _bands(
    table_bands: tuple[tuple[int, int, str], ...], result: str, total: int
) -> tuple[Candidate, ...]:
    return tuple(
        Candidate(
            option=r,
            chosen=r == result,
            reason=f"rolled {total}" if r == result else f"needs {lo}-{hi}",
        )
        for lo, hi, r in table_bands
    )


def roll_setup(turn: AgeOfDogfightsTurn) -> None:
    """Roll everything Game Setup leaves to the dice, then start combat."""
    state = turn.state
    fighters = [
        p for p in (*state.players(), *state.bots()) if state.kind_of(p).kind is Kind.FIGHTER
    ]
    for plane in fighters:
        if plane.skill is not None:
            continue
        # Game Setup: "for both bot and player aircraft": a player aircraft's skill is the
        # player's own roll, a bot's the opponent's (ARCHITECTURE "Whose dice").
        owner = Owner.PLAYER if plane.side is Side.PLAYER else Owner.OPPONENT
        rolled = turn.d6(purpose=f"{plane.id}: pilot skill", rule=PILOT_SKILL.citation, owner=owner)
        skill = PILOT_SKILL.row_for(rolled.total).value
        turn.emit(
            SkillRolled(
                aircraft=plane.id,
                rule=PILOT_SKILL.row_for(rolled.total).stated,
                dice=(rolled.roll,),
                candidates=_bands(
                    tuple((b.low, b.high, b.value) for b in PILOT_SKILL.bands), skill, rolled.total
                ),
                explanation=f"{plane.id} pilot skill: rolled {rolled.total}, {skill}",
                skill=Skill(skill),
            )
        )
    for plane in state.bots():
        if state.kind_of(plane).kind is not Kind.FIGHTER or plane.aggressiveness is not None:
            continue
        rolled = turn.d6(purpose=f"{plane.id}: aggressiveness", rule=AGGRESSIVENESS.citation)
        aggr = AGGRESSIVENESS.row_for(rolled.total).value
        turn.emit(
            AggressivenessRolled(
                aircraft=plane.id,
                rule=AGGRESSIVENESS.row_for(rolled.total).stated,
                dice=(rolled.roll,),
                candidates=_bands(
                    tuple((b.low, b.high, b.value) for b in AGGRESSIVENESS.bands),
                    aggr,
                    rolled.total,
                ),
                explanation=f"{plane.id} aggressiveness: rolled {rolled.total}, {aggr}",
                aggressiveness=Aggressiveness(aggr),
            )
        )
    for plane in turn.state.bots():
        ceiling = turn.state.ceiling(plane)
        dice: list[int] = []
        notes: list[Candidate] = []
        level = 0
        if ceiling >= 5:
            first = turn.d6(purpose=f"{plane.id}: altitude stand", rule=c.SETUP_ALTITUDE)
            dice.append(first.roll)
            if BOT_ALTITUDE_FIRST.row_for(first.total).value == "maximum height":
                level = ceiling
                notes.append(
                    Candidate(
                        option=f"maximum height L{ceiling}",
                        chosen=True,
                        reason=f"ceiling L{ceiling} and rolled {first.total}",
                    )
                )
            else:
                notes.append(
                    Candidate(
                        option=f"maximum height L{ceiling}",
                        chosen=False,
                        reason=f"rolled {first.total}: roll again",
                    )
                )
        else:
            notes.append(
                Candidate(
                    option="maximum height",
                    chosen=False,
                    reason=f"ceiling L{ceiling} is L4 or lower: roll the level",
                )
            )
        if level == 0:
            second = turn.d6(purpose=f"{plane.id}: altitude level", rule=c.SETUP_ALTITUDE)
            dice.append(second.roll)
            level = min(second.total, ceiling)
            notes.append(
                Candidate(
                    option=f"L{level}",
                    chosen=True,
                    reason=f"rolled {second.total}"
                    + (f", above the ceiling: L{ceiling}" if second.total > ceiling else ""),
                )
            )
        turn.emit(
            AltitudeRolled(
                aircraft=plane.id,
                rule=c.SETUP_ALTITUDE,
                dice=tuple(dice),
                candidates=tuple(notes),
                explanation=f"{plane.id} starts at L{level}",
                level=level,
            )
        )
    turn.emit(SetupCompleted(rule=c.GAME_SETUP))
