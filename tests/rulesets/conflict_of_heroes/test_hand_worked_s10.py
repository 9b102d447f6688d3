"""Cases worked by hand from the seed (003_368c69a730e6e14a.txt) in the tenth session, with
stated dice and card order: the edges no earlier test pinned (a random choice among six,
a priority that outranks the next one, a spent check at exactly its number after CAPs).
Each docstring gives the rule, the dice or card drawn, and the result read from the seed.

A draw's face k is the k-th card still in the deck in card-number order (README "Card
draws"). In one column the distance is the row difference.
"""

from __future__ import annotations

from tests.rulesets.conflict_of_heroes.setups import (
    ai,
    ai_turn,
    card,
    one,
    reasons,
    run,
    state,
    unit,
)
from umpire.engine.rulesets.conflict_of_heroes.events import (
    AiMoved,
    AiTargetSelected,
    AiUnitSelected,
    SpentCheckMade,
)
from umpire.engine.rulesets.conflict_of_heroes.scenario import ObjectiveSpec, TerrainSpec


def _u(uid: str, hex: str, **kw):  # type: ignore[no-untyped-def]
    values = dict(front_dv=12, flank_dv=12)
    values.update(kw)
    return unit(uid, hex, **values)


def test_s5_1_1_six_tied_ais_a_6_picks_the_sixth_with_no_second_roll() -> None:
    """5.1.1: 'Randomly determine which AI executes the order by assigning each AI a number
    and rolling 1D6.' Six un-hit AIs with equal move cost, all 3 hexes from the objective
    at 0508 (0505, 0306, 0706, 0207, 0807, 0808), numbered by id A..F: every face names
    one, so the single roll of 6 picks F and nothing is rolled again (five tied roll a 6
    again: test_hand_worked). F's move then has
    two hexes 2 from the objective, 0707 and 0708, tied on every priority (5.3): a 1 takes
    the first, 0707."""
    obj = [ObjectiveSpec(id="OBJ", hex="0508")]
    ais = [ai("A", "0505"), ai("B", "0306"), ai("C", "0706"), ai("D", "0207"),
           ai("E", "0807"), ai("F", "0808")]  # fmt: skip
    s = state(ais, (card(1, "blue", 12, "AI closest to Objective -> Move"),), objectives=obj)
    events, _ = ai_turn(s, 1, [6], [1])
    chosen = one(events, AiUnitSelected)
    assert chosen.unit == "F" and len(chosen.dice) == 1
    moved = one(events, AiMoved)
    assert (moved.unit, moved.to_hex) == ("F", "0707")


def test_s5_3_fewer_hexes_away_outranks_the_highest_dm() -> None:
    """5.3: the AI moves 'to a hex that is a fewer number of hexes away from the Target,
    then … into the highest DM hex'. A at 0503 moves towards the objective at 0508: 0504 is
    4 hexes from it (closer), 0404 stays at 5 but is woods (DM 3). The first priority
    decides: 0504, whatever 0404's DM."""
    s = state(
        [ai("A", "0503")],
        (card(1, "blue", 4, "AI closest to Objective -> Move"),),
        terrain=[TerrainSpec(hex="0404", dm=3)],
        objectives=[ObjectiveSpec(id="OBJ", hex="0508")],
        sideways_moves=True,
    )
    events, _ = ai_turn(s, 1)
    moved = one(events, AiMoved)
    assert moved.to_hex == "0504"
    assert "fewer hexes" in reasons(moved.candidates)["0404"]


def test_s5_2_the_lowest_total_dv_outranks_the_hit_unit() -> None:
    """5.2: the target is 'the Unit that is easiest to hit (with the lowest total DV), then
    the hit Unit'. AI A at 0505 fires at two Units 3 hexes away: U1 at 0508 is hit (DV 12),
    U2 at 0307 is un-hit (DV 11). DV comes first: U2, though U1 is hit. Its 2D6 roll 1, 1
    misses."""
    a = ai("A", "0505", turreted=True)
    units = [a, _u("U1", "0508", hit=True), _u("U2", "0307", front_dv=11, flank_dv=11)]
    s = state(units, (card(1, "blue", 12, "AI closest to Unit -> Fire"),))
    events, _ = ai_turn(s, 1, [1, 1])
    chosen = one(events, AiTargetSelected)
    assert chosen.target == "U2"
    assert "lowest total DV" in reasons(chosen.candidates)["U1"]


def test_s3_1_1_caps_bring_the_cost_down_to_exactly_the_spent_number() -> None:
    """3.1.1: 'If the action's AP cost is equal to or greater than the AP Spent Number, the
    Unit is marked spent'; 3.2.1: CAPs reduce the AP cost. A 4-AP move paid 3 AP + 1 CAP is
    checked at 3 against card 1's AP Spent Number 3: equal, so U is spent (the CAPs bring it
    down to the number, not below it)."""
    deck = (card(1, "blue", 3), card(2, "blue", 3))
    s = state([ai("A", "0505"), _u("U", "0508")], deck, player_caps=3)
    command = {"type": "UnitAction", "units": ["U"], "action": "move", "ap": 3, "caps": 1}
    events, after = run(s, command, [[1]])
    check = one(events, SpentCheckMade)
    assert (check.ap_cost, check.ap_spent_number, check.spent) == (3, 3, ("U",))
    assert not after.unit("U").fresh  # type: ignore[union-attr]
    assert after.caps == 2
