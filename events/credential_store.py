"""What a store keeps of credentials: digests of tokens and the roles they grant.

The contract is the store's, so it lives here with `EventStore` (events/store.py), and the
store contract suite (testing/store_contract.py) states it without importing
server/. server/credentials.py makes tokens, hashes them and looks the hashes up; the
store only keeps digests (the Redis adapter: events/redis_credentials.py, in the game's
own hash, which the append script reads to refuse a revoked credential). Every operation
raises StoreUnavailable when the store cannot be reached.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol


class CredentialStore(Protocol):
    """Per-game credential digests and their roles."""

    async def grant(self, game_id: str, digest: str, role: str) -> None:
        """Keep `digest` as a credential of `game_id` for `role`."""
        ...

    async def grants(self, game_id: str) -> dict[str, str]:
        """Every credential digest of `game_id` with its role."""
        ...

    async def role_of(self, game_id: str, digest: str) -> str | None:
        """The role `digest` grants on `game_id`, or None (one lookup, whatever the
        number of the game's credentials)."""
        ...

    async def replace(self, game_id: str, slot: str, grants: Mapping[str, str]) -> list[str]:
        """Keep `grants` (digest -> role) as the credentials of `game_id`'s `slot`, and
        withdraw, in the same step, the ones that slot held before; those digests. A slot
        is no credential: `grants`, `role_of` and `held` never see it."""
        ...

    async def withdraw(self, game_id: str, digest: str) -> bool:
        """Forget one credential; whether it was there."""
        ...

    async def tally(self, game_id: str) -> tuple[int, int]:
        """(how many changes `game_id`'s credentials have had, how many entries they hold
        now, every kind counted): what `umpire store check` compares with the count each
        change recorded outside the store, to name a change the store lost."""
        ...

    async def tallies(self, game_ids: Sequence[str]) -> list[tuple[int, int]]:
        """`tally` of each game (one round trip)."""
        ...

    async def held(self, grants: Sequence[tuple[str, str]]) -> list[bool]:
        """For each (game id, digest), whether it is still a credential (one round trip)."""
        ...
