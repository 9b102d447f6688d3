"""Pure-test helpers: build a state directly and run commands through decide/evolve."""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.dice import Dice, ManualDice
from umpire.engine.hexgrid import Hex
from umpire.engine.kit.fold import fold
from umpire.engine.rulesets.nightfighter.decide import DISPATCH, decide
from umpire.engine.rulesets.nightfighter.evolve import evolve, initial_state
from umpire.engine.rulesets.nightfighter.geometry import shifted
from umpire.engine.rulesets.nightfighter.setup import Setup
from umpire.engine.rulesets.nightfighter.state import Counter, State
from umpire.engine.rulesets.nightfighter.tables.localisation import LOW, MODERATE
from umpire.engine.rulesets.nightfighter.terms import Phase, Status, Track, Uncertainty


def make_setup(**fields: Any) -> Setup:
    base: dict[str, Any] = {
        "radars": [{"name": "W", "search_value": 1}],
        "fighters": [{"id": "F1", "hex": "0120", "facing": 0}],
        "pace": "every_phase",  # a rule's test stays in its phase (README "Pace")
    }
    base.update(fields)
    return msgspec.convert(base, Setup)


def counter(
    id_: str, hex_label: str, level: str = "moderate", bomber: str = "", **fields: Any
) -> Counter:
    lvl = Uncertainty(level)
    track = Track.BENEATH if lvl is Uncertainty.LOW else Track.ABSENT
    return Counter(
        id=id_,
        bomber=bomber or id_.split("-")[0],
        status=fields.pop("status", Status.ON_MAP),
        level=lvl,
        hex=hex_label,
        track=Track(fields.pop("track", track)),
        **fields,
    )


def make_state(
    setup: Setup, counters: list[Counter], phase: Phase, fighter: tuple[str, int] | None = None
) -> State:
    state = initial_state(setup)
    state = msgspec.structs.replace(state, turn=1, phase=phase, counters=tuple(counters))
    if fighter is not None:
        fighters = tuple(
            msgspec.structs.replace(f, hex=fighter[0], facing=fighter[1]) for f in state.fighters
        )
        state = msgspec.structs.replace(state, fighters=fighters)
    return state


def command(tag: str, /, **fields: Any) -> Struct:
    target = next(t for t in DISPATCH.command_types if t.__struct_config__.tag == tag)
    return msgspec.convert({"type": tag, **fields}, target)


def run(
    state: State, tag: str, rolls: list[list[int]] | Dice, /, **fields: Any
) -> tuple[State, list[Struct]]:
    """decide + evolve one command; manual dice must all be used."""
    dice = rolls if not isinstance(rolls, list) else ManualDice(rolls, next_roll=0)
    events = decide(state, command(tag, **fields), dice)
    if isinstance(dice, ManualDice):
        dice.check_all_used()
    return fold(evolve, state, events), list(events)


def named(events: list[Struct], name: str) -> Any:
    found = [e for e in events if type(e).__name__ == name]
    assert found, f"no {name} in {[type(e).__name__ for e in events]}"
    return found[-1]


def low_hex(setup: Setup, centre: str, label: str, heading: int = 3) -> str:
    cell = next(c for c in LOW.cells if c.label == label)
    return shifted(setup, Hex.parse(centre), cell.offset, heading).label


def moderate_hex(setup: Setup, centre: str, label: str, heading: int = 3) -> str:
    cell = next(c for c in MODERATE.cells if c.label == label)
    return shifted(setup, Hex.parse(centre), cell.offset, heading).label
