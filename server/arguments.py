"""What each built-in `umpire` subcommand accepts: the argument parser, and nothing else.

Building the parser imports argparse and the role names only (no redis, websockets, rich,
pydantic, ruleset or gateway), so `umpire --help` and a mistyped option answer at once;
server/cli.py imports the module that runs the chosen subcommand after parsing. Client
commands (`watch`, `play`) add their own arguments (server/cli.py `Subcommand`).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from umpire.engine.roles import Role

ROLES = [r.value for r in Role]
DESCRIPTION = (
    "The `umpire` command line: `umpire serve` runs the server, `umpire new RULESET` starts a "
    "game, `umpire COMMAND --help` says what a command takes."
)
Extra = tuple[str, str, Callable[[argparse.ArgumentParser], None]]


def build_parser(extra: Iterable[Extra] = ()) -> argparse.ArgumentParser:
    """The parser of the built-in subcommands and of `extra` ones, each (name, help, a
    function adding its arguments): the client commands (server/cli.py `Subcommand`)."""
    parser = argparse.ArgumentParser(prog="umpire", description=DESCRIPTION)
    parser.add_argument("--data-dir", type=Path, help="data directory of the embedded server")
    # Named for the reader: a missing one is "required: COMMAND", not the dest "cmd".
    sub = parser.add_subparsers(dest="cmd", required=True, metavar="COMMAND", title="commands")

    p = sub.add_parser("serve", help="run the gateway (and the embedded Redis unless REDIS_URL)")
    p.add_argument("--host", help="address to listen on (default 127.0.0.1; UMPIRE_HOST)")
    p.add_argument("--port", type=int, help="port to listen on (default 8765; UMPIRE_PORT)")
    p.add_argument(
        "--workers", type=int,
        help="gateway processes sharing the port (default: one per core, at most 8; "
        "UMPIRE_WORKERS)",
    )  # fmt: skip

    p = sub.add_parser("new", help="create a game (the ruleset's default scenario unless told)")
    # Optional to argparse: `umpire new` alone is told the rulesets (store_commands.py).
    p.add_argument("ruleset", nargs="?", help="a ruleset's name (umpire rulesets lists them)")
    p.add_argument("--scenario", help="a shipped scenario (see `umpire scenarios RULESET`)")
    p.add_argument(
        "--setup",
        help="a setup file (.json or .toml, fields of the ruleset's setup) or inline JSON; "
        "with --scenario, its top-level fields replace the scenario's",
    )
    p.add_argument(
        "--client-seed", help="the client seed to bind after the commitment (default: random)"
    )
    p.add_argument(
        "--waive-client-entropy", action="store_true",
        help="bind no client seed: the server's seed alone derives the dice (logged)",
    )  # fmt: skip
    p.add_argument("--game-id", help="the new game's id (default: a fresh random one)")
    p.add_argument("--json", action="store_true", help="print the game id and credentials as JSON")
    p.add_argument(
        "--allow-opponent-dice",
        action="store_true",
        help="let the player enter physical dice (--dice) for the opponent's rolls too",
    )
    p.add_argument(
        "--referee", choices=("player", "operator"), default="player",
        help="who rules on the game's disputes (default: the player, or the operator)",
    )  # fmt: skip

    p = sub.add_parser("bind", help="bind a client seed to a game's current seed epoch")
    p.add_argument("game", help="game id (umpire new prints it; umpire games lists them)")
    p.add_argument("client_seed", nargs="?", help="default: fresh random entropy")

    p = sub.add_parser(
        "send",
        help="send a player command to a game",
        description="Send a command as words, TYPE FIELD=VALUE ... (`umpire actions GAME` "
        "prints each one so), or as one JSON object.",
    )
    p.add_argument("game", help="game id (umpire new prints it; umpire games lists them)")
    p.add_argument(
        "command",
        metavar="COMMAND",
        nargs="+",
        help="the command type, then FIELD=VALUE for each field (e.g. RollDice dice=2d6 "
        "purpose=flak); or the command as a JSON object",
    )
    p.add_argument("--command-id", help="your id for the command: sent again, it is applied once")
    p.add_argument("--dice", help='manual dice as JSON, one list per roll, e.g. "[[3],[4,2]]"')
    add_role_arguments(p)

    p = sub.add_parser("takeback", help="take back your last command (or say why not)")
    p.add_argument("game", help="game id (umpire new prints it; umpire games lists them)")
    p.add_argument("--command-id", help="your id for the takeback: sent again, it is applied once")
    add_role_arguments(p)

    p = sub.add_parser("log", help="print a game's log")
    p.add_argument("game", help="game id (umpire new prints it; umpire games lists them)")
    p.add_argument(
        "--from", dest="from_seq", type=int, default=1, metavar="SEQ",
        help="start at event SEQ (default 1: the whole log)",
    )  # fmt: skip
    p.add_argument(
        "--json",
        action="store_true",
        help="JSON Lines (the export format as the referee; the role's view otherwise)",
    )
    add_role_arguments(p)
    p = sub.add_parser("state", help="a game's current state as your role sees it")
    p.add_argument("game", help="game id (umpire new prints it; umpire games lists them)")
    p.add_argument(
        "--json", action="store_true", help="one JSON object (game_id, seq, role, ended, view)"
    )
    add_role_arguments(p)

    sub.add_parser("games", help="list games")
    p = sub.add_parser(
        "reveal", help="publish a game's dice seed (a running game rotates to a fresh one)"
    )
    p.add_argument("game", help="game id (umpire new prints it; umpire games lists them)")
    p = sub.add_parser("revoke", help="revoke a game credential (operator)")
    p.add_argument(
        "credential", help="the player or spectator credential to revoke, as umpire new printed it"
    )
    sub.add_parser("rulesets", help="list installed rulesets")
    p = sub.add_parser("scenarios", help="list a ruleset's ready scenarios")
    p.add_argument("ruleset", help="a ruleset's name (umpire rulesets lists them)")
    p.add_argument("--json", action="store_true", help="the scenarios as JSON")
    p.add_argument(
        "--schema", action="store_true", help="print the JSON Schema of a setup file instead"
    )

    p = sub.add_parser("actions", help="the commands a role may send now, with their fields")
    add_actions_arguments(p)
    for name, text, add_arguments in extra:
        add_arguments(sub.add_parser(name, help=text))
    _add_log_commands(sub)
    _described(sub)
    return parser


def _described(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Each command's own `--help` opens with what it does (its line in `umpire --help`),
    where it listed options alone; a nested group's commands too (`umpire store backup`)."""
    for choice in sub._choices_actions:
        parser = sub.choices[choice.dest]
        if parser.description is None:
            parser.description = choice.help
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                _described(action)


def add_role_arguments(parser: argparse.ArgumentParser, *, flag: str = "--as") -> None:
    """--as ROLE (default player) and --operator-token TOKEN (the referee's view). `--as`
    and `--role` are one option under two names (`flag` is the one shown first), so
    either spelling works with every command that prints a role's view
    (server/referee.py `role_for` reads them)."""
    parser.add_argument(
        flag,
        "--role" if flag == "--as" else "--as",
        dest="role",
        choices=ROLES,
        default=None,
        help="whose view: player (default), spectator, or referee (needs the operator token)",
    )
    parser.add_argument(
        "--operator-token",
        help="the server's operator token: shows the referee's view; other local users "
        "can read a command line (ps), so prefer UMPIRE_OPERATOR_TOKEN in the environment",
    )


def add_actions_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of `umpire actions` (server/actions_command.py)."""
    parser.add_argument("game", help="game id in the store")
    parser.add_argument(
        "--role",
        choices=ROLES,
        default=Role.PLAYER.value,
        help="whose actions (default: the player's; a spectator has none)",
    )
    parser.add_argument("--json", action="store_true", help="the actions as JSON")


def add_readings_arguments(parser: argparse.ArgumentParser) -> None:
    """umpire readings RULESET [--json]."""
    parser.add_argument("ruleset", help="a ruleset's name (umpire rulesets lists them)")
    parser.add_argument("--json", action="store_true", help="the readings as JSON")


def add_dispute_arguments(parser: argparse.ArgumentParser) -> None:
    """umpire dispute GAME SEQ --claim TEXT [--reading NAME[=VALUE]]."""
    parser.add_argument("game", help="game id (umpire new prints it; umpire games lists them)")
    parser.add_argument("seq", type=int, help="the seq of the decision or roll disputed")
    parser.add_argument("--claim", required=True, help="what you claim (1 to 1,000 characters)")
    parser.add_argument(
        "--reading",
        default="",
        help="a reading the ruleset declares (umpire readings RULESET), NAME or NAME=VALUE",
    )


def add_disputes_arguments(parser: argparse.ArgumentParser) -> None:
    """umpire disputes GAME [--json]."""
    parser.add_argument("game", help="game id (umpire new prints it; umpire games lists them)")
    parser.add_argument("--json", action="store_true", help="the disputes as JSON")


def _add_log_commands(sub: Any) -> None:
    """audit, replay, explain, readjudicate, export, import (docs/viewer.md)."""
    p = sub.add_parser(
        "audit", help="verify a game's log: chain, dice, every decision, this machine's receipts"
    )
    add_audit_arguments(p)
    p = sub.add_parser("replay", help="a game's state at a seq, or what changed between two")
    add_replay_arguments(p)
    p = sub.add_parser("explain", help="one event in plain words: rule, dice, candidates")
    add_explain_arguments(p)
    p = sub.add_parser("readjudicate", help="re-run a game under the current or given rules")
    add_readjudicate_arguments(p)
    p = sub.add_parser("readings", help="a ruleset's documented readings a dispute may claim")
    add_readings_arguments(p)
    p = sub.add_parser("dispute", help="dispute a decision or roll, perhaps under a reading")
    add_dispute_arguments(p)
    add_role_arguments(p)
    p = sub.add_parser("disputes", help="a game's disputes and their findings")
    add_disputes_arguments(p)
    p = sub.add_parser("rule", help="rule on a found dispute: uphold (or amend)")
    p.add_argument("game", help="game id (umpire new prints it; umpire games lists them)")
    p.add_argument("dispute", type=int, help="the dispute's id (umpire disputes GAME)")
    p.add_argument(
        "ruling",
        choices=("uphold", "amend"),
        help="uphold: the game stands as played; amend: it goes on from the disputed seq "
        "under the dispute's reading, later commands re-applied with their dice",
    )
    add_role_arguments(p)
    p = sub.add_parser("export", help="write a game as JSON Lines (umpire-export/1)")
    add_export_arguments(p)
    p = sub.add_parser("import", help="load an export into this store, hashes unchanged")
    add_import_arguments(p)
    p = sub.add_parser(
        "receipts", help="print the receipts this machine keeps of a game (umpire-receipts/3)"
    )
    p.add_argument("game", help="game id (umpire new prints it; umpire games lists them)")
    p = sub.add_parser(
        "proof", help="write or check a proof of equivocation: two signed receipts that conflict"
    )
    add_proof_arguments(p)
    p = sub.add_parser("keys", help="list the receipt signing keys, or rotate to a new one")
    p.add_argument(
        "--rotate", action="store_true",
        help="make a fresh key the one new games take (older games keep theirs)",
    )  # fmt: skip
    p = sub.add_parser("store", help="check, repair, back up or restore the embedded store")
    add_store_arguments(p)


def add_store_arguments(parser: argparse.ArgumentParser) -> None:
    """`umpire store check|repair` (server/store_repair.py)."""
    sub = parser.add_subparsers(
        dest="store_cmd", required=True, metavar="{check,repair,backup,restore}"
    )
    sub.add_parser(
        "check",
        help="check the append-only file and every game's chain; name each damaged game "
        "and seq and each acknowledged seq lost (no serve running)",
    )
    p = sub.add_parser(
        "repair",
        help="cut a torn tail (a copy kept); refuse other damage, naming what a cut "
        "would lose (no serve running)",
    )
    p.add_argument(
        "--salvage",
        action="store_true",
        help="drop only the damaged records, keep every complete one after them, and name "
        "each loss",
    )
    p = sub.add_parser(
        "backup", help="copy the store consistently to PATH (a new directory), serving or not"
    )
    p.add_argument("path", type=Path, help="the backup's directory (must not exist)")
    p = sub.add_parser(
        "restore",
        help="replace the store with a backup (no serve running); name every acknowledged "
        "seq the backup lacks",
    )
    p.add_argument("path", type=Path, help="a directory made by umpire store backup")


def add_audit_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of `umpire audit` (server/audit_command.py)."""
    parser.add_argument("game", nargs="?", help="game id in the store")
    parser.add_argument("--file", type=Path, help="audit an export (JSON Lines) instead")
    parser.add_argument(
        "--ruleset-module",
        metavar="MODULE:ATTR",
        help="audit under these rules instead of the installed ones (corrected rules)",
    )
    parser.add_argument(
        "--commitment",
        type=_commitment,
        help="the seed commitment received at creation: a log rewritten under another seed "
        "fails against it",
    )
    receipts = parser.add_mutually_exclusive_group()
    receipts.add_argument(
        "--receipts", type=Path, metavar="FILE", action="append",
        help="receipts (umpire-receipts/3, /2 or /1, `umpire receipts GAME`; repeatable): those "
        "signed by the game's key are anchors the log must agree with (default: the "
        "receipts this machine kept of the game, if it kept any)",
    )  # fmt: skip
    receipts.add_argument(
        "--no-receipts", action="store_true",
        help="do not check the log against the receipts this machine kept of the game",
    )  # fmt: skip


def add_proof_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of `umpire proof` (server/proof_command.py)."""
    parser.add_argument(
        "--receipts", type=Path, metavar="FILE", action="append", default=[],
        help="receipts files of one game (repeatable): two signed receipts in them that "
        "give one seq two head hashes are the proof",
    )  # fmt: skip
    parser.add_argument(
        "--key",
        metavar="HEX",
        help="the game's public receipt key, if no receipts file's header names it",
    )
    parser.add_argument(
        "-o", "--out", type=Path, metavar="PROOF.json",
        help="write the proof here (default: stdout)",
    )  # fmt: skip
    parser.add_argument(
        "--check", type=Path, metavar="PROOF.json", help="check a proof file instead"
    )


def _commitment(text: str) -> str:
    if re.fullmatch("[0-9a-f]{64}", text) is None:
        raise argparse.ArgumentTypeError("a seed commitment is 64 lowercase hex digits")
    return text


def _source(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--file", type=Path, help="read an export (JSON Lines) instead")
    add_role_arguments(parser, flag="--role")
    parser.add_argument("--json", action="store_true", help="print JSON")


def add_replay_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of `umpire replay` (server/replay_command.py)."""
    parser.add_argument("game", nargs="?", help="game id in the store (omit with --file)")
    # Not required: `--line N` alone shows that line at its head (cmd_replay says what is
    # missing when none of the three is given).
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--at", type=int, metavar="SEQ", help="the state after event SEQ")
    what.add_argument("--diff", type=int, nargs=2, metavar=("A", "B"), help="A's state vs B's")
    parser.add_argument(
        "--line", type=int, metavar="N",
        help="an amended game's line N: 0 as first played, N as amendment N left it "
        "(default: the game as it stands); alone, without --at, at the line's last seq",
    )  # fmt: skip
    _source(parser)


def add_explain_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of `umpire explain`."""
    parser.add_argument("game", nargs="?", help="game id (omit with --file)")
    parser.add_argument("seq", type=int, help="the event's seq (the first column of umpire log)")
    _source(parser)


def add_readjudicate_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of `umpire readjudicate`."""
    parser.add_argument("game", help="game id (umpire new prints it; umpire games lists them)")
    parser.add_argument(
        "--ruleset-module", metavar="MODULE:ATTR",
        help="the corrected rules (default: the installed ruleset of the game's name)",
    )  # fmt: skip
    parser.add_argument("--new-game-id", help="id of the new game (default: GAME-rN)")
    parser.add_argument("--json", action="store_true", help="print JSON")


def add_export_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of `umpire export` (server/export_command.py)."""
    parser.add_argument("game", help="game id (umpire new prints it; umpire games lists them)")
    parser.add_argument("--output", "-o", type=Path, help="write to this file (default stdout)")
    parser.add_argument(
        "--operator",
        action="store_true",
        help="export an unrevealed game, with its secret seed (server migration only)",
    )
    parser.add_argument(
        "--seal",
        action="store_true",
        help="close the ended game's log first (no more disputes), then export it",
    )
    parser.add_argument(
        "--with-losses",
        action="store_true",
        help="export a game that lost acknowledged events (store check names them) as far "
        "as the store still holds it, naming each loss",
    )


def add_import_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of `umpire import`."""
    parser.add_argument("file", type=Path, help="an export of umpire export (JSON Lines)")
    parser.add_argument(
        "--receipts", type=Path, metavar="FILE",
        help="also refuse the export if these receipts contradict it (those this machine "
        "keeps of the game always count)",
    )  # fmt: skip
