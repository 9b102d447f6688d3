"""When the raid is over (scenario data; the seed states no end of play).

The solo rules run the DRV for one US raid. The raid is over when its last US flight has
left the map (every reported US flight has been on the map and is now off it; a flight
reported off the map that has never entered is still to come), or when the
Admin Phase of the scenario's last game turn (`Setup.turn_limit`) is done. Victory is the
base game's (the scenario's victory conditions): the solo rules score none, so the result
says who won only as far as umpire can tell (README "Raid end").
"""

from __future__ import annotations

from umpire.engine.rulesets.downtown.labels import LABELS
from umpire.engine.rulesets.downtown.state import State
from umpire.engine.rulesets.downtown.terms import Phase, cite

# Shown at the table and by `umpire log`: the setting by its label, never its code name.
R_END = cite(
    "Raid end (scenario data: the raid's last flight leaves, or the scenario's "
    f"{LABELS.label('turn_limit').lower()})"
)
WINNER = (
    "the winner is decided by the scenario's victory conditions in the base game (the solo "
    "rules score none)"
)


def result(state: State) -> str | None:
    """Why the game ends now, or None while the raid goes on."""
    if state.turn < 1:
        return None
    if state.us and all(not f.on_map and f.id in state.us_entered for f in state.us):
        return (
            f"the raid is over: its last US flight has left the map (turn {state.turn}, "
            f"{LABELS.words('phase', state.phase)} phase); {WINNER}"
        )
    if state.phase is Phase.ADMIN and state.turn >= state.setup.turn_limit:
        return (
            f"the raid is over: the Admin Phase of turn {state.turn}, the scenario's last "
            f"(turn limit {state.setup.turn_limit}), is done; {WINNER}"
        )
    return None
