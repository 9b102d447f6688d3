"""The client commands `umpire watch` and `umpire play`, as the `umpire` command line finds
them: entry points of the group `umpire.commands` (pyproject.toml; server/cli.py
`Subcommand`), so server/ never imports clients/.

Loading this module must stay cheap (the `umpire` command line loads it for every command):
it declares each command's help and arguments; what runs it (clients/cli.py, websockets
and rich) is imported only when the command runs.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NamedTuple

# A long-running watch or play keeps its command line in /proc, where every local user
# reads it; its environment only its owner: the credential's default comes from here.
CREDENTIAL_ENV = "UMPIRE_CREDENTIAL"


class ClientCommand(NamedTuple):
    """One subcommand: its help line, its arguments, and its handler ("module:function",
    called with the parsed arguments and the gateway's websocket URL). A NamedTuple, not a
    dataclass: dataclasses imports inspect, which `umpire --help` would pay for."""

    help: str
    handler: str
    add_arguments: Callable[[argparse.ArgumentParser], None]


def _gateway_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", nargs="?", help="game id (default: the credential's game)")
    parser.add_argument(
        "--credential",
        help=f"player or spectator credential (default: {CREDENTIAL_ENV}, which other "
        "local users cannot read as they can a command line)",
    )
    parser.add_argument(
        "--url",
        help="gateway websocket URL (default: the running umpire serve's of the data "
        "directory, else ws://UMPIRE_HOST:UMPIRE_PORT/ws)",
    )


def _watch_arguments(parser: argparse.ArgumentParser) -> None:
    _gateway_arguments(parser)
    parser.add_argument(
        "--from",
        dest="from_seq",
        type=int,
        default=0,
        metavar="SEQ",
        help="the events after seq SEQ (default 0: every event, then live ones)",
    )
    parser.add_argument("--limit", type=int, default=0, help="stop after N events")


WATCH = ClientCommand(
    help="follow a game's events live through a gateway",
    handler="umpire.clients.cli:cmd_watch",
    add_arguments=_watch_arguments,
)
# What `umpire play --help` says of the words play reads besides commands (clients/cli.py).
PLAY_WORDS = (
    "Type a command a line at a time, as words (TYPE FIELD=VALUE ...) or as a JSON object. "
    "Besides commands: help lists what you may send now, help TYPE gives one command's "
    "fields, values and an example, state shows the game as you see it, quit leaves."
)


def _play_arguments(parser: argparse.ArgumentParser) -> None:
    _gateway_arguments(parser)
    parser.epilog = PLAY_WORDS


PLAY = ClientCommand(
    help="send commands (a line each on stdin: words, or JSON) through a gateway",
    handler="umpire.clients.cli:cmd_play",
    add_arguments=_play_arguments,
)
