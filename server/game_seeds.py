"""A game's dice seeds on the store (server/games.py `Games`): the client's seed bound to an
epoch, the server's secrets and sealing key, and the reveal (docs/audit.md (4.1))."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from umpire.engine.dice import commitment, hidden_dice_key
from umpire.engine.errors import ClientSeedRefused, GameOver, InvalidCommand
from umpire.engine.game import Game
from umpire.engine.ruleset import Ruleset
from umpire.events.errors import (
    GameNotFound,
    UmpireError,
    VersionConflict,
)
from umpire.events.store import AppendResult, Credential, Store
from umpire.events.types import ClientEntropy, ClientSeedBound, SeedRevealed
from umpire.server.game_records import (
    CLIENT_SEED_MAX,
    MAX_ATTEMPTS,
    CommandResult,
    NoDiceSeed,
    _commitment_of,
    bind_command_id,
    reveal_command_id,
)


class GameSeeds:
    """Games' seeds: binding the client's, keeping the server's secret, revealing it."""

    __slots__ = ()

    # Set by Games.__init__ (server/games.py).
    store: Store
    draw_seed: Callable[[], bytes]
    _keys: dict[str, bytes | None]
    _secrets: dict[str, bytes]

    if TYPE_CHECKING:  # Games' own (server/games.py) and GameCache's (server/game_cache.py)

        def _refuse_if_full(self) -> None: ...
        async def _append(
            self,
            ruleset: Ruleset[Any],
            game: Game,
            events: list[Struct],
            command_id: str,
            credential: Credential | None = None,
            *,
            secret: bytes | None = None,
        ) -> AppendResult: ...
        def _result(self, game_id: str, command_id: str, result: AppendResult) -> CommandResult: ...
        async def load(self, game_id: str) -> tuple[Ruleset[Any], Game]: ...
        def _forget(self, game_id: str) -> None: ...

    async def bind_client_seed(
        self, game_id: str, client_seed: str, *, credential: Credential | None = None
    ) -> CommandResult:
        """Bind the client's seed to the current seed epoch (ClientSeedBound, a system
        batch "umpire:bind:<epoch>").

        The client sends it after it has seen the epoch's commitment (GameCreated, or the
        `next_commitment` of a mid-game reveal); the epoch's rolls derive from both. Refused
        (ClientSeedRefused, nothing written) in a game that waived client entropy, once the
        epoch has a client seed or a server roll (physical dice do not count: they derive
        from no seed), and after the game ended. Binding the same seed
        again answers with the first result.
        """
        self._refuse_if_full()
        if not isinstance(client_seed, str) or not 1 <= len(client_seed) <= CLIENT_SEED_MAX:
            raise InvalidCommand(f"a client seed is a string of 1 to {CLIENT_SEED_MAX} characters")
        for _ in range(MAX_ATTEMPTS):
            ruleset, game = await self.load(game_id)
            meta = game.meta
            command_id = bind_command_id(meta.epoch)
            if meta.client_bound and meta.client_seed == client_seed:
                known = await self.store.command_result(game_id, command_id)
                if known is not None:
                    return self._result(game_id, command_id, known)
            self._check_bindable(game)
            event = ClientSeedBound(epoch=meta.epoch, client_seed=client_seed)
            try:
                result = await self._append(ruleset, game, [event], command_id, credential)
            except VersionConflict:
                continue
            if result.duplicate:
                # Another bind of this epoch won the race: the same seed is the same bind.
                _, now = await self.load(game_id)
                if now.meta.client_seed != client_seed:
                    self._check_bindable(now)
            return self._result(game_id, command_id, result)
        raise UmpireError(f"game {game_id!r} is busy; try the bind again")

    @staticmethod
    def _check_bindable(game: Game) -> None:
        meta = game.meta
        if meta.ended or meta.revealed_seed is not None:
            raise GameOver(f"game {meta.game_id!r} has ended; it takes no client seed")
        if meta.client_entropy is ClientEntropy.WAIVED:
            raise ClientSeedRefused(
                f"game {meta.game_id!r} was created waiving client entropy (recorded in "
                "its GameCreated): its dice derive from the server's seed alone"
            )
        if meta.client_bound:
            raise ClientSeedRefused(
                f"seed epoch {meta.epoch} of game {meta.game_id!r} has its client seed "
                "already; a new one is taken only after a reveal commits the next seed",
                epoch=meta.epoch,
            )
        if meta.epoch_rolls:
            raise ClientSeedRefused(
                f"seed epoch {meta.epoch} of game {meta.game_id!r} has made a server roll "
                "already; a client seed is taken only before the epoch's first server roll",
                epoch=meta.epoch,
            )

    async def _sealing_key(self, game_id: str) -> bytes | None:
        """The game's sealing key (None: a game created before them, whose ruleset
        secrets are sealed under the epoch's seed as they always were)."""
        if game_id not in self._keys:
            try:
                self._keys[game_id] = await self.store.sealing_key(game_id)
            except GameNotFound:
                await self._stored_secret(game_id)  # raises the copy's NoDiceSeed
                raise
        return self._keys[game_id]

    async def _hidden_key(self, game: Game) -> bytes | None:
        """The key the game's hidden rolls derive from (engine/dice.py `roll_key`): from
        the sealing key its GameCreated commits to, checked against that commitment; None
        for a game created before sealing commitments (its hidden rolls use the seed)."""
        if not game.meta.sealing_commitment:
            return None
        key = await self._sealing_key(game.meta.game_id)
        hidden = None if key is None else _checked_hidden_key(key, game.meta.sealing_commitment)
        if hidden is None:
            raise UmpireError(
                f"game {game.meta.game_id!r}: the stored sealing key does not match the "
                "game's sealing commitment",
                game_id=game.meta.game_id,
            )
        return hidden

    async def _secret(self, game_id: str) -> bytes:
        seed = self._secrets.get(game_id)
        if seed is None:
            seed = await self._stored_secret(game_id)
            self._secrets[game_id] = seed
        return seed

    async def _stored_secret(self, game_id: str) -> bytes:
        try:
            return await self.store.secret(game_id)
        except GameNotFound:
            if await self.store.version(game_id) == 0:
                raise
            # ARCHITECTURE.md: a re-adjudication copy is stored without a seed, so that
            # nothing done with the copy can publish (or roll from) its original's seed.
            # Any other game lost it from the store: said too (`store check` names it).
            raise NoDiceSeed(
                f"game {game_id!r} holds no dice seed of its own (a re-adjudication copy "
                "records its original's rolls): it cannot roll server dice or reveal a "
                "seed; its original's seed is published only by revealing the original. "
                "A game that is no copy lost its seed from the store: `umpire store "
                "check` names it; restore a backup",
                game_id=game_id,
            ) from None

    async def _seed_for(self, game: Game) -> bytes | None:
        """The secret seed of the game's current seed epoch, or None when the store holds
        another epoch's (the game as read is behind a reveal: read it again)."""
        game_id = game.meta.game_id
        seed = self._secrets.get(game_id)
        if seed is not None and _commitment_of(seed) == game.meta.seed_commitment:
            return seed
        seed = await self._stored_secret(game_id)
        if _commitment_of(seed) != game.meta.seed_commitment:
            return None
        self._secrets[game_id] = seed
        return seed

    def _cached_dice(self, game: Game) -> tuple[bytes, bytes | None] | None:
        """`_dice` from what is held in memory (the hot path: no coroutine), or None when
        a part of it must be read (then `_dice` reads it)."""
        meta = game.meta
        seed = self._secrets.get(meta.game_id)
        if seed is None or _commitment_of(seed) != meta.seed_commitment:
            return None
        if not meta.sealing_commitment:
            return seed, None
        key = self._keys.get(meta.game_id)
        hidden = None if key is None else _checked_hidden_key(key, meta.sealing_commitment)
        return None if hidden is None else (seed, hidden)

    async def _dice(self, game: Game) -> tuple[bytes, bytes | None] | None:
        """The server dice of the game's current epoch: its seed, and the key its hidden
        rolls derive from (`_hidden_key`); None when the store holds another epoch's seed
        (`_seed_for`: read the game again)."""
        seed = await self._seed_for(game)
        if seed is None:
            return None
        return seed, await self._hidden_key(game)

    async def reveal(self, game_id: str) -> CommandResult:
        """Publish the seed of the current epoch (SeedRevealed).

        On a running game the same event commits a fresh seed for the next epoch
        (`next_commitment`), which replaces the stored secret in the same atomic append;
        the next epoch's rolls wait for a fresh client seed (unless the game waived client
        entropy). No roll after the reveal can be derived from what it publishes. An
        ended game has revealed its last seed already (GameOver).
        """
        self._refuse_if_full()
        for _ in range(MAX_ATTEMPTS):
            ruleset, game = await self.load(game_id)
            if game.meta.revealed_seed is not None or game.meta.ended:
                raise GameOver(f"game {game_id!r} has revealed its seed already")
            seed = await self._seed_for(game)
            if seed is None:
                self._forget(game_id)
                continue
            following = self.draw_seed()
            if len(following) != 32:
                raise ValueError("a dice seed must be 32 bytes")
            event = SeedRevealed(
                seed=seed.hex(), epoch=game.meta.epoch, next_commitment=commitment(following)
            )
            command_id = reveal_command_id(game.meta.epoch)
            try:
                key = await self._sealing_key(game_id)
                result = await self._append(
                    ruleset, game, [event], command_id, secret=following + (key or b"")
                )
            except VersionConflict:
                continue
            if not result.duplicate:
                self._secrets[game_id] = following
            return self._result(game_id, command_id, result)
        raise UmpireError(f"game {game_id!r} is busy; try the reveal again")


@functools.lru_cache(maxsize=4096)
def _checked_hidden_key(key: bytes, commitment: str) -> bytes | None:
    """The hidden-dice key of a sealing key that matches `commitment`, else None. Cached:
    every command of a game asks for it, and it costs three SHA-256 runs (~5 µs)."""
    return hidden_dice_key(key) if _commitment_of(key) == commitment else None
