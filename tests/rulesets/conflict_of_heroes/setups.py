"""The Conflict of Heroes tests' set-ups (seed 003_368c69a730e6e14a.txt), one module: small
scenarios, random commands and the driver of gateway-level tests.

The map is the default 12 x 10 grid (odd columns down). Most tests put counters in one
column, where the distance is the row difference and facing 0 (N) / 3 (S) points along it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
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
from umpire.engine.rulesets.conflict_of_heroes.terms import CardColour, Side, WhoseTurn
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
    turn: WhoseTurn = WhoseTurn.PLAYER,
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
    if turn is not WhoseTurn.PLAYER:
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
    s = msgspec.structs.replace(s, turn=WhoseTurn.AI)
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


def random_command(rng: random.Random, s: State) -> dict[str, Any]:
    units = [u for u in s.units if not u.destroyed]
    mine = [u.id for u in units if u.side is Side.PLAYER] or ["P-RIFLE-1"]
    pick = rng.random()
    if pick < 0.45:
        return {"type": "TakeAiTurn"}
    if pick < 0.6:
        return {
            "type": "UnitAction",
            "units": rng.sample(mine, rng.randint(1, len(mine))),
            "action": rng.choice(["fire", "move", "rally"]),
            "ap": rng.randint(1, 5),
            "caps": rng.randint(0, 1),
        }
    if pick < 0.68:
        return {
            "type": "CommandAction",
            "units": [rng.choice(mine)],
            "action": "fire",
            "caps": rng.randint(1, 2),
        }
    if pick < 0.75:
        return {"type": "Stall", "unit": rng.choice(["", *mine])}
    if pick < 0.88:
        return {"type": "Pass"}
    if pick < 0.92 and units:
        return {"type": "ReportHit", "unit": rng.choice(units).id, "hit": rng.random() < 0.5}
    if pick < 0.95 and units:
        return {"type": "ReportDestroyed", "unit": rng.choice(units).id}
    u = rng.choice(units) if units else None
    if u is None:
        return {"type": "Pass"}
    return {
        "type": "ReportPosition",
        "unit": u.id,
        "facing": rng.randint(0, 5),
        "hex": f"{rng.randint(1, 12):02d}{rng.randint(1, 10):02d}",
    }


def driver() -> tuple[dict[str, Any], Callable[[Any, random.Random], list[dict[str, Any]]]]:
    """(setup, propose) for gateway-level tests: the default set-up, a random command a step."""
    return {}, lambda state, rng: [random_command(rng, state)]
