"""The Down in Flames tests' set-ups, one module: building dogfights and running commands on
them; the engagement and driver set-ups; random commands; and the seed text with whitespace
removed (the transcription runs words together at line breaks), for checking table cells
against the printed rules."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.dice import ManualDice
from umpire.engine.rulesets.down_in_flames import RULESET
from umpire.engine.rulesets.down_in_flames.setup import Setup
from umpire.engine.rulesets.down_in_flames.state import State, position_key
from umpire.engine.rulesets.down_in_flames.terms import SEED
from umpire.testing.support.seeds import seed_text


def entry(
    ident: str, aircraft: str, side: str, element: str, station: str, **kw: Any
) -> dict[str, Any]:
    """One setup entry as plain data."""
    return {"id": ident, "aircraft": aircraft, "side": side, "element": element,
            "station": station, **kw}  # fmt: skip


def card(name: str, **values: Any) -> dict[str, Any]:
    """An aircraft card of the player's own data (a fighter of even ratings, every
    placeholder), with `values` in place of its defaults."""
    made: dict[str, Any] = {
        "name": name, "aircraft_class": "fighter", "ceiling_level": 10, "defense": 6,
        "hit_value": 8, "wingman_offense": 2, "wingman_defense": 2,
        "performance": [{"low": 1, "high": 10, "agility": 5, "speed": 5, "hp": 3}],
        "placeholders": ["everything"],
    }  # fmt: skip
    made.update(values)
    return made


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
    """`attacker` at `position` on `target`, during `attacker`'s side's turn (a position
    held already is not set again: that changes nothing, issue 41 item 8)."""
    side = state.aircraft[attacker].side.value
    if state.active_side is None:
        state, _ = run(state, {"type": "BeginTurn", "side": side})
    if state.positions.get(position_key(attacker, target)) == position:
        return state
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


def squeezed() -> str:
    """The seed text without any whitespace."""
    return re.sub(r"\s+", "", seed_text(SEED))


def says(phrase: str) -> bool:
    """Whether the seed prints `phrase` (compared without whitespace)."""
    return re.sub(r"\s+", "", phrase) in squeezed()


ENGAGEMENT_SETUP: dict[str, Any] = {
    "aircraft": [
        entry("p1", "P-51D-10", "A", "ESC", "leader", hand=6, pilot_quality="veteran"),
        entry("p2", "P-51D-10", "A", "ESC", "wingman"),
        entry("bomber1", "B-17G", "A", "BOX", "formation"),
        entry("bomber2", "B-17G", "A", "BOX", "formation"),
        entry("f1", "Fw 190A-8", "B", "JG", "leader", hand=6, pilot_quality="ace",
              crack_shot=True),
        entry("f2", "Fw 190A-8", "B", "JG", "wingman"),
        entry("r1", "Bf 110G-2", "B", "ZG", "leader", hand=5, rockets=True,
              pilot_quality="green"),
    ],
    "player_sides": ["A"],
    "rockets_rule": True,
    "ammunition_rule": True,
}  # fmt: skip


PLANES = ["p1", "p2", "f1", "f2", "r1", "bomber1", "bomber2"]


CARDS = ["in_my_sights", "out_of_the_sun", "fuel_tank", "maneuvering", "tight_turn",
         "scissors", "ace_pilot", "half_loop", "other"]  # fmt: skip


def random_command(rng: random.Random) -> dict[str, Any]:
    kind = rng.choice(["RollStartingAltitude", "BeginTurn", "EndTurn", "ReportHand", "Discard",
                       "SetPosition", "SetPosition", "SetPosition", "PlayCard", "Dive", "Climb",
                       "PlayVerticalRoll", "Attack", "Attack", "Attack", "NegateAttack",
                       "ResolveDefensiveFire", "DeclareAcePilot", "UseKeenEyesight",
                       "RevealPilot"])  # fmt: skip
    a, b = rng.choice(PLANES), rng.choice(PLANES)
    return {
        "RollStartingAltitude": {},
        "BeginTurn": {"side": rng.choice("AB")},
        "EndTurn": {"side": rng.choice("AB")},
        "ReportHand": {"aircraft": a, "cards": rng.randint(0, 10)},
        "Discard": {"aircraft": a, "count": rng.randint(1, 3)},
        "SetPosition": {"attacker": a, "target": b,
                        "position": rng.choice(["neutral", "advantaged", "tailing", None])},
        "PlayCard": {"aircraft": a, "card": rng.choice(CARDS)},
        "Dive": {"element": rng.choice(["ESC", "BOX", "JG", "ZG"]), "levels": rng.randint(1, 2)},
        "Climb": {"element": rng.choice(["ESC", "BOX", "JG", "ZG"])},
        "PlayVerticalRoll": {"aircraft": a, "direction": rng.choice(["climb", "dive"]),
                         "negated": rng.random() < 0.3},
        "Attack": {"attacker": a, "target": b, "card": rng.choice(CARDS[:3]),
                   "hits": rng.randint(1, 3), "bursts": rng.randint(1, 2),
                   "aggregate": rng.random() < 0.05, "rockets": rng.random() < 0.1},
        "NegateAttack": {"attacker": a},
        "ResolveDefensiveFire": {"shooter": a, "target": b, "hits": rng.randint(1, 3),
                                 "kind": rng.choice(["gunner", "turret"])},
        "DeclareAcePilot": {"aircraft": a},
        "UseKeenEyesight": {"aircraft": a, "target": b},
        "RevealPilot": {"aircraft": a},
    }[kind] | {"type": kind}  # fmt: skip


DRIVER_SETUP: dict[str, Any] = {
    "aircraft": [
        entry("p1", "P-51D-10", "A", "ESC", "leader", hand=7, pilot_quality="veteran"),
        entry("p2", "P-51D-10", "A", "ESC", "wingman"),
        entry("bomber1", "B-17G", "A", "BOX", "formation"),
        entry("f1", "Fw 190A-8", "B", "JG", "leader", hand=7, pilot_quality="ace",
              crack_shot=True, keen_eyesight=True),
        entry("f2", "Fw 190A-8", "B", "JG", "wingman", pilot_quality="recruit"),
    ],
    "rockets_rule": True, "ammunition_rule": True, "combat_die": "d6",
}  # fmt: skip
"""The set-up whole games through the gateway start from (testing/support/drivers.py), and
the one the golden logs were recorded with (tests/support/golden_setups.py)."""


def driver() -> tuple[dict[str, Any], Callable[[Any, random.Random], list[dict[str, Any]]]]:
    """(setup, propose) for gateway-level tests: three random commands a step."""
    return DRIVER_SETUP, lambda state, rng: [random_command(rng) for _ in range(3)]
