"""Who is looking at a game (ARCHITECTURE.md "Roles and secrets")."""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    """The player may command; spectators read; the referee (operator, or anyone once the
    seed is revealed) sees everything."""

    PLAYER = "player"
    SPECTATOR = "spectator"
    REFEREE = "referee"
