"""The end of an engagement: one side has no aircraft left in it.

Seed 002_c21c1b1d0b6ff92b.txt 1: the base game's rules run the dogfight and the
supplemental rules add no end of their own. umpire ends the engagement when the last
aircraft of a side is shot down (3.2.5, 4.1.6, 5.4, 7.1.3): the other side wins. That is
the one end condition of every scenario, so it is not a setup field (README "End of the
engagement"); a player who stops early sends `EndGame`.
"""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.rulesets.down_in_flames.events import AircraftShotDown
from umpire.engine.rulesets.down_in_flames.state import State
from umpire.engine.rulesets.down_in_flames.terms import Side, cite
from umpire.events.types import GameEnded, Winner

RULE_END = cite("1")  # the base game's dogfight runs until one side is gone


def sides_flying(state: State) -> tuple[Side, ...]:
    """The sides with at least one aircraft not shot down, in side order."""
    planes = state.aircraft.values()
    return tuple(s for s in Side if any(p.side is s and not p.shot_down for p in planes))


def _winner(state: State, side: Side) -> Winner | None:
    """`side`'s win said from the player's seat: the player's when the player runs that side
    alone, the opponent's when the player runs the other; None when the player runs both
    (a win for each of the player's sides is no one's over the other)."""
    mine = side in state.player_sides
    if mine and len(state.player_sides) == 1:
        return Winner.PLAYER
    return None if mine else Winner.OPPONENT


def engagement_end(before: State, after: State, events: list[Struct]) -> GameEnded | None:
    """GameEnded when these events shot down the last aircraft of a side, else None."""
    if not any(isinstance(e, AircraftShotDown) for e in events):
        return None
    had, has = sides_flying(before), sides_flying(after)
    gone = [s for s in had if s not in has]
    if not gone:
        return None
    if not has:
        return GameEnded(
            result="draw: no aircraft of either side is left", rule=RULE_END, winner=Winner.DRAW
        )
    result = (
        f"side {has[0].value} wins: side {gone[0].value} has no aircraft left in the engagement"
    )
    winner = _winner(after, has[0])
    if winner is None:
        return GameEnded(result=result, rule=RULE_END)
    return GameEnded(result=result, rule=RULE_END, winner=winner)
