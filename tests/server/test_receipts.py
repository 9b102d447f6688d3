"""Receipts (issue #16, item 9): `accepted` replies and `state` frames carry the head seq,
head hash and a state hash over the view the role was sent (docs/audit.md "Receipts"),
which a player can check later and which gives away nothing the role was not shown."""

from __future__ import annotations

import msgspec

from tests.rulesets.downtown.setups import SETUP
from umpire.engine import registry
from umpire.engine.audit import audit
from umpire.engine.redaction import view_for
from umpire.engine.replay import state_at
from umpire.engine.roles import Role
from umpire.events.receipt import receipt_state_hash
from umpire.server.app import Running
from umpire.testing.support.nonces import nonce_of
from umpire.testing.support.peer import Peer


async def test_a_command_and_a_view_carry_a_receipt_that_checks(
    gateway: Running, ws_url: str
) -> None:
    player = await Peer.open(ws_url)
    created = await player.ok({"type": "create", "ruleset": "downtown", "setup": SETUP})
    await player.ok({"type": "bind_seed", "game_id": created["game_id"], "client_seed": "r"})
    gid = created["game_id"]
    await player.ok({"type": "auth", "credential": created["player_credential"]})
    accepted = await player.ok({"type": "command", "game_id": gid, "command_id": "c1",
                                "nonce": nonce_of("c1"),
                                "command": {"type": "DeployGroundUnits"}})  # fmt: skip
    store = gateway.gateway.store
    head = accepted["head_seq"]
    assert head == accepted["seqs"][-1] == await store.version(gid)
    assert accepted["head_hash"] == (await store.read(gid, head, head))[0].hash
    # Later: the view at the receipt's seq hashes to the receipt's state hash.
    state = await player.ok({"type": "view", "game_id": gid, "at_seq": head})
    assert state["head_hash"] == accepted["head_hash"]
    assert state["state_hash"] == accepted["state_hash"]
    assert receipt_state_hash(head, state["head_hash"], state["state"]) == state["state_hash"]
    now = await player.ok({"type": "view", "game_id": gid})
    assert now["seq"] == head and now["state_hash"] == accepted["state_hash"]
    # A duplicate answers with the receipt of the head as it is now.
    again = await player.ok({"type": "command", "game_id": gid, "command_id": "c1",
                             "nonce": nonce_of("c1"),
                             "command": {"type": "DeployGroundUnits"}})  # fmt: skip
    assert again["duplicate"] and again["state_hash"] == accepted["state_hash"]
    await player.close()


async def test_the_state_hash_covers_the_roles_view_not_the_secret_state(
    gateway: Running, ws_url: str
) -> None:
    """downtown's player view leaves out the hidden AAA pool: the player's state hash is
    over that view; a hash over the referee's view (the whole state) would differ, and
    would let the player search for the pool."""
    player = await Peer.open(ws_url)
    created = await player.ok({"type": "create", "ruleset": "downtown", "setup": SETUP})
    await player.ok({"type": "bind_seed", "game_id": created["game_id"], "client_seed": "r"})
    gid = created["game_id"]
    await player.ok({"type": "auth", "credential": created["player_credential"]})
    accepted = await player.ok({"type": "command", "game_id": gid, "command_id": "c1",
                                "nonce": nonce_of("c1"),
                                "command": {"type": "DeployGroundUnits"}})  # fmt: skip
    ruleset, game = await gateway.gateway.games.load(gid)
    assert game.state.aaa_pool, "the scripted raid holds a hidden AAA pool"

    def hashed(role: Role) -> str:
        view = msgspec.to_builtins(view_for(ruleset, game.state, role, revealed=False))
        return receipt_state_hash(game.meta.seq, game.meta.last_hash, view)

    assert accepted["state_hash"] == hashed(Role.PLAYER) != hashed(Role.REFEREE)
    assert registry.get("downtown") is ruleset
    await player.close()


async def test_a_bind_seed_reply_carries_a_receipt_that_checks_against_the_log(
    gateway: Running, ws_url: str
) -> None:
    """The `accepted` reply to `bind_seed` carries the receipt a command's does, checked
    as docs/audit.md "Receipts" says: the head's hash in the (audited) log, and the
    player's view at that seq rebuilt from the log alone (`umpire replay --at --role
    player`). Fails on main: head_seq 0, head_hash and state_hash empty."""
    player = await Peer.open(ws_url)
    created = await player.ok({"type": "create", "ruleset": "downtown", "setup": SETUP})
    gid = created["game_id"]
    bound = await player.ok({"type": "bind_seed", "game_id": gid, "client_seed": "r"})
    head = bound["head_seq"]
    log = await gateway.gateway.store.read(gid)
    assert audit(log).ok
    assert head == bound["seqs"][-1] == log[-1].seq == 2
    assert bound["head_hash"] == log[head - 1].hash
    replayed = state_at(log, head, Role.PLAYER)
    assert receipt_state_hash(head, bound["head_hash"], replayed.state) == bound["state_hash"]
    state = await player.ok({"type": "view", "game_id": gid, "at_seq": head})
    assert state["state_hash"] == bound["state_hash"]
    # A re-sent bind (the same seed) is answered with its first result, and nothing has
    # been written since: the same receipt.
    again = await player.ok({"type": "bind_seed", "game_id": gid, "client_seed": "r"})
    assert again["duplicate"] and again["seqs"] == bound["seqs"]
    receipt = ("head_seq", "head_hash", "state_hash")
    assert [again[k] for k in receipt] == [bound[k] for k in receipt]
    await player.close()
