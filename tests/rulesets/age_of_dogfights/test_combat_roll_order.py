"""001_989a2f850da69b66.txt Combat: "In each game round, first roll a standard die for each
bot fighter plane to determine whether to use a blue or green die ... Movement is then
determined using the following steps", and Step II reads "the number already rolled on the
blue/green die": every bot fighter's blue/green roll and the die it chose come before any
bot's Steps I-III."""

from __future__ import annotations

from tests.rulesets.age_of_dogfights.setups import combat_state
from umpire.engine.dice import ServerDice
from umpire.engine.rulesets.age_of_dogfights import RULESET
from umpire.engine.rulesets.age_of_dogfights.commands import FlyBots
from umpire.engine.rulesets.age_of_dogfights.events import DieChosen, MovementRolled
from umpire.events.types import DiceRolled

PILOTS = {"skill": "average", "aggressiveness": "average"}


def test_every_fighters_dice_before_any_bots_steps() -> None:
    """B1 and B2 (Albatros D.V, average pilots) far from P1 on the east side: the round
    rolls B1's blue/green die and its movement die, then B2's, and only then B1's Steps
    (its Approach's 1-in-6 roll, Step III) and B2's. Whatever the faces, the dice of the
    Combat paragraph come first. Before: B2's blue/green roll came after B1's steps."""
    state = combat_state(
        {"P1": ("se5a", (1, 2), "E", 3)},
        {"B1": ("albatros_dv", (16, 4), "W", 3), "B2": ("albatros_dv", (16, 10), "W", 3)},
        B1=PILOTS,
        B2=PILOTS,
    )
    events = list(RULESET.decide(state, FlyBots(), ServerDice(bytes(32), "test", 0)))
    rolls = [e.purpose for e in events if isinstance(e, DiceRolled)]
    combat = [i for i, p in enumerate(rolls) if "blue or green" in p or "(movement)" in p]
    assert [rolls[i].split(":")[0] for i in combat] == ["B1", "B1", "B2", "B2"]
    assert combat == list(range(4)), rolls  # nothing of the Steps before them
    dice = [e for e in events if isinstance(e, DieChosen | MovementRolled)]
    assert [e.aircraft for e in dice] == ["B1", "B1", "B2", "B2"]
    assert len(rolls) > 4  # the Steps rolled after them
