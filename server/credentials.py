"""Game credentials: random, per game and role, stored only as SHA-256 hashes.

A credential reads `<game id>.<token>`: the game id says where to look, the token (192
random bits) proves the role. Only the token's hash is stored, in the game's own key
(`umpire:{game}:credentials`), never in the log; checks compare hashes in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from engine.roles import Role
from events.envelope import GAME_ID_PATTERN
from events.errors import UmpireError
from events.redis_store import RedisEventStore


class Unauthorized(UmpireError):
    """A missing, wrong, revoked or foreign credential, or a role that may not do this."""

    code = "unauthorized"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def split(credential: str) -> tuple[str, str]:
    """(game id, token) of a credential, or Unauthorized for a malformed one."""
    game_id, dot, token = credential.partition(".")
    if not dot or not GAME_ID_PATTERN.fullmatch(game_id) or len(token) < 16:
        raise Unauthorized("malformed credential: expected '<game id>.<token>'")
    return game_id, token


async def issue(store: RedisEventStore, game_id: str, role: Role) -> str:
    """A new credential for `role` on `game_id` (shown once; only its hash is kept)."""
    token = secrets.token_urlsafe(24)
    await store.redis.hset(store.keys(game_id).credentials, _digest(token), role.value)
    return f"{game_id}.{token}"


async def verify(store: RedisEventStore, credential: str) -> tuple[str, Role]:
    """The game and role a credential grants, or Unauthorized."""
    game_id, token = split(credential)
    presented = _digest(token)
    held = await store.redis.hgetall(store.keys(game_id).credentials)
    granted: Role | None = None
    for digest, role in held.items():
        # Compare every stored hash in constant time; no early exit on a match.
        if hmac.compare_digest(digest.decode(), presented):
            granted = Role(role.decode())
    if granted is None:
        raise Unauthorized(f"the credential is not valid for game {game_id!r}", game_id=game_id)
    return game_id, granted


async def revoke(store: RedisEventStore, credential: str) -> bool:
    """Revoke a credential; True if it existed."""
    game_id, token = split(credential)
    removed = await store.redis.hdel(store.keys(game_id).credentials, _digest(token))
    return bool(removed)


def is_operator(presented: str, operator_token: str | None) -> bool:
    """Whether `presented` is the operator token from the server's settings."""
    if not operator_token:
        return False
    return hmac.compare_digest(presented.encode(), operator_token.encode())
