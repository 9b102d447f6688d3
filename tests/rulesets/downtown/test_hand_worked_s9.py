"""Fresh cases worked by hand from 000_842c81c5c58bc2f6.txt (rules session 9): table edges
and steps no earlier test pinned, each with its dice stated and its result worked from the
seed's text without reading the code."""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.downtown.setups import new_state, of, run
from umpire.engine.dice import ManualDice
from umpire.engine.rulesets.downtown import aaa, sam_activation
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.state import Sam, State, UsFlight
from umpire.engine.rulesets.downtown.terms import AcqLevel, Mission, SamStatus, Task
from umpire.engine.rulesets.downtown.turn import DowntownTurn


def _salvo_at_range_3(missiles: int = 6) -> State:
    """SAM1 (2021) has fully acquired S1, a bombing flight three hexes away (2024)."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="2023", facing=3)
    sam = Sam(id="SAM1", hex="2021", status=SamStatus.ACTIVE, radar_on=True, target="S1",
              level=AcqLevel.FULL, shots=1)  # fmt: skip
    return msgspec.structs.replace(
        new_state(sam_missiles=missiles), phase="movement", turn=1, us=(s1,), sams=(sam,)
    )


def _move_and_roll(state: State, roll: list[list[int]]) -> tuple[State, list[msgspec.Struct]]:
    move = {"type": "MoveUsFlight", "flight_id": "S1", "hex": "2024", "altitude": "medium",
            "facing": 3}  # fmt: skip
    state, events = run(state, move, [])
    (reacted,) = of(events, ev.SamReacted)
    assert (reacted.option, reacted.fire) == (1, "salvo")
    attack = {"type": "RollDrvAttack", "unit_id": "SAM1", "flight_id": "S1", "kind": "sam_attack"}
    return run(state, attack, roll)


def test_4_1_1_a_roll_of_7_inhibits_option_2_only_so_an_option_1_salvo_goes_ahead() -> None:
    """4.1.1 row 5-9: "Inhibit SAM Option 2. Attacking SAM units employing option 2 ... are
    inhibited." SAM1's option 1 salvo (range 3, 3.4.5) rolls a double (4, 4) near the raid
    target: the random event die shows 7. By hand: option 2 is inhibited, SAM1 attacks by
    option 1, so its attack takes place and its 3 missiles stay spent (6 - 3 = 3 left)."""
    state, events = _move_and_roll(_salvo_at_range_3(), [[4, 4], [7]])
    (event,) = of(events, ev.RandomEventRolled)
    assert event.inhibits == (2,) and not event.inhibited
    assert state.sams[0].spent == 3 and 1 not in state.sams[0].inhibited


def test_4_1_1_a_roll_of_4_inhibits_the_option_1_salvo_and_spends_nothing() -> None:
    """4.1.1 row 1-4: "Inhibit SAM Options 1 and 2", and "its attack does not take place and
    it doesn't expend any ammo". The same salvo rolls (4, 4), the event die 4: by hand the
    salvo is inhibited and SAM1 keeps all 6 missiles."""
    state, events = _move_and_roll(_salvo_at_range_3(), [[4, 4], [4]])
    (event,) = of(events, ev.RandomEventRolled)
    assert event.inhibits == (1, 2) and event.inhibited
    assert state.sams[0].spent == 0


def test_2_1_5_no_hidden_concentration_no_check() -> None:
    """2.1.5: "If the result is less than or equal to the number of hidden AAA concentrations
    remaining in the pool": with none left in the pool no result can activate one, so no die
    is rolled (a roll that decides nothing is not made) and nothing is placed."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="2022")
    state = msgspec.structs.replace(new_state(), us=(s1,), aaa_pool=())
    led = DowntownTurn(state, ManualDice([], 0))
    aaa.admin_activation(led)
    assert not of(led.events, ev.AaaPlaced)
    assert [e.result for e in of(led.events, ev.DecisionMade)] == ["no check"]


@pytest.mark.parametrize(
    ("unmodified", "modified", "bsan", "acq", "count"),
    [
        (5, 3, 3, True, 1),  # Acq: modified 3 within the BSAN 3; unmodified 5 is not: one
        (3, 1, 3, True, 2),  # Acq: unmodified 3 is within the BSAN 3 too: two
        (3, 2, 2, False, 0),  # Admin: unmodified 3 above the BSAN 2: none, whatever the mods
        (2, 2, 2, False, 2),  # Admin: the modified number, 2
    ],
)
def test_3_2_1_the_two_phases_read_the_unmodified_roll_differently(
    unmodified: int, modified: int, bsan: int, acq: bool, count: int
) -> None:
    """3.2.1: in the Acquisition Phase the modified roll is held against the BSAN (one SAM)
    and the unmodified one decides two (ledger: at most the BSAN); in the Admin Phase the
    unmodified roll above the BSAN places none, else the modified number are placed."""
    assert sam_activation.activation_count(unmodified, modified, bsan, acq=acq) == count
