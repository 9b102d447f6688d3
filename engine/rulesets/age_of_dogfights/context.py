"""The working context of one command: the state as it evolves, the dice, and the events.

Bots fly one after another, so each later decision must see the earlier ones: every event
is folded into `state` as it is emitted, and every roll is logged before the decision that
reads it (the engine checks that decide returns each DiceRolled, in order).
"""

from __future__ import annotations

from collections.abc import Sequence

from msgspec import Struct

from engine.decision import Candidate
from engine.dice import Dice, DiceSpec, d6
from engine.rulesets.age_of_dogfights import citations as c
from engine.rulesets.age_of_dogfights.events import CardinalRuleApplied, ResponseRolled
from engine.rulesets.age_of_dogfights.evolve import evolve
from engine.rulesets.age_of_dogfights.state import State
from engine.rulesets.age_of_dogfights.tables.band import BandTable
from events.types import DiceRolled, Owner


class Context:
    """State, dice and the events emitted so far by one command."""

    def __init__(self, state: State, dice: Dice) -> None:
        self.state = state
        self.dice = dice
        self.events: list[Struct] = []

    def emit(self, event: Struct) -> None:
        """Append an event and fold it into the working state."""
        self.events.append(event)
        self.state = evolve(self.state, event)

    def roll(self, spec: DiceSpec, *, purpose: str, rule: str) -> DiceRolled:
        """Roll, log the DiceRolled event, and return it."""
        rolled = self.dice.roll(spec, purpose=purpose, rule=rule, owner=Owner.OPPONENT)
        self.emit(rolled)
        return rolled

    def d6(self, *, purpose: str, rule: str) -> DiceRolled:
        """Roll one standard die."""
        return self.roll(d6(), purpose=purpose, rule=rule)

    def table(
        self,
        aircraft: str,
        table: BandTable,
        *,
        modifier: int = 0,
        why_modifier: str = "",
        purpose: str,
        candidates: Sequence[Candidate] = (),
    ) -> str:
        """Roll a standard die on a seed table (with a modifier) and log the result."""
        rolled = self.d6(purpose=f"{aircraft}: {purpose}", rule=table.rule)
        modified = rolled.total + modifier
        result = table.lookup(modified)
        mod_text = f" {modifier:+d} ({why_modifier})" if modifier else ""
        self.emit(
            ResponseRolled(
                aircraft=aircraft,
                rule=table.row(modified),
                dice=(rolled.roll,),
                candidates=(
                    *candidates,
                    *(
                        Candidate(
                            option=band.result,
                            chosen=band.result == result,
                            reason=f"rolled {rolled.total}{mod_text} = {modified}"
                            if band.result == result
                            else f"needs {band.low}-{band.high}",
                        )
                        for band in table.bands
                    ),
                ),
                explanation=f"{purpose}: rolled {rolled.total}{mod_text} = {modified}: {result}",
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
                candidates=tuple(
                    Candidate(option=o, chosen=o == chosen, reason=why if o == chosen else r)
                    for o, r in options
                ),
                explanation=f"{situation}: the rules would be illogical here; {chosen} "
                f"benefits the bot most ({why})",
                situation=situation,
                chosen=chosen,
            )
        )
