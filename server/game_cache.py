"""The games a gateway keeps folded (server/games.py `Games`): loaded from the nearest
snapshot and the log's tail, kept in a bounded cache."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Literal

import msgspec

from umpire.engine import registry
from umpire.engine.game import (
    Game,
    NeedsWholeLog,
    codec_for,
    decode_game,
    fold,
    ruleset_of,
    state_hash,
)
from umpire.engine.ruleset import Ruleset
from umpire.events.chain import verify_chain
from umpire.events.envelope import check_game_id
from umpire.events.errors import GameNotFound
from umpire.events.store import Store
from umpire.events.types import GameCreated


class GameCache:
    """Games' cache of folded games: `load`, `cached`."""

    __slots__ = ()

    # Set by Games.__init__ (server/games.py): the store, and what is kept of each game.
    store: Store
    _cache: OrderedDict[str, tuple[Ruleset[Any], Game]]
    _cache_size: int
    _keys: dict[str, bytes | None]
    _secrets: dict[str, bytes]
    _referees: dict[str, Literal["player", "operator"]]

    async def load(self, game_id: str) -> tuple[Ruleset[Any], Game]:
        """The current game: cached or snapshot state, then every event after it."""
        check_game_id(game_id)
        cached = self._cache.get(game_id)
        ruleset: Ruleset[Any] | None = None
        game: Game | None = None
        if cached is not None:
            ruleset, game = cached
        else:
            ruleset, game = await self._from_snapshot(game_id)
        start = game.meta.seq + 1 if game else 1
        envelopes = await self.store.read(game_id, start)
        # Nothing new, or the log lost its last writes and now ends before the cached or
        # snapshot state (Redis lost acknowledged events): the log is the truth, so it is
        # then folded from its first event.
        if game is not None and not envelopes and await self.store.version(game_id) < game.meta.seq:
            self._forget(game_id)
            ruleset, game = None, None
            envelopes = await self.store.read(game_id, 1)
        if game is not None and envelopes:
            verify_chain(envelopes, start_seq=start, prev_hash=game.meta.last_hash, game_id=game_id)
        elif game is None:
            if not envelopes:
                raise GameNotFound(f"no game {game_id!r}", game_id=game_id)
            verify_chain(envelopes, game_id=game_id)
        try:
            game = fold(envelopes, game, ruleset)
        except NeedsWholeLog:
            # The tail holds an amendment, which returns behind the cached state.
            game = fold(await self.store.read(game_id, 1), None, ruleset)
        assert game is not None
        ruleset = ruleset or registry.get(game.meta.ruleset)
        self._remember(game_id, ruleset, game)
        return ruleset, game

    async def _from_snapshot(self, game_id: str) -> tuple[Ruleset[Any] | None, Game | None]:
        snap = await self.store.load_snapshot(game_id)
        if snap is None:
            return None, None
        first = await self.store.read(game_id, 1, 1)
        if not first:
            return None, None

        ruleset = ruleset_of(first[0])
        try:
            game = decode_game(ruleset, snap.state)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None, None
        # A snapshot is used only if it reproduces its recorded state hash and position.
        if state_hash(game) != snap.state_hash or game.meta.seq != snap.seq:
            return None, None
        if game.meta.last_hash != snap.last_hash:
            return None, None
        return ruleset, game

    async def referee(self, game_id: str) -> Literal["player", "operator"]:
        """Who rules the game's disputes besides the operator (GameCreated.referee:
        "player" or "operator"): read once per game and kept, as it never changes, so that
        every `state` frame can say it without the page reading the log from seq 1."""
        known = self._referees.get(game_id)
        if known is not None:
            return known
        first = await self.store.read(game_id, 1, 1)
        if not first:
            raise GameNotFound(f"no game {game_id!r}", game_id=game_id)
        env = first[0]
        created = codec_for(ruleset_of(env)).decode(env.type, env.version, env.payload, seq=1)
        assert isinstance(created, GameCreated)  # ruleset_of refuses any other first event
        referee: Literal["player", "operator"] = (
            "operator" if created.referee == "operator" else "player"
        )
        if len(self._referees) >= self._cache_size:
            self._referees.clear()
        self._referees[game_id] = referee
        return referee

    def _remember(self, game_id: str, ruleset: Ruleset[Any], game: Game) -> None:
        self._cache[game_id] = (ruleset, game)
        self._cache.move_to_end(game_id)
        while len(self._cache) > self._cache_size:
            evicted, _ = self._cache.popitem(last=False)
            self._secrets.pop(evicted, None)  # read again with the game, if it comes back
            self._keys.pop(evicted, None)

    def _forget(self, game_id: str) -> None:
        self._cache.pop(game_id, None)
        self._secrets.pop(game_id, None)
        self._keys.pop(game_id, None)

    def cached(self, game_id: str) -> tuple[Ruleset[Any], Game] | None:
        """The cached game, if any, without I/O (a reply's receipt reads it)."""
        return self._cache.get(game_id)
