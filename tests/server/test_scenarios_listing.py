"""`umpire scenarios RULESET`: a clause every scenario's source ends with is said once,
under the table (downtown's sixteen cards share one long SAMPLE note)."""

from __future__ import annotations

from umpire.server.render import shared_tail
from umpire.testing.support.forgery import Cli


def test_downtowns_shared_sample_note_is_said_once(cli: Cli) -> None:
    # Fails without the fix: the note was in each of the 16 rows' source cell.
    result = cli("scenarios", "downtown")
    assert result.code == 0, result.err
    flat = " ".join(result.out.split())
    assert flat.count("SAMPLE") == 1, result.out
    assert "and for every scenario above: SAMPLE for the rest of the card" in flat, flat
    for row in range(1, 17):  # each row keeps what is its own
        assert f"row D{row}" in flat, flat


def test_a_clause_is_shared_only_when_every_source_ends_with_it() -> None:
    assert shared_tail(["a 1; note (x; y)", "b 2; note (x; y)"]) == "note (x; y)"
    assert shared_tail(["a; note", "b; other note"]) == ""  # not every source has it
    assert shared_tail(["the same; note", "the same; note"]) == "note"
    assert shared_tail(["; note", "a; note"]) == ""  # a row would say nothing of its own
    assert shared_tail(["only; one"]) == ""
