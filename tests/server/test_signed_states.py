"""`state` frames carry a signed receipt (docs/audit.md 8.4), as `accepted` replies do.

The `view` reply (at the head and at a past seq) and the frames a subscriber with `views`
is pushed are signed by the game's receipt key over reply "state", the frame's role and
the one seq it states (`first_seq` = `seq`), in the loop turn's tree; a pushed frame is
built once per role and batch, so every subscriber of that role gets the same signature.
"""

from __future__ import annotations

from typing import Any

from tests.support.watched_game import watched_counter
from umpire.events.receipt_signature import Statement, signature_valid
from umpire.server.app import Running
from umpire.testing.support.peer import Peer


def state_statement(frame: dict[str, Any]) -> Statement:
    """The statement a `state` frame's signature covers (docs/audit.md 8.4)."""
    return Statement(
        game_id=frame["game_id"], key_id=frame["key_id"], reply="state", role=frame["role"],
        first_seq=frame["seq"], head_seq=frame["seq"], head_hash=frame["head_hash"],
        state_hash=frame["state_hash"],
    )  # fmt: skip


def verifies(key: str, frame: dict[str, Any], **changed: Any) -> bool:
    """Whether `frame`'s receipt (with `changed` fields, if any) verifies under `key`."""
    frame = {**frame, **changed}
    batch = (frame["leaf_index"], frame["tree_size"], frame["proof"])
    return signature_valid(key, state_statement(frame), frame["signature"], batch, frame["blind"])


async def test_pushed_states_and_views_are_signed_by_the_games_key(
    gateway: Running, ws_url: str
) -> None:
    player, spectator, created = await watched_counter(ws_url)
    gid, key = created["game_id"], created["receipt_key"]
    assert key
    # The view a subscription opens with is a `view` reply: signed.
    for peer in (player, spectator):
        first = await peer.wait_for(lambda f: f["type"] == "state" and f.get("id") is not None)
        assert first["key_id"] == created["key_id"] and verifies(key, first)
    accepted = await player.ok({"type": "command", "game_id": gid, "command_id": "c1",
                                "command": {"type": "Add", "amount": 2}})  # fmt: skip
    head = accepted["head_seq"]
    for peer, role in ((player, "player"), (spectator, "spectator")):
        pushed = await peer.wait_for(
            lambda f: f["type"] == "state" and f.get("id") is None and f["seq"] == head
        )
        assert pushed["role"] == role and pushed["head_hash"] == accepted["head_hash"]
        assert pushed["key_id"] == created["key_id"] and pushed["tree_size"] >= 1
        assert verifies(key, pushed)
        # One field changed: the signature no longer covers it.
        assert not verifies(key, pushed, state_hash="0" * 64)
        assert not verifies(key, pushed, head_hash="0" * 64)
        assert not verifies(key, pushed, seq=head - 1)
        assert not verifies(key, pushed, role="referee" if role == "player" else "player")
        # The `view` reply at the head and at a past seq: signed alike.
        now = await peer.ok({"type": "view", "game_id": gid})
        assert now["seq"] == head and verifies(key, now)
        past = await peer.ok({"type": "view", "game_id": gid, "at_seq": 1})
        assert past["seq"] == 1 and past["key_id"] == created["key_id"] and verifies(key, past)
        assert not verifies(key, past, state_hash=now["state_hash"])
    await player.close()
    await spectator.close()


async def test_a_pushed_state_is_signed_once_for_every_subscriber_of_its_role(
    gateway: Running, ws_url: str
) -> None:
    """Built once per role and batch, the frame is shared: its one signature with it."""
    player = await Peer.open(ws_url)
    created = await player.ok({"type": "create", "ruleset": "counter", "client_entropy": "waived",
                               "setup": {"target": 1000}})  # fmt: skip
    gid = created["game_id"]
    watchers = [await Peer.open(ws_url) for _ in range(3)]
    for watcher in watchers:
        await watcher.ok({"type": "auth", "credential": created["spectator_credential"]})
        await watcher.ok({"type": "subscribe", "game_id": gid, "views": True})
    signing = gateway.gateway.signing
    leaves = signing.leaves
    accepted = await player.ok({"type": "command", "game_id": gid, "command_id": "c1",
                                "command": {"type": "Add", "amount": 1}})  # fmt: skip
    head = accepted["head_seq"]
    frames = [
        await w.wait_for(lambda f: f["type"] == "state" and f["seq"] == head) for w in watchers
    ]
    assert all(f == frames[0] for f in frames) and verifies(created["receipt_key"], frames[0])
    # The command's `accepted` and the spectators' one frame: two leaves (three if the
    # command's early signature was not the one its reply took), never one per watcher.
    assert signing.leaves - leaves < 1 + len(watchers)
    for peer in (player, *watchers):
        await peer.close()
