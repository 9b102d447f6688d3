"""`umpire audit` and verifier/verify_export.py count a game's rolls as a player does, from
1, as `umpire log`, `play` and the table do: the counter game's third roll (the log's
`roll` field 2, at seq 11) is "roll 3" in every channel. The verify page says the
verifier's words (tests/viewer/test_verify_page.py compares them on these forgeries)."""

from __future__ import annotations

from umpire.testing.support.forgery import Cli, counter_game, read_lines, reseal, write_lines
from umpire.testing.support.verifier import verify


def test_a_forged_roll_is_named_as_the_player_counts_it(cli: Cli) -> None:
    # Fails without the fix: "roll 2 (bot push) does not match the revealed seed" and
    # "server roll 2 shows [...]" for the game's third roll, which `umpire log` calls
    # "roll 3".
    header, records = read_lines(cli.export(counter_game(cli), "--operator"))
    roll = records[10]["payload"]  # seq 11: the third roll, the log's roll 2
    assert roll["type"] == "DiceRolled" and roll["roll"] == 2
    roll["faces"] = [roll["faces"][0] % 6 + 1]
    roll["total"] = roll["faces"][0]
    reseal(header, records, 10)
    path = write_lines(cli.tmp / "dice.jsonl", header, records)
    audited = cli("audit", "--file", str(path))
    assert audited.code == 1, audited.out
    assert "roll 3 (bot push) does not match the revealed seed" in audited.out, audited.out
    code, said = verify(path)
    assert code == 1 and "seq 11: server roll 3 shows [" in said, said


def test_a_roll_out_of_order_is_named_as_the_player_counts_it(cli: Cli) -> None:
    # Fails without the fix: "roll number 5, expected 2" (the log's counts from 0).
    header, records = read_lines(cli.export(counter_game(cli), "--operator"))
    records[10]["payload"]["roll"] = 5  # the third roll numbered as the sixth
    reseal(header, records, 10)
    path = write_lines(cli.tmp / "numbered.jsonl", header, records)
    audited = cli("audit", "--file", str(path))
    assert audited.code == 1, audited.out
    assert "roll 6 is out of order: expected roll 3" in audited.out, audited.out
    code, said = verify(path)
    assert code == 1 and "seq 11: roll 6 is out of order: expected roll 3" in said, said


def test_explain_names_a_roll_as_the_player_counts_it(cli: Cli) -> None:
    # Fails without the fix: "Roll #0 for bot push, rolled by the server: ... roll 0)".
    game = counter_game(cli)
    explained = cli("explain", game, "3")  # seq 3: the game's first roll
    assert explained.code == 0, explained.err
    assert "Roll 1 for bot push, rolled by the server" in explained.out, explained.out
    assert "Roll #" not in explained.out, explained.out
