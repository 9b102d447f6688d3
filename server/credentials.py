"""Game credentials: random, per game and role, stored only as SHA-256 hashes.

A credential reads `<game id>.<token>`: the game id says where to look, the token (192
random bits) proves the role. Only the token's hash is stored, in the game's own key
(`umpire:{game}:credentials`), never in the log; a check looks the presented token's hash
up in it (one HGET, whatever the number of the game's credentials).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from collections.abc import Sequence

from umpire.engine.roles import Role
from umpire.events.envelope import GAME_ID_PATTERN
from umpire.events.errors import StoreUnavailable, Unauthorized
from umpire.events.store import Store
from umpire.server import revocation_announcements

log = logging.getLogger("umpire.credentials")

__all__ = [
    "Unauthorized",
    "fingerprint",
    "held",
    "is_operator",
    "issue",
    "reissue",
    "revoke",
    "split",
    "verify",
]


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def split(credential: str) -> tuple[str, str]:
    """(game id, token) of a credential, or Unauthorized for a malformed one."""
    game_id, dot, token = credential.partition(".")
    if not dot or not GAME_ID_PATTERN.fullmatch(game_id) or len(token) < 16:
        raise Unauthorized("malformed credential: expected '<game id>.<token>'")
    return game_id, token


async def issue(store: Store, game_id: str, role: Role) -> str:
    """A new credential for `role` on `game_id` (shown once; only its hash is kept)."""
    token = secrets.token_urlsafe(24)
    await store.credentials.grant(game_id, _digest(token), role.value)
    return f"{game_id}.{token}"


async def reissue(store: Store, game_id: str, slot: str) -> tuple[str, str]:
    """New player and spectator credentials for `game_id` in place of the ones `slot`
    handed out before (withdrawn and announced as revoked, like `revoke`): a re-sent
    create's answer (docs/protocol.md, "Re-sending a create"). Credentials outside the
    slot, the first answer's among them, are left alone."""
    tokens = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    grants = {_digest(tokens[0]): Role.PLAYER.value, _digest(tokens[1]): Role.SPECTATOR.value}
    withdrawn = await store.credentials.replace(game_id, slot, grants)
    try:
        for digest in withdrawn:
            await revocation_announcements.announce(store, game_id, digest)
    except StoreUnavailable as exc:
        # Withdrawn in the store; gateways find it on their next re-check.
        log.warning("withdrawal of a re-sent create's credentials not announced: %s", exc)
    return f"{game_id}.{tokens[0]}", f"{game_id}.{tokens[1]}"


def fingerprint(credential: str) -> tuple[str, str]:
    """(game id, SHA-256 of the token): what the server keeps of a credential."""
    game_id, token = split(credential)
    return game_id, _digest(token)


async def verify(store: Store, credential: str) -> tuple[str, Role]:
    """The game and role a credential grants, or Unauthorized. One lookup by the token's
    digest, whatever the number of the game's credentials: the field name is the SHA-256
    of 192 random bits, so the lookup tells nothing about a token that is not there, and
    no stored digest is ever compared with the presented one."""
    game_id, token = split(credential)
    role = await store.credentials.role_of(game_id, _digest(token))
    if role is None:
        raise Unauthorized(f"the credential is not valid for game {game_id!r}", game_id=game_id)
    return game_id, Role(role)


async def revoke(store: Store, credential: str) -> bool:
    """Revoke a credential; True if it existed. Its next `verify` fails, and every gateway
    hears of it at once (server/revocations.py): each drops the connections that hold it
    and refuses their next message. A gateway that missed the announcement finds it on
    its next re-check (`credential_recheck_seconds`)."""
    game_id, token = split(credential)
    digest = _digest(token)
    removed = await store.credentials.withdraw(game_id, digest)
    try:
        # Announced even if it was gone already: a gateway may still hold it.
        await revocation_announcements.announce(store, game_id, digest)
    except StoreUnavailable as exc:
        # Revoked in the store; gateways find it on their next re-check.
        log.warning("revocation of a credential for %s not announced: %s", game_id, exc)
    return removed


async def held(store: Store, grants: Sequence[tuple[str, str]]) -> list[bool]:
    """For each (game id, digest), whether that credential is still valid (one round trip)."""
    return await store.credentials.held(grants)


def is_operator(presented: str, operator_token: str | None) -> bool:
    """Whether `presented` is the operator token from the server's settings."""
    if not operator_token:
        return False
    return hmac.compare_digest(presented.encode(), operator_token.encode())
