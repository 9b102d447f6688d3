"""`umpire COMMAND --help` says what each option does: a newcomer who reads `--from
FROM_SEQ` alone cannot tell whether SEQ is shown, where the default starts, or that
`--json` of `umpire new` carries the credentials."""

from __future__ import annotations

import argparse

import pytest

from umpire.server.arguments import build_parser
from umpire.server.cli import main, subcommands


def test_every_option_of_every_command_has_a_help_line() -> None:
    # Fails without the fix: serve --host/--port, new --game-id/--json, send and takeback
    # --command-id, log --from, state and scenarios --json, watch --from had none.
    extra = [(name, each.help, each.add_arguments) for name, each in subcommands().items()]
    parser = build_parser(extra)
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert {"watch", "play"} <= set(commands.choices), "the client commands are installed"
    silent = [
        f"umpire {name} {'/'.join(action.option_strings)}"
        for name, command in commands.choices.items()
        for action in command._actions
        if action.option_strings
        and not action.help
        and not isinstance(action, argparse._HelpAction)
    ]
    assert silent == []


def test_umpire_alone_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    # Fails without the fix: "umpire: error: the following arguments are required: cmd",
    # and `umpire store` alone "... required: store_cmd": the parser's names, not the reader's.
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "umpire serve" in err and "new " in err and "audit " in err, err
    assert "required: cmd" not in err
    with pytest.raises(SystemExit):
        main(["store"])
    err = capsys.readouterr().err
    assert "required: {check,repair,backup,restore}" in err and "store_cmd" not in err, err


def test_every_commands_own_help_says_what_it_does() -> None:
    # Fails without the fix: `umpire serve --help` (and every other command's) listed its
    # options alone, not its line of `umpire --help`; so did `umpire store backup --help`.
    extra = [(name, each.help, each.add_arguments) for name, each in subcommands().items()]
    parser = build_parser(extra)

    def undescribed(parser: argparse.ArgumentParser, prefix: str) -> list[str]:
        found = []
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    command = action.choices[choice.dest]
                    # Its own words (`send` has a longer description), else its line.
                    said = " ".join(command.format_help().split())  # wrapped to the width
                    if not command.description or " ".join(command.description.split()) not in said:
                        found.append(f"{prefix} {choice.dest}")
                    found += undescribed(command, f"{prefix} {choice.dest}")
        return found

    assert undescribed(parser, "umpire") == []


def test_every_argument_of_every_command_has_a_help_line() -> None:
    # Fails without the fix: `umpire new --help` listed `ruleset` with no word of what it
    # takes, and so did 20 others: every command's `game`, `revoke`'s credential,
    # `explain`'s seq, `rule`'s ruling (uphold or amend: which does what?), `import`'s file.
    extra = [(name, each.help, each.add_arguments) for name, each in subcommands().items()]

    def silent(parser: argparse.ArgumentParser, prefix: str) -> list[str]:
        found = []
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, command in action.choices.items():
                    found += silent(command, f"{prefix} {name}")
            elif not action.option_strings and not action.help:
                found.append(f"{prefix} {action.dest}")
        return found

    assert silent(build_parser(extra), "umpire") == []
