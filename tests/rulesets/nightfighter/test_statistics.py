"""Statistical checks under server dice (fixed seed): S5.2/S5.3 cells equally likely and
S5.4 phantom tests removing counters at the odds the rule gives."""

from __future__ import annotations

from collections import Counter as Tally

import pytest

from tests.rulesets.nightfighter.setups import counter, make_setup, make_state
from umpire.engine.dice import ServerDice
from umpire.engine.rulesets.nightfighter.location_roll import roll_location
from umpire.engine.rulesets.nightfighter.phantom_test import phantom_test
from umpire.engine.rulesets.nightfighter.terms import Phase
from umpire.engine.rulesets.nightfighter.turn import NightfighterTurn

SEED = b"\x00" * 32
# Chi-square critical values at p = 0.001 (df 1, 5, 17).
CRITICAL = {1: 10.828, 5: 20.515, 17: 40.790}


def chi_square(observed: list[int], expected: list[float]) -> float:
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))


@pytest.mark.parametrize(("level", "cells", "rolls"), [("moderate", 18, 3600), ("low", 6, 1800)])
def test_location_cells_equally_likely(level: str, cells: int, rolls: int) -> None:
    """S5.2/S5.3: each cell of the area has an equal chance."""
    state = make_state(make_setup(), [counter("B-1", "1010", level)], Phase.AI_RADAR)
    dice = ServerDice(SEED, f"stats-{level}", 0)
    seen = Tally(
        roll_location(NightfighterTurn(state, dice), state, state.counters[0], "chi-square").cell
        for _ in range(rolls)
    )
    assert len(seen) == cells
    stat = chi_square(list(seen.values()), [rolls / cells] * cells)
    assert stat < CRITICAL[cells - 1], stat


@pytest.mark.parametrize(("total", "p_real"), [(2, 1 / 2), (3, 1 / 3), (4, 1 / 4), (6, 1 / 6)])
def test_phantom_test_odds(total: int, p_real: float) -> None:
    """S5.4: one other counter: real on 1-3; two: 1-2; three or more: 1 with re-rolls above
    the number in play, i.e. 1 in `total` that the tested counter is the bomber."""
    hexes = ["0505", "1010", "1515", "0515", "1505", "1020"][:total]
    state = make_state(
        make_setup(), [counter(f"B-{i}", h, "high") for i, h in enumerate(hexes, 1)],
        Phase.RADAR_SEARCH,
    )  # fmt: skip
    dice = ServerDice(SEED, f"phantom-{total}", 0)
    n = 1200
    real = sum(
        phantom_test(NightfighterTurn(state, dice), state.counters[0], "chi-square").result
        == "real"
        for _ in range(n)
    )
    stat = chi_square([real, n - real], [n * p_real, n * (1 - p_real)])
    assert stat < CRITICAL[1], (real, stat)
