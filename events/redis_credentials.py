"""Credentials on Redis: the hashes of a game's tokens and their roles, in the game's own
hash `umpire:{game}:credentials` (the append script reads the same hash to refuse a
revoked credential).

The store's CredentialStore protocol (events/credential_store.py) is what this holds:
it stores, looks up and lists digests; hashing and revocation notices
stay in server/credentials.py and server/revocations.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from umpire.events.redis_keys import game_keys
from umpire.events.unreachable import UNREACHABLE, unavailable

# A slot's digests are kept in the same hash, under a field no digest can be (digests are
# hex), so one key holds everything and the step stays atomic on a cluster.
SLOT_FIELD_PREFIX = "slot:"
# How many changes the hash has had, in the same hash (a field no digest can be either):
# each change adds one in the same script, and its caller records the count and the
# hash's fields outside the store (server/head_checkpoints.py `C` lines), so that a
# change the store lost (an AOF cut, an older backup: a credential given out that no
# longer works, or a revoked one that works again) is named by `umpire store check`.
CHANGES_FIELD = "changes:"

# KEYS: the credentials hash. ARGV: the field, the role. Returns {changes, fields}.
GRANT_SCRIPT = """
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return {redis.call('HINCRBY', KEYS[1], 'changes:', 1), redis.call('HLEN', KEYS[1])}
"""

# KEYS: the credentials hash. ARGV: the digest. Returns {removed, changes, fields}
# (changes 0 when nothing was removed and the hash had none).
WITHDRAW_SCRIPT = """
local removed = redis.call('HDEL', KEYS[1], ARGV[1])
local changes = tonumber(redis.call('HGET', KEYS[1], 'changes:') or '0')
if removed == 1 then
  changes = redis.call('HINCRBY', KEYS[1], 'changes:', 1)
end
return {removed, changes, redis.call('HLEN', KEYS[1])}
"""

# KEYS: the credentials hash. ARGV: the slot's field, then digest, role pairs. Returns
# {withdrawn digests, changes, fields}.
REPLACE_SCRIPT = """
local old = redis.call('HGET', KEYS[1], ARGV[1])
local withdrawn = {}
if old then
  for digest in string.gmatch(old, '%S+') do
    redis.call('HDEL', KEYS[1], digest)
    table.insert(withdrawn, digest)
  end
end
local kept = {}
for i = 2, #ARGV, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  table.insert(kept, ARGV[i])
end
redis.call('HSET', KEYS[1], ARGV[1], table.concat(kept, ' '))
local changes = redis.call('HINCRBY', KEYS[1], 'changes:', 1)
return {withdrawn, changes, redis.call('HLEN', KEYS[1])}
"""

# Called after each change with (game id, changes, fields): see CHANGES_FIELD.
ChangeRecorder = Callable[[str, int, int], None]


def _listed(field: bytes | str) -> bool:
    """Whether a field of the hash is a credential (not a slot or the change count)."""
    text = field.decode() if isinstance(field, bytes) else field
    return not (text.startswith(SLOT_FIELD_PREFIX) or text == CHANGES_FIELD)


class RedisCredentials:
    """A game's credential digests on one Redis (or a cluster, through its client)."""

    def __init__(self, client: Any, prefix: str) -> None:
        self._redis = client
        self._prefix = prefix
        self._replace = client.register_script(REPLACE_SCRIPT)
        self._grant = client.register_script(GRANT_SCRIPT)
        self._withdraw = client.register_script(WITHDRAW_SCRIPT)
        # Where each change's count is recorded (server/head_checkpoints.py), if anywhere.
        self.on_change: ChangeRecorder | None = None

    def _changed(self, game_id: str, changes: Any, fields: Any) -> None:
        if self.on_change is not None and int(changes):
            self.on_change(game_id, int(changes), int(fields))

    def _key(self, game_id: str) -> str:
        return game_keys(game_id, self._prefix).credentials

    async def grant(self, game_id: str, digest: str, role: str) -> None:
        """Keep `digest` as a credential of `game_id` for `role`."""
        try:
            changes, fields = await self._grant(keys=[self._key(game_id)], args=[digest, role])
        except UNREACHABLE as exc:
            raise unavailable(exc, game_id, "retry later") from exc
        self._changed(game_id, changes, fields)

    async def grants(self, game_id: str) -> dict[str, str]:
        """Every credential digest of `game_id` with its role."""
        try:
            stored = await self._redis.hgetall(self._key(game_id))
        except UNREACHABLE as exc:
            raise unavailable(exc, game_id, "retry later") from exc
        return {
            digest.decode(): role.decode() for digest, role in stored.items() if _listed(digest)
        }

    async def tally(self, game_id: str) -> tuple[int, int]:
        """(changes, fields) of `game_id`'s credentials as the store holds them now: what
        each change recorded outside the store is compared with (see CHANGES_FIELD)."""
        return (await self.tallies([game_id]))[0]

    async def tallies(self, game_ids: Sequence[str]) -> list[tuple[int, int]]:
        """`tally` of each game, in one pipeline."""
        if not game_ids:
            return []
        try:
            pipe = self._redis.pipeline(transaction=False)
            for game_id in game_ids:
                pipe.hget(self._key(game_id), CHANGES_FIELD)
                pipe.hlen(self._key(game_id))
            raw = await pipe.execute()
        except UNREACHABLE as exc:
            raise unavailable(exc, consequence="retry later") from exc
        return [(int(raw[i] or 0), int(raw[i + 1])) for i in range(0, len(raw), 2)]

    async def role_of(self, game_id: str, digest: str) -> str | None:
        """The role `digest` grants on `game_id`, or None (one HGET)."""
        if not _listed(digest):
            return None
        try:
            role = await self._redis.hget(self._key(game_id), digest)
        except UNREACHABLE as exc:
            raise unavailable(exc, game_id, "retry later") from exc
        return None if role is None else str(role.decode())

    async def replace(self, game_id: str, slot: str, grants: Mapping[str, str]) -> list[str]:
        """Keep `grants` as `slot`'s credentials, withdrawing its previous ones (one
        script); the digests withdrawn."""
        pairs = [x for digest, role in grants.items() for x in (digest, role)]
        try:
            withdrawn, changes, fields = await self._replace(
                keys=[self._key(game_id)], args=[SLOT_FIELD_PREFIX + slot, *pairs]
            )
        except UNREACHABLE as exc:
            raise unavailable(exc, game_id, "retry later") from exc
        self._changed(game_id, changes, fields)
        return [digest.decode() for digest in withdrawn]

    async def withdraw(self, game_id: str, digest: str) -> bool:
        """Forget one credential; whether it was there."""
        if not _listed(digest):
            return False
        try:
            removed, changes, fields = await self._withdraw(
                keys=[self._key(game_id)], args=[digest]
            )
        except UNREACHABLE as exc:
            raise unavailable(exc, game_id, "nothing was revoked") from exc
        if removed:
            self._changed(game_id, changes, fields)
        return bool(removed)

    async def held(self, grants: Sequence[tuple[str, str]]) -> list[bool]:
        """For each (game id, digest), whether it is still a credential (one pipeline)."""
        if not grants:
            return []
        try:
            pipe = self._redis.pipeline(transaction=False)
            for game_id, digest in grants:
                pipe.hexists(self._key(game_id), digest)
            found = await pipe.execute()
            return [bool(x) and _listed(d) for x, (_, d) in zip(found, grants, strict=True)]
        except UNREACHABLE as exc:
            raise unavailable(exc, consequence="retry later") from exc
