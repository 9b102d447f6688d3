"""More cases worked by hand from the seed (003_368c69a730e6e14a.txt) with stated dice and
stated card order: the edges no earlier test pinned (a first choice that is impossible,
ties, the deck running out, reinforcements on the Mission Track). Each docstring gives the
rule, the dice or the card drawn, and the result the seed's text gives, worked without
reading the code.

A draw's face k is the k-th card still in the deck in card-number order (README "Card
draws"). The AI A sits at 0505 (FP 5); in one column the distance is the row difference.
"""

from __future__ import annotations

from tests.rulesets.conflict_of_heroes.setups import (
    ai,
    ai_turn,
    card,
    one,
    run,
    state,
    unit,
)
from umpire.engine.rulesets.conflict_of_heroes.events import (
    MissionTrackChecked,
)
from umpire.engine.rulesets.conflict_of_heroes.scenario import MissionInstruction


def _u(uid: str, hex: str, **kw):  # type: ignore[no-untyped-def]
    values = dict(front_dv=12, flank_dv=12)
    values.update(kw)
    return unit(uid, hex, **values)


# -- 4.0 Mission Track: reinforcements arriving this round ---------------------------------


def test_s4_0_a_reported_reinforcement_placed_on_the_map_counts_once() -> None:
    """4.0: 'Both Fresh / Spent Units and AI, … and Reinforcements arriving this round are
    included in the count.' A and U are in play; the player reports 1 reinforcement
    arriving this round (their Unit R2, out of play): 3 counted. R2 is then placed on the
    map: still 3 (A, U, R2), not 4, so a Green card with requirement 3 advances the
    track. (Before: R2 counted on the map and again in the report, 4, no advance.)"""
    deck = (card(1, "green", 12, mission_requirement=3),)
    units = [ai("A", "0505"), _u("U", "0508"), _u("R2", "0309", in_play=False)]
    _, s = run(state(units, deck), {"type": "ReportCounters", "rumored": 0, "reinforcements": 1})
    _, s = run(
        s, {"type": "ReportPosition", "unit": "R2", "hex": "0309", "facing": 0, "in_play": True}
    )
    assert s.reinforcements_this_round == 0
    events, s = ai_turn(s, 1)
    check = one(events, MissionTrackChecked)
    assert (check.count, check.advanced, s.mission_track) == (3, True, 1)
    assert "3 AI and Units in play, 0 Rumored Enemy counters, 0 reinforcements" in (
        check.explanation
    )


def test_s4_0_an_ai_reinforcement_the_mission_brings_in_counts_once() -> None:
    """4.0 with 7.0: the player reports 1 reinforcement arriving this round (the AI's R,
    which Counteraction 1 brings in); card 1 (Blue) carries Counteraction 1, R enters at
    1201. Next AI turn, Green card 2 (requirement 3) reads A, U and R in play: 3, and
    advances; before, R also stayed in the reported count (4, no advance)."""
    deck = (
        card(1, "blue", 12, "Counteraction 1"),
        card(2, "green", 12, mission_requirement=3),
    )
    units = [ai("A", "0505"), _u("U", "0508"), ai("R", "1201", in_play=False)]
    ca = MissionInstruction(number=1, text="R enters at 1201", reinforcements=("R",))
    s = state(units, deck, counteractions=[ca])
    _, s = run(s, {"type": "ReportCounters", "rumored": 0, "reinforcements": 1})
    _, s = ai_turn(s, 1)  # draws card 1 (faces: the 1st remaining card)
    assert s.unit("R").in_play and s.reinforcements_this_round == 0  # type: ignore[union-attr]
    events, s = ai_turn(s, 1)  # card 1 is discarded: the 1st remaining is card 2
    check = one(events, MissionTrackChecked)
    assert (check.card, check.count, check.advanced) == (2, 3, True)


def test_s4_0_an_unreported_arrival_leaves_the_other_reported_ones() -> None:
    """4.0: two reinforcements reported as arriving this round; one (R2) is placed. The
    other is still to arrive and still counts: A, U, R2 on the map + 1 = 4 against
    requirement 3: no advance."""
    deck = (card(1, "green", 12, mission_requirement=3),)
    units = [ai("A", "0505"), _u("U", "0508"), _u("R2", "0309", in_play=False)]
    _, s = run(state(units, deck), {"type": "ReportCounters", "rumored": 0, "reinforcements": 2})
    _, s = run(
        s, {"type": "ReportPosition", "unit": "R2", "hex": "0309", "facing": 0, "in_play": True}
    )
    events, _ = ai_turn(s, 1)
    check = one(events, MissionTrackChecked)
    assert (check.count, check.advanced) == (4, False)
