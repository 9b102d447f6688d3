"""The `umpire` command line: parse the arguments, then import and run the one subcommand.

Store commands (`new`, `send`, `takeback`, `log`, `games`, `reveal`, `audit`, `export`, `import`,
`rulesets`) work directly against the store, so a game can be driven without the gateway.
`serve` runs the gateway. Other packages add subcommands through the entry point group
`umpire.commands` (`Subcommand`): umpire's own clients add `watch` and `play`, clients of a
running gateway (clients/commands.py), so server/ never imports clients/.

Starting at once (docs/architecture.md "A CLI that starts at once"): this module imports
only argparse, importlib.metadata and the argument declarations (server/arguments.py).
What runs a subcommand is imported after parsing, from `COMMANDS` and `RUNNER`, by
`importlib.import_module`: `umpire state` never loads the gateway, websockets or the
other rulesets, and `umpire --help` loads nothing but the parser. These tables are the one
deliberate exception to "no hidden imports of a project module" (tests/test_imports.py
reads them as imports of this module, so cycles and layers are checked through them).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
from collections.abc import Callable, Sequence
from importlib import metadata
from typing import Any, Protocol

from umpire.server.arguments import build_parser

# The built-in subcommands' handlers, "module:function", each called with (settings, args).
COMMANDS = {
    "serve": "umpire.server.workers:cmd_serve",
    "new": "umpire.server.store_commands:cmd_new",
    "bind": "umpire.server.store_commands:cmd_bind",
    "send": "umpire.server.store_commands:cmd_send",
    "takeback": "umpire.server.store_commands:cmd_takeback",
    "log": "umpire.server.store_commands:cmd_log",
    "state": "umpire.server.store_commands:cmd_state",
    "games": "umpire.server.store_commands:cmd_games",
    "reveal": "umpire.server.store_commands:cmd_reveal",
    "revoke": "umpire.server.store_commands:cmd_revoke",
    "rulesets": "umpire.server.store_commands:cmd_rulesets",
    "scenarios": "umpire.server.store_commands:cmd_scenarios",
    "actions": "umpire.server.actions_command:cmd_actions",
    "audit": "umpire.server.audit_command:cmd_audit",
    "replay": "umpire.server.replay_command:cmd_replay",
    "explain": "umpire.server.replay_command:cmd_explain",
    "readjudicate": "umpire.server.replay_command:cmd_readjudicate",
    "readings": "umpire.server.dispute_command:cmd_readings",
    "dispute": "umpire.server.dispute_command:cmd_dispute",
    "disputes": "umpire.server.dispute_command:cmd_disputes",
    "rule": "umpire.server.dispute_command:cmd_rule",
    "export": "umpire.server.export_command:cmd_export",
    "import": "umpire.server.export_command:cmd_import",
    "store": "umpire.server.store_repair:cmd_store",
    "receipts": "umpire.server.receipts_file:cmd_receipts",
    "proof": "umpire.server.proof_command:cmd_proof",
    "keys": "umpire.server.proof_command:cmd_keys",
}
# What runs any of them: settings, the event loop, errors as one line (server/invocation.py).
RUNNER = "umpire.server.invocation:run"
# The entry point group of other packages' subcommands, each named after its subcommand.
GROUP = "umpire.commands"


class Subcommand(Protocol):
    """A subcommand that another package adds to `umpire`: an entry point of the group
    `umpire.commands`, named after the subcommand, that loads to this. Loading it must be
    cheap (it runs for every `umpire` command line): `handler`, "module:function", is
    imported only when the subcommand runs, and called with the parsed arguments and the
    websocket URL of the settings' gateway (ws://UMPIRE_HOST:UMPIRE_PORT/ws); it returns
    the exit code, or a coroutine of it. An UmpireError it raises is one line on stderr
    and exit code 2, as for a built-in command."""

    help: str
    handler: str

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the subcommand's arguments to its parser."""
        ...


def subcommands() -> dict[str, Subcommand]:
    """The installed packages' subcommands by name, sorted. One that cannot be loaded, or
    that takes a built-in's name, is left out with a line on stderr saying why: a broken
    plug-in must not stop `umpire state`."""
    found: dict[str, Subcommand] = {}
    for point in sorted(metadata.entry_points(group=GROUP), key=lambda p: (p.name, p.value)):
        if point.name in found:
            continue  # an editable install is also found on the path: the same entry point
        where = f"{point.name} = {point.value!r}"
        if point.name in COMMANDS:
            print(f"umpire: ignored command {where}: a built-in has its name", file=sys.stderr)
            continue
        try:
            found[point.name] = point.load()
        except Exception as exc:  # a plug-in's import error, whatever it is, is its own
            print(f"umpire: ignored command {where}: {type(exc).__name__}: {exc}", file=sys.stderr)
    return found


def load(target: str) -> Callable[..., Any]:
    """The function that `target`, "module:function", names (its module imported now)."""
    module, _, name = target.partition(":")
    function: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return function


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `umpire` console script."""
    # Start-up allocates some hundred thousand objects (modules, classes, functions) and
    # frees almost none, so the cyclic collector only costs time while the subcommand's
    # modules are imported (about 7% of an `umpire state`): it is off until they are in.
    # Then, in the `umpire` process itself (`argv` None: a caller in a process of its own,
    # a test, keeps its heap as it is), they are frozen out of later collections: made
    # while it was off, they all sat in the youngest generation, so its first collection
    # after (in the game's ruleset's import, once the store has named it) visited every
    # one, and the next of generation 1 again: ~65 ms of an `umpire log`, a fifth of it
    # (tests/server/test_cli_start_imports.py counts what a collection visits).
    collecting = gc.isenabled()
    gc.disable()
    try:
        extra = subcommands()
        parser = build_parser((name, each.help, each.add_arguments) for name, each in extra.items())
        if not (sys.argv[1:] if argv is None else argv):
            # `umpire` alone: the commands and what each does, not a bare usage error.
            parser.print_help(sys.stderr)
            return 2
        args = parser.parse_args(argv)
        plugin = extra.get(args.cmd)
        handler = load(plugin.handler if plugin is not None else COMMANDS[args.cmd])
        run = load(RUNNER)
    finally:
        if argv is None:
            gc.freeze()
        if collecting:
            gc.enable()
    return int(run(args, handler, client=plugin is not None))


if __name__ == "__main__":
    sys.exit(main())
