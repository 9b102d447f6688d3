"""Small scenarios for the Conflict of Heroes solo tests (seed 003_368c69a730e6e14a.txt).

The map is the default 12 x 10 grid (odd columns down). Most tests put counters in one
column, where the distance is the row difference and facing 0 (N) / 3 (S) points along it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import msgspec
from msgspec import Struct

from umpire.engine.dice import ManualDice
from umpire.engine.handling import parse_command
from umpire.engine.rulesets.conflict_of_heroes import RULESET
from umpire.engine.rulesets.conflict_of_heroes.scenario import (
    CardSpec,
    MissionEnd,
    MissionInstruction,
    MissionSpec,
    ObjectiveSpec,
    TerrainSpec,
    UnitSpec,
)
from umpire.engine.rulesets.conflict_of_heroes.setup import Setup, initial_state
from umpire.engine.rulesets.conflict_of_heroes.state import State
from umpire.engine.rulesets.conflict_of_heroes.terms import CardColour, Side, Turn
from umpire.events.types import DiceRolled

E = TypeVar("E", bound=Struct)
BLUE, GREEN = CardColour.BLUE, CardColour.GREEN


def ai(uid: str, hex: str, **kw: Any) -> UnitSpec:
    """An AI counter facing S (3) with plain values (FP 5, DV 12/10, range 5, long 10)."""
    values: dict[str, Any] = dict(
        facing=3, firepower=5, front_dv=12, flank_dv=10, range=5, long_range=10
    )
    values.update(kw)
    return UnitSpec(id=uid, side=Side.AI, hex=hex, **values)


def unit(uid: str, hex: str, **kw: Any) -> UnitSpec:
    """A player Unit facing N (0) with plain values (FP 5, DV 12/10, range 5, long 10)."""
    values: dict[str, Any] = dict(
        facing=0, firepower=5, front_dv=12, flank_dv=10, range=5, long_range=10
    )
    values.update(kw)
    return UnitSpec(id=uid, side=Side.PLAYER, hex=hex, **values)


def card(
    number: int,
    colour: CardColour | str = BLUE,
    spent: int = 4,
    *priority: str,
    tactical: Sequence[str] = (),
    **kw: Any,
) -> CardSpec:
    """An Order Card."""
    return CardSpec(
        number=number,
        colour=CardColour(colour),
        ap_spent_number=spent,
        priority_orders=tuple(priority),
        tactical_orders=tuple(tactical),
        **kw,
    )


def state(
    units: Sequence[UnitSpec],
    deck: Sequence[CardSpec] = (),
    *,
    terrain: Sequence[TerrainSpec] = (),
    objectives: Sequence[ObjectiveSpec] = (),
    counteractions: Sequence[MissionInstruction] = (),
    mission_orders: Sequence[MissionInstruction] = (),
    end: MissionEnd | None = None,
    turn: Turn = Turn.PLAYER,
    **params: Any,
) -> State:
    """A game state from a small scenario (default deck: one Blue card, number 1)."""
    setup = Setup(
        deck=tuple(deck) or (card(1),),
        units=tuple(units),
        terrain=tuple(terrain),
        objectives=tuple(objectives),
        mission=MissionSpec(
            counteractions=tuple(counteractions),
            mission_orders=tuple(mission_orders),
            end=end or MissionEnd(),
        ),
        **params,
    )
    s = initial_state(msgspec.convert(msgspec.to_builtins(setup), Setup))
    if turn is not Turn.PLAYER:
        s = msgspec.structs.replace(s, turn=turn)
    return s


def run(
    s: State, command: dict[str, Any], faces: Sequence[Sequence[int]] = ()
) -> tuple[list[Struct], State]:
    """Decide `command` with manual dice `faces` (all must be used) and fold the events."""
    dice = ManualDice(faces, next_roll=0)
    events = list(RULESET.decide(s, parse_command(RULESET, command), dice))
    dice.check_all_used()
    for e in events:
        s = RULESET.evolve(s, e)
    return events, s


def ai_turn(s: State, draw: int, *faces: Sequence[int]) -> tuple[list[Struct], State]:
    """An AI turn drawing the `draw`-th remaining card, then rolling `faces`."""
    s = msgspec.structs.replace(s, turn=Turn.AI)
    return run(s, {"type": "TakeAiTurn"}, [[draw], *faces])


def one(events: Sequence[Struct], kind: type[E]) -> E:
    """The only event of a type."""
    found = [e for e in events if isinstance(e, kind)]
    assert len(found) == 1, f"expected one {kind.__name__}, found {found}"
    return found[0]


def every(events: Sequence[Struct], kind: type[E]) -> list[E]:
    """All events of a type, in order."""
    return [e for e in events if isinstance(e, kind)]


def rolls(events: Sequence[Struct]) -> list[DiceRolled]:
    """The dice events."""
    return [e for e in events if isinstance(e, DiceRolled)]


def reasons(candidates: Sequence[Any]) -> dict[str, str]:
    """option -> reason of a decision's candidates."""
    return {c.option: c.reason for c in candidates}
