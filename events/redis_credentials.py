"""Credentials on Redis: the hashes of a game's tokens and their roles, in the game's own
hash `umpire:{game}:credentials` (the append script reads the same hash to refuse a
revoked credential).

The server's CredentialStore protocol (server/credential_store.py) is what this holds:
it stores, looks up and lists digests; hashing and revocation notices
stay in server/credentials.py and server/revocations.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from umpire.events.redis_keys import game_keys
from umpire.events.unreachable import UNREACHABLE, unavailable


class RedisCredentials:
    """A game's credential digests on one Redis (or a cluster, through its client)."""

    def __init__(self, client: Any, prefix: str) -> None:
        self._redis = client
        self._prefix = prefix

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
        return {digest.decode(): role.decode() for digest, role in stored.items()}

    async def role_of(self, game_id: str, digest: str) -> str | None:
        """The role `digest` grants on `game_id`, or None (one HGET)."""
        try:
            role = await self._redis.hget(self._key(game_id), digest)
        except UNREACHABLE as exc:
            raise unavailable(exc, game_id, "retry later") from exc
        return None if role is None else str(role.decode())

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
            return [bool(x) for x in await pipe.execute()]
        except UNREACHABLE as exc:
            raise unavailable(exc, consequence="retry later") from exc
