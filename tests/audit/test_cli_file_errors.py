"""A newcomer's slips with the log commands' files and names: each is one typed error
(exit 2), never a traceback."""

from __future__ import annotations

import pytest

from umpire.testing.support.forgery import Cli


@pytest.mark.parametrize("command", [("import",), ("audit", "--file")])
def test_a_directory_given_as_the_export_file_is_a_clear_error(
    cli: Cli, command: tuple[str, ...]
) -> None:
    # Fails on the previous commit: IsADirectoryError escaped as a traceback.
    result = cli(*command, str(cli.tmp))
    assert result.code == 2, result.err
    assert f"error (invalid_export): cannot read '{cli.tmp}': Is a directory" in result.err


@pytest.mark.parametrize("command", [("import",), ("audit", "--file")])
def test_an_empty_export_file_says_the_export_was_refused(
    cli: Cli, command: tuple[str, ...]
) -> None:
    # What README's `umpire export GAME > game.jsonl` leaves behind when the export is
    # refused; it used to read "line 1: this is not an umpire export".
    path = cli.tmp / "game.jsonl"
    path.write_text("")
    result = cli(*command, str(path))
    assert result.code == 2, result.err
    assert "is empty" in result.err and "that export was refused" in result.err, result.err


def test_log_of_an_unknown_game_has_the_game_not_found_code(cli: Cli) -> None:
    # `state`, `send` and `replay` answered game_not_found; `log` answered a bare "error".
    result = cli("log", "nosuchgame")
    assert result.code == 2
    assert "error (game_not_found): no game 'nosuchgame'" in result.err, result.err


@pytest.mark.parametrize("seed", ["x" * 129, ""])
def test_a_client_seed_out_of_bounds_creates_no_game(cli: Cli, seed: str) -> None:
    # Fails on the previous commit: the game was created, then the binding refused, so
    # the command failed (exit 2) leaving a game with no client seed and no credentials
    # shown; an empty seed was silently replaced by a random one.
    before = cli("games").out
    result = cli("new", "counter", "--client-seed", seed, "--json")
    assert result.code == 2, result.out
    assert "--client-seed is a string of 1 to 128 characters" in result.err, result.err
    assert "nothing was created" in result.err
    assert cli("games").out == before
