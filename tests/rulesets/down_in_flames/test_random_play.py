"""Random play (STYLE.md habit 9): random commands from a fixed seed; every command either
raises RuleError or yields events that fold; views never leak unrevealed pilots."""

from __future__ import annotations

import json
import random

import msgspec
import pytest

from tests.rulesets.down_in_flames.setups import command, entry, make_state, random_command
from umpire.engine.dice import ServerDice
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.engine.rulesets.down_in_flames import RULESET
from umpire.engine.rulesets.down_in_flames.events import AttackResolved
from umpire.engine.rulesets.down_in_flames.state import State
from umpire.events.types import DiceRolled


def _setup(die: str) -> State:
    return make_state(
        [entry("p1", "P-51D-10", "A", "ESC", "leader", hand=7, pilot_quality="veteran"),
         entry("p2", "P-51D-10", "A", "ESC", "wingman"),
         entry("bomber1", "B-17G", "A", "BOX", "formation"),
         entry("bomber2", "B-17G", "A", "BOX", "formation"),
         entry("f1", "Fw 190A-8", "B", "JG", "leader", hand=7, pilot_quality="ace",
               crack_shot=True, keen_eyesight=True),
         entry("f2", "Fw 190A-8", "B", "JG", "wingman", pilot_quality="recruit"),
         entry("r1", "Bf 110G-2", "B", "ZG", "leader", hand=5, rockets=True)],
        rockets_rule=True, ammunition_rule=True, combat_die=die,
    )  # fmt: skip


def _unrevealed_b_secrets_shown(state: State) -> bool:
    view = RULESET.view(state, Role.PLAYER)
    text = json.dumps({k: v for k, v in view["aircraft"].items() if v["side"] == "B"})
    if any(f'"{name}"' in text for name in RULESET.secret_fields):
        return True
    f1 = state.aircraft["f1"]
    return "quality" not in f1.revealed and '"ace"' in text


@pytest.mark.parametrize(("seed", "die"), [(1, "d6"), (2, "d12"), (3, "d6")])
def test_random_play(seed: int, die: str) -> None:
    rng = random.Random(seed)
    state = _setup(die)
    rolls = 0
    accepted = 0
    resolved = 0
    for _ in range(400):
        data = random_command(rng)
        dice = ServerDice(b"\x07" * 32, f"fuzz{seed}", rolls)
        try:
            events = list(RULESET.decide(state, command(data), dice))
        except RuleError as exc:
            assert exc.rule.startswith("002_c21c1b1d0b6ff92b.txt "), exc.rule
            continue
        assert [e for e in events if isinstance(e, DiceRolled)] == dice.rolled
        rolls += len(dice.rolled)
        accepted += 1
        resolved += sum(isinstance(e, AttackResolved) for e in events)
        before = msgspec.msgpack.encode(state)
        folded = state
        for event in events:
            folded = RULESET.evolve(folded, event)
        again = msgspec.msgpack.decode(before, type=State)
        for event in events:
            again = RULESET.evolve(again, event)
        assert msgspec.msgpack.encode(again) == msgspec.msgpack.encode(folded)
        state = folded
        assert not _unrevealed_b_secrets_shown(state)
        for plane in state.aircraft.values():
            assert plane.hand >= 0
    assert accepted > 40 and resolved > 0
