"""A session's reads (server/session.py): `view` at the head or at a past seq (replayed,
server/replay_cache.py), and `list_games`."""

from __future__ import annotations

from typing import Any

import msgspec

from umpire.engine.game import ruleset_of
from umpire.engine.map_view import drawn
from umpire.engine.redaction import view_for
from umpire.engine.replay import SeqOutOfRange
from umpire.engine.roles import Role
from umpire.events.receipt import receipt_state_hash
from umpire.events.unreachable import UNREACHABLE, unavailable
from umpire.events.wire import (
    GameList,
    GameSummary,
    ListGames,
    ViewState,
    encoder,
)
from umpire.server.admission import (
    MESSAGE_COST,
    listing_cost,
    replay_cost,
)
from umpire.server.games import Games

RULESET_NAMES_REMEMBERED = 100_000
LIST_PAGE = 20  # games whose versions one pipeline reads (redis-py parses ~60 µs each)


class Views:
    """The session's answers to `view` and `list_games`."""

    __slots__ = ()

    async def _view_at(
        self, game_id: str, role: Role, at_seq: int, request_id: str | None
    ) -> ViewState:
        """The state after event `at_seq` as `role` sees it now (all of it once revealed).

        Charged by the events it must read and fold (server/admission.py); folded from
        the nearest checkpoint, or answered from the cache (server/replay_cache.py)."""
        ruleset, game = await self.gw.games.load(game_id)
        if not 1 <= at_seq <= game.meta.seq:
            self.admit("view_at", MESSAGE_COST)
            raise SeqOutOfRange(
                f"seq {at_seq} is out of range: game {game_id!r} has events 1 to {game.meta.seq}",
                game_id=game_id,
                at_seq=at_seq,
                head=game.meta.seq,
            )
        revealed = game.meta.revealed_seed is not None
        # Actions only at the head: a past state's commands can no longer be sent.
        actions = (
            await self.gw.games.rules.actions(ruleset, game, role)
            if at_seq == game.meta.seq
            else []
        )

        def answer(state: Any, ended: bool, event_hash: str) -> ViewState:
            return ViewState(
                game_id=game_id,
                seq=at_seq,
                role=role.value,
                ruleset=ruleset.name,
                state=state,
                ended=ended,
                id=request_id,
                actions=actions,
                head_hash=event_hash,
                state_hash=receipt_state_hash(at_seq, event_hash, state),
                map=drawn(ruleset.board, state),
            )

        replays = self.gw.replays
        key = (game_id, at_seq, role.value, revealed)
        self.admit("view_at", replay_cost(replays.distance(game_id, at_seq, key)))
        cached = replays.answer(key)
        if cached is not None:
            event_hash, (state, ended) = cached
            here = await self.gw.store.read(game_id, at_seq, at_seq)
            if here and here[0].hash == event_hash:
                return answer(state, ended, event_hash)
            replays.forget(game_id)  # the log changed under the answer
        past = await replays.game_at(game_id, ruleset, at_seq)
        state = msgspec.to_builtins(view_for(ruleset, past.state, role, revealed=revealed))
        replays.remember(key, past.meta.last_hash, (state, past.meta.ended))
        return answer(state, past.meta.ended, past.meta.last_hash)

    async def _view(self, game_id: str, role: Role, request_id: str | None) -> ViewState:
        return await head_view(self.gw.games, game_id, role, request_id)

    async def _list(self, msg: ListGames) -> None:
        ids = await self.gw.store.games() if self.operator else sorted(self.roles)
        self.admit("list_games", listing_cost(len(ids)))
        store = self.gw.store
        try:
            versions = []
            for start in range(0, len(ids), LIST_PAGE):
                async with self.gw.heavy:
                    versions += await store.versions(ids[start : start + LIST_PAGE])
        except UNREACHABLE as exc:
            raise unavailable(exc, consequence="retry later") from exc
        summaries = []
        names = self.gw.ruleset_names
        for game_id, raw in zip(ids, versions, strict=True):
            if raw is None:
                continue  # no such game (any more)
            name = names.get(game_id)
            if name is None:  # read once per game and gateway: a ruleset never changes
                first = await store.read(game_id, 1, 1)
                if not first:
                    continue
                if len(names) >= RULESET_NAMES_REMEMBERED:
                    names.clear()
                name = names[game_id] = ruleset_of(first[0]).name
            role = self.roles.get(game_id, Role.REFEREE)
            summaries.append(
                GameSummary(game_id=game_id, ruleset=name, role=role.value, seq=int(raw))
            )
        self._reply(GameList(games=summaries, id=msg.id))


async def head_view(
    games: Games, game_id: str, role: Role, request_id: str | None = None
) -> ViewState:
    """The `state` frame of `game_id` at its head as `role` sees it (the answer to a
    `view`, and the frame pushed to a subscriber with `views`): built from `role`'s view
    alone, with the commands `role` may send now."""
    ruleset, game = await games.load(game_id)
    revealed = game.meta.revealed_seed is not None
    # Off the event loop (server/rules_pool.py): on a large map it costs like an AI turn.
    actions = await games.rules.actions(ruleset, game, role)
    state = msgspec.to_builtins(view_for(ruleset, game.state, role, revealed=revealed))
    return ViewState(
        game_id=game_id,
        seq=game.meta.seq,
        role=role.value,
        ruleset=ruleset.name,
        state=state,
        ended=game.meta.ended,
        id=request_id,
        actions=actions,
        head_hash=game.meta.last_hash,
        state_hash=receipt_state_hash(game.meta.seq, game.meta.last_hash, state),
        map=drawn(ruleset.board, state),
    )


async def pushed_state(games: Games, game_id: str, role: Role) -> tuple[int, bytes]:
    """A pushed `state` frame (no request id) and its seq: server/feed.py builds one per
    role and batch for the subscribers that asked for `views`."""
    view = await head_view(games, game_id, role)
    return view.seq, encoder.encode(view)
