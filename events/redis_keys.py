"""Redis key names. Every key of one game carries the game id as a {hash tag}, so one
game's keys share one Redis Cluster slot and the append script stays legal on a cluster."""

from __future__ import annotations

from msgspec import Struct

from umpire.events.envelope import check_game_id


class GameKeys(Struct, frozen=True):
    """The keys of one game."""

    stream: str
    meta: str
    commands: str
    secret: str
    snapshot: str
    credentials: str
    channel: str


def game_keys(game_id: str, prefix: str = "umpire") -> GameKeys:
    """Key names for `game_id` (validated)."""
    check_game_id(game_id)
    base = f"{prefix}:{{{game_id}}}"
    return GameKeys(
        stream=f"{base}:events",
        meta=f"{base}:meta",
        commands=f"{base}:commands",
        secret=f"{base}:secret",
        snapshot=f"{base}:snapshot",
        credentials=f"{base}:credentials",
        channel=f"{base}:appended",
    )


def games_index_key(prefix: str = "umpire") -> str:
    """The sorted set listing every game (not part of any multi-key step)."""
    return f"{prefix}:games"


def receipt_keys_key(prefix: str = "umpire") -> str:
    """The hash of the server's receipt signing keys (key id -> private seed hex, and
    "current" -> the id new games take); read alone, never in a multi-key step."""
    return f"{prefix}:receipt-keys"


def revocations_channel(prefix: str = "umpire") -> str:
    """The channel on which a revoked credential is announced to every gateway
    (`<game id> <digest>`). Hash-tagged, so on a cluster it is one shard channel."""
    return f"{prefix}:{{revocations}}:revoked"


def stream_id(seq: int) -> str:
    """The stream entry ID of event `seq`: reading from any seq is one XRANGE."""
    return f"{seq}-0"
