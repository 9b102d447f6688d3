"""README.md's "Playing from the command line" block, run as a newcomer types it, in
order: every line exits 0 (GAME is the nightfighter game its `umpire new nightfighter`
made; `my-dogfight.toml` is the example the down_in_flames README gives)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tests.support.processes import REPO
from umpire.testing.support.forgery import Cli


def block_commands(after: str = "Playing from the command line") -> list[list[str]]:
    """The `umpire ...` lines of README.md's first ```sh block after `after`, comments
    dropped, as argv lists (without the leading `umpire`)."""
    text = (REPO / "README.md").read_text()
    block = text.split(after, 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    commands = []
    for line in block.splitlines():
        words = shlex.split(line, comments=True)
        if words:
            assert words[0] == "umpire", line
            commands.append(words[1:])
    return commands


def dogfight_toml() -> str:
    """The TOML example of engine/rulesets/down_in_flames/README.md."""
    text = (REPO / "engine" / "rulesets" / "down_in_flames" / "README.md").read_text()
    return text.split("```toml\n", 1)[1].split("```", 1)[0]


def run_block(cli: Cli, commands: list[list[str]], names: dict[str, str]) -> None:
    """Run a block's commands in order, each word a placeholder of `names` replaced (GAME,
    CREDENTIAL) and a `> FILE` redirect written as the shell would; every one exits 0.
    `umpire new nightfighter` names GAME, and its spectator credential CREDENTIAL."""
    for argv in commands:
        argv = [names.get(word, word) for word in argv]
        into = None
        if ">" in argv:
            argv, into = argv[: argv.index(">")], argv[argv.index(">") + 1]
        result = cli(*argv)
        assert result.code == 0, (argv, result.out, result.err)
        if into is not None:
            Path(into).write_text(result.out)
        if argv[:2] == ["new", "nightfighter"]:
            found = re.search(r"created game (\S+)", result.out)
            spectator = re.search(r"spectator credential (\S+)", result.out)
            assert found is not None and spectator is not None, result.out
            names.update(GAME=found.group(1), CREDENTIAL=spectator.group(1))


def test_every_command_of_the_readme_block_runs_in_order(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Fails without the fix: `umpire send GAME EndPhase --dice '[[4],[2,5]]'` came right
    # after an EndPhase, where Nightfighter takes no EndPhase (MoveBombers first) and the
    # command rolls no die: refused either way (exit 2).
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my-dogfight.toml").write_text(dogfight_toml())
    commands = block_commands()
    assert len(commands) >= 14, commands
    run_block(cli, commands, {})


def test_the_dispute_block_runs_on_the_game_the_play_block_made(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Fails without the fix: `replay GAME --at 40`, `--diff 40 52` and `explain GAME 47`
    # named seqs that game does not reach, and its export was refused (a bind followed its
    # last reveal). The store's own commands (check, repair, backup) have their tests in
    # tests/faults: they need the embedded store this test does not run.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my-dogfight.toml").write_text(dogfight_toml())
    names: dict[str, str] = {}
    run_block(cli, block_commands(), names)
    settling = block_commands("Settling a rules dispute")
    store = [argv for argv in settling if argv[0] == "store"]
    assert len(store) == 3 and settling[-3:] == store, settling
    run_block(cli, settling[:-3], names)
    assert (tmp_path / "game.jsonl").read_text().startswith('{"format":"umpire-export/1"')


def block_comments() -> str:
    """The comments of the same block, joined into one text (a pointer may span lines)."""
    text = (REPO / "README.md").read_text()
    block = text.split("Playing from the command line", 1)[1].split("```sh\n", 1)[1]
    block = block.split("```", 1)[0]
    said = [line.partition("#")[2].strip() for line in block.splitlines() if "#" in line]
    return " ".join(said)


def test_the_blocks_pointers_to_a_section_lead_to_it() -> None:
    # Fails without the fix: "the README's 'Scenarios and set-up files'" named no file, and
    # README.md itself has no such section (each ruleset's README has).
    pointers = re.findall(r'"([^"]+)" in (\S+/README\.md)', block_comments())
    assert pointers, block_comments()
    rulesets = sorted(p.name for p in (REPO / "engine" / "rulesets").iterdir() if p.is_dir())
    for heading, path in pointers:
        for ruleset in [r for r in rulesets if not r.startswith("_")]:
            named = REPO / path.replace("RULESET", ruleset)
            assert f"## {heading}\n" in named.read_text(), (heading, named)
