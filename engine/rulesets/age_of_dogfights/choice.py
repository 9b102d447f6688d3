"""Dice for equal choices.

001_989a2f850da69b66.txt Step II, priority 4: two or three targets of equal priority are
chosen by a standard die against their designation numbers (tables TWO_TARGETS and
THREE_TARGETS). General Rules: "In any situation when a bot has two or more equal choices
that are not covered by the rules, use a standard die": two, three or six options split
the die evenly; four or five options re-roll the faces above the count; more than six
options use one die with that many sides (custom dice; interpretation, see README).
"""

from __future__ import annotations

from collections.abc import Sequence

from umpire.engine.decision import Candidate
from umpire.engine.dice import custom
from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.events import EqualChoiceRolled
from umpire.engine.rulesets.age_of_dogfights.state import Plane
from umpire.engine.rulesets.age_of_dogfights.tables.seed_tables import THREE_TARGETS, TWO_TARGETS
from umpire.engine.rulesets.age_of_dogfights.turn import AgeOfDogfightsTurn

_RANK = {"lower": 0, "medium": 1, "higher": 2}


def equal_choice(
    turn: AgeOfDogfightsTurn,
    aircraft: str,
    question: str,
    options: Sequence[str],
    rule: str = c.EQUAL_CHOICE,
) -> int:
    """General Rules: pick one of `options` (in their given order) with a die; logs it."""
    n = len(options)
    if n == 0:
        raise ValueError("no options to choose from")
    if n == 1:
        return 0
    rolls: list[int] = []
    if n <= 6:
        while True:
            rolled = turn.d6(purpose=f"{aircraft}: {question}", rule=rule)
            rolls.append(rolled.roll)
            if n in (2, 3, 6):
                index = (rolled.total - 1) * n // 6
                break
            if rolled.total <= n or len(rolls) >= turn.state.model.max_rerolls:
                index = (rolled.total - 1) % n
                break
    else:
        rolled = turn.roll(custom(n), purpose=f"{aircraft}: {question}", rule=rule)
        rolls.append(rolled.roll)
        index = rolled.total - 1
    _log(turn, aircraft, question, options, index, rule, tuple(rolls))
    return index


def target_tie(turn: AgeOfDogfightsTurn, aircraft: str, targets: Sequence[Plane]) -> int:
    """Step II priority 4: choose among equal targets (given in designation order)."""
    if len(targets) not in (2, 3):
        return equal_choice(
            turn, aircraft, "equal-priority targets", [t.id for t in targets], rule=c.STEP_II_TIE
        )
    table = TWO_TARGETS if len(targets) == 2 else THREE_TARGETS
    rolled = turn.d6(purpose=f"{aircraft}: {table.name}", rule=table.citation)
    result = table.row_for(rolled.total).value
    index = _RANK[result] if len(targets) == 3 else (0 if result == "lower" else 1)
    _log(
        turn,
        aircraft,
        f"{table.name} ({result} designation number)",
        [f"{t.id} (#{t.number})" for t in targets],
        index,
        table.row_for(rolled.total).stated,
        (rolled.roll,),
    )
    return index


def _log(
    turn: AgeOfDogfightsTurn,
    aircraft: str,
    question: str,
    options: Sequence[str],
    index: int,
    rule: str,
    rolls: tuple[int, ...],
) -> None:
    turn.emit(
        EqualChoiceRolled(
            aircraft=aircraft,
            rule=rule,
            dice=rolls,
            candidates=tuple(
                Candidate(
                    option=o,
                    chosen=i == index,
                    reason="chosen by the die" if i == index else "not chosen by the die",
                )
                for i, o in enumerate(options)
            ),
            explanation=f"{question}: {len(options)} equal options; the die chose {options[index]}",
            question=question,
            chosen=options[index],
        )
    )
