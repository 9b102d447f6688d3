"""Credentials on Redis: the hashes of a game's tokens and their roles, in the game's own
hash `umpire:{game}:credentials` (the append script reads the same hash to refuse a
revoked credential).

The store's CredentialStore protocol (events/credential_store.py) is what this holds:
it stores, looks up and lists digests; hashing and revocation notices
stay in server/credentials.py and server/revocations.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from umpire.events.redis_keys import game_keys
from umpire.events.unreachable import UNREACHABLE, unavailable

# A slot's digests are kept in the same hash, under a field no digest can be (digests are
# hex), so one key holds everything and the step stays atomic on a cluster.
SLOT_FIELD_PREFIX = "slot:"

# KEYS: the credentials hash. ARGV: the slot's field, then digest, role pairs.
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
return withdrawn
"""


class RedisCredentials:
    """A game's credential digests on one Redis (or a cluster, through its client)."""

    def __init__(self, client: Any, prefix: str) -> None:
        self._redis = client
        self._prefix = prefix
        self._replace = client.register_script(REPLACE_SCRIPT)

    def _key(self, game_id: str) -> str:
        return game_keys(game_id, self._prefix).credentials

    async def grant(self, game_id: str, digest: str, role: str) -> None:
        """Keep `digest` as a credential of `game_id` for `role`."""
        try:
            await self._redis.hset(self._key(game_id), digest, role)
        except UNREACHABLE as exc:
            raise unavailable(exc, game_id, "retry later") from exc

    async def grants(self, game_id: str) -> dict[str, str]:
        """Every credential digest of `game_id` with its role."""
        try:
            stored = await self._redis.hgetall(self._key(game_id))
        except UNREACHABLE as exc:
            raise unavailable(exc, game_id, "retry later") from exc
        return {
            digest.decode(): role.decode()
            for digest, role in stored.items()
            if not digest.startswith(SLOT_FIELD_PREFIX.encode())
        }

    async def role_of(self, game_id: str, digest: str) -> str | None:
        """The role `digest` grants on `game_id`, or None (one HGET)."""
        if digest.startswith(SLOT_FIELD_PREFIX):
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
            withdrawn = await self._replace(
                keys=[self._key(game_id)], args=[SLOT_FIELD_PREFIX + slot, *pairs]
            )
        except UNREACHABLE as exc:
            raise unavailable(exc, game_id, "retry later") from exc
        return [digest.decode() for digest in withdrawn]

    async def withdraw(self, game_id: str, digest: str) -> bool:
        """Forget one credential; whether it was there."""
        try:
            removed = await self._redis.hdel(self._key(game_id), digest)
        except UNREACHABLE as exc:
            raise unavailable(exc, game_id, "nothing was revoked") from exc
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
            return [
                bool(x) and not d.startswith(SLOT_FIELD_PREFIX)
                for x, (_, d) in zip(found, grants, strict=True)
            ]
        except UNREACHABLE as exc:
            raise unavailable(exc, consequence="retry later") from exc
