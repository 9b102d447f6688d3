"""5.3 AI Movement Orders (hex priorities, no stacking) and 5.3.1 AI Low Risk Move
(no close combat, no Short Range Fire Zone, the Fire Zone / DM conditions, pivoting)
(003_368c69a730e6e14a.txt).

The hex priorities among equally distant hexes are tested under the broader reading
(`sideways_moves`, README ledger 5.3); the literal default is tested in
test_s7_0_mission.py (test_a_move_order_the_ai_cannot_carry_out_closer_goes_to_the_next_candidate).

Geometry used (default map): from 0503 towards 0508 only 0504 is closer (4); 0404 and 0604
stay at 5; the rest go farther.
"""

from __future__ import annotations

from tests.rulesets.conflict_of_heroes.setups import (
    ai,
    ai_turn,
    card,
    every,
    one,
    reasons,
    rolls,
    state,
    unit,
)
from umpire.engine.rulesets.conflict_of_heroes.events import AiMoved, AiPivoted, AiTurnEnded
from umpire.engine.rulesets.conflict_of_heroes.scenario import ObjectiveSpec, TerrainSpec

OBJ = ObjectiveSpec(id="OBJ", hex="0508")
MOVE = card(1, "blue", 4, "AI closest to Objective -> Move")
LOW = card(1, "blue", 4, "AI closest to Objective -> Low Risk Move")
WALL = TerrainSpec(hex="0504", impassable=True)


def _move(units, deck=(MOVE,), terrain=(), *faces):  # type: ignore[no-untyped-def]
    s = state(
        [ai("A", "0503"), *units], deck, terrain=terrain, objectives=[OBJ], sideways_moves=True
    )
    events, s = ai_turn(s, 1, *faces)
    return events, s


def test_moves_to_the_hex_fewer_hexes_away() -> None:
    """5.3: 'move to a hex that is a fewer number of hexes away from the Target'."""
    events, s = _move([])
    moved = one(events, AiMoved)
    assert (moved.from_hex, moved.to_hex) == ("0503", "0504")
    why = reasons(moved.candidates)
    assert "fewer hexes" in why["0404"] and "fewer hexes" in why["0604"]
    assert s.unit("A").hex == "0504" and s.unit("A").facing == 3  # type: ignore[union-attr]


def test_never_farther_and_impassable_hexes_are_not_entered() -> None:
    """5.3: moves go towards the Target; impassable hexes cannot be entered."""
    events, _ = _move([], (MOVE,), (WALL,), [2])
    moved = one(events, AiMoved)
    assert moved.to_hex in {"0404", "0604"}
    why = reasons(moved.candidates)
    assert why["0504"] == "impassable terrain"
    assert all("farther" in why[h] for h in ("0403", "0502", "0603"))


def test_out_of_a_fire_zone_before_dm() -> None:
    """5.3: equally distant hexes: the one out of a Fire Zone (V's zone covers 0604)."""
    v = unit("V", "0805", range=2, turreted=True)
    events, _ = _move([v], (MOVE,), (WALL,))
    moved = one(events, AiMoved)
    assert moved.to_hex == "0404" and "Fire Zone" in reasons(moved.candidates)["0604"]


def test_highest_dm_hex() -> None:
    """5.3: then 'into the highest DM hex'."""
    events, _ = _move([], (MOVE,), (WALL, TerrainSpec(hex="0604", dm=2)))
    moved = one(events, AiMoved)
    assert moved.to_hex == "0604" and "highest DM" in reasons(moved.candidates)["0404"]


def test_towards_the_enemys_flank() -> None:
    """5.3: then 'towards an enemy's flank': U faces NE, so 0404 is on its flank."""
    deck = (card(1, "blue", 4, "AI closest to Unit -> Move"),)
    u = unit("U", "0508", facing=1, turreted=True)
    events, _ = _move([u], deck, (WALL,))
    moved = one(events, AiMoved)
    assert moved.to_hex == "0404" and "flank" in reasons(moved.candidates)["0604"]


def test_random_1d6_among_tied_hexes() -> None:
    """5.3: 'randomly determine which of the hexes ... by assigning each hex a number and
    rolling 1d6': two hexes numbered 1 and 2 in label order; a 2 picks the second, a 1 the
    first, and a 3-6 is rolled again."""
    events, _ = _move([], (MOVE,), (WALL,), [2])
    moved = one(events, AiMoved)
    assert moved.to_hex == "0604" and len(moved.dice) == 1
    assert "random roll" in reasons(moved.candidates)["0404"]
    events, _ = _move([], (MOVE,), (WALL,), [3], [1])
    assert one(events, AiMoved).to_hex == "0404"


def test_no_stacking_reason_is_recorded() -> None:
    """5.3.1: 'AIs will not stack with other AIs': with B in 0504, A steps sideways."""
    s = state(
        [ai("A", "0503"), ai("B", "0504", range=0)],
        (card(1, "blue", 4, "Spent AI closest to Objective -> Move"),),
        objectives=[OBJ],
        sideways_moves=True,
    )
    import msgspec

    s = msgspec.structs.replace(
        s, units=tuple(msgspec.structs.replace(u, fresh=u.id == "A") for u in s.units)
    )
    events, _ = ai_turn(s, 1)
    moved = one(events, AiMoved)
    assert moved.unit == "B" and moved.to_hex == "0505"
    s2 = msgspec.structs.replace(
        s, units=tuple(msgspec.structs.replace(u, fresh=u.id != "A") for u in s.units)
    )
    events, _ = ai_turn(s2, 1, [1])
    moved = one(events, AiMoved)
    assert moved.unit == "A" and moved.to_hex == "0404"
    assert "AIs will not stack" in reasons(moved.candidates).get("0504", "")


# -- 5.3.1 Low Risk Move ---------------------------------------------------------------


def test_low_risk_never_enters_close_combat() -> None:
    """5.3.1: 'AI will not move into Close Combat' (a Unit holds 0504)."""
    events, _ = _move([unit("U", "0504", range=0)], (LOW,), (), [1])
    moved = one(events, AiMoved)
    assert moved.to_hex != "0504" and moved.low_risk


def test_low_risk_never_enters_a_short_range_fire_zone() -> None:
    """5.3.1: not 'into a Short Range Fire Zone' (V adjacent to 0504, even with DM)."""
    v = unit("V", "0505", range=1, turreted=True)
    events, _ = _move([v], (LOW,), (TerrainSpec(hex="0504", dm=2),), [1])
    moved = one(events, AiMoved)
    assert moved.to_hex != "0504"
    assert "Short Range Fire Zone" in reasons(moved.candidates)["0504"]


def test_low_risk_outside_fire_zone_enters_a_fire_zone_hex_only_with_dm() -> None:
    """5.3.1: not in a Fire Zone: a Fire Zone hex only if it has a DM."""
    v = unit("V", "0705", range=2, turreted=True)  # covers 0504 (2) and 0604, not 0503/0404
    events, _ = _move([v], (LOW,), ())
    assert one(events, AiMoved).to_hex == "0404"
    events, _ = _move([v], (LOW,), (TerrainSpec(hex="0504", dm=1),))
    assert one(events, AiMoved).to_hex == "0504"


def test_low_risk_inside_fire_zone_needs_same_or_higher_dm() -> None:
    """5.3.1: in a Fire Zone: another Fire Zone hex only with the same or higher DM."""
    v = unit("V", "0705", range=3, turreted=True)  # covers 0503 (3), 0504, 0604, 0404 (3)
    start = TerrainSpec(hex="0503", dm=1)
    events, _ = _move([v], (LOW,), (start,))
    assert every(events, AiMoved) == []  # 0504 has DM 0 < 1; sideways hexes too
    events, _ = _move([v], (LOW,), (start, TerrainSpec(hex="0504", dm=1)))
    assert one(events, AiMoved).to_hex == "0504"


def test_low_risk_inside_fire_zone_may_leave_it_for_a_hex_with_less_dm() -> None:
    """5.3.1 (hand-worked, round 7): 'If the AI IS in a Fire Zone, the AI: 1. will move
    into a non-Fire Zone hex, then 2. ... a Fire Zone hex that has the same or higher DM':
    the DM condition is for Fire Zone hexes only. V at 0202 (facing 1, range 3) covers
    A's hex 0503 (DM 1) but not 0504 (DM 0), the one hex closer to OBJ: A moves there."""
    v = unit("V", "0202", facing=1, range=3)
    events, _ = _move([v], (LOW,), (TerrainSpec(hex="0503", dm=1),))
    moved = one(events, AiMoved)
    assert (moved.to_hex, moved.low_risk) == ("0504", True)


def test_low_risk_pivots_towards_a_flanking_unit_when_it_cannot_move() -> None:
    """5.3.1: 'AI may pivot towards a Unit that is flanking it': A sits on its objective
    facing N; V behind it has A in its Fire Zone; A turns to face V (S)."""
    s = state(
        [ai("A", "0503", facing=0), unit("V", "0506", facing=0)],
        (LOW,),
        objectives=[ObjectiveSpec(id="OBJ", hex="0503")],
    )
    events, s = ai_turn(s, 1)
    pivot = one(events, AiPivoted)
    assert (pivot.unit, pivot.toward, pivot.facing) == ("A", "V", 3)
    assert s.unit("A").facing == 3 and one(events, AiTurnEnded).passed is False  # type: ignore[union-attr]
    assert rolls(events)[0].kind == "draw"
