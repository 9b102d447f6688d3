"""Whose view the command line prints: the player's unless the operator token is shown.

The store commands read the log directly, so they could print everything; fog of war on
the terminal means they print what the chosen role may see (engine/redaction.py), and the
referee's view (hidden faces, the machine opponent's secrets) needs the operator token the
gateway uses (UMPIRE_OPERATOR_TOKEN, server/config.py), given with --operator-token or
present in the environment.
"""

from __future__ import annotations

from umpire.engine.roles import Role
from umpire.events.errors import Unauthorized
from umpire.server import credentials
from umpire.server.config import Settings


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
