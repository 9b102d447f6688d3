"""Random play (STYLE 9): whole games from fixed seeds with random legal and illegal
commands. After every command the fold is deterministic, illegal commands change nothing,
and the player's view and events never hold a DRV secret."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from tests.rulesets.downtown.setups import flight, new_state
from umpire.engine.dice import ServerDice
from umpire.engine.errors import RuleError
from umpire.engine.handling import parse_command
from umpire.engine.roles import Role
from umpire.engine.rulesets.downtown import RULESET, drv_attack
from umpire.engine.rulesets.downtown.board import board_of
from umpire.engine.rulesets.downtown.state import State
from umpire.events.types import DiceRolled

ALTITUDES = ("deck", "low", "medium", "high")


def _leak(data: Any) -> bool:
    text = msgspec.json.encode(data).decode()
    return any(f'"{name}"' in text for name in RULESET.secret_fields)


class Player:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.state: State = new_state(
            aaa_points=self.rng.randint(1, 14), scenario=f"D{self.rng.randint(1, 16)}"
        )
        self.start = self.state
        self.events: list[Any] = []
        self.rolls = 0
        self.seed = seed

    def send(self, command: dict[str, Any]) -> None:
        parsed = parse_command(RULESET, command)
        dice = ServerDice(bytes([self.seed % 256]) * 32, "fuzz", self.rolls)
        try:
            events = list(RULESET.decide(self.state, parsed, dice))
        except RuleError:
            return
        self.rolls += sum(isinstance(e, DiceRolled) for e in events)
        for e in events:
            self.state = RULESET.evolve(self.state, e)
            self.events.append(e)
            shown = RULESET.redact(e, Role.PLAYER)
            assert shown is None or not _leak(shown), e
        assert not _leak(RULESET.view(self.state, Role.PLAYER))

    def roll_ordered(self) -> None:
        """3.4.4, 4: an ordered attack waits for its roll, and play with it (the Admin
        Phase is refused, nothing changes); roll each, as a player must, until none waits
        (a roll's double may order another, 4.1.2)."""
        while now := drv_attack.waiting(self.state, board_of(self.state.setup.map)):
            before = self.state
            self.send({"type": "RunAdminPhase"})
            assert self.state == before
            _, attack = now[0]
            self.send(
                {
                    "type": "RollDrvAttack",
                    "unit_id": attack.unit_id,
                    "flight_id": attack.flight_id,
                    "kind": attack.kind.value,
                }
            )
            assert self.state != before

    def hex_near(self, origin: str, spread: int) -> str:
        board = board_of(None)
        from umpire.engine.hexgrid import Hex

        options = board.grid.within(Hex.parse(origin), spread)
        return self.rng.choice(options).label

    def us(self, centre: str) -> None:
        flights = [
            flight(
                "S1",
                "strike",
                "bombing",
                self.hex_near(centre, 2),
                bomber=True,
                altitude=self.rng.choice(ALTITUDES),
                facing=self.rng.randint(0, 5),
                detected=self.rng.random() < 0.8,
            ),
            flight(
                "IH1",
                "iron_hand",
                "sead",
                self.hex_near(centre, 3),
                altitude=self.rng.choice(ALTITUDES),
                facing=self.rng.randint(0, 5),
            ),
            flight(
                "C1",
                "cap",
                "cap",
                self.hex_near(centre, 4),
                altitude="high",
                facing=self.rng.randint(0, 5),
            ),
        ]
        self.send(
            {
                "type": "ReportUsFlights",
                "flights": flights,
                "preemptive_arms": self.rng.randint(0, 1),
            }
        )

    def movement(self) -> None:
        s, rng = self.state, self.rng
        us_ids = [f.id for f in s.us] + ["ZZ"]
        drv_ids = [f.id for f in s.drv] + ["M999"]
        sams = [x.id for x in s.sams] + [a.id for a in s.aaa] + [f.id for f in s.fire_cans]
        for _ in range(12):
            pick = rng.randrange(9)
            if pick == 0:
                self.send({"type": "DrvChitPicked", "value": rng.randint(0, 3)})
            elif pick == 1 and s.us:
                f = rng.choice(self.state.us)
                self.send(
                    {
                        "type": "MoveUsFlight",
                        "flight_id": f.id,
                        "hex": self.hex_near(f.hex, 1),
                        "altitude": f.altitude.value,
                        "facing": rng.randint(0, 5),
                    }
                )
            elif pick == 2 and sams:
                self.send(
                    {
                        "type": "RollDrvAttack",
                        "unit_id": rng.choice(sams),
                        "flight_id": rng.choice(us_ids),
                        "kind": rng.choice(["aaa_attack", "sam_attack", "sam_damage"]),
                    }
                )
            elif pick == 3:
                self.send({"type": "PlanDrvFlight", "flight_id": rng.choice(drv_ids)})
            elif pick == 4 and self.state.drv:
                if rng.random() < 0.7:
                    self.send({"type": "RunDrvMovement", "flights": rng.choice([None, 1, 2])})
                else:
                    f = rng.choice(self.state.drv)
                    self.send(
                        {
                            "type": "ReportDrvFlight",
                            "flight_id": f.id,
                            "status": rng.choice(["normal", "normal", "aborting", "disordered"]),
                            "fuel": rng.randint(0, 5),
                        }
                    )
            elif pick == 5:
                self.send({"type": "IdentifyVisually", "flight_id": rng.choice(drv_ids)})
            elif pick == 6:
                self.send(
                    {
                        "type": "CheckActivation",
                        "flight_id": rng.choice(drv_ids),
                        "reason": rng.choice(["targeted", "detection"]),
                    }
                )
            elif pick == 7 and self.state.sams:
                sam = rng.choice(self.state.sams)
                self.send(
                    {
                        "type": "ReportAcquisition",
                        "sam_id": sam.id,
                        "flight_id": rng.choice(us_ids),
                        "level": rng.choice(["none", "partial", "full"]),
                    }
                )
            elif pick == 8:
                self.send({"type": "EndUsFlightMovement", "flight_id": rng.choice(us_ids)})
        if sams and rng.random() < 0.3:
            self.send(
                {
                    "type": "ReportUnitStatus",
                    "unit_id": rng.choice(sams),
                    "status": rng.choice(["suppressed", "radar_off"]),
                }
            )


@pytest.mark.parametrize("seed", range(40))
def test_random_game(seed: int) -> None:
    p = Player(seed)
    p.send({"type": "RunAdminPhase"})  # out of order: refused, nothing changes
    assert p.state == p.start
    p.send({"type": "DeployGroundUnits"})
    p.send({"type": "CheckDrvRadar"})
    p.send(
        {
            "type": "DeployDrvAir",
            "early_warning": p.rng.choice(["poor", "average", "good"]),
            "placement": p.rng.choice(["orbit_or_airfield", "in_the_air"]),
        }
    )
    route = ["0820", "1121", "1421", "1721", "1921", "1622"]
    for turn, centre in enumerate(route, start=1):
        assert p.state.turn == turn and p.state.phase == "detection"
        p.us(centre)
        detected = [f.id for f in p.state.drv if p.rng.random() < 0.5]
        p.send({"type": "RunDetectionPhase", "detected": detected})
        p.send({"type": "RunSamAcquisitionPhase"})
        p.movement()
        p.roll_ordered()
        p.send({"type": "RunAdminPhase"})
    refold = p.start
    for e in p.events:
        refold = RULESET.evolve(refold, e)
    assert refold == p.state
    assert msgspec.msgpack.decode(msgspec.msgpack.encode(p.state), type=State) == p.state
