"""On a cluster: the append script sent straight to the master that owns the game's slot.

redis-py's cluster client spends most of a command's store time on its own machinery: it
resolves the command's policy, computes the slot of each of the script's six keys (all in
one slot, by the game's hash tag), encodes every argument through its `Encoder`, and
records metrics (the `pack_command` and `_determine_slot` of the cluster profile, about
two thirds of the client's time per append under cProfile; README "Quiet-machine A/B
after the fourth session of 2026-11-24" has the figures before and after).
Here the call is packed once per game's keys (the same `EVALSHA sha numkeys keys...`
head as the one-node batcher's, events/append_batch.py), its slot computed once per game,
and it is written on a connection of the node the client's own slot map names for that
slot.

Anything but a plain answer goes the whole way through the cluster client, which knows
what to do with it: a slot that moved (MOVED, ASK), is moving (TRYAGAIN) or is not
served (CLUSTERDOWN), a node that lost the script (NOSCRIPT), a connection that failed or
timed out, a node's full pool, a slot map not loaded yet. That way is the one every append
took before, with its redirects, retries and topology refresh. A connection that failed
after the call was written may have run it; the second try of the same command id is
then answered as a duplicate by the script, as redis-py's own retry was.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio.cluster import ClusterNode
from redis.exceptions import (
    AskError,
    ClusterDownError,
    MaxConnectionsError,
    NoScriptError,
    SlotNotCoveredError,
    TryAgainError,
)

from umpire.events.resp import bulks, exchange_on
from umpire.events.unreachable import UNREACHABLE

MAX_GAMES = 10_000  # games whose packed head and slot are kept
_LAZY_DISCONNECT = hasattr(ClusterNode, "disconnect_if_needed")  # redis-py >= 6

# Replies and failures that mean "not here, not now": the cluster client's way follows
# them. (MOVED is an AskError in redis-py.)
_ELSEWHERE = (
    AskError,
    TryAgainError,
    ClusterDownError,
    NoScriptError,
    SlotNotCoveredError,
    MaxConnectionsError,
    *UNREACHABLE,  # a connection that failed or timed out
)


async def exchange(node: Any, packed: bytes, replies: int) -> list[Any]:
    """Write `packed` on one of the cluster node's own connections (it authenticates as
    the cluster client does) and read `replies` replies, an error reply in its place
    (`exchange_on`)."""
    connection = node.acquire_connection()
    try:
        if _LAZY_DISCONNECT:  # a connection the client marked stale
            await node.disconnect_if_needed(connection)
        return await exchange_on(connection, packed, replies)
    finally:
        node.release(connection)


class ClusterAppender:
    """Sends the append script to its slot's master without the cluster client's
    per-command machinery, and hands anything unusual to that client."""

    def __init__(self, client: Any, *, sha: str) -> None:
        self.client = client  # the RedisCluster client: its slot map and its nodes
        self.sha = sha
        self._games: dict[tuple[str, ...], tuple[int, bytes]] = {}
        self.sent = 0  # appends answered the fast way (figures for tests and benches)
        self.followed = 0  # appends handed to the cluster client

    def _game(self, keys: tuple[str, ...]) -> tuple[int, bytes]:
        """The slot of the game's keys and its packed `EVALSHA sha numkeys keys...`."""
        known = self._games.get(keys)
        if known is None:
            if len(self._games) >= MAX_GAMES:
                self._games.clear()
            head = bulks("EVALSHA", self.sha, len(keys), *keys)
            known = self._games[keys] = (self.client.keyslot(keys[0]), head)
        return known

    async def run(
        self, keys: tuple[str, ...], argv: list[Any], whole_way: Callable[[], Awaitable[Any]]
    ) -> Any:
        """The script's reply for one append; `whole_way` sends it through the cluster
        client when this cannot (see the module's docstring)."""
        slot, head = self._game(keys)
        served = self.client.nodes_manager.slots_cache.get(slot)
        if served:  # else the slot map is not loaded yet, or the slot is not served
            packed = b"*%d\r\n" % (3 + len(keys) + len(argv)) + head + bulks(*argv)
            try:
                (reply,) = await exchange(served[0], packed, 1)
            except _ELSEWHERE:
                pass
            else:
                if not isinstance(reply, _ELSEWHERE):
                    if isinstance(reply, Exception):
                        raise reply  # the script's own error, as the whole way raises it
                    self.sent += 1
                    return reply
        self.followed += 1
        return await whole_way()
