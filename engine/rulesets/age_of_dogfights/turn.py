"""The working context of one command: the kit's Turn (engine/kit/turn.py) for the bots.

Bots fly one after another, so each later decision must see the earlier ones: every event
is folded into `state` as it is emitted, and every roll is logged before the decision that
reads it (the engine checks that decide returns each DiceRolled, in order).
"""

from __future__ import annotations

from collections.abc import Sequence

from umpire.engine.decision import Candidate, chosen_and_rejected
from umpire.engine.dice import Dice, d6
from umpire.engine.kit.seed_table import SeedTable
from umpire.engine.kit.turn import Turn
from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.events import CardinalRuleApplied, ResponseRolled
from umpire.engine.rulesets.age_of_dogfights.evolve import evolve
from umpire.engine.rulesets.age_of_dogfights.state import State
from umpire.events.types import DiceRolled, Owner


class AgeOfDogfightsTurn(Turn[State]):
    """The kit's Turn (state, dice, events so far; emit, roll, cite) plus the seed's die
    tables and the cardinal rule."""

    def __init__(self, state: State, dice: Dice) -> None:
        super().__init__(state, dice, evolve=evolve, cite=c.cite)

    def d6(self, *, purpose: str, rule: str, owner: Owner = Owner.OPPONENT) -> DiceRolled:
        """Roll one standard die: the bots' (the opponent's) unless `owner` says whose."""
        return self.roll(d6(), purpose=purpose, rule=rule, owner=owner)

    def table(
        self,
        aircraft: str,
        table: SeedTable[str],
        *,
        modifier: int = 0,
        why_modifier: str = "",
        purpose: str,
        candidates: Sequence[Candidate] = (),
    ) -> str:
        """Roll a standard die on a seed table (with a modifier) and log the result."""
        rolled = self.d6(purpose=f"{aircraft}: {purpose}", rule=table.citation)
        modified = rolled.total + modifier
        result = table.row_for(modified).value
        # "rolled 4 -1 (cautious pilot) = 3", or "rolled 4" when nothing modifies it
        # (not "rolled 4 = 4").
        rolled_text = (
            f"rolled {rolled.total} {modifier:+d} ({why_modifier}) = {modified}"
            if modifier
            else f"rolled {rolled.total}"
        )
        self.emit(
            ResponseRolled(
                aircraft=aircraft,
                rule=table.row_for(modified).stated,
                dice=(rolled.roll,),
                candidates=(
                    *candidates,
                    *(
                        Candidate(
                            option=band.value,
                            chosen=band.value == result,
                            reason=rolled_text
                            if band.value == result
                            else f"needs {band.low}-{band.high}",
                        )
                        for band in table.bands
                    ),
                ),
                explanation=f"{purpose}: {rolled_text}: {result}",
                table=table.name,
                modified=modified,
                result=result,
            )
        )
        return result

    def cardinal(
        self,
        aircraft: str,
        situation: str,
        options: Sequence[tuple[str, str]],
        chosen: str,
        why: str,
    ) -> None:
        """Log the cardinal rule: an illogical result replaced by the best alternative."""
        self.emit(
            CardinalRuleApplied(
                aircraft=aircraft,
                rule=c.CARDINAL,
                candidates=chosen_and_rejected(list(options), chosen, why),
                explanation=f"{situation}: the rules would be illogical here; {chosen} "
                f"benefits the bot most ({why})",
                situation=situation,
                chosen=chosen,
            )
        )
