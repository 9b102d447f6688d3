"""Combat: the blue or green die, and the movement it gives.

001_989a2f850da69b66.txt Combat: "roll a standard die for each bot fighter plane to
determine whether to use a blue or green die ... (if only one or two safe usages of full
throttle are left, deduct 1 from the die roll): 1-4 = blue die | 5-6 = green die. If the
full throttle slider is at '?' and the green die is chosen, roll the standard die once
again to confirm: 1-3 = no (use the blue die instead) | 4-6 = yes (green)".
Base game (placeholder, model.py): movement steps = basic speed + the rolled face's
modifier on the chosen die; a green die uses one safe usage of full throttle.
"""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.dice import custom
from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.events import DieChosen, MovementRolled
from umpire.engine.rulesets.age_of_dogfights.state import Plane
from umpire.engine.rulesets.age_of_dogfights.tables.seed_tables import (
    DIE_CHOICE,
    FEW_SAFE_THROTTLE_MODIFIER,
    FEW_SAFE_THROTTLE_USES,
    RETREAT_THROTTLE,
    THROTTLE_CONFIRM,
)
from umpire.engine.rulesets.age_of_dogfights.terms import DieColour
from umpire.engine.rulesets.age_of_dogfights.turn import AgeOfDogfightsTurn
from umpire.events.plurals import counted


def _chosen(
    turn: AgeOfDogfightsTurn, bot: Plane, colour: DieColour, rule: str, why: str
) -> DieColour:
    left = bot.safe_throttle_left
    if colour is DieColour.GREEN and left > 0:
        left -= 1
    turn.emit(
        DieChosen(
            aircraft=bot.id,
            rule=rule,
            candidates=(
                Candidate(option="blue", chosen=colour is DieColour.BLUE, reason=why),
                Candidate(option="green", chosen=colour is DieColour.GREEN, reason=why),
            ),
            explanation=f"{bot.id} uses the {colour.value} die: {why}",
            colour=colour,
            safe_throttle_left=left,
        )
    )
    return colour


def choose_die(turn: AgeOfDogfightsTurn, bot: Plane) -> DieColour:
    """Combat: a bot fighter's blue-or-green roll, with the '?' confirmation."""
    if not bot.full_throttle_available:
        return _chosen(turn, bot, DieColour.BLUE, c.COMBAT_DIE, "full throttle is not available")
    few = bot.safe_throttle_left in FEW_SAFE_THROTTLE_USES
    result = turn.table(
        bot.id,
        DIE_CHOICE,
        modifier=FEW_SAFE_THROTTLE_MODIFIER if few else 0,
        why_modifier=f"{counted(bot.safe_throttle_left, 'safe usage')} of full throttle left",
        purpose="blue or green die",
    )
    if result == "blue":
        return _chosen(turn, bot, DieColour.BLUE, DIE_CHOICE.citation, "the roll chose blue")
    if bot.safe_throttle_left > 0:
        return _chosen(turn, bot, DieColour.GREEN, DIE_CHOICE.citation, "the roll chose green")
    confirm = turn.table(bot.id, THROTTLE_CONFIRM, purpose="confirm full throttle at '?'")
    return _chosen(
        turn,
        bot,
        DieColour(confirm),
        THROTTLE_CONFIRM.citation,
        f"slider at '?': confirmation {confirm}",
    )


def mission_die(turn: AgeOfDogfightsTurn, bot: Plane) -> DieColour:
    """A mission aircraft (not a fighter) takes the blue die (interpretation: Combat's roll
    is for fighters only)."""
    return _chosen(turn, bot, DieColour.BLUE, c.COMBAT_DIE, "not a fighter: cruises on blue")


def retreat_die(turn: AgeOfDogfightsTurn, bot: Plane) -> DieColour:
    """General Rules: a retreating bot uses full throttle if available; at '?' a die
    decides (1-5 = blue)."""
    if not bot.full_throttle_available:
        return _chosen(turn, bot, DieColour.BLUE, c.RETREAT_PATH, "full throttle not available")
    if bot.safe_throttle_left > 0:
        return _chosen(turn, bot, DieColour.GREEN, c.RETREAT_PATH, "retreats at full throttle")
    result = turn.table(bot.id, RETREAT_THROTTLE, purpose="retreat at full throttle '?'")
    return _chosen(turn, bot, DieColour(result), RETREAT_THROTTLE.citation, f"at '?': {result}")


def roll_movement(turn: AgeOfDogfightsTurn, bot: Plane, colour: DieColour) -> int:
    """Roll the chosen die and return the movement steps (placeholder model)."""
    faces = (
        turn.state.model.blue_faces if colour is DieColour.BLUE else turn.state.model.green_faces
    )
    rolled = turn.roll(
        custom(6, labels=(colour.value,)),
        purpose=f"{bot.id}: {colour.value} die (movement)",
        rule=c.COMBAT,
    )
    speed = turn.state.kind_of(bot).basic_speed
    modifier = faces[rolled.total - 1]
    steps = max(1, speed + modifier)
    turn.emit(
        MovementRolled(
            aircraft=bot.id,
            rule=f"{c.COMBAT}; {c.BASE_GAME}: steps = basic speed + die face",
            dice=(rolled.roll,),
            explanation=f"{colour.value} die face {rolled.total} ({modifier:+d}) with basic "
            f"speed {speed}: {steps} movement steps",
            colour=colour,
            face=rolled.total,
            steps=steps,
        )
    )
    return steps
