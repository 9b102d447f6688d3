"""The driver of a session (server/session.py): performs what it asks, feeds the answers back.

A session has no I/O: each frame a client sent goes to `Session.receive`, which answers
with a request (server/requests.py) or None. `serve_frame` performs each request on the
gateway's services (games, store, feeds, replays) and resumes the session with the answer,
or with the error the work raised, until the session has nothing more to ask; what the
frame leaves to send and do is then in the session's outbox, for the connection
(server/connection.py) to carry out. The time goes in with every frame and answer.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

import msgspec

from umpire.engine.redaction import view_for
from umpire.engine.roles import Role
from umpire.events.errors import UmpireError
from umpire.events.receipt_signature import BatchSignature, Statement
from umpire.events.store import Credential
from umpire.events.unreachable import UNREACHABLE, for_session
from umpire.events.wire import ViewState, encoder
from umpire.server import credentials
from umpire.server.game_records import CommandResult
from umpire.server.games import Games
from umpire.server.receipt_batch import SigningBatcher
from umpire.server.requests import (
    AcknowledgedHead,
    Actions,
    BindClientSeed,
    CachedGame,
    CreateGame,
    CredentialHeld,
    CredentialsHeld,
    Dispute,
    DropGrant,
    FeedHead,
    GameIds,
    GameSigner,
    Handle,
    HeadView,
    IssueCredentials,
    LoadGame,
    OpenFeed,
    ReadPage,
    ReadVersion,
    ReadVersions,
    Referee,
    Replay,
    ReplayDistance,
    Request,
    RevokeCredential,
    Rule,
    SignReceipt,
    StopCatchUp,
    VerifyCredential,
    Wait,
)
from umpire.server.session import Session
from umpire.server.views import signed_view, state_statement, view_state

if TYPE_CHECKING:
    from umpire.server.gateway import Gateway


async def serve_frame(gw: Gateway, session: Session, raw: str | bytes) -> None:
    """Take one frame through `session`, performing every request it makes on the way."""
    games = gw.games
    request = session.receive(raw, time.monotonic())
    while request is not None:
        # The request's answer, of the type its request names (server/requests.py).
        answer: object
        try:
            # The four requests of every command, by their type (a match's failed class
            # patterns cost ~1 us a command before it reaches Handle, the 11th), the two
            # cached answers without a coroutine; every other request through `perform`.
            if type(request) is Handle:
                # `_handle`, inline: one coroutine less to resume at each of its awaits.
                result = await games.handle(
                    request.game_id, request.command_id, request.command,
                    manual_dice=request.manual_dice, expected_seq=request.expected_seq,
                    role=request.role, credential=Credential(request.digest, str(request.role)),
                    meter=request.meter, nonce=request.nonce, early=gw.early,
                )  # fmt: skip
                # Its receipt signed early, if the session's reply would state it still:
                # then the session asks for nothing more (server/game_records.py).
                statement = result.receipt
                if statement is not None and (early := _early_signature(gw, statement)) is not None:
                    try:
                        signed = await early
                    except Exception:  # signed again on the session's way, which says so
                        pass
                    else:
                        result = CommandResult(
                            result.game_id, result.command_id, result.first_seq,
                            result.last_seq, result.duplicate, statement, signed,
                        )  # fmt: skip
                answer = result
            elif type(request) is CachedGame and (cached := games.cached(request.game_id)):
                answer = cached
            elif type(request) is GameSigner and (
                signer := games.receipt_keys.cached(request.game_id)
            ):
                answer = signer
            elif type(request) is SignReceipt:
                # Signed while its append was on its way, if the statement is that one.
                early = gw.early.take(request.statement)
                answer = await (early or gw.signing.sign(request.signer, request.statement))
            else:
                answer = await perform(gw, request)
        except BaseException as exc:  # the session answers it (a cancellation goes on up)
            request = session.fail(for_session(exc), time.monotonic())
        else:
            request = session.resume(answer, time.monotonic())


def _early_signature(gw: Gateway, statement: Statement) -> asyncio.Future[BatchSignature] | None:
    """The early signature of a command's receipt (server/games.py `Games.handle`), when
    that receipt is still the one the session's reply would state: the game's head in
    the cache and its receipt key are `statement`'s. The session then answers with no
    request more, where it asked for the cached game, the key and the signature (three
    requests, the statement and the state hash made again). None: the session asks."""
    game_id = statement.game_id
    cached = gw.games.cached(game_id)
    signer = gw.games.receipt_keys.cached(game_id)
    if (
        cached is None
        or signer is None
        or signer.key_id != statement.key_id
        or cached[1].meta.seq != statement.head_seq
        or cached[1].meta.last_hash != statement.head_hash
    ):
        return None
    return gw.early.take(statement)


async def perform(gw: Gateway, request: Request) -> Any:
    """Do what `request` asks; its answer (server/requests.py says which)."""
    games, store = gw.games, gw.store
    match request:
        case Wait(seconds):
            await asyncio.sleep(seconds)
            return None
        case LoadGame(game_id):
            return await games.load(game_id)
        case CachedGame(game_id):
            return games.cached(game_id) or await games.load(game_id)
        case GameSigner(game_id):
            return await games.receipt_keys.for_game(game_id)
        case SignReceipt(signer, statement):
            return await gw.signing.sign(signer, statement)
        case HeadView(game_id, role, request_id):
            return await head_view(games, game_id, role, request_id)
        case Referee(game_id):
            return await games.referee(game_id)
        case Actions(ruleset, game, role):
            # Off the event loop (server/rules_pool.py): on a large map it costs like an AI turn.
            return await games.rules.actions(ruleset, game, role)
        case ReplayDistance(game_id, at_seq, key):
            return gw.replays.distance(game_id, at_seq, key)
        case Replay():
            return await _replayed(gw, request)
        case CreateGame():
            return await games.create(
                request.ruleset,
                request.setup,
                client_seed=request.client_seed,
                client_entropy=request.client_entropy,
                game_id=request.game_id,
                scenario=request.scenario,
                opponent_manual_dice=request.opponent_manual_dice,
                referee=request.referee,
            )
        case IssueCredentials(game_id, resent):
            if resent is not None:
                return await credentials.reissue(store, game_id, resent)
            player = await credentials.issue(store, game_id, Role.PLAYER)
            spectator = await credentials.issue(store, game_id, Role.SPECTATOR)
            return player, spectator
        case Handle():
            return await _handle(games, request)
        case BindClientSeed(game_id, client_seed, role, digest):
            credential = Credential(digest, role.value)
            return await games.bind_client_seed(game_id, client_seed, credential=credential)
        case Dispute(game_id, role, seq, claim, reading, value, digest, meter):
            return await games.dispute(
                game_id, role=role, seq=seq, claim=claim, reading=reading, value=value,
                credential=Credential(digest, role.value) if digest else None, meter=meter,
            )  # fmt: skip
        case Rule(game_id, role, dispute, ruling, digest, meter):
            return await games.rule(
                game_id, role=role, dispute=dispute, ruling=ruling,
                credential=Credential(digest, role.value) if digest else None, meter=meter,
            )  # fmt: skip
        case VerifyCredential(credential):
            return await credentials.verify(store, credential)  # one lookup
        case CredentialHeld(game_id, digest):
            (valid,) = await credentials.held(store, [(game_id, digest)])
            return valid
        case RevokeCredential(credential, game_id, digest):
            existed = await credentials.revoke(store, credential)
            # At once here, whether or not this gateway's announcement has come back yet.
            gw.revoked_now(game_id, digest)
            return existed
        case CredentialsHeld(grants):
            return await credentials.held(store, grants)
        case DropGrant(game_id, digest):
            return await gw.drop_grant(game_id, digest)
        case ReadVersion(game_id):
            return await store.version(game_id)
        case GameIds():
            return await store.games()
        case ReadVersions(game_ids):
            async with gw.heavy:
                return await store.versions(game_ids)
        case ReadPage(game_id, start, end):
            return await store.read(game_id, start, end)
        case AcknowledgedHead(game_id):
            if gw.checkpoints is None:
                return None
            # A read of the checkpoint file (at most 1 MiB: compacted past it), off the
            # loop; only a subscribe past the log's end asks it.
            return await asyncio.to_thread(gw.checkpoints.acknowledged, game_id)
        case FeedHead(game_id):
            known = gw.notifier.feeds.get(game_id)
            return None if known is None else known.head
        case OpenFeed(game_id):
            return await gw.notifier.feed(game_id)
        case StopCatchUp(sub):
            stop_catch_up(sub.task)
            return None
    raise TypeError(f"not a request: {request!r}")


async def _handle(games: Games, request: Handle) -> Any:
    """A command: its CommandResult (server/games.py `Games.handle`)."""
    return await games.handle(
        request.game_id,
        request.command_id,
        request.command,
        manual_dice=request.manual_dice,
        expected_seq=request.expected_seq,
        role=request.role,
        credential=Credential(request.digest, str(request.role)),
        meter=request.meter,
        nonce=request.nonce,
    )


def stop_catch_up(task: asyncio.Task[None] | None) -> None:
    """Cancel a subscription's catch-up task, if it has one (its end is waited for by the
    connection, server/delivery.py `_finish`)."""
    if task is not None:
        task.cancel()


async def _replayed(gw: Gateway, request: Replay) -> tuple[Any, bool, str]:
    """`role`'s view after event `at_seq`: the replay cache's answer while the log still
    holds the event it was made from, else folded from the nearest checkpoint."""
    replays = gw.replays
    game_id, ruleset, at_seq, key = request.game_id, request.ruleset, request.at_seq, request.key
    cached = replays.answer(key)
    if cached is not None:
        event_hash, (state, ended) = cached
        here = await gw.store.read(game_id, at_seq, at_seq)
        if here and here[0].hash == event_hash:
            return state, ended, event_hash
        replays.forget(game_id)  # the log changed under the answer
    past = await replays.game_at(game_id, ruleset, at_seq)
    view = view_for(ruleset, past.state, request.role, revealed=request.revealed)
    state = msgspec.to_builtins(view)
    replays.remember(key, past.meta.last_hash, (state, past.meta.ended))
    return state, past.meta.ended, past.meta.last_hash


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
    return view_state(
        ruleset, game_id, role, game.meta.seq, state, game.meta.ended, game.meta.last_hash,
        actions, request_id, referee=await games.referee(game_id),
    )  # fmt: skip


async def pushed_state(
    games: Games, signing: SigningBatcher, game_id: str, role: Role
) -> tuple[int, bytes]:
    """A pushed `state` frame (no request id) and its seq: server/game_feed.py builds one per
    role and batch for the subscribers that asked for `views`, so its receipt is signed
    once (in `signing`'s tree of this loop turn) for all of them (docs/audit.md 8.4)."""
    view = await head_view(games, game_id, role)
    try:
        signer = games.receipt_keys.cached(game_id) or await games.receipt_keys.for_game(game_id)
    except (UmpireError, *UNREACHABLE):
        signer = None  # the store went away: the frame goes unsigned, as a `view` would
    statement = state_statement(signer, view)
    if signer is not None and statement is not None:
        view = signed_view(view, signer, await signing.sign(signer, statement))
    return view.seq, encoder.encode(view)
