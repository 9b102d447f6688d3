"""Whose view the command line prints: the player's unless the operator token is shown.

The store commands read the log directly, so they could print everything; fog of war on
the terminal means they print what the chosen role may see (engine/redaction.py), and the
referee's view (hidden faces, the machine opponent's secrets) needs the operator token the
gateway uses (UMPIRE_OPERATOR_TOKEN, server/config.py), given with --operator-token or
present in the environment.
"""

from __future__ import annotations

import argparse

from umpire.engine.roles import Role
from umpire.events.errors import Unauthorized
from umpire.server import credentials
from umpire.server.config import Settings

ROLES = [r.value for r in Role]


def add_role_arguments(parser: argparse.ArgumentParser, *, flag: str = "--as") -> None:
    """--as ROLE (default player) and --operator-token TOKEN (the referee's view). `--as`
    and `--role` are one option under two names (`flag` is the one shown first), so
    either spelling works with every command that prints a role's view."""
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


def role_for(settings: Settings, requested: str | None, token: str | None) -> Role:
    """The role to print for: `requested` (default: referee with a token, else player).
    The referee's view is refused without the configured operator token."""
    role = Role(requested) if requested else (Role.REFEREE if token else Role.PLAYER)
    if role is not Role.REFEREE:
        return role
    if not settings.operator_token:
        raise Unauthorized(
            "the referee's view needs the operator token, and none is configured: set "
            "UMPIRE_OPERATOR_TOKEN (16 or more characters) where the server runs"
        )
    presented = token if token is not None else settings.operator_token
    if not credentials.is_operator(presented, settings.operator_token):
        raise Unauthorized("that is not the operator token: the referee's view is refused")
    return role
