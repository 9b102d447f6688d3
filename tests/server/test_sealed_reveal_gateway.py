"""Issue #30 item 4 over real websockets: after a mid-game reveal, the frames the gateway
sends the player and a spectator show every ruleset secret still in play exactly as before
the reveal (neither a hidden pool nor the faces of the hidden rolls that drew it). Before
the fix, the frames of a Downtown game showed `pool_densities` after `umpire reveal`, and
then the hidden rolls' faces."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from umpire.clients import UmpireClient
from umpire.server.app import Running
from umpire.testing.support.short_games import opening


async def _frames(ws_url: str, credential: str, game_id: str, head: int) -> dict[int, Any]:
    """Every event frame of seqs 1..head as the credential's role receives it."""
    async with UmpireClient(ws_url) as client:
        await client.auth(credential)
        out: dict[int, Any] = {}

        async def read() -> None:
            async for frame in client.subscribe(game_id, 0):
                out[frame.seq] = frame
                if frame.seq >= head:
                    return

        await asyncio.wait_for(read(), 30)
    return out


@pytest.mark.parametrize("ruleset", ["downtown", "counter"])
async def test_frames_keep_secrets_in_play_sealed_through_a_mid_game_reveal(
    gateway: Running, ws_url: str, ruleset: str
) -> None:
    setup, commands = opening(ruleset)
    async with UmpireClient(ws_url) as player:
        created = await player.create(ruleset, setup, client_entropy="waived")
        gid = created.game_id
        for command in commands:
            await player.send(gid, command)
    head = await gateway.gateway.store.version(gid)
    credentials = {
        "player": created.player_credential,
        "spectator": created.spectator_credential,
    }
    before = {role: await _frames(ws_url, c, gid, head) for role, c in credentials.items()}
    sealed = [
        seq for seq, f in before["player"].items()
        if f.committed and f.event_type != "DiceRolled"
    ]  # fmt: skip
    assert sealed, "the opening seals no ruleset secret: the test would prove nothing"
    await gateway.gateway.games.reveal(gid)
    after = {role: await _frames(ws_url, c, gid, head) for role, c in credentials.items()}
    for role in credentials:
        for seq in sealed:
            was, now = before[role][seq], after[role][seq]
            assert now.redacted and now.payload == was.payload, (role, seq, now.payload)
        hidden_rolls = [
            seq for seq, f in after[role].items()
            if f.event_type == "DiceRolled" and f.committed
        ]  # fmt: skip
        for seq in hidden_rolls:  # a hidden roll stays hidden: its key is not the seed
            assert after[role][seq].payload["faces"] == [], (role, seq)
