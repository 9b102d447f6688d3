"""3.2.2: "If there is a choice, because there is more than one location, place it in the
SAM location closest to downtown Hanoi/Haiphong first." The seed says nothing of two
locations equally close to downtown. umpire takes the one nearer the row's centre (the
measuring flight for rows A and B, the raid target for row C: what the row measures
from), then the lower hex label (README ledger 3.2.2 ties), and the decision says why the
other lost; it said "farther from downtown" of an equally close location."""

from __future__ import annotations

import msgspec

from tests.rulesets.downtown.setups import new_state, of
from umpire.engine.dice import ManualDice
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown import sam_activation
from umpire.engine.rulesets.downtown.state import SiteUse, UsFlight
from umpire.engine.rulesets.downtown.terms import Mission, Phase, Task
from umpire.engine.rulesets.downtown.turn import DowntownTurn

# The 1967 table's locations of the synthetic map nearer downtown than 13 hexes, used up
# (two strikes each), so that row C (within 15 of the raid target 2021) is left with 1331
# and 2309, both 13 hexes from downtown: 1331 is 14 hexes from 2021, 2309 is 13.
USED = ("2022", "2727", "2320", "2428", "1625", "2732", "3325", "1221", "2314", "1832",
        "1729", "1228", "1115", "3119", "2110", "3519", "3014")  # fmt: skip


def test_equally_close_to_downtown_the_one_nearer_the_target_is_taken() -> None:
    """Admin Phase placement: S1 (detected bomber) in 0101, more than 8 hexes from every
    location left, so rows A and B find none; row C: 1331 and 2309 are both 13 hexes from
    downtown, 2309 is nearer the raid target (13 against 14): by hand 2309 is taken, and
    1331 lost as farther from 2021 (the label order alone would have taken 1331)."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="0101")
    state = msgspec.structs.replace(
        new_state(), phase=Phase.ADMIN, turn=1, us=(s1,),
        site_uses=tuple(SiteUse(hex=h, strikes=2) for h in sorted(USED)),
    )  # fmt: skip
    turn = DowntownTurn(state, ManualDice([], 0))
    assert sam_activation.place_hidden(turn, acq=False)
    (placed,) = of(turn.events, ev.SamPlaced)
    assert placed.site == "2309" and placed.row == "C"
    lost = {c.option: c.reason for c in placed.candidates if not c.chosen}
    assert lost["row C: 1331"] == "as close to downtown, farther from 2021 (14 hexes)"
