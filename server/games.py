"""Games on a store: create, bind the client seed, load (snapshot + tail), handle a
command, reveal (and rotate) the seed.

This is where the pure engine meets I/O. A command is handled as: decide on the cached
game (or load it); append with the expected version, the hash link and the credential, all
checked by the append itself, which also answers a known command id with its first result;
on a version conflict reload and decide again (bounded retries). Those steps are
server/command_handling.py's, with no I/O; `Games.handle` carries out what they ask.

Dice are provably fair (docs/audit.md (4.1)): create logs the commitment to a fresh server
seed and no client seed; the client binds its seed after it has seen the commitment
(ClientSeedBound), and no server roll happens before that, unless the game was created
waiving client entropy (recorded in GameCreated). A reveal of a running game publishes the
seed of the current epoch and commits the next one in the same event; the new seed
replaces the stored secret in the same atomic append.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, Literal

import msgspec
from msgspec import Struct

from umpire.engine.dice import (
    Dice,
    ManualDice,
    ServerDice,
    UnboundDice,
    check_nonce,
    require_nonce,
)
from umpire.engine.game import (
    Game,
    NeedsWholeLog,
    apply,
    codec_for,
    encode_game,
    state_hash,
)
from umpire.engine.handling import decide_command, parse_command
from umpire.engine.redaction import is_secret
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.events.command_body import check_same_body
from umpire.events.errors import StoreUnavailable, Unauthorized
from umpire.events.receipt_signature import Statement
from umpire.events.recorder import seal_batch
from umpire.events.store import AppendResult, Credential, Snapshot, Store
from umpire.events.types import ClientEntropy
from umpire.events.unreachable import UNREACHABLE
from umpire.server.clock import utc_now_iso
from umpire.server.command_handling import (
    Append,
    DiceKeys,
    FindPending,
    Forget,
    HandlingRequest,
    KnownResult,
    Load,
    Now,
    Pause,
    SealingKey,
    Seed,
    check_ids,
    handle_command,
)
from umpire.server.disk_watch import DiskWatch
from umpire.server.game_cache import GameCache
from umpire.server.game_creation import GameCreation
from umpire.server.game_disputes import GameDisputes
from umpire.server.game_records import (
    BUSY_SECONDS,
    CommandResult,
    needs_sealing_key,
    sealed_pending,
)
from umpire.server.game_seeds import GameSeeds
from umpire.server.receipt_batch import EarlySignatures
from umpire.server.receipt_keys import ReceiptKeys
from umpire.server.rules_job import RulesJob
from umpire.server.rules_pool import RulesPool
from umpire.server.work_meter import WorkMeter


def decide_for(job: RulesJob) -> list[Struct]:
    """The events one command appends (engine.handling.decide_command) with the dice it
    is owed: the player's entries, the epoch's server dice (its hidden rolls from
    `hidden_key`, engine/dice.py `roll_key`), or none before a client seed is bound.
    Pure of I/O, so it runs in a worker thread or process (server/rules_pool.py).

    The job's `nonce` is the entropy the command was sent with ("": none). In a game that binds
    client entropy a command without physical dice must carry one (NonceRequired, before
    the rules run: the refusal tells nothing of what the command would do); it is
    recorded with the command and its server rolls derive from it (docs/security.md). A
    game that waived client entropy takes none: its dice derive from the server's seed
    alone, so a nonce sent to it is not used (nor recorded).
    """
    ruleset, game, command, nonce = job.ruleset, job.game, job.command, job.nonce
    meta = game.meta
    if nonce:
        check_nonce(nonce)
    if meta.client_entropy is not ClientEntropy.BIND:
        nonce = ""
    if job.manual_dice is not None:
        manual = ManualDice(job.manual_dice, meta.rolls, opponent_dice=meta.opponent_manual_dice)
        # Physical dice derive from nothing: a nonce sent with them is not recorded.
        events = decide_command(ruleset, game, command, manual, role=job.role, manual=True)
        manual.check_all_used()
        return events
    parsed: Struct | None = None
    if meta.client_entropy is ClientEntropy.BIND and not meta.ended:
        # A malformed command is told so first (its shape says nothing of the rule path);
        # an ended game's refusal is GameOver, below. Parsed once: decided as parsed here.
        parsed = parse_command(ruleset, command)
        if not nonce:  # a nonce given was checked above
            require_nonce(nonce)
    dice: Dice
    if job.seed is not None:
        # The epoch's seed and client seed, and the command's nonce (docs/audit.md (4.1));
        # roll numbers run on across epochs.
        dice = ServerDice(
            job.seed, meta.client_seed, meta.rolls, nonce=nonce,
            opponent_entries=meta.opponent_manual_dice, hidden_key=job.hidden_key,
        )  # fmt: skip
    elif meta.needs_client_seed:
        # A roll is refused: bind a client seed first.
        dice = UnboundDice(meta.epoch, opponent_entries=meta.opponent_manual_dice)
    else:
        raise RuntimeError("the secret must be loaded before deciding with server dice")
    return decide_command(ruleset, game, command, dice, role=job.role, nonce=nonce, parsed=parsed)


def _fold(
    ruleset: Ruleset[Any], game: Game, events: list[Struct], command_id: str, last_hash: str
) -> Game | None:
    """`game` with a command's events folded in, at the head their append makes (its seq
    and `last_hash`); None for an amendment that returns behind the head (NeedsWholeLog)."""
    seq = game.meta.seq
    try:
        for event in events:
            seq += 1
            game = apply(ruleset, game, event, seq=seq, command_id=command_id)
    except NeedsWholeLog:
        return None
    return Game(msgspec.structs.replace(game.meta, seq=seq, last_hash=last_hash), game.state)


class Games(GameCreation, GameSeeds, GameDisputes, GameCache):
    """Command handling over an EventStore, with a cache of folded games."""

    def __init__(
        self,
        store: Store,
        *,
        snapshot_every: int = 500,
        cache_size: int = 256,
        draw_seed: Callable[[], bytes] = lambda: secrets.token_bytes(32),
        rules: RulesPool | None = None,
        draw_key: Callable[[], bytes] = lambda: secrets.token_bytes(32),
        draw_receipt_key: Callable[[], bytes] = lambda: secrets.token_bytes(32),
    ) -> None:
        """`draw_seed` makes each game's secret dice seed; tests pass a deterministic one
        so that a game played with server dice is the same on every run. `rules` runs the
        decisions (default: each in a worker thread; the gateway's also sends the costly
        ones to worker processes). `draw_key` makes each game's sealing key
        (docs/audit.md section 3), which keys the commitments of the ruleset's secrets for
        the whole game and is published by the final reveal only, so that a mid-game
        reveal opens the epoch's dice and no secret in play."""
        self.store = store
        self.rules = rules if rules is not None else RulesPool(decide_for)
        self.draw_seed = draw_seed
        self.draw_key = draw_key
        self._keys: dict[str, bytes | None] = {}
        # The keys that sign each game's receipts (docs/audit.md 8.4).
        # `draw_receipt_key` makes the store's first one, if it holds none.
        self.receipt_keys = ReceiptKeys(store, draw_receipt_key)
        self.snapshot_every = snapshot_every
        self._cache: OrderedDict[str, tuple[Ruleset[Any], Game]] = OrderedDict()
        self._cache_size = cache_size
        self._secrets: dict[str, bytes] = {}
        # GameCreated.referee, by game (GameCache.referee): it never changes.
        self._referees: dict[str, Literal["player", "operator"]] = {}
        # The embedded store's free-space watermark (server/disk_watch.py), when watched:
        # every write is refused with store_full while the disk is under it.
        self.disk: DiskWatch | None = None
        # Held while a dispute's or an amending ruling's lines are re-made (in a worker
        # thread of the default executor, which the rules of commands run in too): one at
        # a time, so that however many are asked at once they take one thread, never the
        # executor's every thread from everyone's commands (server/game_disputes.py).
        self.remaking = asyncio.Lock()

    def _refuse_if_full(self) -> None:
        if self.disk is not None:
            self.disk.refuse_if_full()

    # -- commands --------------------------------------------------------------------------

    async def handle(
        self,
        game_id: str,
        command_id: str,
        command: dict[str, Any],
        *,
        manual_dice: Sequence[Sequence[int]] | None = None,
        expected_seq: int | None = None,
        role: Role = Role.PLAYER,
        credential: Credential | None = None,
        meter: WorkMeter | None = None,
        nonce: str | None = None,
        early: EarlySignatures | None = None,
    ) -> CommandResult:
        """Decide and append one command; a known command id returns its first result.

        The steps are server/command_handling.py's `handle_command` (no I/O); this carries
        out each request it makes. `nonce` is the client's entropy for this command
        (server/rules_job.py `decide_for`). The rules run where server/rules_pool.py puts
        them; `meter`, when given, adds up their CPU time. With `expected_seq` the command
        applies only if the game is still at that seq (optimistic concurrency for
        clients); otherwise conflicts are retried. With `credential` the append is refused
        (Unauthorized) unless the game still grants it its role, checked atomically with
        the write. With `early`, the receipt of the command's `accepted` is signed while its
        append is on its way (server/receipt_batch.py `EarlySignatures`).
        """
        check_ids(game_id, command_id)
        if self.disk is not None:  # `_refuse_if_full`, inline (every command)
            self.disk.refuse_if_full()
        steps = handle_command(
            game_id, command_id, command, manual_dice, expected_seq, role, nonce,
            # The busy deadline's clock (and `Now`'s): the monotonic clock, as asyncio's
            # loop.time() is, read without a Python call.
            self._cache.get(game_id), time.monotonic(), BUSY_SECONDS,
        )  # fmt: skip
        meter = meter or WorkMeter()
        answer: Any = None
        # The early receipt's statement of the last append tried (`_append` fills it).
        started: list[Statement | None] = []
        try:
            request = next(steps)
            while True:
                try:
                    # The three requests of a command on a cached game, by their type (the
                    # hot path: cheaper than a match's class patterns); the others below.
                    if type(request) is RulesJob:
                        # A light type is decided at once, with no coroutine.
                        answer = self.rules.run_light(request, meter)
                        if answer is None:
                            answer = await self.rules.run(request, meter)
                    elif type(request) is Append:
                        started = []  # a retried append starts its own
                        answer = await self._append(
                            request.ruleset, request.game, request.events,
                            request.command_id, credential, body_hash=request.body,
                            early=early, role=role, started=started,
                        )  # fmt: skip
                    elif type(request) is DiceKeys:
                        game = request.game
                        answer = self._cached_dice(game) or await self._dice(game)
                    else:
                        answer = await self._perform(request, credential)
                except Exception as exc:  # the steps judge it (a cancellation goes on up)
                    request = steps.throw(exc)
                else:
                    request = steps.send(answer)
        except StopIteration as done:
            result: CommandResult = done.value
        statement = started[0] if started else None
        if statement is not None and statement.head_seq == result.last_seq:
            # The receipt signed early is this reply's (the append succeeded, anew).
            return CommandResult(
                game_id, command_id, result.first_seq, result.last_seq, result.duplicate,
                statement,
            )  # fmt: skip
        return result

    async def _perform(
        self,
        request: HandlingRequest,
        credential: Credential | None,
    ) -> Any:
        """What a step of handling a command asks, off its hot path; the answer it takes."""
        match request:
            case Load():
                return await self.load(request.game_id)
            case Seed():
                return await self._seed_for(request.game)
            case SealingKey():
                return await self._sealing_key(request.game_id)
            case KnownResult():
                return await self._known_result(
                    request.game_id, request.command_id, credential, request.body
                )
            case Forget():
                self._forget(request.game_id)
                return None
            case Pause():
                await asyncio.sleep(random.uniform(0, request.most))
                return None
            case Now():
                return time.monotonic()
            case FindPending():
                await self.find_pending_quietly(request.game_id)
                return None
        raise TypeError(f"not a request of command handling: {request!r}")

    async def _known_result(
        self, game_id: str, command_id: str, credential: Credential | None, body: str = ""
    ) -> CommandResult | None:
        """On the way to refusing a command: a retried command id answers with its first
        result even where the rules would refuse it now (the game may have ended since),
        unless its credential was revoked or it was sent with another body (`body`: its
        hash; CommandIdReused). Looked up only on this path: on the happy path the append
        script answers all three."""
        if credential is not None and not await self.store.holds(game_id, credential):
            raise Unauthorized(
                f"the credential is no longer valid for game {game_id!r} (revoked)",
                game_id=game_id,
            )
        known = await self.store.command_result(game_id, command_id)
        if known is None:
            return None
        check_same_body(game_id, command_id, known.body_hash, body)
        return self._result(game_id, command_id, known)

    async def _append(
        self,
        ruleset: Ruleset[Any],
        game: Game,
        events: list[Struct],
        command_id: str,
        credential: Credential | None = None,
        *,
        secret: bytes | None = None,
        body_hash: str = "",
        early: EarlySignatures | None = None,
        role: Role = Role.PLAYER,
        started: list[Statement | None] | None = None,
    ) -> AppendResult:
        """Seal and append `events` of `command_id` on `game`; with `early`, the receipt of
        its `accepted` is signed once the append is written, and its statement (None: the
        game has no receipt key in hand) is put in `started`, kept only if the append
        succeeds and is no duplicate."""
        codec = codec_for(ruleset)
        game_id = game.meta.game_id
        encoded = [(e, codec.encode(e)) for e in events]
        sealed_dice = game.meta.sealing_commitment != ""
        # Each event asked once whether it is secret (three times before: 27.8k
        # instructions a counter Add to here and sealed_pending, now 15.1k).
        hidden = [is_secret(ruleset, e) for e in events]  # (`secret` is a reveal's new seed)
        key = (
            await self._sealing_key(game_id)
            if needs_sealing_key(events, hidden, sealed_dice)
            else None
        )
        pending = sealed_pending(
            ruleset, game_id, game.meta.seq + 1, encoded, key, sealed_dice=sealed_dice,
            secret=hidden,
        )  # fmt: skip
        # A hidden roll is sealed under a commitment keyed from the seed (docs/audit.md), a
        # ruleset secret under one keyed from the sealing key (above; the epoch's seed for
        # a game without one): both are cached with the game, so this costs no round trip
        # on the hot path.
        # (`True in hidden` first: most batches hold no secret, and need no generator.)
        has_secret = True in hidden and any(p.secret for p in pending)
        commit_seed = await self._secret(game.meta.game_id) if has_secret else None
        batch = seal_batch(
            game.meta.game_id,
            pending,
            expected_version=game.meta.seq,
            prev_hash=game.meta.last_hash,
            command_id=command_id,
            recorded_at=utc_now_iso(),
            commit_seed=commit_seed,
            secret=secret,
            credential=credential,
            body_hash=body_hash,
        )
        # The game after the append, folded now (pure), so that the receipt can be signed
        # while the append is on its way (`early`); kept only if the append succeeds.
        after = _fold(ruleset, game, events, command_id, batch.last_hash)
        sent: Callable[[], None] | None = None
        noted: list[Statement | None] = [] if started is None else started
        if early is not None and after is not None:
            signing, done, first_seq = early, after, game.meta.seq + 1

            def sent() -> None:  # once, though a retried write may call it again
                if not noted:
                    noted.append(signing.start(ruleset, done, role, first_seq))

        try:
            result = await self.store.append(batch, on_sent=sent)
        except BaseException:
            if early is not None and noted:
                early.drop(noted.pop())
            raise
        if result.duplicate:
            if early is not None and noted:
                early.drop(noted.pop())
            return result
        if after is None:
            # An amendment returns behind the head: the next load folds from seq 1.
            self._forget(game_id)
            return result
        self._remember(game_id, ruleset, after)
        if result.last_seq // self.snapshot_every > game.meta.seq // self.snapshot_every:
            snapshot = Snapshot(
                result.last_seq, result.last_hash, state_hash(after), encode_game(after)
            )
            # The command is appended already: a snapshot that cannot be saved now (the
            # store went away) must not turn its success into an error; the next one will.
            with contextlib.suppress(StoreUnavailable, *UNREACHABLE):
                await self.store.save_snapshot(game_id, snapshot)
        return result

    def _result(self, game_id: str, command_id: str, result: AppendResult) -> CommandResult:
        return CommandResult(
            game_id, command_id, result.first_seq, result.last_seq, result.duplicate
        )
