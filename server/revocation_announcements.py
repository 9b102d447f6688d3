"""The message that announces a revoked credential to every gateway, sent and read.

`announce` is what `credentials.revoke` calls once the credential's hash is deleted;
`parse` is how a gateway's `RevocationListener` (server/revocations.py) reads one. Apart
from the listener so that the session's modules, which import server/credentials.py, import
nothing that does I/O (tests/server/test_session_purity.py).
"""

from __future__ import annotations

from typing import Any

from umpire.events.store import Store


def announcement(game_id: str, digest: str) -> str:
    """The message that announces one revoked credential."""
    return f"{game_id} {digest}"


def parse(data: Any) -> tuple[str, str] | None:
    """(game id, digest) of an announcement; None for anything else."""
    text = data.decode(errors="replace") if isinstance(data, bytes) else str(data)
    game_id, _, digest = text.partition(" ")
    return (game_id, digest) if game_id and len(digest) == 64 else None


async def announce(store: Store, game_id: str, digest: str) -> None:
    """Tell every gateway that a credential was revoked (after its hash is deleted)."""
    await store.notifications.announce_revocation(announcement(game_id, digest))
