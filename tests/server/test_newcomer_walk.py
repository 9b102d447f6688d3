"""What a newcomer trips on walking the README's commands: `umpire new down_in_flames
--setup my-dogfight.toml` with no such file yet says where one comes from (the README
shows it as typed), and `umpire play --help` names the words play reads besides commands
(`help`, `state`, `quit`) and where its gateway is looked for."""

from __future__ import annotations

import subprocess
import sys

from tests.support.processes import REPO
from umpire.events.action_text import fields
from umpire.testing.support.forgery import Cli


def test_a_setup_file_not_written_yet_says_where_one_comes_from(cli: Cli) -> None:
    # Fails without the fix: "cannot read the file (No such file or directory)" alone.
    before = cli("games")
    missing = cli.tmp / "my-dogfight.toml"
    result = cli("new", "down_in_flames", "--setup", str(missing))
    assert result.code == 2, result
    assert "cannot read the file (No such file or directory)" in result.err, result.err
    assert "umpire scenarios down_in_flames --schema" in result.err, result.err
    assert "engine/rulesets/down_in_flames/README.md" in result.err, result.err
    assert "nothing was created" in result.err, result.err
    assert cli("games").out == before.out  # nothing was


def test_play_help_names_its_own_words_and_its_gateway() -> None:
    # Fails without the fix: the help named no word but commands, and the gateway's
    # default as ws://HOST:PORT/ws (a running serve's --port is what play uses now).
    done = subprocess.run(
        [sys.executable, "-m", "umpire.server.cli", "play", "--help"],
        capture_output=True, text=True, timeout=60, cwd=REPO, env={"COLUMNS": "400"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = " ".join(done.stdout.split())
    assert "help lists what you may send now" in said, said
    assert "state shows the game as you see it, quit leaves" in said, said
    assert "the running umpire serve's of the data directory" in said, said


def test_an_optional_fields_default_of_nothing_reads_none() -> None:
    # Fails without the fix: "handoff_dice (optional, default null)" and "accelerate
    # (optional, default [])" in `umpire actions` and play's `help TYPE`: JSON, not words.
    schema = {
        "type": "object",
        "properties": {
            "accelerate": {"type": "array", "items": {"type": "string"}, "default": []},
            "handoff_dice": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None},
            "count": {"type": "integer", "default": 1},
        },
    }
    said = "\n".join(fields(schema, ""))
    assert "accelerate (optional, default none): " in said, said
    assert "handoff_dice (optional, default none): " in said, said
    assert "count (optional, default 1): " in said, said  # as `umpire send` takes it back
    assert "default null" not in said and "default []" not in said, said
