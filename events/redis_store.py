"""The EventStore on Redis Streams: one stream per game, appends by one Lua script.

Layout (events.redis_keys): `umpire:{game}:events` holds envelope bytes at entry ID
`<seq>-0`; `:meta` holds the version and last hash; `:commands` maps command ids to their
first result; `:secret` holds the current dice seed (replaced, in the same atomic append, by
the reveal that publishes it and commits the next) followed by the game's sealing key;
`:snapshot` the newest snapshot. A `:commands` entry also holds the hash of the command's
body (events/command_body.py): the same id with another body is refused. The append
script checks the command id, the expected version and the hash link, then writes the
whole batch, so a batch is all-or-nothing with respect to other writers.

The store keeps sealed bytes and seals nothing: a batch comes sealed by the recorder
(events/recorder.py), and the script checks its terms and writes its records as they are.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import msgspec
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ClusterDownError, ClusterError, MaxConnectionsError, TryAgainError

from umpire.events.append_batch import AppendBatcher
from umpire.events.cluster_append import ClusterAppender
from umpire.events.command_body import check_same_body
from umpire.events.durability import Durability, DurableAppender, confirm
from umpire.events.envelope import (
    GENESIS_HASH,
    Envelope,
    check_game_id,
    decode_envelope,
)
from umpire.events.errors import (
    ChainBroken,
    CorruptEvent,
    ExpectedVersionAhead,
    GameExists,
    GameNotFound,
    UmpireError,
    Unauthorized,
    VersionConflict,
)
from umpire.events.redis_channels import RedisNotifications
from umpire.events.redis_credentials import RedisCredentials
from umpire.events.redis_keys import (
    GameKeys,
    game_keys,
    games_index_key,
    receipt_keys_key,
    stream_id,
)
from umpire.events.resp import bulks
from umpire.events.store import (
    AppendResult,
    Credential,
    HeadRecorder,
    SealedBatch,
    Snapshot,
    parse_command_entry,
)
from umpire.events.unreachable import UNREACHABLE, unavailable

SEED_BYTES = 32  # the seed's length in the `:secret` value (a sealing key may follow)

# One game's append, a Lua function over KEYS[k + 1..k + 6] and ARGV[a + 1..a + m]:
# KEYS: stream, meta, commands, secret, channel, credentials
# ARGV: expected_version, command_id, prev_hash, last_hash, secret ('' for none),
#       credential digest ('' for none), role the credential must hold, the new version,
#       the dedupe entry kept for the command id (`first:last:last_hash`, then `:` and the
#       command's body hash when it has one: events/command_body.py), then each event's
#       stream entry ID and envelope in turn.
# It answers a status and a value: 'ok' and the new version (the store knows the rest of
# its result: an argument less to parse and make a Lua string of), 'dup' and the first
# result's dedupe entry, 'unauthorized' and '0', or a refusal and the version held.
# The statuses, in their order of precedence: 'unauthorized' (the credential check comes
# first, so a revoked credential is refused even for a command id seen before; checking it
# here, in the append itself, costs no extra round trip and leaves no window between the
# check and the write), 'dup' (the command id is known: its first result), then 'exists',
# 'conflict' (the version, then the head hash) and 'empty', then 'ok'.
# What costs Valkey CPU here is measured (docs/benchmarks.md "One append per loop turn",
# "a cheaper append"): each `redis.call` costs about as much again in the Lua bridge as
# the command itself, so a move makes as few as it can. The dedupe check and its write
# are one HSETNX, made once the version checks have passed: when it finds the id set, an
# HGET reads the first result ('dup'); a refused append asks the HGET alone, so it writes
# nothing. An XADD that fails (an error reply) takes the dedupe entry back out (HDEL)
# before the error goes on, so no failed append leaves an entry either, as before. The
# numbers the script writes (entry IDs, the new version, the result) are derived from
# the batch by the store (`append_argv`) and sent as strings, and the version is compared
# as the string it is stored as: formatting a Lua number (sprintf), parsing one (strtod)
# and concatenating strings were 12% of Valkey's instructions per append. The version and
# the head hash are read in one HMGET.
_APPEND_GAME = (
    """
local call, try, type = redis.call, redis.pcall, type
local function append(k, a, m)
  if ARGV[a + 6] ~= '' and call('HGET', KEYS[k + 6], ARGV[a + 6]) ~= ARGV[a + 7] then
    return 'unauthorized', '0'
  end
  local meta = call('HMGET', KEYS[k + 2], 'version', 'last_hash')
  local version = meta[1] or '0'
  local expected = ARGV[a + 1]
  local refused
  if ARGV[a + 5] ~= '' and expected == '0' and version ~= '0' then
    refused = 'exists'
  elseif version ~= expected then
    refused = 'conflict'
  else
    local last = meta[2] or ARGV[a + 3]
    if version == '0' then last = '"""
    + GENESIS_HASH
    + """' end
    if last ~= ARGV[a + 3] then
      refused = 'conflict'
    elseif m < 11 then
      refused = 'empty'
    end
  end
  if refused or call('HSETNX', KEYS[k + 3], ARGV[a + 2], ARGV[a + 9]) == 0 then
    local done = call('HGET', KEYS[k + 3], ARGV[a + 2])
    if done then return 'dup', done end
    return refused, version
  end
  for i = a + 10, a + m, 2 do
    local added = try('XADD', KEYS[k + 1], ARGV[i], 'e', ARGV[i + 1])
    if type(added) == 'table' then
      call('HDEL', KEYS[k + 3], ARGV[a + 2])
      error(added)
    end
  end
  if ARGV[a + 5] ~= '' then call('SET', KEYS[k + 4], ARGV[a + 5]) end
  call('HSET', KEYS[k + 2], 'version', ARGV[a + 8], 'last_hash', ARGV[a + 4])
  call('PUBLISH', KEYS[k + 5], ARGV[a + 8])
  return 'ok', ARGV[a + 8]
end
"""
)
KEYS_PER_GAME = 6

# One append: the game's six keys and its arguments, as they are.
APPEND_SCRIPT = _APPEND_GAME + "return {append(0, 0, #ARGV)}\n"

# The appends of many games in one call (one node: events/append_batch.py). KEYS: each
# game's six in turn; ARGV: for each game the count of its arguments, then its arguments.
# The answer: each game's status and value in order, flat ({status1, value1, status2,
# ...}: Valkey turns a nested table into a reply with seven field lookups a table, 9% of
# its instructions per append with a table a game). Each game's append is exactly the
# one above, run in turn, so a refused one stops no other (two appends of one game in a
# call run in the order given, as two calls would). A command that fails inside one
# game's append (an error reply, not a refusal) is caught and answered 'error' with its
# message to that game's caller alone: the games before and after it are appended
# regardless.
MULTI_APPEND_SCRIPT = (
    _APPEND_GAME
    + """
local out = {}
local a = 0
for g = 0, #KEYS / """
    + str(KEYS_PER_GAME)
    + """ - 1 do
  local m = tonumber(ARGV[a + 1])
  local ok, status, value = pcall(append, g * """
    + str(KEYS_PER_GAME)
    + """, a + 1, m)
  if not ok then
    if type(status) == 'table' then status = status.err or 'ERR' end
    status, value = 'error', tostring(status)
  end
  out[2 * g + 1] = status
  out[2 * g + 2] = value
  a = a + 1 + m
end
return out
"""
)

# On a cluster the notification is a sharded publish: it goes only to the nodes serving the
# game's slot (KEYS[5] carries the game's hash tag), where a plain PUBLISH would be copied
# over the cluster bus to every node.
CLUSTER_APPEND_SCRIPT = APPEND_SCRIPT.replace("'PUBLISH'", "'SPUBLISH'")

# KEYS: snapshot. ARGV: seq, packed snapshot. Keeps only a newer snapshot.
SNAPSHOT_SCRIPT = """
local held = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0')
if tonumber(ARGV[1]) <= held then return 0 end
redis.call('HSET', KEYS[1], 'seq', ARGV[1], 'data', ARGV[2])
return 1
"""

# While a slot is being resharded a multi-key command whose keys are split between the two
# nodes answers TRYAGAIN; redis-py retries that a few times within ~0.5 s and then gives up
# with ClusterError. A slot holding a long game can take longer to move, so the store keeps
# retrying, with backoff, for at most RESHARD_PATIENCE seconds. Nothing was written by a
# refused attempt, and a retried append carries the same command id, so a retry can never
# write twice.
_RESHARDING = (TryAgainError, ClusterDownError, ClusterError)
RESHARD_PATIENCE = 15.0


_snapshot_encoder = msgspec.msgpack.Encoder()
_snapshot_decoder = msgspec.msgpack.Decoder(Snapshot)

READ_PAGE = 1000
POOL_SIZE = 128  # connections per store (each tail holds one while it blocks)
POOL_WAIT = 10.0
TAIL_BLOCK_MS = 1000
MAX_KEPT_KEYS = 10_000  # games whose key names an append keeps (they never change)


def append_argv(batch: SealedBatch) -> list[Any]:
    """ARGV of the append script for `batch` (see `_APPEND_GAME`): its terms, and what
    the script writes derived here, once, from the batch's expected version."""
    credential = batch.credential
    first = batch.expected_version + 1
    last = batch.expected_version + len(batch.records)
    entry = f"{first}:{last}:{batch.last_hash}"
    argv: list[Any] = [
        batch.expected_version,
        batch.command_id,
        batch.prev_hash,
        batch.last_hash,
        batch.secret.hex() if batch.secret else "",
        credential.digest if credential else "",
        credential.role if credential else "",
        last,
        f"{entry}:{batch.body_hash}" if batch.body_hash else entry,
    ]
    for seq, record in enumerate(batch.records, first):
        argv += (f"{seq}-0", record)  # redis_keys.stream_id, inlined: once per event
    return argv


def append_packed(batch: SealedBatch) -> tuple[int, bytes]:
    """The many-games script's arguments for `batch` (MULTI_APPEND_SCRIPT): how many, and
    their RESP bulk strings, the same bytes as `bulks(len(argv), *argv)` of `append_argv`.

    Packed here in one formatting of the text arguments and one per event: the generic
    `bulks` over `append_argv`'s list took a type test, a format and a list append per
    argument, ~2.4 µs of a Downtown move (docs/benchmarks.md, "a cheaper append"). Every
    text argument is ASCII (ids, hex, a role word, decimal numbers), so a length counted
    in characters is the length in bytes; anything else takes the generic way."""
    credential = batch.credential
    records = batch.records
    first = batch.expected_version + 1
    last = str(batch.expected_version + len(records))
    entry = f"{first}:{last}:{batch.last_hash}"
    if batch.body_hash:
        entry = f"{entry}:{batch.body_hash}"
    digest, role = (credential.digest, credential.role) if credential is not None else ("", "")
    secret = batch.secret.hex() if batch.secret else ""
    expected = str(batch.expected_version)
    command_id, prev_hash, last_hash = batch.command_id, batch.prev_hash, batch.last_hash
    m = 9 + 2 * len(records)
    text = (
        f"${len(str(m))}\r\n{m}\r\n${len(expected)}\r\n{expected}\r\n"
        f"${len(command_id)}\r\n{command_id}\r\n${len(prev_hash)}\r\n{prev_hash}\r\n"
        f"${len(last_hash)}\r\n{last_hash}\r\n${len(secret)}\r\n{secret}\r\n"
        f"${len(digest)}\r\n{digest}\r\n${len(role)}\r\n{role}\r\n"
        f"${len(last)}\r\n{last}\r\n${len(entry)}\r\n{entry}\r\n"
    )
    if not text.isascii():
        return m + 1, bulks(m, *append_argv(batch))
    parts = [text.encode()]
    for seq, record in enumerate(records, first):
        entry_id = b"%d-0" % seq  # redis_keys.stream_id
        parts.append(b"$%d\r\n%b\r\n$%d\r\n%b\r\n" % (len(entry_id), entry_id, len(record), record))
    return m + 1, b"".join(parts)


class WaitingConnectionPool(aioredis.ConnectionPool):
    """A pool that, with all `max_connections` in use, waits (at most `wait_timeout` s) for
    one to come back instead of failing at once.

    redis-py's default pool (100 connections) fails the 101st concurrent command with
    MaxConnectionsError: a burst of subscribers failed with `internal` errors. Its
    BlockingConnectionPool waits, but pays for a timeout context and a condition on every
    command (about 23 us a call here, some 20% of a gateway's CPU per command). This pool
    takes the plain pool's path and waits only when the pool is exhausted.
    """

    def __init__(self, *args: Any, wait_timeout: float = 10.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.wait_timeout = wait_timeout
        self._waiters: collections.deque[asyncio.Future[None]] = collections.deque()

    async def get_connection(self, *args: Any, **kwargs: Any) -> Any:
        """A connection; when none is free and the pool is full, wait for a release."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.wait_timeout
        while True:
            try:
                return await super().get_connection(*args, **kwargs)  # type: ignore[no-untyped-call]
            except MaxConnectionsError:
                left = deadline - loop.time()
                if left <= 0:
                    raise
                waiter: asyncio.Future[None] = loop.create_future()
                self._waiters.append(waiter)
                try:
                    await asyncio.wait((waiter,), timeout=left)
                finally:
                    if not waiter.done():
                        waiter.cancel()

    async def release(self, connection: Any) -> None:
        """Return a connection and wake the longest waiter, if any."""
        await super().release(connection)
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                break


class WaitingRedisCluster(RedisCluster):
    """A cluster client that, with all of a node's `max_connections` (100) in use, waits
    (at most POOL_WAIT s) for one to come back instead of failing at once, as
    `WaitingConnectionPool` does on one node.

    redis-py's cluster client raises MaxConnectionsError from the node's pool before it
    writes anything (it does not count against the node, cluster.py), so the command is
    simply sent again once a connection may be free: nothing can be written twice. A burst
    of 200 creates on a loaded machine failed `store_unavailable` without it (CI,
    tests/cluster/test_cluster_gateway.py)."""

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        deadline = 0.0
        while True:
            try:
                return await super().execute_command(*args, **kwargs)
            except MaxConnectionsError:
                now = asyncio.get_running_loop().time()
                deadline = deadline or now + POOL_WAIT
                if now >= deadline:
                    raise
                await asyncio.sleep(0.002)  # a command's round trip: a connection frees


# The field of the receipt keys' hash that names the current key (no key id is this word).
CURRENT_RECEIPT_KEY = "current"


class RedisEventStore:
    """EventStore on one Redis (or a Redis Cluster through a cluster client)."""

    def __init__(
        self, client: Any, *, prefix: str = "umpire", durability: Durability | None = None
    ) -> None:
        """`durability`: what every append waits for before it is acknowledged (WAITAOF);
        None or nothing to wait for acknowledges once the script has run."""
        self._redis = client
        self._prefix = prefix
        self.cluster = isinstance(client, RedisCluster)
        self.reshard_retries = 0  # appends refused with TRYAGAIN and retried (a metric)
        # The store's two other protocols on the same client (events/credential_store.py,
        # events/notifications.py): the server never holds the client itself.
        self.credentials = RedisCredentials(client, prefix)
        self.notifications = RedisNotifications(client, prefix, cluster=self.cluster)
        self._keys: dict[str, tuple[str, ...]] = {}  # game id -> its append's keys
        self._heads: HeadRecorder | None = None  # record_heads_in
        script = CLUSTER_APPEND_SCRIPT if self.cluster else APPEND_SCRIPT
        self._append = client.register_script(script)
        self._snapshot = client.register_script(SNAPSHOT_SCRIPT)
        # One node: the appends of one event-loop turn go as one call of the many-games
        # script (MULTI_APPEND_SCRIPT), followed by WAITAOF with a durability setting. On
        # a cluster the games of one call would have to share a slot, and a cluster
        # client's pipeline splits by node and answers TRYAGAIN per call, so there each
        # append goes on its own, with the one-game script: straight to its slot's
        # master (`ClusterAppender`), through `_script` (which rides out reshards) when
        # that meets anything but a plain answer, or with a durability setting through
        # `DurableAppender`.
        self._wait = durability if durability is not None and durability.active else None
        self._batcher: AppendBatcher | None = None
        self.durable: DurableAppender | None = None
        if not self.cluster:
            many = client.register_script(MULTI_APPEND_SCRIPT)
            self._batcher = AppendBatcher(
                client, script=MULTI_APPEND_SCRIPT, sha=many.sha, wait=self._wait
            )
        self.straight: ClusterAppender | None = None
        if self.cluster and self._wait is None:
            self.straight = ClusterAppender(client, sha=self._append.sha)
        elif self.cluster and self._wait is not None:
            self.durable = DurableAppender(
                client,
                sha=self._append.sha,
                script=script,
                wait=self._wait,
                patience=RESHARD_PATIENCE,
            )

    async def _script(self, script: Any, keys: list[str], args: list[Any]) -> Any:
        """Run a script, riding out a reshard of its slot (see RESHARD_PATIENCE)."""
        if not self.cluster:
            return await script(keys=keys, args=args)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + RESHARD_PATIENCE
        delay = 0.01
        while True:
            try:
                return await script(keys=keys, args=args)
            except _RESHARDING:
                if loop.time() + delay > deadline:
                    raise
                self.reshard_retries += 1
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.25)

    @classmethod
    def from_url(
        cls, url: str, *, prefix: str = "umpire", durability: Durability | None = None
    ) -> RedisEventStore:
        """A store on the Redis at `url` (redis://, rediss://, unix://)."""
        pool = WaitingConnectionPool.from_url(
            url,
            max_connections=POOL_SIZE,
            wait_timeout=POOL_WAIT,
            socket_timeout=10,
            socket_connect_timeout=5,
            health_check_interval=30,
        )
        return cls(aioredis.Redis.from_pool(pool), prefix=prefix, durability=durability)

    @property
    def redis(self) -> Any:
        """The underlying client, for tests and benchmarks that arrange the store's keys
        by hand; server/ never uses it (tests/server/test_store_boundary.py)."""
        return self._redis

    def keys(self, game_id: str) -> GameKeys:
        """The key names of one game."""
        return game_keys(game_id, self._prefix)

    def _remember_keys(self, game_id: str) -> tuple[str, ...]:
        """The append script's keys of `game_id` (validated), kept for its next append:
        building them (and validating the id) cost ~3 us of every append. At most
        MAX_KEPT_KEYS."""
        keys = self._append_keys(self.keys(game_id))
        if len(self._keys) >= MAX_KEPT_KEYS:
            self._keys.clear()
        self._keys[game_id] = keys
        return keys

    def record_heads_in(self, recorder: HeadRecorder) -> None:
        """Record every new head in `recorder` before its append is acknowledged (the
        server's head checkpoints, server/head_checkpoints.py): on one node once per
        batch, as the batch's replies arrive and before any appender is answered; on a
        cluster per append."""
        self._heads = recorder
        # Each change of a game's credentials too, as it is made (a credential given out
        # and then lost from the store is named by `store check`).
        self.credentials.on_change = recorder.credentials
        if self._batcher is not None:
            self._batcher.on_replies = self._record_batch

    def _record_batch(self, replies: list[tuple[Any, Any]]) -> None:
        heads: dict[str, tuple[int, str]] = {}
        firsts: dict[str, int] = {}
        for batch, reply in replies:
            if isinstance(reply, Exception) or reply[0] not in (b"ok", "ok"):
                continue
            game_id = batch.game_id
            last_seq = batch.expected_version + len(batch.records)
            held = heads.get(game_id)
            if held is None or last_seq > held[0]:
                heads[game_id] = (last_seq, batch.last_hash)
            first = batch.expected_version + 1
            if first < firsts.get(game_id, first + 1):
                firsts[game_id] = first
        if heads and self._heads is not None:
            self._heads.record(heads, firsts)

    @staticmethod
    def _append_keys(keys: GameKeys) -> tuple[str, ...]:
        """KEYS of the append script (see APPEND_SCRIPT)."""
        return (keys.stream, keys.meta, keys.commands, keys.secret, keys.channel, keys.credentials)

    @property
    def prefix(self) -> str:
        """The key prefix (for names outside any game, such as channels)."""
        return self._prefix

    async def close(self) -> None:
        """Close the connection pool."""
        if self.durable is not None:
            await self.durable.close()
        if self._batcher is not None:
            await self._batcher.close()
        await self._redis.aclose()

    async def ping(self) -> bool:
        """Whether the server answers."""
        try:
            return bool(await self._redis.ping())
        except UNREACHABLE:
            return False

    async def persistence(self) -> dict[str, int]:
        """INFO persistence's fsync figures (events/store.py `Store.persistence`)."""
        try:
            info = await self._redis.info("persistence")
        except Exception:  # unreachable, or a server that refuses INFO: no figures
            return {}
        if self.cluster:  # a cluster client answers per node: the worst node's figures
            nodes = [v for v in info.values() if isinstance(v, dict)] or [info]
        else:
            nodes = [info]
        figures: dict[str, int] = {}
        for node in nodes:
            if not node.get("aof_enabled"):
                continue
            for name in ("aof_pending_bio_fsync", "aof_delayed_fsync"):
                figures[name] = max(figures.get(name, 0), int(node.get(name, 0)))
            ok = int(node.get("aof_last_write_status") == "ok")
            figures["aof_last_write_ok"] = min(figures.get("aof_last_write_ok", 1), ok)
        return figures

    # -- append --------------------------------------------------------------------------

    async def append(
        self, batch: SealedBatch, on_sent: Callable[[], None] | None = None
    ) -> AppendResult:
        """Append a sealed batch atomically; see EventStore.append."""
        game_id = batch.game_id
        keys_arg = self._keys.get(game_id) or self._remember_keys(game_id)
        if not batch.records:
            raise UmpireError("a command must append at least one event", game_id=game_id)
        waited: Any = None
        try:
            if self._batcher is not None:
                count, packed = append_packed(batch)
                (status, value), waited = await self._batcher.run(
                    keys_arg, count, packed, batch, on_sent
                )
            else:  # a cluster: the one-game script, its arguments as a list
                argv = append_argv(batch)
                if on_sent is not None:  # the call below writes before it first waits
                    on_sent()
                if self.durable is not None:
                    (status, value), waited = await self.durable.run(list(keys_arg), argv)
                elif self.straight is not None:
                    status, value = await self.straight.run(
                        keys_arg, argv, lambda: self._script(self._append, list(keys_arg), argv)
                    )
                else:
                    status, value = await self._script(self._append, list(keys_arg), argv)
        except (*UNREACHABLE, *_RESHARDING) as exc:
            raise unavailable(exc, game_id) from exc
        status = status.decode() if isinstance(status, bytes) else status
        if status == "ok":
            first_seq = batch.expected_version + 1
            result = AppendResult(first_seq, first_seq + len(batch.records) - 1, batch.last_hash)
            if batch.expected_version == 0:
                with contextlib.suppress(*UNREACHABLE):  # the index is a convenience
                    await self._redis.zadd(games_index_key(self._prefix), {game_id: 0}, nx=True)
            if self._wait is not None:
                confirm(
                    self._wait,
                    waited,
                    game_id=game_id,
                    first_seq=result.first_seq,
                    last_seq=result.last_seq,
                )
            if self._heads is not None and self._batcher is None:
                await self._heads.note(game_id, result.last_seq, result.last_hash, result.first_seq)
            return result
        if status == "dup":
            first = parse_command_entry(value, duplicate=True)
            check_same_body(game_id, batch.command_id, first.body_hash, batch.body_hash)
            return first
        if status == "unauthorized":
            raise Unauthorized(
                f"the credential is no longer valid for game {game_id!r} (revoked): "
                "nothing was written",
                game_id=game_id,
            )
        actual = int(value)
        if status == "exists":
            raise GameExists(f"game {game_id!r} exists already", game_id=game_id)
        expected_version = batch.expected_version
        if actual < expected_version:
            raise ExpectedVersionAhead(
                f"expected version {expected_version} is ahead of game {game_id!r}, "
                f"which is at version {actual}",
                game_id=game_id,
                expected=expected_version,
                actual=actual,
            )
        raise VersionConflict(
            f"game {game_id!r} is at version {actual}, not {expected_version}: reload and retry",
            expected=expected_version,
            actual=actual,
        )

    async def holds(self, game_id: str, credential: Credential) -> bool:
        """Whether the game still grants `credential` its role (the append's own check)."""
        try:
            role = await self._redis.hget(self.keys(game_id).credentials, credential.digest)
        except UNREACHABLE as exc:
            raise unavailable(exc, game_id) from exc
        return role is not None and role.decode() == credential.role

    # -- read ----------------------------------------------------------------------------

    async def read(
        self, game_id: str, from_seq: int = 1, to_seq: int | None = None
    ) -> list[Envelope]:
        """Events `from_seq`..`to_seq` in order, paged so no reply is huge."""
        keys = self.keys(game_id)
        out: list[Envelope] = []
        start = max(from_seq, 1)
        end = "+" if to_seq is None else stream_id(to_seq)
        if to_seq is not None and to_seq < start:
            return out
        while True:
            try:
                entries = await self._redis.xrange(
                    keys.stream, stream_id(start), end, count=READ_PAGE
                )
            except UNREACHABLE as exc:
                raise unavailable(exc, game_id) from exc
            for entry_id, fields in entries:
                out.append(self._decode_entry(entry_id, fields))
            if len(entries) < READ_PAGE:
                return out
            start = out[-1].seq + 1

    async def entries(self, game_id: str) -> list[tuple[int, Envelope | UmpireError]]:
        """Every stored event of a game as (the seq its entry ID files it under, the
        envelope or why it does not decode), for `umpire store check`: unlike `read`, one
        damaged entry does not hide the ones after it."""
        keys = self.keys(game_id)
        out: list[tuple[int, Envelope | UmpireError]] = []
        start = "-"
        while True:
            try:
                entries = await self._redis.xrange(keys.stream, start, "+", count=READ_PAGE)
            except UNREACHABLE as exc:
                raise unavailable(exc, game_id) from exc
            for entry_id, fields in entries:
                seq = int(entry_id.split(b"-")[0])
                try:
                    out.append((seq, self._decode_entry(entry_id, fields)))
                except (CorruptEvent, ChainBroken) as exc:
                    out.append((seq, exc))
            if len(entries) < READ_PAGE:
                return out
            start = "(" + entries[-1][0].decode()

    async def command_results(self, game_id: str) -> dict[str, str]:
        """Every dedupe entry of a game as stored: command id -> `first:last:hash`."""
        try:
            raw = await self._redis.hgetall(self.keys(game_id).commands)
        except UNREACHABLE as exc:
            raise unavailable(exc, game_id) from exc
        return {k.decode(errors="replace"): v.decode(errors="replace") for k, v in raw.items()}

    def _decode_entry(self, entry_id: bytes, fields: dict[bytes, bytes]) -> Envelope:
        where = entry_id.decode()
        data = fields.get(b"e")
        if data is None:
            raise CorruptEvent(f"stream entry {where} has no event field", where=where)
        env = decode_envelope(data, where=f"entry {where}")
        if stream_id(env.seq) != where:
            raise ChainBroken(
                f"stream entry {where} holds event seq {env.seq}",
                seq=env.seq,
                reason="entry_id_mismatch",
            )
        return env

    async def tail(self, game_id: str, after_seq: int = 0) -> AsyncIterator[Envelope]:
        """Every event after `after_seq` in order, then each new one as it is appended.

        XREAD BLOCK waits at most TAIL_BLOCK_MS per call, well under the client's socket
        timeout, so a quiet game never trips a timeout. Only the next expected seq is ever
        yielded; anything else triggers a re-read from the stream. While Redis is unreachable
        the tail waits and then resumes from the last seq it yielded.
        """
        keys = self.keys(game_id)
        last = after_seq
        for env in await self.read(game_id, last + 1):
            yield env
            last = env.seq
        loop = asyncio.get_running_loop()
        calm_since = loop.time()
        while True:
            try:
                reply = await self._redis.xread(
                    {keys.stream: stream_id(last)}, block=TAIL_BLOCK_MS, count=READ_PAGE
                )
                calm_since = loop.time()
            except _RESHARDING:
                # A blocked read on a slot being moved is answered with redirects until
                # the move settles; nothing is lost, as the next read starts from `last`.
                if not self.cluster or loop.time() - calm_since > RESHARD_PATIENCE:
                    raise
                self.reshard_retries += 1
                await asyncio.sleep(0.05)
                continue
            except UNREACHABLE:
                # Redis away: wait and read again from `last`, so the tail resumes by itself
                # with no gap when the server is back.
                await asyncio.sleep(0.5)
                continue
            if not reply:
                continue
            for _stream, entries in reply:
                for entry_id, fields in entries:
                    env = self._decode_entry(entry_id, fields)
                    if env.seq <= last:
                        continue
                    if env.seq != last + 1:
                        for missed in await self.read(game_id, last + 1, env.seq - 1):
                            yield missed
                            last = missed.seq
                    yield env
                    last = env.seq

    # -- game-level ---------------------------------------------------------------------

    async def version(self, game_id: str) -> int:
        """The last seq of a game, 0 when there is no such game."""
        try:
            raw = await self._redis.hget(self.keys(game_id).meta, "version")
        except UNREACHABLE as exc:
            raise unavailable(exc, game_id) from exc
        return int(raw) if raw is not None else 0

    async def versions(self, game_ids: Sequence[str]) -> list[int | None]:
        """The version of each game in one pipeline (None: no such game)."""
        if not game_ids:
            return []
        try:
            pipe = self._redis.pipeline(transaction=False)
            for game_id in game_ids:
                pipe.hget(self.keys(game_id).meta, "version")
            raw = await pipe.execute()
        except UNREACHABLE as exc:
            raise unavailable(exc, consequence="retry later") from exc
        return [int(v) if v is not None else None for v in raw]

    async def last_hash(self, game_id: str) -> str:
        """The hash of the last event (genesis for no game)."""
        try:
            raw = await self._redis.hget(self.keys(game_id).meta, "last_hash")
        except UNREACHABLE as exc:
            raise unavailable(exc, game_id) from exc
        return raw.decode() if raw is not None else GENESIS_HASH

    async def games(self) -> list[str]:
        """Every game id, in the order they were listed."""
        try:
            raw = await self._redis.zrange(games_index_key(self._prefix), 0, -1)
        except UNREACHABLE as exc:
            raise unavailable(exc) from exc
        return [g.decode() for g in raw]

    async def secret(self, game_id: str) -> bytes:
        """The dice seed of a game (never part of the log)."""
        return (await self._held(game_id))[:SEED_BYTES]

    async def sealing_key(self, game_id: str) -> bytes | None:
        """The sealing key held after the seed (None: a game created before them)."""
        return (await self._held(game_id))[SEED_BYTES:] or None

    async def receipt_key(self, key_id: str = "") -> tuple[str, bytes] | None:
        """A receipt signing key by id, or the current one ("")."""
        key = receipt_keys_key(self._prefix)
        try:
            if not key_id:
                current = await self._redis.hget(key, CURRENT_RECEIPT_KEY)
                if current is None:
                    return None
                key_id = current.decode()
            raw = await self._redis.hget(key, key_id)
        except UNREACHABLE as exc:
            raise unavailable(exc) from exc
        return (key_id, bytes.fromhex(raw.decode())) if raw is not None else None

    async def keep_receipt_key(self, key_id: str, seed: bytes, *, current: bool) -> None:
        """Keep a receipt signing key; with `current`, the one new games take."""
        key = receipt_keys_key(self._prefix)
        try:
            await self._redis.hsetnx(key, key_id, seed.hex())
            if current:
                await self._redis.hset(key, CURRENT_RECEIPT_KEY, key_id)
        except UNREACHABLE as exc:
            raise unavailable(exc) from exc

    async def first_receipt_key(self, key_id: str, seed: bytes) -> str:
        """Keep `seed` as the current key unless one is current already; the current id."""
        key = receipt_keys_key(self._prefix)
        try:
            await self._redis.hsetnx(key, key_id, seed.hex())
            await self._redis.hsetnx(key, CURRENT_RECEIPT_KEY, key_id)
            current = await self._redis.hget(key, CURRENT_RECEIPT_KEY)
        except UNREACHABLE as exc:
            raise unavailable(exc) from exc
        return current.decode() if current is not None else key_id

    async def receipt_keys(self) -> dict[str, bytes]:
        """Every receipt signing key kept, by id."""
        try:
            raw = await self._redis.hgetall(receipt_keys_key(self._prefix))
        except UNREACHABLE as exc:
            raise unavailable(exc) from exc
        return {
            k.decode(): bytes.fromhex(v.decode())
            for k, v in raw.items() if k.decode() != CURRENT_RECEIPT_KEY
        }  # fmt: skip

    async def _held(self, game_id: str) -> bytes:
        """The `:secret` value: the current seed, then (since sealing keys) the sealing key;
        an append's `secret` writes both, the caller joining them."""
        try:
            raw = await self._redis.get(self.keys(game_id).secret)
        except UNREACHABLE as exc:
            raise unavailable(exc, game_id) from exc
        if raw is None:
            raise GameNotFound(f"game {check_game_id(game_id)!r} has no dice seed: no such game")
        return bytes.fromhex(raw.decode())

    async def command_result(self, game_id: str, command_id: str) -> AppendResult | None:
        """The first result of a command id, if that command was appended."""
        try:
            raw = await self._redis.hget(self.keys(game_id).commands, command_id)
        except UNREACHABLE as exc:
            raise unavailable(exc, game_id) from exc
        return parse_command_entry(raw, duplicate=True) if raw is not None else None

    async def save_snapshot(self, game_id: str, snapshot: Snapshot) -> None:
        """Keep `snapshot` if it is newer than the one held."""
        try:
            await self._script(
                self._snapshot,
                [self.keys(game_id).snapshot],
                [snapshot.seq, _snapshot_encoder.encode(snapshot)],
            )
        except UNREACHABLE as exc:
            raise unavailable(exc, game_id) from exc

    async def load_snapshot(self, game_id: str) -> Snapshot | None:
        """The newest snapshot, or None."""
        try:
            raw = await self._redis.hget(self.keys(game_id).snapshot, "data")
        except UNREACHABLE as exc:
            raise unavailable(exc, game_id) from exc
        if raw is None:
            return None
        try:
            return _snapshot_decoder.decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None  # a bad snapshot is ignored: the log is the truth
