"""One nonce per command id, for good (issue 42): the Python client derives its nonces
from a key kept beside its receipts (events/nonce_key.py), so a restarted client sends a
command id again with the same nonce, and a server that withheld the first answer gets
no second draw of the dice."""

from __future__ import annotations

import stat
import threading
from pathlib import Path

import msgspec

from umpire.clients import UmpireClient
from umpire.clients.receipts import ReceiptFiles
from umpire.events.nonce_key import KEY_FILE, load_nonce_key
from umpire.server.app import Running


async def _recorded_nonces(gateway: Running, game_id: str) -> dict[str, str]:
    """command id -> the nonce its CommandRecorded holds."""
    found = {}
    for env in await gateway.gateway.store.read(game_id):
        if env.type == "CommandRecorded":
            payload = msgspec.msgpack.decode(env.payload)
            found[env.command_id] = payload.get("nonce", "")
    return found


async def test_a_restarted_client_resends_a_command_id_with_the_same_nonce(
    gateway: Running, ws_url: str, tmp_path: Path
) -> None:
    folder = tmp_path / "receipts"
    push = {"type": "Push"}  # the opponent's answer rolls the server's dice
    async with UmpireClient(ws_url, receipts=ReceiptFiles(folder)) as first:
        created = await first.create("counter", {"target": 100})
        game = created.game_id
        sent = first.nonce_for(game, "p1")
        accepted = await first.send(game, push, command_id="p1")
    # A new client object (a restart) on the same receipts folder, on a new connection.
    async with UmpireClient(ws_url, receipts=ReceiptFiles(folder)) as again:
        await again.auth(created.player_credential)
        assert again.nonce_for(game, "p1") == sent
        resent = await again.send(game, push, command_id="p1")
        assert resent.duplicate and resent.seqs == accepted.seqs
    assert (await _recorded_nonces(gateway, game))["p1"] == sent
    # Another folder holds another key: its nonces are not these.
    async with UmpireClient(ws_url, receipts=ReceiptFiles(tmp_path / "other")) as stranger:
        assert stranger.nonce_for(game, "p1") != sent
    # The key is the owner's alone.
    assert stat.S_IMODE((folder / KEY_FILE).stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_clients_starting_at_once_share_one_key(tmp_path: Path) -> None:
    keys: list[bytes] = []
    threads = [
        threading.Thread(target=lambda: keys.append(load_nonce_key(tmp_path / "r")))
        for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(keys) == 8 and len(set(keys)) == 1
    assert [p.name for p in (tmp_path / "r").iterdir()] == [KEY_FILE]  # no draft left
