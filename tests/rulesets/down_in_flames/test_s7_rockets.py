"""7: optional air-to-air rockets."""

from __future__ import annotations

import json

import msgspec
import pytest

from tests.rulesets.down_in_flames.setups import engaged, entry, make_state, of_type, run, says
from umpire.engine.actions import legal_actions
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.engine.rulesets.down_in_flames import RULESET
from umpire.engine.rulesets.down_in_flames.events import (
    AircraftShotDown,
    AttackResolved,
    BomberDamagePointsTaken,
)
from umpire.engine.rulesets.down_in_flames.performance import ratings
from umpire.engine.rulesets.down_in_flames.state import State


def _fight(carrier: str = "Bf 110G-2", rockets: bool = True):  # type: ignore[no-untyped-def]
    state = make_state(
        [entry("r1", carrier, "B", "R", "leader", hand=6, rockets=rockets),
         entry("bomber", "B-17G", "A", "F", "formation")],
        starting_altitude=8, rockets_rule=True,
    )  # fmt: skip
    return engaged(state, "r1", "bomber", "neutral")


ROCKET = {"type": "Attack", "attacker": "r1", "target": "bomber", "card": "in_my_sights",
          "hits": 1, "bursts": 1, "rockets": True}  # fmt: skip


def test_s7_seed_text() -> None:
    assert says("A rocket attack by a Bf 109 or an Fw 190 hits on a D6 roll of 1. A rocket "
                "attack by a Bf 110 hits on a D6 roll of 1 or 2.")  # fmt: skip


@pytest.mark.parametrize(
    ("carrier", "face", "hit"),
    [
        ("Bf 110G-2", 2, True),
        ("Bf 110G-2", 3, False),
        ("Bf 109G-6", 1, True),
        ("Fw 190A-6", 2, False),
    ],
)
def test_s7_1_3_rocket_hits_destroy(carrier: str, face: int, hit: bool) -> None:
    state, events = run(_fight(carrier), ROCKET, [[face]])
    assert bool(of_type(events, AircraftShotDown)) is hit
    assert state.aircraft["bomber"].shot_down is hit
    assert of_type(events, AttackResolved)[0].rockets
    # The log's order: the card, then its die, then the result (kept when the attack moved
    # onto the kit's Turn, which logs a roll where it is made).
    names = [type(e).__name__ for e in events]
    assert names[:3] == ["AttackCardPlayed", "DiceRolled", "AttackResolved"], names


def test_s7_1_2_one_rocket_attack_per_game() -> None:
    state, _ = run(_fight(), ROCKET, [[6]])
    with pytest.raises(RuleError) as info:
        run(state, ROCKET, [[1]])
    assert info.value.rule.endswith("7.1.2")


def test_s7_1_4_penalties_while_carrying() -> None:
    """Agility and Speed -1 while carrying; Agility reverts after the attack, Speed does not."""
    plain = _fight(rockets=False)
    base = ratings(plain, plain.aircraft["r1"])
    state = _fight()
    loaded = ratings(state, state.aircraft["r1"])
    assert (loaded.agility, loaded.speed) == (base.agility - 1, base.speed - 1)
    state, _ = run(state, ROCKET, [[6]])
    after = ratings(state, state.aircraft["r1"])
    assert (after.agility, after.speed) == (base.agility, base.speed - 1)


def test_s7_1_1_only_listed_types_carry_rockets() -> None:
    with pytest.raises(RuleError) as info:
        make_state([entry("x", "Spitfire", "A", "A", "leader", rockets=True)], rockets_rule=True)
    assert info.value.rule.endswith("7.1.1")


TURRET_AT_R1 = {"type": "ResolveDefensiveFire", "shooter": "bomber", "target": "r1",
                "kind": "turret", "hits": 1}  # fmt: skip


def _turret_listed_at(state: State, target: str) -> bool:
    for action in legal_actions(RULESET, state, Role.PLAYER, ended=False):
        if action.type == "ResolveDefensiveFire" and target in json.dumps(action.schema):
            return True
    return False


def test_s7_1_2_the_rocket_attacker_is_not_subject_to_counter_fire() -> None:
    """7.1.2, by hand: Bf 110G-2 r1, Tailing the B-17 (4 bursts, 3.1), fires its rockets
    and rolls a 5 (a miss: a Bf 110 hits on 1-2, 7.1.3). "The attacking fighter is not
    subject to counter-fire": the B-17's turret fire at r1 is refused citing 7.1.2 and is
    not listed. r1's next card is a gun attack, 1 hit x HV 16 = 16 HV = 2 damage points
    (4.1.3, no left-over, no die); turret fire answers that card: 1 hit x HV 8 against
    the Bf 110's defense 8 is 1:1, and a 6 is no effect (3.2.6). Before v9 the turret
    fire at the rocket attack was accepted."""
    state = engaged(_fight(), "r1", "bomber", "tailing")
    state, _ = run(state, ROCKET, [[5]])
    assert state.rocket_attackers() == ("r1",)
    assert not _turret_listed_at(state, "r1")
    with pytest.raises(RuleError) as info:
        run(state, TURRET_AT_R1, [[1], [1]])
    assert info.value.rule == "002_c21c1b1d0b6ff92b.txt 7.1.2"
    assert "not subject to counter-fire" in str(info.value)
    gun = {"type": "Attack", "attacker": "r1", "target": "bomber", "card": "in_my_sights",
           "hits": 1, "bursts": 1}  # fmt: skip
    state, events = run(state, gun)
    assert of_type(events, BomberDamagePointsTaken)[0].total == 2
    assert state.rocket_attackers() == ()
    assert _turret_listed_at(state, "r1")
    _, events = run(state, TURRET_AT_R1, [[6]])
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.hit_value, resolved.column, resolved.result.value) == (8, "1:1", "no_effect")


def test_s7_1_2_the_rocket_exemption_ends_with_the_move_and_leaves_no_trace() -> None:
    """The exemption is the move's: at the end of r1's move the state encodes as it did
    without the field (old logs fold to the same hash)."""
    state, _ = run(_fight(), ROCKET, [[5]])
    assert b"rocket_attack_last" in msgspec.msgpack.encode(state)
    state, _ = run(state, {"type": "Discard", "aircraft": "r1", "count": 3})  # to 8.2's 2
    state, _ = run(state, {"type": "EndTurn", "side": "B"})
    assert state.rocket_attack_last is msgspec.UNSET
    assert b"rocket_attack_last" not in msgspec.msgpack.encode(state)
