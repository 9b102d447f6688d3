"""Ties the seed leaves open, and what the decision says of the location set aside.

3.2.2: "If there is a choice, because there is more than one location, place it in the
SAM location closest to downtown Hanoi/Haiphong first." The seed says nothing of two
locations equally close to downtown. umpire takes the one nearer the row's centre (the
measuring flight for rows A and B, the raid target for row C: what the row measures
from), then the lower hex label (README ledger 3.2.2 ties), and the decision says why the
other lost; it said "farther from downtown" of an equally close location. 2.3's Fire Can
ties (target, then the flights, then the label) and 5.4.5's parents said "farther" of an
equal one too.
"""

from __future__ import annotations

import msgspec

from tests.rulesets.downtown.setups import new_state, of
from umpire.engine.dice import ManualDice
from umpire.engine.rulesets.downtown import drv_air, fire_can, sam_activation
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.state import AaaUnit, DrvFlight, SiteUse, UsFlight
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


def test_a_fire_can_hex_as_close_as_the_one_taken_is_not_called_farther() -> None:
    """2.3 row B: S1 (Strike) in the raid target hex 2021, which has no AAA (row A finds
    no eligible hex); AAA in 2020 and 2022 are each one hex from the target and from S1.
    By hand the tie goes to the label, 2020, and 2022 lost as "as close to the raid target
    and to the US flights: a later hex label" (it read "farther from the target or the
    flights")."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="2021")
    aaa = (AaaUnit(id="A1", hex="2020", density="L"), AaaUnit(id="A2", hex="2022", density="L"))
    state = msgspec.structs.replace(new_state(), phase=Phase.ADMIN, turn=1, us=(s1,), aaa=aaa)
    turn = DowntownTurn(state, ManualDice([], 0))
    assert fire_can.deploy_from_table(turn)
    (placed,) = of(turn.events, ev.FireCanPlaced)
    lost = {c.option: c.reason for c in placed.candidates if not c.chosen and ":" in c.option}
    assert placed.hex == "2020"
    assert lost == {
        "row B: 2022": "as close to the raid target and to the US flights: a later hex label"
    }


def test_admin_generation_says_why_each_parent_lost() -> None:
    """5.4.5 (D4, Dummy # 01-57) roll 58 (5, 8): the parent is "the hex closest to a US
    Flight". S1 in 1621; M1 (1624) and M2 (1618) are both 3 hexes away, M3 (1630) 9: by
    hand M1 is taken (the earlier id), M2 "as close to a US flight: a later id", M3
    "farther from a US flight (9 hexes)" (both read "farther")."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="1621")
    drv = (DrvFlight(id="M1", hex="1624"), DrvFlight(id="M2", hex="1618"),
           DrvFlight(id="M3", hex="1630"))  # fmt: skip
    state = msgspec.structs.replace(new_state(), phase=Phase.ADMIN, turn=1, drv=drv, us=(s1,))
    turn = DowntownTurn(state, ManualDice([[5, 8]], 0))
    drv_air.admin_generation(turn)
    (decided,) = [e for e in of(turn.events, ev.DecisionMade) if e.topic == "admin_generation"]
    reasons = {c.option: c.reason for c in decided.candidates}
    assert decided.result == "M1"
    assert reasons == {
        "M1": "closest to a US flight",
        "M2": "as close to a US flight: a later id",
        "M3": "farther from a US flight (9 hexes)",
    }
