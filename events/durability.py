"""Waiting for durability before an append is acknowledged (WAITAOF).

`WAITAOF numlocal numreplicas timeout` (Redis/Valkey 7.2+) blocks until the writes of the
*connection that sends it* are fsynced to the append-only file locally and on that many
replicas. So the wait must follow the append on the same connection: here both go in one
pipeline (one round trip, one connection; on one Redis the append batcher's pipeline,
shared by the appends of one event-loop turn). On a cluster that connection must be to the
master owning the game's slot, which redis-py's cluster pipeline does not guarantee for a
keyless command, so both are written on a connection of the cluster client's own node for
the slot and a MOVED reply is followed through the cluster client's slot map.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from msgspec import Struct
from redis.exceptions import AskError, NoScriptError, TryAgainError

from umpire.events.cluster_append import exchange
from umpire.events.errors import DurabilityUnconfirmed
from umpire.events.resp import pack


class Durability(Struct, frozen=True):
    """What an append waits for before it is acknowledged."""

    local_fsync: bool = False  # fsynced to the owning master's AOF
    replicas: int = 0  # ... and to this many replicas' AOFs
    timeout_ms: int = 1000  # how long to wait for that

    @property
    def active(self) -> bool:
        """Whether there is anything to wait for."""
        return self.local_fsync or self.replicas > 0

    @property
    def wanted(self) -> tuple[int, int]:
        """(local fsyncs, replica fsyncs) asked for: WAITAOF's numlocal and numreplicas."""
        return int(self.local_fsync), self.replicas

    @property
    def command(self) -> tuple[str | int, ...]:
        """The WAITAOF command that asks for this."""
        return ("WAITAOF", *self.wanted, self.timeout_ms)


def confirm(wait: Durability, waited: Any, *, game_id: str, first_seq: int, last_seq: int) -> None:
    """Raise DurabilityUnconfirmed unless WAITAOF's reply `waited` confirms `wait`."""
    wanted = wait.wanted
    if isinstance(waited, Exception) or waited is None:
        got, why = (0, 0), f"the server refused WAITAOF: {waited}"
    else:
        got = (int(waited[0]), int(waited[1]))
        why = f"{got[0]} local and {got[1]} replica fsyncs in {wait.timeout_ms} ms"
    if got[0] >= wanted[0] and got[1] >= wanted[1]:
        return
    raise DurabilityUnconfirmed(
        f"events {first_seq}..{last_seq} of game {game_id!r} were appended, but their "
        f"durability is unconfirmed: asked for {wanted[0]} local and {wanted[1]} replica "
        f"fsyncs, got {why}. They are in the log; retrying the command id returns them",
        game_id=game_id,
        first_seq=first_seq,
        last_seq=last_seq,
        wanted_local=wanted[0],
        wanted_replicas=wanted[1],
        local=got[0],
        replicas=got[1],
    )


class DurableAppender:
    """On a cluster: the append script and WAITAOF on one connection to the game's master.
    (On one Redis the append batcher ends each pipeline with the WAITAOF instead.)

    The connection is one of the cluster client's own for that node, so it authenticates
    (user, password, TLS) exactly as the client does; a client per master made from host
    and port alone was refused by a cluster whose nodes want a password."""

    def __init__(
        self, client: Any, *, sha: str, script: str, wait: Durability, patience: float
    ) -> None:
        """`patience`: how long, in seconds, an append keeps following a slot that moves."""
        self.client = client  # the RedisCluster client: its slot map and its nodes
        self.sha = sha
        self.script = script
        self.wait = wait
        self.patience = patience
        self._wait_command = pack(*wait.command)
        self.moves_followed = 0

    async def _exchange(self, key: str, packed: bytes) -> list[Any]:
        """Write `packed` (two commands) on a connection of `key`'s master; both replies."""
        await self.client.initialize()  # the slot map (a no-op once it is loaded)
        return await exchange(self.client.get_node_from_key(key), packed, 2)

    async def run(self, keys: list[str], argv: list[Any]) -> tuple[Any, Any]:
        """(the script's reply, WAITAOF's reply or the error it gave)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.patience
        delay = 0.01
        packed = pack("EVALSHA", self.sha, len(keys), *keys, *argv) + self._wait_command
        while True:
            reply, waited = await self._exchange(keys[0], packed)
            if isinstance(reply, NoScriptError):
                await self.client.script_load(self.script)  # on every master
                continue
            if isinstance(reply, (AskError, TryAgainError)) and loop.time() + delay < deadline:
                # The slot moved (MOVED is an AskError) or is moving: a keyed command through
                # the cluster client follows the redirect and patches its slot map.
                self.moves_followed += 1
                with contextlib.suppress(Exception):
                    await self.client.exists(keys[0])
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.25)
                continue
            if isinstance(reply, Exception):
                raise reply
            return reply, waited

    async def close(self) -> None:
        """Nothing of its own to close: its connections are the cluster client's."""
