"""3.3.2 row 9 (README ledger): a possible dummy radar's first attempt to fire makes
"another dummy check". Read as the check 3.3.1 defines, it adds one per dummy discovered so
far (default); `first_fire_counts_dummies: false` makes it a bare roll."""

from __future__ import annotations

import msgspec

from tests.rulesets.downtown.setups import SEED, new_state, of
from umpire.engine.dice import ManualDice
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown import sam_behaviour
from umpire.engine.rulesets.downtown.state import Sam, State, UsFlight
from umpire.engine.rulesets.downtown.terms import AcqLevel, Mission, SamStatus, Task
from umpire.engine.rulesets.downtown.turn import DowntownTurn
from umpire.testing.support.seeds import seed_text

S1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="2024")
RADAR = Sam(id="SAM1", hex="2021", status=SamStatus.ACTIVE, radar_on=True, target="S1",
            level=AcqLevel.FULL, dummy_radar=True)  # fmt: skip


def _state(**setup: object) -> State:
    return msgspec.structs.replace(
        new_state(**setup), phase="movement", turn=1, us=(S1,), sams=(RADAR,), dummies_found=2
    )


def test_the_seed_defines_the_dummy_check_with_its_modifier() -> None:
    text = " ".join(seed_text(SEED).split())
    assert "make a SAM Dummy Check. Roll two dice. Add one to the roll for each dummy" in text
    assert "on its first attempt to fire at a target make another dummy check" in text


def test_found_dummies_add_by_default() -> None:
    """Two dummies found: the roll (4, 4) = 8 makes 10, the site is real and fires."""
    led = DowntownTurn(_state(), ManualDice([[4, 4]], 0))
    sam_behaviour.react(led, S1)
    (check,) = of(led.events, ev.SamDummyChecked)
    assert (check.roll, check.total, check.outcome) == (8, 10, "passes")
    assert of(led.events, ev.SamReacted)


def test_the_bare_roll_is_a_setup_switch() -> None:
    """`first_fire_counts_dummies: false`: the same (4, 4) is 8, below 10: a dummy, removed."""
    led = DowntownTurn(_state(first_fire_counts_dummies=False), ManualDice([[4, 4]], 0))
    sam_behaviour.react(led, S1)
    (check,) = of(led.events, ev.SamDummyChecked)
    assert (check.total, check.outcome) == (8, "removed")
    assert led.state.sams[0].status is SamStatus.REMOVED
