"""Issue #44 item 3: what a game puts in a turn's shared tree never depends on a secret.

A tree holds every game's and role's statements of a worker's turn (docs/audit.md 8.4),
and a receipt's `tree_size` and `leaf_index` tell its holder how many statements the
worker signed then. Blinds hide what the other leaves say, not how many there are: so the
number of leaves one game adds, per role and reply, must follow from what is public
(the commands, who subscribed with `views`, who asked for a view), never from a hidden
value. Twin Down in Flames games, one after the other on one server, the same commands,
differing only in the player's own pilot (which the player sees and the spectator does
not, 9.1.11), must give the spectator the same tree sizes and leaf indexes, and put the
same leaves in the worker's trees at every step. Over real websockets.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest

from umpire.events.receipt_signature import BatchSignature, ReceiptSigner, Statement
from umpire.server.app import Running
from umpire.testing.support.drivers import start_setup
from umpire.testing.support.peer import Peer

TWINS = (
    {"pilot_quality": "ace", "crack_shot": True, "keen_eyesight": True},
    {"pilot_quality": "recruit", "crack_shot": False, "keen_eyesight": False},
)
ROLLS = 4


def _commands() -> list[dict[str, Any]]:
    """The opening, then public rolls: the same in both twins, accepted in both."""
    rolls = [{"type": "RollDice", "dice": "2d6", "purpose": f"count {n}"} for n in range(ROLLS)]
    return [{"type": "BeginTurn", "side": "B"}, *rolls]


def _receipt(frame: dict[str, Any]) -> tuple[str, int, int]:
    """What a holder learns of a tree from a receipt: its kind, the tree's size, its leaf."""
    return frame["type"], frame["tree_size"], frame["leaf_index"]


async def _twin(
    ws_url: str, signed: list[tuple[Statement, asyncio.Future[BatchSignature]]], pilot: Any
) -> tuple[list[Any], list[Any]]:
    """Play one twin: (what its spectator learns of the trees, step by step; the leaves the
    game put in the worker's trees, step by step: per tree, its roles and replies)."""
    setup = start_setup("down_in_flames")
    setup["aircraft"][0] |= pilot
    player, spectator = await Peer.open(ws_url), await Peer.open(ws_url)
    created = await player.ok({"type": "create", "ruleset": "down_in_flames",
                               "client_entropy": "waived", "setup": setup})  # fmt: skip
    gid = created["game_id"]
    await spectator.ok({"type": "auth", "credential": created["spectator_credential"]})
    seen: list[Any] = []
    leaves: list[Any] = []
    for peer in (player, spectator):
        await peer.ok({"type": "subscribe", "game_id": gid, "view": True, "views": True})
        # The view the subscription opens with, signed before the first step counts.
        await peer.wait_for(lambda f: f["type"] == "state" and f.get("id") is not None)
    for step, command in enumerate(_commands()):
        start = len(signed)
        accepted = await player.ok({"type": "command", "game_id": gid,
                                    "command_id": f"c{step}", "command": command})  # fmt: skip
        head = accepted["head_seq"]
        # The pushed states of the batch (both roles subscribed with views), then a view
        # each: everything the step signs, before the next step begins.
        for peer in (player, spectator):
            await peer.wait_for(
                lambda f, head=head: (
                    f["type"] == "state" and f.get("id") is None and f["seq"] == head
                )
            )
        views = [await peer.ok({"type": "view", "game_id": gid}) for peer in (player, spectator)]
        pushed = [f for f in spectator.frames if f["type"] == "state" and f["seq"] == head]
        seen.append([_receipt(f) for f in pushed] + [_receipt(views[1])])
        step_leaves = [(s, f) for s, f in signed[start:] if s.game_id == gid]
        trees: dict[str, Counter[tuple[str, str]]] = {}
        for statement, future in step_leaves:
            tree = (await future).signature
            trees.setdefault(tree, Counter())[(statement.role, statement.reply)] += 1
        leaves.append(list(trees.values()))
    await player.close()
    await spectator.close()
    return seen, leaves


async def test_twin_games_give_a_spectator_the_same_tree_sizes_and_leaf_indexes(
    gateway: Running, ws_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    signing = gateway.gateway.signing
    signed: list[tuple[Statement, asyncio.Future[BatchSignature]]] = []
    sign = signing.sign

    def recorded(signer: ReceiptSigner, statement: Statement) -> asyncio.Future[BatchSignature]:
        future = sign(signer, statement)
        signed.append((statement, future))
        return future

    # The worker's own batcher, watched: every statement a game puts in a tree, and where.
    monkeypatch.setattr(signing, "sign", recorded)
    early = gateway.gateway.early
    before = (early.started, early.used)
    (seen, leaves), (twin_seen, twin_leaves) = [
        await _twin(ws_url, signed, pilot) for pilot in TWINS
    ]
    # Driven one step at a time, each of the spectator's leaves is alone in its turn's
    # tree: what it sees is equal, and would be under any secret-dependent leaf count of
    # a turn that did not reach its own. The worker's trees are compared too: a leaf more
    # for one pilot (a state signed twice for an ace, tried once) fails there, and would
    # show in the size of any tree that the spectator's other game shared with it.
    assert seen == twin_seen
    assert leaves == twin_leaves
    # Every accepted receipt was the one signed while its append was on its way: no
    # second statement of a reply (a count a state hash could have made to differ).
    assert early.started - before[0] == early.used - before[1] == 2 * len(_commands())
    # Each step signs the command's reply, a pushed state per role and a view per peer.
    for step in leaves:
        assert sum(step, Counter()) == Counter({
            ("player", "accepted"): 1, ("player", "state"): 2, ("spectator", "state"): 2,
        })  # fmt: skip
