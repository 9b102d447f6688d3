"""A session's reads (server/session.py): `view` at the head or at a past seq (replayed,
server/replay_cache.py), and `list_games`. No I/O: the game, the replay and the store's
versions are asked of the driver (server/requests.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import msgspec

from umpire.engine.game import ruleset_of
from umpire.engine.map_view import drawn
from umpire.engine.replay import SeqOutOfRange
from umpire.engine.roles import Role
from umpire.events.errors import StoreUnreachable, UmpireError
from umpire.events.receipt import receipt_state_hash
from umpire.events.receipt_signature import (
    BatchSignature,
    ReceiptSigner,
    Statement,
    receipt_statement,
)
from umpire.events.wire import GameList, GameSummary, ListGames, ViewState
from umpire.server.admission import MESSAGE_COST, listing_cost, replay_cost
from umpire.server.requests import (
    Actions,
    CredentialsHeld,
    DropGrant,
    GameIds,
    GameSigner,
    HeadView,
    LoadGame,
    ReadPage,
    ReadVersions,
    Referee,
    Replay,
    ReplayDistance,
    SignReceipt,
    Steps,
)

if TYPE_CHECKING:
    # Types only: the session imports this module.
    from umpire.server.session import Shared

RULESET_NAMES_REMEMBERED = 100_000
LIST_PAGE = 20  # games whose versions one pipeline reads (redis-py parses ~60 µs each)


class Views:
    """The session's answers to `view` and `list_games`."""

    __slots__ = ()

    # What is read of the session (server/session.py `Session`).
    gw: Shared
    operator: bool
    roles: dict[str, Role]
    grants: dict[str, str]  # game id: the digest of the credential this connection holds

    if TYPE_CHECKING:  # the session's own (server/session.py)

        def _reply(self, message: Any) -> None: ...
        def admit(self, kind: str, cost: int) -> None: ...

    def _view_at(
        self, game_id: str, role: Role, at_seq: int, request_id: str | None
    ) -> Steps[ViewState]:
        """The state after event `at_seq` as `role` sees it now (all of it once revealed).

        Charged by the events it must read and fold (server/admission.py); folded from
        the nearest checkpoint, or answered from the cache (server/replay_cache.py)."""
        ruleset, game = yield LoadGame(game_id)
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
        actions = (yield Actions(ruleset, game, role)) if at_seq == game.meta.seq else []
        key = (game_id, at_seq, role.value, revealed)
        self.admit("view_at", replay_cost((yield ReplayDistance(game_id, at_seq, key))))
        state, ended, event_hash = yield Replay(game_id, ruleset, at_seq, key, role, revealed)
        referee = yield Referee(game_id)
        # Signed as the head's is: the receipt states that event `at_seq` has this hash
        # and that `role` is shown this state there, true of a past seq as of the head
        # (docs/audit.md 8.4).
        return (yield from self._signed_state(view_state(
            ruleset, game_id, role, at_seq, state, ended, event_hash, actions, request_id,
            referee=referee,
        )))  # fmt: skip

    def _view(self, game_id: str, role: Role, request_id: str | None) -> Steps[ViewState]:
        view: ViewState = yield HeadView(game_id, role, request_id)
        return (yield from self._signed_state(view))

    def _signed_state(self, view: ViewState) -> Steps[ViewState]:
        """`view` with its receipt signed in this loop turn's tree (docs/audit.md 8.4), as
        an `accepted` one is; as it is (unsigned) if the game has no receipt key or the
        store went away."""
        try:
            signer: ReceiptSigner | None = yield GameSigner(view.game_id)
        except (UmpireError, StoreUnreachable):
            return view  # the view stands: its receipt goes unsigned, as `accepted`'s would
        statement = state_statement(signer, view)
        if signer is None or statement is None:
            return view
        signed: BatchSignature = yield SignReceipt(signer, statement)
        return signed_view(view, signer, signed)

    def _held(self, ids: list[str]) -> Steps[list[str]]:
        """Of the games `ids` this connection holds credentials for, those whose credential
        the store still holds; each revoked one is dropped, as `_still_valid` drops it. So
        a revocation this gateway missed (its announcement lost while its link to the store
        was down) is not listed: on main its game was, with its head seq, until the next
        re-check (`UMPIRE_CREDENTIAL_RECHECK_SECONDS`)."""
        granted = [(game_id, self.grants[game_id]) for game_id in ids if game_id in self.grants]
        if not granted:
            return ids
        held = yield CredentialsHeld(tuple(granted))
        revoked = {game_id for (game_id, _), ok in zip(granted, held, strict=True) if not ok}
        for game_id, digest in granted:
            if game_id in revoked:
                yield DropGrant(game_id, digest)
        return [game_id for game_id in ids if game_id not in revoked]

    def _list(self, msg: ListGames) -> Steps[None]:
        ids = (yield GameIds()) if self.operator else sorted(self.roles)
        self.admit("list_games", listing_cost(len(ids)))
        if not self.operator:
            ids = yield from self._held(ids)
        try:
            versions = []
            for start in range(0, len(ids), LIST_PAGE):
                versions += yield ReadVersions(ids[start : start + LIST_PAGE])
        except StoreUnreachable as exc:
            raise exc.unavailable("", "retry later") from exc
        summaries = []
        names = self.gw.ruleset_names
        for game_id, raw in zip(ids, versions, strict=True):
            if raw is None:
                continue  # no such game (any more)
            name = names.get(game_id)
            if name is None:  # read once per game and gateway: a ruleset never changes
                first = yield ReadPage(game_id, 1, 1)
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


def view_state(
    ruleset: Any,
    game_id: str,
    role: Role,
    seq: int,
    state: Any,
    ended: bool,
    event_hash: str,
    actions: list[Any],
    request_id: str | None,
    *,
    referee: Literal["player", "operator"],
) -> ViewState:
    """The `state` frame of `role`'s view `state` after event `seq` (hash `event_hash`);
    `referee` is the game's (GameCreated.referee)."""
    return ViewState(
        game_id=game_id,
        seq=seq,
        role=role.value,
        ruleset=ruleset.name,
        state=state,
        ended=ended,
        id=request_id,
        actions=actions,
        head_hash=event_hash,
        state_hash=receipt_state_hash(seq, event_hash, state),
        map=drawn(ruleset.board, state),
        referee=referee,
    )


def state_statement(signer: ReceiptSigner | None, view: ViewState) -> Statement | None:
    """The statement a `state` frame's receipt signs (docs/audit.md 8.4): reply "state",
    the view's role, and the seq range of the one seq it states (`first_seq` = `seq`:
    a state answers no command, so it covers no seqs of its own before its head)."""
    return receipt_statement(
        signer, view.game_id, "state", view.role, (), view.seq, view.head_hash, view.state_hash
    )


def signed_view(view: ViewState, signer: ReceiptSigner, signed: BatchSignature) -> ViewState:
    """`view` carrying `signer`'s batch signature of its receipt."""
    return msgspec.structs.replace(
        view, key_id=signer.key_id, signature=signed.signature, leaf_index=signed.leaf_index,
        tree_size=signed.tree_size, proof=signed.proof, blind=signed.blind,
    )  # fmt: skip
