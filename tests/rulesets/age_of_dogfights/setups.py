"""The Age of Dogfights tests' set-ups, one module: a combat-phase state with aircraft
wherever a test needs them, running procedures with manual dice, the scripted dogfight's
set-up and the driver of gateway-level tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.dice import ManualDice
from umpire.engine.rulesets.age_of_dogfights import RULESET, initial_state
from umpire.engine.rulesets.age_of_dogfights.setup import Setup
from umpire.engine.rulesets.age_of_dogfights.state import Phase, Plane, State
from umpire.engine.rulesets.age_of_dogfights.turn import AgeOfDogfightsTurn
from umpire.events.types import DiceRolled

SEED = "001_989a2f850da69b66.txt"

PlaneSpec = tuple[str, tuple[int, int], str, int]  # type, position, heading, level


def combat_state(
    players: dict[str, PlaneSpec],
    bots: dict[str, PlaneSpec],
    *,
    zones: Sequence[dict[str, Any]] = (),
    model: dict[str, Any] | None = None,
    aircraft_types: dict[str, Any] | None = None,
    **bot_fields: dict[str, Any],
) -> State:
    """A state in the combat phase with the aircraft placed as given.

    Aircraft are first placed legally on the west (players) and east (bots) edges, then
    moved where the test wants them. `bot_fields` maps an aircraft id to extra Plane fields.
    """
    setup: dict[str, Any] = {
        "players": [
            {"id": pid, "number": i + 1, "aircraft_type": spec[0], "position": [0, i],
             "heading": "E", "level": 1}
            for i, (pid, spec) in enumerate(players.items())
        ],
        "bots": [
            {"id": bid, "number": i + 1, "aircraft_type": spec[0],
             "position": [(model or {}).get("width", 18) - 1, i]}
            for i, (bid, spec) in enumerate(bots.items())
        ],
        "zones": list(zones),
    }  # fmt: skip
    if model:
        setup["model"] = model
    if aircraft_types:
        setup["aircraft_types"] = aircraft_types
    state = initial_state(msgspec.convert(setup, Setup))
    state = msgspec.structs.replace(state, phase=Phase.COMBAT)
    for ident, (_, position, heading, level) in {**players, **bots}.items():
        state = arrange(
            state, ident, position=position, heading=heading, level=level,
            **bot_fields.get(ident, {}),
        )  # fmt: skip
    return state


def arrange(state: State, ident: str, **fields: Any) -> State:
    """The state with one aircraft's fields changed."""
    if "position" in fields:
        fields["position"] = tuple(fields["position"])
    planes = tuple(
        msgspec.convert(
            {**msgspec.to_builtins(p), **msgspec.to_builtins(fields)}, Plane
        ) if p.id == ident else p
        for p in state.planes
    )  # fmt: skip
    return msgspec.structs.replace(state, planes=planes)


def run(
    state: State, procedure: Callable[[AgeOfDogfightsTurn], object], faces: Sequence[Sequence[int]]
) -> tuple[AgeOfDogfightsTurn, list[Struct]]:
    """Run a procedure with exactly these manual dice (all must be used)."""
    dice = ManualDice(faces, next_roll=0)
    ctx = AgeOfDogfightsTurn(state, dice)
    procedure(ctx)
    dice.check_all_used()
    return ctx, ctx.events


def decide(
    state: State, command: Struct, faces: Sequence[Sequence[int]]
) -> tuple[State, list[Struct]]:
    """RULESET.decide with exactly these manual dice, and the folded state after it."""
    dice = ManualDice(faces, next_roll=0)
    events = list(RULESET.decide(state, command, dice))
    dice.check_all_used()
    assert [e for e in events if isinstance(e, DiceRolled)] == dice.rolled
    for e in events:
        state = RULESET.evolve(state, e)
    return state, events


def of_type(events: Sequence[Struct], kind: type) -> list[Any]:
    """The events of one type, in order."""
    return [e for e in events if isinstance(e, kind)]


def run_until(
    state: State, procedure: Callable[[AgeOfDogfightsTurn], object], faces: Sequence[Sequence[int]]
) -> tuple[list[Struct], str]:
    """Run with these dice until they run out: the events so far and the purpose of the
    roll the rules asked for next ('' when the procedure finished)."""
    from umpire.engine.errors import ManualDiceError

    dice = _Asking(faces, next_roll=0)
    ctx = AgeOfDogfightsTurn(state, dice)
    try:
        procedure(ctx)
    except ManualDiceError:
        return ctx.events, dice.asked
    return ctx.events, ""


SETUP: dict[str, Any] = {
    "players": [
        {"id": "P1", "number": 1, "aircraft_type": "se5a", "position": [0, 5],
         "heading": "E", "level": 3, "skill": "average"},
        {"id": "P2", "number": 2, "aircraft_type": "spad_xiii", "position": [0, 8],
         "heading": "E", "level": 4},
    ],
    "bots": [
        {"id": "B1", "number": 1, "aircraft_type": "fokker_dr1", "position": [17, 4]},
        {"id": "B2", "number": 2, "aircraft_type": "albatros_dv", "position": [17, 6]},
        {"id": "B3", "number": 3, "aircraft_type": "fokker_dvii", "position": [17, 9]},
        {"id": "B4", "number": 4, "aircraft_type": "dh4", "position": [17, 12]},
    ],
    "zones": [
        {"name": "Z1", "position": [3, 3], "radius": 1},
        {"name": "Z2", "position": [4, 10], "radius": 1},
        {"name": "Z3", "position": [8, 7], "radius": 1},
    ],
}  # fmt: skip


def driver() -> tuple[dict[str, Any], Callable[[Any, random.Random], list[dict[str, Any]]]]:
    """(setup, propose) for gateway-level tests: the scripted dogfight's set-up; the set-up
    roll, the bots' flight and a report of one player aircraft."""

    def propose(state: Any, rng: random.Random) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{"type": "RollSetup"}, {"type": "FlyBots"}]
        if state.players():
            plane = rng.choice(state.players())
            out.append(
                {
                    "type": "ReportAircraft",
                    "aircraft": plane.id,
                    "position": [rng.randrange(8), rng.randrange(8)],
                    "heading": "E",
                    "level": rng.randint(1, state.ceiling(plane)),
                    "attitude": "level",
                }
            )
        return out

    return SETUP, propose


class _Asking(ManualDice):
    """Manual dice that note the purpose of the roll asked for once they run out (the
    refusal itself names no roll: a refusal must preview nothing of the rule path)."""

    def __init__(self, faces: Sequence[Sequence[int]], next_roll: int) -> None:
        super().__init__(faces, next_roll)
        self.left = len(faces)
        self.asked = ""

    def roll(self, spec: Any, *, purpose: str, rule: str, owner: Any, hidden: bool = False) -> Any:
        if self.left == 0:
            self.asked = purpose
        self.left -= 1
        return super().roll(spec, purpose=purpose, rule=rule, owner=owner, hidden=hidden)
