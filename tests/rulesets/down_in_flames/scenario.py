"""Building dogfights and running commands on them, for the down_in_flames tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.dice import ManualDice
from umpire.engine.rulesets.down_in_flames import RULESET
from umpire.engine.rulesets.down_in_flames.setup import Setup
from umpire.engine.rulesets.down_in_flames.state import State


def entry(
    ident: str, aircraft: str, side: str, element: str, station: str, **kw: Any
) -> dict[str, Any]:
    """One setup entry as plain data."""
    return {"id": ident, "aircraft": aircraft, "side": side, "element": element,
            "station": station, **kw}  # fmt: skip


def make_state(entries: list[dict[str, Any]], **options: Any) -> State:
    """The initial state of a setup given as plain data."""
    setup = msgspec.convert({"aircraft": entries, **options}, Setup)
    return RULESET.initial_state(setup)


def duel(
    attacker: str = "Spitfire", target: str = "Bf 109", altitude: int = 5, **options: Any
) -> State:
    """Leader `a1` (side A, element A) against Leader `b1` (side B, element B)."""
    return make_state(
        [
            entry("a1", attacker, "A", "A", "leader", hand=6),
            entry("b1", target, "B", "B", "leader", hand=6),
        ],
        starting_altitude=altitude,
        **options,
    )


def command(data: dict[str, Any]) -> Struct:
    """A typed command from wire data."""
    kind = data["type"]
    target = next(t for t in RULESET.command_types if t.__struct_config__.tag == kind)
    return msgspec.convert(data, target)


def run(
    state: State, data: dict[str, Any], faces: Sequence[Sequence[int]] = ()
) -> tuple[State, list[Struct]]:
    """Decide `data` with the given dice faces (all must be used) and fold the events."""
    dice = ManualDice(faces, next_roll=0)
    events = list(RULESET.decide(state, command(data), dice))
    dice.check_all_used()
    for event in events:
        state = RULESET.evolve(state, event)
    return state, events


def of_type(events: list[Struct], kind: type[Struct]) -> list[Any]:
    """The events of one type."""
    return [e for e in events if isinstance(e, kind)]


def engaged(state: State, attacker: str, target: str, position: str) -> State:
    """`attacker` at `position` on `target`, during `attacker`'s side's turn."""
    side = state.aircraft[attacker].side.value
    if state.active_side is None:
        state, _ = run(state, {"type": "BeginTurn", "side": side})
    state, _ = run(
        state, {"type": "SetPosition", "attacker": attacker, "target": target, "position": position}
    )
    return state


def next_turn(state: State, side: str) -> State:
    """End the current turn (if any) and begin `side`'s."""
    if state.active_side is not None:
        state, _ = run(state, {"type": "EndTurn", "side": state.active_side.value})
    state, _ = run(state, {"type": "BeginTurn", "side": side})
    return state
