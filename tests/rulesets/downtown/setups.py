"""The Downtown tests' set-ups, one module: build a state, run a wire command with manual or
server dice, and fold the events (test scaffolding, not rules); the scripted raid's set-up
and US flights, and its way to a SAM in reach; the driver of gateway-level tests."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.dice import ManualDice, ServerDice, roll_event
from umpire.engine.handling import parse_command
from umpire.engine.rulesets.downtown import RULESET
from umpire.engine.rulesets.downtown.board import board_of
from umpire.engine.rulesets.downtown.setup import Setup
from umpire.engine.rulesets.downtown.state import AaaFire, Sam, State, UsFlight
from umpire.engine.rulesets.downtown.synthetic_map import SYNTHETIC
from umpire.engine.rulesets.downtown.terms import AcqLevel, Mission, Phase, SamStatus, Task
from umpire.events.types import DiceRolled, Roller

SEED = "000_842c81c5c58bc2f6.txt"


def new_state(**setup: Any) -> State:
    """A fresh state from setup fields (the synthetic map unless one is given)."""
    return RULESET.initial_state(msgspec.convert(setup, Setup))


def run(
    state: State, command: dict[str, Any], dice: list[list[int]] | None = None, *, seed: int = 0
) -> tuple[State, list[Struct]]:
    """Decide a wire command (manual dice if given, else server dice) and fold the events."""
    parsed = parse_command(RULESET, command)
    if dice is not None:
        manual = ManualDice(dice, 0)
        events = list(RULESET.decide(state, parsed, manual))
        manual.check_all_used()
    else:
        server = ServerDice(bytes([seed]) * 32, "test", 0)
        events = list(RULESET.decide(state, parsed, server))
    for e in events:
        state = RULESET.evolve(state, e)
    return state, events


def of(events: list[Struct], kind: type[Struct]) -> list[Any]:
    """The events of one type."""
    return [e for e in events if isinstance(e, kind)]


def rolls(events: list[Struct]) -> list[DiceRolled]:
    """The DiceRolled events."""
    return [e for e in events if isinstance(e, DiceRolled)]


def flight(fid: str, mission: str, task: str, hex_: str, **kw: Any) -> dict[str, Any]:
    """A US flight report."""
    return {"id": fid, "mission": mission, "task": task, "hex": hex_, **kw}


def at_phase(state: State, phase: str, **changes: Any) -> State:
    """Jump a test state to a phase (tests of one procedure, not of the sequence)."""
    return msgspec.structs.replace(state, phase=phase, turn=max(state.turn, 1), **changes)


class ProbeDice:
    """Dice that show chosen faces: the first entry of `choices` whose key is in the roll's
    purpose decides; otherwise `default` faces for the roll's dice. Used to work out the
    manual dice a scripted command needs (the same faces replay the same path)."""

    def __init__(self, choices: dict[str, tuple[int, ...]], default: dict[int, int]) -> None:
        self.choices = choices
        self.default = default
        self.rolled: list[DiceRolled] = []

    def roll(
        self, spec: Any, *, purpose: str, rule: str, owner: Any = None, hidden: bool = False
    ) -> DiceRolled:
        faces = next((f for k, f in self.choices.items() if k in purpose), None)
        if faces is None or len(faces) != len(spec.sides):
            if spec.kind.value == "d100":
                faces = (9, 9)
            elif spec.kind.value == "draw":
                faces = (1,)
            else:
                faces = tuple(min(self.default.get(s, 1), s) for s in spec.sides)
        event = roll_event(
            spec,
            len(self.rolled),
            faces,
            purpose=purpose,
            rule=rule,
            hidden=hidden,
            by=Roller.SERVER,
            owner=owner,
        )
        self.rolled.append(event)
        return event


def manual_for(
    state: State,
    command: dict[str, Any],
    choices: dict[str, tuple[int, ...]],
    default: dict[int, int] | None = None,
) -> list[list[int]]:
    """The manual dice entries that make `command` roll the chosen faces."""
    probe = ProbeDice(choices, default or {10: 10, 6: 6})
    RULESET.decide(state, parse_command(RULESET, command), probe)
    return [list(r.faces) for r in probe.rolled]


SETUP: dict[str, Any] = {
    "scenario": "D4",
    "year": 1967,
    "month": 6,
    "aaa_points": 8,
    "fire_can_units": 2,
    "sams_at_start": 2,
    "dummy_sams": 1,
    "dummy_radars": 1,
    "sam_battalions_in_reserve": 4,
    "gci_level": 3,
    "raid_target": "bridge",
    "entry": "west",
    "map": msgspec.to_builtins(SYNTHETIC),
}


def us_flights(strike: str, ih: str, cap: str) -> dict[str, Any]:
    return {
        "type": "ReportUsFlights",
        "flights": [
            flight("S1", "strike", "bombing", strike, bomber=True, altitude="medium", facing=2),
            flight("IH1", "iron_hand", "sead", ih, altitude="low", facing=2),
            flight("C1", "cap", "cap", cap, altitude="high", facing=2),
        ],
    }


# The 4.1.1 example's position (the DRV attack tests'): CAP flight C1 in the Movement
# Phase, fully acquired by SAM1 five hexes on from where it moves (2026).
C1_CAP = UsFlight(id="C1", mission=Mission.CAP, task=Task.CAP, hex="2024", facing=3)
SAM1 = Sam(id="SAM1", hex="2021", status=SamStatus.ACTIVE, radar_on=True, target="C1",
           level=AcqLevel.FULL)  # fmt: skip


# A1's attack on S1 is rolled: its Flak Damage rolls may follow (2.1.7, README ledger): a
# test of what a Flak Damage roll's double calls starts here.
FLAK_DUE = AaaFire(unit_id="A1", flight_id="S1", attacks=1, attacked=True)


def moving(**changes: Any) -> State:
    """Turn 1's Movement Phase with C1 on the map (no dummy radars), and `changes`."""
    return msgspec.structs.replace(
        new_state(dummy_radars=0), phase=Phase.MOVEMENT, turn=1, **{"us": (C1_CAP,), **changes}
    )


def move_us(hex_: str, flight: str = "C1") -> dict[str, Any]:
    """A US flight's Movement Point into `hex_` (medium altitude, facing 3)."""
    return {"type": "MoveUsFlight", "flight_id": flight, "hex": hex_, "altitude": "medium",
            "facing": 3}  # fmt: skip


def drv_attack(unit: str, kind: str, target: str = "C1") -> dict[str, Any]:
    """A DRV attack or damage roll of `unit` on `target`."""
    return {"type": "RollDrvAttack", "unit_id": unit, "flight_id": target, "kind": kind}


# Sends one wire command of a game with the opponent's dice given by purpose (None: the
# server rolls them), as a test's own path does (`games.handle`, a client, the page).
Send = Callable[[dict[str, Any], dict[str, tuple[int, ...]] | None], Awaitable[None]]


async def to_a_sam_in_reach(
    send: Send, state_of: Callable[[], Awaitable[State]]
) -> tuple[Any, Any]:
    """The scripted raid (SETUP, the opponent's dice entered) to its first Movement Phase,
    with a SAM that fully acquired a US flight 2 to 8 hexes away (3.4.4: that flight's
    next Movement Point makes the SAM react): the SAM and the flight."""
    await send({"type": "DeployGroundUnits"}, None)
    await send({"type": "CheckDrvRadar"}, None)
    await send({"type": "DeployDrvAir", "early_warning": "good", "placement": "in_the_air"}, {})
    await send(us_flights("1020", "1121", "1019"), None)
    await send({"type": "RunDetectionPhase", "detected": []}, {})
    await send({"type": "RunSamAcquisitionPhase"}, {"SAM Activation Check": (1,)})
    state = await state_of()
    board = board_of(state.setup.map)
    where = {f.id: f for f in state.us}
    sam = next(
        s for s in state.sams if s.target and 2 <= board.dist(s.hex, where[s.target].hex) <= 8
    )
    target = where[sam.target]
    await send({"type": "ReportAcquisition", "sam_id": sam.id, "flight_id": target.id,
                "level": "full"}, None)  # fmt: skip
    return sam, target


def driver() -> tuple[dict[str, Any], Callable[[Any, random.Random], list[dict[str, Any]]]]:
    """(setup, propose) for gateway-level tests: the raid's set-up, and a command of every
    phase worth trying next."""

    def propose(state: Any, rng: random.Random) -> list[dict[str, Any]]:
        drv = [f.id for f in state.drv] or ["M1"]
        sams = [s.id for s in state.sams] or ["S1"]
        return [
            {"type": "DeployGroundUnits"},
            {"type": "CheckDrvRadar"},
            {"type": "DeployDrvAir", "early_warning": "good", "placement": "in_the_air"},
            us_flights("1020", "1121", "1019"),
            {"type": "RunDetectionPhase", "detected": drv[:1]},
            {"type": "RunSamAcquisitionPhase"},
            {"type": "DrvChitPicked", "value": rng.randint(0, 3)},
            {"type": "RunDrvMovement", "flights": 1},
            {"type": "CheckActivation", "flight_id": rng.choice(drv), "reason": "detection"},
            {"type": "RollDrvAttack", "unit_id": rng.choice(sams), "flight_id": "S1",
             "kind": "sam_attack"},
            {"type": "RunAdminPhase"},
        ]  # fmt: skip

    return SETUP, propose
