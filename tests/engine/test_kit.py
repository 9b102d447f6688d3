"""The ruleset kit (engine/kit/): Turn, fold, Dispatch, SeedTable, citations, hidden rolls."""

from __future__ import annotations

import msgspec
import pytest
from msgspec import Struct

from umpire.engine.dice import ManualDice, ServerDice, d6
from umpire.engine.errors import OpponentDiceRefused, RuleError
from umpire.engine.kit.citation import citations
from umpire.engine.kit.dispatch import Dispatch
from umpire.engine.kit.fold import fold
from umpire.engine.kit.hidden_roll import redact_hidden_roll
from umpire.engine.kit.seed_table import Band, SeedTable, lettered
from umpire.engine.kit.turn import Turn
from umpire.events.types import DiceRolled, Owner

cite = citations("999_test.txt")


class Tally(Struct, frozen=True):
    total: int = 0
    rolls: tuple[int, ...] = ()


class Added(Struct, frozen=True, tag="Added"):
    amount: int


class Add(Struct, frozen=True, tag="Add"):
    amount: int


class Other(Struct, frozen=True, tag="Other"):
    pass


def evolve(state: Tally, event: Struct) -> Tally:
    if isinstance(event, Added):
        return msgspec.structs.replace(state, total=state.total + event.amount)
    if isinstance(event, DiceRolled):
        return msgspec.structs.replace(state, rolls=(*state.rolls, event.roll))
    return state


def _turn() -> Turn[Tally]:
    return Turn(Tally(), ServerDice(b"kit", "client", 1), evolve=evolve, cite=cite)


def test_cite_prefixes_the_seed_file() -> None:
    assert cite("3.2.1") == "999_test.txt 3.2.1"
    assert _turn().cite("S13.0") == "999_test.txt S13.0"


def test_emit_folds_each_event_so_later_steps_see_it() -> None:
    turn = _turn()
    turn.emit(Added(2))
    assert turn.state.total == 2
    turn.emit_all([Added(3), Added(4)])
    assert turn.state.total == 9
    assert turn.events == [Added(2), Added(3), Added(4)]


def test_roll_records_the_dice_event_in_order_before_the_decision() -> None:
    turn = _turn()
    first = turn.roll(d6(), "first", cite("1"))
    turn.emit(Added(first.total))
    second = turn.roll(d6(), purpose="second", rule=cite("2"), hidden=True, owner=Owner.PLAYER)
    assert turn.events == [first, Added(first.total), second]
    assert turn.dice.rolled == [first, second]
    assert (first.roll, second.roll) == (1, 2) and turn.state.rolls == (1, 2)
    assert first.owner is Owner.OPPONENT and first.rule == "999_test.txt 1"
    assert second.hidden and second.owner is Owner.PLAYER


def test_fold_is_evolve_over_the_events() -> None:
    assert fold(evolve, Tally(), [Added(1), Added(5)]) == Tally(total=6)
    assert fold(evolve, Tally(total=3), []) == Tally(total=3)


def test_dispatch_derives_command_types_in_order_and_refuses_others() -> None:
    table: Dispatch[str] = Dispatch({Add: "add", Added: "added"}, rule=cite("0"))
    assert table.command_types == (Add, Added)
    assert table.handler(Add(1)) == "add"
    with pytest.raises(RuleError) as refused:
        table.handler(Other())
    assert refused.value.rule == "999_test.txt 0" and "Other" in refused.value.message


TABLE = SeedTable(
    citation=cite("2.1 Test Table"),
    bands=(Band(1, 3, "low"), Band(4, 4, "four"), Band(5, 6, "high", label="5 or more")),
)
GRID = SeedTable(
    citation=cite("2.2 Grid"),
    bands=(Band(1, 2, ("a1", "b1")), Band(3, 6, ("a2", "b2"))),
    columns=("A", "B"),
)


def test_seed_table_reads_the_row_and_cites_it_exactly() -> None:
    read = TABLE.row_for(2)
    assert (read.value, read.citation) == ("low", "999_test.txt 2.1 Test Table, row 1-3")
    assert TABLE.row_for(4).citation == "999_test.txt 2.1 Test Table, row 4"
    assert TABLE.row_for(6).citation == "999_test.txt 2.1 Test Table, row 5 or more"


def test_seed_table_clamps_a_modified_roll_to_the_printed_rows() -> None:
    assert TABLE.row_for(0).value == "low"
    assert TABLE.row_for(9).value == "high"


def test_seed_table_lookup_cites_row_and_column() -> None:
    read = GRID.lookup(4, "B")
    assert (read.value, read.citation) == ("b2", "999_test.txt 2.2 Grid, row 3-6, column B")
    with pytest.raises(KeyError, match="no column 'C'"):
        GRID.lookup(1, "C")


def test_a_hidden_roll_loses_its_faces_and_total_and_an_open_one_is_untouched() -> None:
    dice = ServerDice(b"kit", "client", 1)
    hidden = dice.roll(d6(), purpose="secret", rule="r", owner=Owner.OPPONENT, hidden=True)
    open_roll = dice.roll(d6(), purpose="open", rule="r", owner=Owner.OPPONENT)
    seen = redact_hidden_roll(hidden)
    assert seen.faces == () and seen.total == 0
    assert (seen.purpose, seen.rule, seen.roll) == ("secret", "r", hidden.roll)
    assert redact_hidden_roll(open_roll) is open_roll


def test_state_folds_every_emitted_event_when_read_and_can_be_replaced() -> None:
    turn = _turn()
    turn.emit(Added(2))
    turn.emit_all([Added(3)])
    first = turn.state
    assert first.total == 5
    turn.emit(Added(1))
    assert first.total == 5 and turn.state.total == 6  # an earlier read is a snapshot
    turn.state = Tally(total=100)  # taken as the fold of everything emitted so far
    turn.emit(Added(1))
    assert turn.state.total == 101


def test_an_opponent_entry_needs_the_games_permission() -> None:
    """The player's entry of an opponent's draw is refused unless the game allows the
    opponent's dice (the policy the dice carry), and taken when it does."""
    strict = Turn(Tally(), ServerDice(b"kit", "c", 1), evolve=evolve, cite=cite)
    with pytest.raises(OpponentDiceRefused, match="card for the AI"):
        strict.check_opponent_entry("card for the AI", cite("4.0"))
    allowed = ServerDice(b"kit", "c", 1, opponent_entries=True)
    Turn(Tally(), allowed, evolve=evolve, cite=cite).check_opponent_entry("card", cite("4.0"))
    refused = ManualDice([], 1, opponent_dice=False)
    with pytest.raises(OpponentDiceRefused):
        Turn(Tally(), refused, evolve=evolve, cite=cite).check_opponent_entry("c", cite("4.0"))


def test_seed_table_row_citation_shape_is_data() -> None:
    """A ruleset whose logs cite rows otherwise keeps its shape by data (row_cite); a
    lettered table (rows chosen by conditions) is read by label."""
    rows = lettered(("A", 5), ("B", 8), ("D", 0))
    assert [(b.low, b.high, b.span) for b in rows] == [(1, 1, "A"), (2, 2, "B"), (3, 3, "D")]
    table = SeedTable(citation=cite("3.2.2 Placement"), bands=rows, row_cite=" row {span}")
    assert table.row("B").value == 8
    assert table.row("D").citation == "999_test.txt 3.2.2 Placement row D"
    bare = SeedTable(citation=cite("4.1.1 Events"), bands=(Band(1, 4, "x"),), row_cite=" {span}")
    assert bare.row_for(2).citation == "999_test.txt 4.1.1 Events 1-4"
    with pytest.raises(KeyError):
        table.row("C")
