"""`umpire store check` on a store of one game counts it in the singular ("the chain of 1
game verified"), not "every chain of 1 game(s)"."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.embedded_site import run_cli
from umpire.server.head_checkpoints import checkpoint_path


def test_store_check_of_one_game_says_one_game(tmp_path: Path) -> None:
    # Fails without the fix: "every chain of 1 game(s) verified".
    code, _, err = run_cli(tmp_path, "new", "nightfighter")
    assert code == 0, err
    code, out, err = run_cli(tmp_path, "store", "check")
    assert code == 0, err
    assert "the chain of 1 game verified, nothing acknowledged missing" in out, out
    assert "(s)" not in out, out


def test_store_check_of_one_unchecked_game_says_it(tmp_path: Path) -> None:
    # Fails without the fix: "every chain of 1 game(s) verified, but 1 of them have no
    # head checkpoint".
    code, _, err = run_cli(tmp_path, "new", "nightfighter")
    assert code == 0, err
    checkpoint_path(tmp_path).unlink()  # as a store from before the checkpoints
    code, out, err = run_cli(tmp_path, "store", "check")
    assert code == 0, err
    said = "every command complete and the chain of 1 game verified, but it has no head"
    assert said in out and "whether it lost acknowledged events" in out, out
    assert "(s)" not in out and "of them" not in out, out


def test_a_restore_counts_the_games_that_lost_events(tmp_path: Path) -> None:
    # Fails without the fix: "1 run of acknowledged events is not in it", the loss counted
    # in runs of seqs, a word of the code's, not in games.
    data_dir = tmp_path / "data"
    code, out, err = run_cli(data_dir, "new", "nightfighter", "--json")
    assert code == 0, err
    game = json.loads(out)["game_id"]
    code, _, err = run_cli(data_dir, "store", "backup", str(tmp_path / "backup"))
    assert code == 0, err
    code, _, err = run_cli(data_dir, "send", game, "MoveBombers")  # acknowledged after it
    assert code == 0, err
    code, out, err = run_cli(data_dir, "store", "restore", str(tmp_path / "backup"))
    assert code == 0, err
    said = " ".join(out.split())
    assert "it lacks acknowledged events of 1 game, each loss named above" in said, said
    assert " run" not in said, said
