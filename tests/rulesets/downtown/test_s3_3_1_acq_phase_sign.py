"""3.3.1 SAM Activation Table (000_842c81c5c58bc2f6.txt): the cumulative modifiers print
"- +2 US Flight within 8 hexes ...", "- +2 ...", "- +2 ..." and then "- 1 In SAM Acquisition
Phase": the list bullet ate the sign. Read as -1 by default; `acq_phase_reading: plus_1`
is the other reading (README ledger, 3.3.1)."""

from __future__ import annotations

import msgspec

from tests.rulesets.downtown.setups import SEED, new_state, of
from umpire.engine.dice import ManualDice
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown import sam_activation
from umpire.engine.rulesets.downtown.state import Sam, State, UsFlight
from umpire.engine.rulesets.downtown.terms import AcqPhaseReading, Mission, Phase, Task
from umpire.engine.rulesets.downtown.turn import DowntownTurn
from umpire.testing.support.seeds import seed_text


def _state(**setup: object) -> State:
    """A located SAM at 2021 and a CAP flight 6 hexes away (1421): +2 (within 8) only."""
    us = (UsFlight(id="C1", mission=Mission.STRIKE, task=Task.CAP, hex="1421"),)
    return msgspec.structs.replace(new_state(**setup), us=us, sams=(Sam(id="SAM1", hex="2021"),))


def _check(state: State, die: int, phase: Phase) -> ev.SetUpSamRolled:
    led = DowntownTurn(state, ManualDice([[die], [5, 5]], 0))  # a possible activation: Dummy Check
    sam_activation.setup_check(led, phase)
    return of(led.events, ev.SetUpSamRolled)[0]


def test_the_seed_prints_the_acq_line_without_its_sign() -> None:
    text = seed_text(SEED)
    assert "\n- +2 US Flight within 8 hexes" in text
    assert "\n- +2 US Bombing or Recon-tasked flight within 12 hexes" in text
    assert "\n- 1 In SAM Acquisition Phase\n" in text


def test_acq_phase_reads_minus_one_by_default() -> None:
    """A 9 with +2 (within 8) is 11 in the Admin Phase and 10 in the Acquisition Phase: a
    possible activation either way; an 8 gives 10 in Admin but 9 (no activation) in Acq.
    On main the Acq phase added +1 (8 + 2 + 1 = 11)."""
    state = _state()
    assert state.setup.acq_phase_reading is AcqPhaseReading.MINUS_ONE
    admin = _check(state, 8, Phase.ADMIN)
    assert (admin.total, admin.possible) == (10, True)
    acq = _check(state, 8, Phase.SAM_ACQUISITION)
    assert acq.modifiers == ("within_8", "acq_phase")
    assert (acq.total, acq.possible) == (9, False)
    assert "3.3.1" in acq.rule and "-1" in acq.rule and SEED in acq.rule


def test_the_plus_one_reading_is_a_setup_switch() -> None:
    """`acq_phase_reading: plus_1`: a 7 with +2 +1 is 10 in the Acquisition Phase."""
    state = _state(acq_phase_reading="plus_1")
    acq = _check(state, 7, Phase.SAM_ACQUISITION)
    assert (acq.total, acq.possible) == (10, True) and "+1" in acq.rule
    default = _check(_state(), 7, Phase.SAM_ACQUISITION)
    assert (default.total, default.possible) == (8, False)
