"""The end of an engagement (README "End of the engagement"; 002_c21c1b1d0b6ff92b.txt 1
leaves the dogfight to the base game): a side with no aircraft left loses, and that
side may not begin a move."""

from __future__ import annotations

import pytest
from msgspec import UNSET, UnsetType

from tests.rulesets.down_in_flames.setups import duel, engaged, run
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.engine.rulesets.down_in_flames import RULESET
from umpire.engine.rulesets.down_in_flames.events import AircraftShotDown
from umpire.events.types import GameEnded, Winner

SHOT = {"type": "Attack", "attacker": "a1", "target": "b1", "card": "in_my_sights",
        "hits": 3, "bursts": 1}  # fmt: skip


def test_the_last_aircraft_of_a_side_shot_down_ends_the_engagement() -> None:
    """3 hits x HV 8 against defense 6 is 4:1 (3.2.4); the D6 rolls 1, at most half the
    odds: the Bf 109 is shot down (3.2.5), side B has nothing left, side A wins in the
    same batch."""
    state = engaged(duel(), "a1", "b1", "tailing")
    state, events = run(state, SHOT, [[1]])
    assert [type(e) for e in events][-2:] == [AircraftShotDown, GameEnded]
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    assert ended.result.startswith("side A wins: side B has no aircraft left")
    assert ended.rule == "002_c21c1b1d0b6ff92b.txt 1"


def test_a_damaging_hit_does_not_end_it() -> None:
    """The D6 rolls 3 at 4:1: damaged, not shot down (3.2.5); the fight goes on."""
    state = engaged(duel(), "a1", "b1", "tailing")
    _, events = run(state, SHOT, [[3]])
    assert not any(isinstance(e, GameEnded) for e in events)


def test_a_side_with_no_aircraft_left_may_not_begin_a_move() -> None:
    """After the Bf 109 is shot down (D6 1 at 4:1), BeginTurn for side B is refused, as
    `actions` offers only side A."""
    state = engaged(duel(), "a1", "b1", "tailing")
    state, _ = run(state, SHOT, [[1]])
    state, _ = run(state, {"type": "EndTurn", "side": "A"})
    with pytest.raises(RuleError, match="side B has no aircraft left in the engagement; "
                       "sides that may move: A"):  # fmt: skip
        run(state, {"type": "BeginTurn", "side": "B"})
    offered = next(a for a in RULESET.actions(state, Role.PLAYER) if a.type == "BeginTurn")
    assert offered.variants[0]["side"] == {"enum": ["A"]}


@pytest.mark.parametrize(
    ("player_sides", "winner"),
    [(["A"], Winner.PLAYER), (["B"], Winner.OPPONENT), (["A", "B"], UNSET)],
    ids=["the player's side wins", "the opponent's side wins", "the player runs both"],
)
def test_the_end_says_who_won_from_the_players_seat(
    player_sides: list[str], winner: Winner | UnsetType
) -> None:
    """Side A shoots down side B's last aircraft: a win for the player who runs side A, a
    loss for one who runs side B; a player who runs both sides is told which side won and
    no winner over the other (the table's "You win" / "You lose")."""
    state = engaged(duel(player_sides=player_sides), "a1", "b1", "tailing")
    _, events = run(state, SHOT, [[1]])
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    assert ended.winner == winner
    assert ended.result.startswith("side A wins")
