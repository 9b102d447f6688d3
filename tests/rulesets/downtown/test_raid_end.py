"""Raid end (README; scenario data, the seed states no end of play): the game ends with
GameEnded when every reported US flight has been on the map and left it, or when the
Admin Phase of `Setup.turn_limit` is done; the cited rule is the README's "Raid end" row."""

from __future__ import annotations

from typing import Any

import msgspec

from tests.rulesets.downtown.setups import flight, new_state, of, run
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.state import State
from umpire.events.types import GameEnded, Winner

END_RULE = "000_842c81c5c58bc2f6.txt Raid end"


def _report(*flights: dict[str, Any]) -> dict[str, Any]:
    return {"type": "ReportUsFlights", "flights": list(flights)}


def _detection(**setup: Any) -> State:
    return msgspec.structs.replace(new_state(**setup), phase="detection", turn=1)


def test_the_raid_ends_when_its_last_flight_has_left() -> None:
    state, events = run(_detection(), _report(flight("S1", "strike", "bombing", "0520")))
    assert not of(events, GameEnded)
    state, events = run(
        state,
        _report(flight("S1", "strike", "bombing", "0520", on_map=False),
                flight("C1", "cap", "cap", "0520", on_map=False)),
    )  # fmt: skip
    assert not of(events, GameEnded), "C1 has not entered yet: the raid goes on"
    _, events = run(state, _report(flight("S1", "strike", "bombing", "0520", on_map=False)))
    (ended,) = of(events, GameEnded)
    assert ended.rule.startswith(END_RULE) and "last US flight has left the map" in ended.result
    assert "victory conditions" in ended.result and events[-1] is ended
    assert ended.winner is Winner.NONE_STATED  # the solo rules score none


def test_flights_not_yet_entered_do_not_end_it() -> None:
    _, events = run(_detection(), _report(flight("S1", "strike", "bombing", "0520", on_map=False)))
    assert not of(events, GameEnded)


def test_the_turn_limit_ends_it_after_its_admin_phase() -> None:
    """turn_limit 2: the Admin Phase of turn 1 opens turn 2; that of turn 2 ends the game
    instead (no Detection Phase of turn 3). Server dice (seed 0)."""
    state = msgspec.structs.replace(new_state(turn_limit=2), phase="movement", turn=1)
    state, events = run(state, {"type": "RunAdminPhase"})
    assert not of(events, GameEnded) and state.turn == 2
    state = msgspec.structs.replace(state, phase="movement")
    state, events = run(state, {"type": "RunAdminPhase"})
    (ended,) = of(events, GameEnded)
    assert "turn 2, the scenario's last (turn limit 2)" in ended.result
    assert events[-1] is ended and ended.rule.startswith(END_RULE)
    assert [e.phase for e in of(events, ev.PhaseBegan)] == ["admin"] and state.turn == 2
