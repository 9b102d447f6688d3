"""7.0 / 7.1 mission instructions umpire carries out itself (reinforcements, the most
exposed AI hex), the end of the mission (README "End of the mission"), a player's
reinforcement reported onto the map, and 5.3's literal reading (README ledger 5.3)
(003_368c69a730e6e14a.txt)."""

from __future__ import annotations

import pytest

from tests.rulesets.conflict_of_heroes.setups import (
    ai,
    ai_turn,
    card,
    every,
    one,
    reasons,
    rolls,
    run,
    state,
    unit,
)
from umpire.engine.errors import InvalidSetup
from umpire.engine.rulesets.conflict_of_heroes.events import (
    AiMoved,
    AiReinforcementEntered,
    AiUnitSelected,
    MissionHexChosen,
    MissionInstructionIssued,
    RoundEnded,
)
from umpire.engine.rulesets.conflict_of_heroes.scenario import (
    MissionEnd,
    MissionInstruction,
    ObjectiveSpec,
    TerrainSpec,
)
from umpire.engine.rulesets.conflict_of_heroes.setup import Setup, initial_state
from umpire.engine.rulesets.conflict_of_heroes.terms import MissionTarget, WhoseTurn
from umpire.events.types import GameEnded, Winner

REINFORCE = MissionInstruction(number=1, text="R enters at 0901", reinforcements=("R",))
SMOKE = MissionInstruction(
    number=2, text="smoke on the most exposed hex", target=MissionTarget.MOST_EXPOSED_AI_HEX
)
CARD = card(1, "blue", 4, "Counteraction 1", tactical=["Mission Order 2"])


def _mission(*units, **kw):  # type: ignore[no-untyped-def]
    return state(
        [*units, unit("U", "0508")],
        (CARD,),
        counteractions=[REINFORCE],
        mission_orders=[SMOKE],
        **kw,
    )


def test_a_reinforcement_enters_where_the_mission_says() -> None:
    """Counteraction 1 names R (set up out of play at 0901): umpire places it; no dice."""
    s = _mission(ai("A", "0503"), ai("R", "0901", facing=4, in_play=False))
    events, s = ai_turn(s, 1)
    one(events, MissionInstructionIssued)
    entered = one(events, AiReinforcementEntered)
    assert (entered.unit, entered.hex, entered.facing) == ("R", "0901", 4)
    r = s.unit("R")
    assert r is not None and r.in_play and r.hex == "0901"


def test_a_reinforcement_that_cannot_enter_passes_to_the_next_order() -> None:
    """An AI holds R's entry hex (no stacking, 5.3.1): Counteraction 1 cannot be executed,
    so the card's next order, Mission Order 2, is."""
    s = _mission(ai("A", "0901"), ai("R", "0901", in_play=False))
    events, _ = ai_turn(s, 1)
    assert not every(events, AiReinforcementEntered)
    assert one(events, MissionHexChosen).hex == "0901"


def test_the_most_exposed_ai_hex_is_computed() -> None:
    """U at 0508 faces N with range 5: A at 0505 is in its Fire Zone, B at 0101 is not;
    A's hex is the most exposed, with no die."""
    s = state(
        [ai("A", "0505"), ai("B", "0101"), unit("U", "0508")],
        (card(1, "blue", 4, "Mission Order 2"),),
        mission_orders=[SMOKE],
    )
    events, _ = ai_turn(s, 1)
    chosen = one(events, MissionHexChosen)
    assert (chosen.target, chosen.hex) == ("most_exposed_ai_hex", "0505")
    assert "most Units' Fire Zones" in reasons(chosen.candidates)["0101 (B)"]
    assert not rolls(events)[1:]


def test_equally_exposed_hexes_are_split_by_dm_then_1d6() -> None:
    """Neither A (0101) nor B (1201) is in a Fire Zone, both DM 0: 1D6 rolls 4, which names
    neither (rolled again), then 2, the second option: B's hex."""
    s = state(
        [ai("A", "0101"), ai("B", "1201"), unit("U", "0508")],
        (card(1, "blue", 4, "Mission Order 2"),),
        mission_orders=[SMOKE],
    )
    events, _ = ai_turn(s, 1, [4], [2])
    assert one(events, MissionHexChosen).hex == "1201"


def test_a_reinforcement_must_be_an_ai_counter_out_of_play() -> None:
    with pytest.raises(InvalidSetup, match="reinforcement R must be an AI counter"):
        _mission(ai("A", "0503"))


def test_a_players_reinforcement_is_reported_onto_the_map() -> None:
    """A Unit set up out of play is placed by ReportPosition (base game: the player's
    reinforcements arrive as the mission says)."""
    s = state([ai("A", "0503"), unit("U", "0508"), unit("P2", "0110", in_play=False)])
    _, s = run(s, {"type": "ReportPosition", "unit": "P2", "hex": "0210", "facing": 1})
    p2 = s.unit("P2")
    assert p2 is not None and p2.in_play and (p2.hex, p2.facing) == ("0210", 1)


def test_the_last_round_ends_the_mission_with_its_result() -> None:
    """last_round 1 and ai_holds OBJ (0503, held by A): the player passes, the AI passes
    (no order on the card can be executed), so round 1 ends: the AI wins."""
    held = ObjectiveSpec(id="OBJ", hex="0503")
    s = state(
        [ai("A", "0503"), unit("U", "0508")],
        (card(1, "blue", 4, "Hit AI closest to Unit -> Rally"),),
        objectives=[held],
        end=MissionEnd(last_round=1, ai_holds=("OBJ",)),
    )
    _, s = run(s, {"type": "Pass"})
    events, _ = run(s, {"type": "TakeAiTurn"}, [[1]])
    assert not every(events, RoundEnded)
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    assert ended.result == "the AI wins: it holds OBJ at the end of round 1"
    assert ended.winner is Winner.OPPONENT  # the table's "You lose"
    assert ended.rule.startswith("003_368c69a730e6e14a.txt 7.0")


def test_the_player_wins_when_the_ai_does_not_hold_the_objective() -> None:
    s = state(
        [ai("A", "0503"), unit("U", "0508")],
        (card(1, "blue", 4, "Hit AI closest to Unit -> Rally"),),
        objectives=[ObjectiveSpec(id="OBJ", hex="0605")],
        end=MissionEnd(last_round=1, ai_holds=("OBJ",)),
    )
    _, s = run(s, {"type": "Pass"})
    events, _ = run(s, {"type": "TakeAiTurn"}, [[1]])
    assert isinstance(events[-1], GameEnded)
    assert events[-1].result.startswith("the player wins: the AI does not hold OBJ")
    assert events[-1].winner is Winner.PLAYER


def test_destroying_the_last_ai_ends_the_mission() -> None:
    """7.3: the last AI destroyed (R still to come would keep it going)."""
    s = state([ai("A", "0503"), unit("U", "0508")])
    events, _ = run(s, {"type": "ReportDestroyed", "unit": "A"})
    assert isinstance(events[-1], GameEnded)
    assert events[-1].result == "the player wins: every AI is destroyed"
    assert events[-1].winner is Winner.PLAYER
    s = state([ai("A", "0503"), ai("R", "0901", in_play=False), unit("U", "0508")])
    events, _ = run(s, {"type": "ReportDestroyed", "unit": "A"})
    assert not every(events, GameEnded)


def test_the_sample_mission_carries_its_end_and_reinforcement() -> None:
    s = initial_state(Setup())
    assert s.end == MissionEnd(last_round=5, ai_holds=("OBJ-A",))
    assert s.counteractions[0].reinforcements == ("AI-RIFLE-3",)
    assert s.mission_orders[1].target is MissionTarget.MOST_EXPOSED_AI_HEX
    assert s.turn is WhoseTurn.PLAYER


# -- 5.3, literal reading (README ledger 5.3) ------------------------------------------


MOVE = card(1, "blue", 4, "AI closest to Objective -> Move")
WALL = TerrainSpec(hex="0504", impassable=True)
OBJ = ObjectiveSpec(id="OBJ", hex="0508")


def test_a_move_order_the_ai_cannot_carry_out_closer_goes_to_the_next_candidate() -> None:
    """From 0503 towards OBJ at 0508 only 0504 is closer, and it is impassable: A could
    only step sideways (0404, 0604), which a Move order does not do by default, so A is
    not eligible and B (0801, farther) executes the order; its two closer hexes tie on
    every 5.3 key and 1D6 rolls 1: the first."""
    s = state([ai("A", "0503"), ai("B", "0801"), unit("U", "1210")], (MOVE,),
              terrain=[WALL], objectives=[OBJ])  # fmt: skip
    events, _ = ai_turn(s, 1, [1])
    moved = one(events, AiMoved)
    assert moved.unit == "B" and moved.from_hex == "0801"
    why = reasons(one(events, AiUnitSelected).candidates)
    assert why["A"].startswith("cannot move closer to its closest target")


def test_with_sideways_moves_the_ai_steps_sideways() -> None:
    """The switch (Setup.sideways_moves): A steps sideways to 0404 or 0604, tied on every
    5.3 key; 1D6 rolls 1: the first, 0404."""
    s = state([ai("A", "0503"), ai("B", "0801"), unit("U", "1210")], (MOVE,),
              terrain=[WALL], objectives=[OBJ], sideways_moves=True)  # fmt: skip
    events, _ = ai_turn(s, 1, [1])
    moved = one(events, AiMoved)
    assert (moved.unit, moved.to_hex) == ("A", "0404")


@pytest.mark.parametrize(("marker", "winner"), [(True, "the AI wins"), (False, "the player wins")])
def test_a_control_marker_the_ai_left_still_counts_as_held_at_the_end(
    marker: bool, winner: str
) -> None:
    """README ledger "5.0 Player Control Markers": A stands alone on OBJ (0503) at set-up
    and is then reported at 0504, off it; at the end of round 1 (both pass) a Control
    Marker there is still the AI's (the AI wins), while a plain objective is held only by
    standing in it (the player wins)."""
    s = state(
        [ai("A", "0503"), unit("U", "0508")],
        (card(1, "blue", 4, "Hit AI closest to Unit -> Rally"),),
        objectives=[ObjectiveSpec(id="OBJ", hex="0503", control_marker=marker)],
        end=MissionEnd(last_round=1, ai_holds=("OBJ",)),
    )
    _, s = run(s, {"type": "ReportPosition", "unit": "A", "hex": "0504", "facing": 0})
    _, s = run(s, {"type": "Pass"})
    events, _ = run(s, {"type": "TakeAiTurn"}, [[1]])
    assert isinstance(events[-1], GameEnded)
    assert events[-1].result.startswith(winner), events[-1].result


def test_every_unit_destroyed_is_the_ais_win() -> None:
    """7.3: the player's last Unit destroyed, the AI still on the map: the AI wins."""
    s = state([ai("A", "0503"), unit("U", "0508")])
    events, _ = run(s, {"type": "ReportDestroyed", "unit": "U"})
    assert isinstance(events[-1], GameEnded)
    assert events[-1].result == "the AI wins: every Unit is destroyed"
    assert events[-1].winner is Winner.OPPONENT


def test_a_mission_the_ai_holds_nothing_in_ends_drawn() -> None:
    """README "End of the mission": no `ai_holds` objective, the last round over: a draw."""
    s = state(
        [ai("A", "0503"), unit("U", "0508")],
        (card(1, "blue", 4, "Hit AI closest to Unit -> Rally"),),
        end=MissionEnd(last_round=1, ai_holds=()),
    )
    _, s = run(s, {"type": "Pass"})
    events, _ = run(s, {"type": "TakeAiTurn"}, [[1]])
    assert isinstance(events[-1], GameEnded)
    assert events[-1].result.startswith("draw")
    assert events[-1].winner is Winner.DRAW
