"""Per-ruleset drivers for gateway-level tests: a setup and, for a state, commands worth
trying next. They reuse each ruleset's own random-play generators and scripted set-ups
(tests/rulesets/<name>/), so whole games go through the real gateway. A ruleset with no
driver here (a newly installed one) is driven from its default scenario by its legal
actions alone. A command a driver proposes may be refused by the rules; callers skip those.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgspec

from tests.support.schema_sampler import sample
from umpire.engine import registry, scenarios
from umpire.engine.actions import legal_actions
from umpire.engine.roles import Role

Propose = Callable[[Any, random.Random], list[dict[str, Any]]]


def _universal(rng: random.Random) -> list[dict[str, Any]]:
    dice = rng.choice(["d6", "2d6", "d10", "d20", "d100"])
    return [{"type": "RollDice", "dice": dice, "purpose": f"check {rng.randrange(100)}"}]


def _nightfighter() -> tuple[dict[str, Any], Propose]:
    from tests.rulesets.nightfighter import test_random_play as nf

    setup = msgspec.to_builtins(nf._setup(1))
    return setup, lambda state, rng: nf._options(state, rng)


def _downtown() -> tuple[dict[str, Any], Propose]:
    from tests.rulesets.downtown.test_scripted_raid import SETUP, _us

    def propose(state: Any, rng: random.Random) -> list[dict[str, Any]]:
        drv = [f.id for f in state.drv] or ["M1"]
        sams = [s.id for s in state.sams] or ["S1"]
        return [
            {"type": "DeployGroundUnits"},
            {"type": "CheckDrvRadar"},
            {"type": "DeployDrvAir", "early_warning": "good", "placement": "in_the_air"},
            _us("1020", "1121", "1019"),
            {"type": "RunDetectionPhase", "detected": drv[:1]},
            {"type": "RunSamAcquisitionPhase"},
            {"type": "DrvChitPicked", "value": rng.randint(0, 3)},
            {"type": "PlanDrvFlight", "flight_id": rng.choice(drv)},
            {"type": "CheckActivation", "flight_id": rng.choice(drv), "reason": "detection"},
            {"type": "RollDrvAttack", "unit_id": rng.choice(sams), "flight_id": "S1",
             "kind": "sam_attack"},
            {"type": "RunAdminPhase"},
        ]  # fmt: skip

    return SETUP, propose


def _down_in_flames() -> tuple[dict[str, Any], Propose]:
    from tests.rulesets.down_in_flames import test_random_play as dif
    from tests.rulesets.down_in_flames.scenario import entry

    setup = {
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
    return setup, lambda state, rng: [dif._random_command(rng) for _ in range(3)]


def _conflict_of_heroes() -> tuple[dict[str, Any], Propose]:
    from tests.rulesets.conflict_of_heroes import test_random_play as coh

    return {}, lambda state, rng: [coh._command(rng, state)]


def _age_of_dogfights() -> tuple[dict[str, Any], Propose]:
    from tests.rulesets.age_of_dogfights.test_scripted_dogfight import SETUP

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


def _counter() -> tuple[dict[str, Any], Propose]:
    return {"target": 10_000}, lambda state, rng: [
        {"type": "Push"},
        {"type": "Add", "amount": rng.randint(1, 3)},
    ]


DRIVERS: dict[str, Callable[[], tuple[dict[str, Any], Propose]]] = {
    "nightfighter": _nightfighter,
    "downtown": _downtown,
    "down_in_flames": _down_in_flames,
    "conflict_of_heroes": _conflict_of_heroes,
    "age_of_dogfights": _age_of_dogfights,
    "counter": _counter,
}


def start_setup(name: str) -> dict[str, Any]:
    """The setup a test game of `name` starts from, as `umpire new` starts one: its
    default scenario's, else {}."""
    return scenarios.default_setup(registry.get(name))


def _by_actions(name: str) -> tuple[dict[str, Any], Propose]:
    """Any ruleset: its default scenario, and one of the player's listed commands (never
    EndGame) with fields drawn from the action's schema alone."""
    ruleset = registry.get(name)

    def propose(state: Any, rng: random.Random) -> list[dict[str, Any]]:
        listed = legal_actions(ruleset, state, Role.PLAYER, ended=False)
        own = [a for a in listed if a.type not in ("RollDice", "EndGame")]
        return [sample(rng.choice(own).schema, rng)] if own else _universal(rng)

    return start_setup(name), propose


def driver(name: str) -> tuple[dict[str, Any], Propose]:
    """(setup, propose) for a ruleset; a ruleset without a driver here is driven by its
    legal actions (so a new ruleset is covered from the day it is installed)."""
    make = DRIVERS.get(name)
    setup, propose = make() if make is not None else _by_actions(name)

    def with_universal(state: Any, rng: random.Random) -> list[dict[str, Any]]:
        # Mostly the ruleset's own commands, so games get somewhere; now and then a roll.
        return propose(state, rng) if rng.random() < 0.8 else _universal(rng)

    return setup, with_universal


def rulesets() -> list[str]:
    """Every installed ruleset (entry points; not ones a test registered by hand)."""
    return sorted(registry.installed())
