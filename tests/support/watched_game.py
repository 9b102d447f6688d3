"""A counter game over a real gateway, its player and one spectator on raw connections,
both subscribed with views (the pushed-state and signed-state tests)."""

from __future__ import annotations

from typing import Any

from umpire.testing.support.peer import Peer


async def watched_counter(ws_url: str) -> tuple[Peer, Peer, dict[str, Any]]:
    """(player, spectator, the `created` reply) of a new counter game (target 1000),
    each peer subscribed from seq 0 with `view` and `views`; the subscribe replies are in
    each peer's frames."""
    player = await Peer.open(ws_url)
    spectator = await Peer.open(ws_url)
    created = await player.ok({"type": "create", "ruleset": "counter", "client_entropy": "waived",
                               "setup": {"target": 1000}})  # fmt: skip
    await spectator.ok({"type": "auth", "credential": created["spectator_credential"]})
    for peer in (player, spectator):
        await peer.ok({"type": "subscribe", "game_id": created["game_id"], "view": True,
                       "views": True})  # fmt: skip
    return player, spectator, created
