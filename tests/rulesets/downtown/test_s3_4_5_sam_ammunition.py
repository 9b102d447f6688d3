"""3.4.5 SAM Reaction Table option 1 (000_842c81c5c58bc2f6.txt): "Fire a Salvo. If there is
insufficient ammo, fire one SAM." Ammunition per battalion and per salvo are base-game
values held in the setup (`sam_missiles`, `sam_salvo`); the state counts what each SAM has
fired, and 4.1.1 gives back the missiles of an inhibited attack."""

from __future__ import annotations

import msgspec

from tests.rulesets.downtown.setups import SEED, new_state, of
from umpire.engine.dice import ManualDice
from umpire.engine.rulesets.downtown import drv_attack, sam_behaviour, solitaire_events
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.state import Sam, State, UsFlight
from umpire.engine.rulesets.downtown.terms import AcqLevel, AttackRoll, Mission, SamStatus, Task
from umpire.engine.rulesets.downtown.turn import DowntownTurn
from umpire.testing.support.seeds import seed_text

FLIGHT = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="2024")
"""Range 3 from the SAM at 2021: option 1 (Full or Partial, range 2-3: a salvo)."""


def _sam(spent: int) -> Sam:
    return Sam(
        id="SAM1",
        hex="2021",
        status=SamStatus.ACTIVE,
        radar_on=True,
        target="S1",
        level=AcqLevel.FULL,
        spent=spent,
    )


def _moving(spent: int, **setup: object) -> State:
    state = new_state(**setup)
    return msgspec.structs.replace(
        state, phase="movement", turn=1, us=(FLIGHT,), sams=(_sam(spent),)
    )


def _react(state: State) -> DowntownTurn:
    led = DowntownTurn(state, ManualDice([], 0))
    sam_behaviour.react(led, FLIGHT)
    return led


def test_the_seed_says_one_sam_when_ammunition_is_short() -> None:
    text = seed_text(SEED)
    assert "Fire a Salvo. If there is insufficient ammo, fire one SAM." in text
    assert "its attack does not take place and it doesn't expend any ammo" in text


def test_a_full_battalion_fires_a_salvo() -> None:
    """6 missiles, a salvo of 3: option 1 fires a salvo and 3 are spent."""
    led = _react(_moving(0, sam_missiles=6, sam_salvo=3))
    (reacted,) = of(led.events, ev.SamReacted)
    assert (reacted.option, reacted.fire, reacted.missiles) == (1, "salvo", 3)
    assert led.state.sams[0].spent == 3


def test_one_sam_when_ammunition_is_short() -> None:
    """6 missiles, 4 spent: 2 left, fewer than a salvo of 3, so option 1 fires ONE SAM (on
    main the battalion fired a salvo whatever it had left)."""
    led = _react(_moving(4, sam_missiles=6, sam_salvo=3))
    (reacted,) = of(led.events, ev.SamReacted)
    assert (reacted.option, reacted.fire, reacted.missiles) == (1, "one", 1)
    assert "3.4.5 option 1" in reacted.rule and SEED in reacted.rule
    assert "insufficient ammo" in reacted.explanation
    assert led.state.sams[0].spent == 5


def test_the_last_missile_is_fired_as_one_sam_and_then_none() -> None:
    """1 left: one SAM; 0 left: no attack (a DecisionMade says why, once per phase)."""
    led = _react(_moving(5, sam_missiles=6, sam_salvo=3))
    assert [r.fire for r in of(led.events, ev.SamReacted)] == ["one"]
    state = msgspec.structs.replace(led.state, sams=(_sam(6),))
    led = _react(state)
    assert not of(led.events, ev.SamReacted)
    (empty,) = [e for e in of(led.events, ev.DecisionMade) if e.topic == "sam_out_of_ammo"]
    assert empty.result == "SAM1" and "3.4.5" in empty.rule
    sam_behaviour.react(led, FLIGHT)
    assert len(led.events) == 1  # not repeated for the next Movement Point


def test_option_2_salvo_also_falls_back_to_one_sam() -> None:
    """Option 2 (range 4-5, Bombing): a salvo; with 2 left it fires one SAM (ledger 3.4.5)."""
    far = msgspec.structs.replace(FLIGHT, hex="2026")
    state = msgspec.structs.replace(_moving(4, sam_missiles=6, sam_salvo=3), us=(far,))
    led = DowntownTurn(state, ManualDice([], 0))
    sam_behaviour.react(led, far)
    (reacted,) = of(led.events, ev.SamReacted)
    assert (reacted.option, reacted.fire) == (2, "one")


def test_an_inhibited_attack_expends_no_ammo() -> None:
    """4.1.1: the salvo's attack roll is a double (5, 5) and the Random Events roll 3 inhibits
    options 1 and 2: the attack does not take place and the 3 missiles are not spent."""
    led = _react(_moving(0, sam_missiles=6, sam_salvo=3))
    assert led.state.sams[0].spent == 3
    led.dice = ManualDice([[5, 5], [3]], 0)
    attack = drv_attack.require(led.state, led.board, "SAM1", FLIGHT, AttackRoll.SAM_ATTACK)
    solitaire_events.attack_roll(led, attack, FLIGHT)
    (event,) = of(led.events, ev.RandomEventRolled)
    assert event.inhibited
    assert led.state.sams[0].spent == 0
