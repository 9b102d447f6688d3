"""Games on a store: create, bind the client seed, load (snapshot + tail), handle a
command, reveal (and rotate) the seed.

This is where the pure engine meets I/O. A command is handled as: decide on the cached
game (or load it); append with the expected version, the hash link and the credential, all
checked by the append itself, which also answers a known command id with its first result;
on a version conflict reload and decide again (bounded retries).

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
from umpire.engine.errors import InvalidCommand
from umpire.engine.game import (
    Game,
    NeedsWholeLog,
    apply,
    codec_for,
    encode_game,
    state_hash,
)
from umpire.engine.handling import decide_command, parse_command
from umpire.engine.redaction import is_sealed, is_secret
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.events.command_body import body_hash, check_same_body
from umpire.events.envelope import check_command_id, check_game_id
from umpire.events.errors import (
    ExpectedVersionAhead,
    StoreUnavailable,
    UmpireError,
    Unauthorized,
    VersionConflict,
)
from umpire.events.recorder import seal_batch
from umpire.events.store import AppendResult, Credential, Snapshot, Store
from umpire.events.types import ClientEntropy, GameEnded, SeedRevealed
from umpire.events.unreachable import UNREACHABLE
from umpire.server.clock import utc_now_iso
from umpire.server.disk_watch import DiskWatch
from umpire.server.game_cache import GameCache
from umpire.server.game_creation import GameCreation
from umpire.server.game_disputes import GameDisputes
from umpire.server.game_records import (
    BUSY_SECONDS,
    MAX_BACKOFF,
    MAX_STALE_SEEDS,
    CommandResult,
    sealed_pending,
)
from umpire.server.game_seeds import GameSeeds
from umpire.server.receipt_keys import ReceiptKeys
from umpire.server.rules_pool import RulesPool
from umpire.server.work_meter import WorkMeter


def decide_for(
    ruleset: Ruleset[Any],
    game: Game,
    command: dict[str, Any],
    manual_dice: Sequence[Sequence[int]] | None,
    seed: bytes | None,
    role: Role,
    nonce: str = "",
    hidden_key: bytes | None = None,
) -> list[Struct]:
    """The events one command appends (engine.handling.decide_command) with the dice it
    is owed: the player's entries, the epoch's server dice (its hidden rolls from
    `hidden_key`, engine/dice.py `roll_key`), or none before a client seed is bound.
    Pure of I/O, so it runs in a worker thread or process (server/rules_pool.py).

    `nonce` is the entropy the command was sent with ("": none). In a game that binds
    client entropy a command without physical dice must carry one (NonceRequired, before
    the rules run: the refusal tells nothing of what the command would do); it is
    recorded with the command and its server rolls derive from it (docs/security.md). A
    game that waived client entropy takes none: its dice derive from the server's seed
    alone, so a nonce sent to it is not used (nor recorded).
    """
    if nonce:
        check_nonce(nonce)
    if game.meta.client_entropy is not ClientEntropy.BIND:
        nonce = ""
    if manual_dice is not None:
        manual = ManualDice(
            manual_dice, game.meta.rolls, opponent_dice=game.meta.opponent_manual_dice
        )
        # Physical dice derive from nothing: a nonce sent with them is not recorded.
        events = decide_command(ruleset, game, command, manual, role=role, manual=True)
        manual.check_all_used()
        return events
    if game.meta.client_entropy is ClientEntropy.BIND and not game.meta.ended:
        # A malformed command is told so first (its shape says nothing of the rule path);
        # an ended game's refusal is GameOver, below.
        parse_command(ruleset, command)
        require_nonce(nonce)
    dice: Dice
    if seed is not None:
        # The epoch's seed and client seed, and the command's nonce (docs/audit.md (4.1));
        # roll numbers run on across epochs.
        dice = ServerDice(
            seed, game.meta.client_seed, game.meta.rolls, nonce=nonce,
            opponent_entries=game.meta.opponent_manual_dice, hidden_key=hidden_key,
        )  # fmt: skip
    elif game.meta.needs_client_seed:
        # A roll is refused: bind a client seed first.
        dice = UnboundDice(game.meta.epoch, opponent_entries=game.meta.opponent_manual_dice)
    else:
        raise RuntimeError("the secret must be loaded before deciding with server dice")
    return decide_command(ruleset, game, command, dice, role=role, nonce=nonce)


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
    ) -> CommandResult:
        """Decide and append one command; a known command id returns its first result.

        `nonce` is the client's entropy for this command (decide_for): required in a game
        that binds client entropy unless the dice are physical, and recorded with it; not
        used in a game that waived client entropy.

        The rules run in a worker thread; `meter`, when given, adds up their CPU time.

        With `expected_seq` the command applies only if the game is still at that seq
        (optimistic concurrency for clients); otherwise conflicts are retried here. With
        `credential` the append is refused (Unauthorized) unless the game still grants it
        its role, checked atomically with the write.

        The command is decided on the cached game without reading the log first: the
        append itself checks the version and the hash link, so a cache that is behind
        (another gateway wrote) costs a conflict and a reload, never a wrong event. A
        refusal decided on the cache is confirmed on a fresh read before it is reported.
        """
        check_game_id(game_id)
        check_command_id(command_id)
        if command_id.startswith("umpire:"):
            raise InvalidCommand("command ids starting with 'umpire:' are reserved")
        self._refuse_if_full()
        # What the command id is bound to: the same id with another body is refused.
        body = body_hash(command, manual_dice, nonce)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + BUSY_SECONDS
        attempt = 0
        stale_seeds = 0
        reload = False
        while True:
            cached = None if reload else self._cache.get(game_id)
            if cached is not None and expected_seq not in (None, cached[1].meta.seq):
                cached = None  # the client expects another seq: read the log to be sure
            try:
                ruleset, game = cached if cached is not None else await self.load(game_id)
                if expected_seq is not None and game.meta.seq != expected_seq:
                    raise VersionConflict(
                        f"game {game_id!r} is at seq {game.meta.seq}, not {expected_seq}",
                        expected=expected_seq,
                        actual=game.meta.seq,
                    )
                seed: bytes | None = None
                if manual_dice is None and not game.meta.needs_client_seed:
                    seed = await self._seed_for(game)
                    if seed is None:
                        # The store holds a later epoch's seed: a reveal rotated it since
                        # this game was read. Read the game again; a store whose seed
                        # never matches the log's commitment is refused, not retried.
                        self._forget(game_id)
                        reload = True
                        stale_seeds += 1
                        if stale_seeds > MAX_STALE_SEEDS:
                            raise UmpireError(
                                f"game {game_id!r}: the stored dice seed does not match the "
                                f"commitment of seed epoch {game.meta.epoch}",
                                game_id=game_id,
                            )
                        continue
                # The rules run in a worker thread: an opponent's procedure on a large
                # setup takes a while, and the event loop serves other games meanwhile
                # (issue 32; the state is immutable and decide is pure).
                hidden_key = await self._hidden_key(game) if seed is not None else None
                events = await self.rules.run(
                    ruleset,
                    game,
                    command,
                    manual_dice,
                    seed,
                    role,
                    meter or WorkMeter(),
                    nonce or "",
                    hidden_key,
                )
            except UmpireError:
                if cached is not None:
                    reload = True  # judged on the cache only: judge again on the log
                    continue
                known = await self._known_result(game_id, command_id, credential, body)
                if known is not None:
                    return known
                raise
            if any(isinstance(e, GameEnded) for e in events):
                # ARCHITECTURE.md: the seed is published when the game ends, atomically.
                final = seed if seed is not None else await self._seed_for(game)
                if final is None:
                    self._forget(game_id)
                    reload = True
                    continue
                # The final reveal publishes the sealing key too: every secret opens.
                key = await self._sealing_key(game_id)
                events.append(
                    SeedRevealed(
                        seed=final.hex(),
                        epoch=game.meta.epoch,
                        sealing_key=key.hex() if key else "",
                    )
                )
            try:
                result = await self._append(
                    ruleset, game, events, command_id, credential, body_hash=body
                )
            except ExpectedVersionAhead:
                # The log is behind what this process saw: Redis lost acknowledged writes
                # (a crash under `everysec`, a restore). The log is the truth: fold it again.
                if cached is None:
                    raise
                self._forget(game_id)
                reload = True
                continue
            except VersionConflict:
                reload = True  # load() reads only what is newer than the cached game
                if expected_seq is not None and cached is None:
                    raise
                attempt += 1
                if loop.time() > deadline:
                    # The cached game lost the last race: the retry this error asks for
                    # (same command id) is decided on the log, not on it again.
                    self._forget(game_id)
                    raise VersionConflict(
                        f"game {game_id!r} is busy: gave up after {attempt} conflicting "
                        f"attempts in {BUSY_SECONDS:.0f} s; retry with the same command id",
                        expected=-1,
                        actual=-1,
                    ) from None
                if cached is None:
                    await asyncio.sleep(random.uniform(0, min(MAX_BACKOFF, 0.001 * attempt)))
                continue
            if not result.duplicate and any(isinstance(e, GameEnded) for e in events):
                # The final reveal opens what disputes held pending rested on: find them.
                await self.find_pending_quietly(game_id)
            return self._result(game_id, command_id, result)

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
    ) -> AppendResult:
        codec = codec_for(ruleset)
        game_id = game.meta.game_id
        encoded = [(e, codec.encode(e)) for e in events]
        sealed_dice = game.meta.sealing_commitment != ""
        key = (
            await self._sealing_key(game_id)
            if any(is_sealed(ruleset, e) or (sealed_dice and is_secret(ruleset, e)) for e in events)
            else None
        )
        pending = sealed_pending(
            ruleset, game_id, game.meta.seq + 1, encoded, key, sealed_dice=sealed_dice
        )
        # A hidden roll is sealed under a commitment keyed from the seed (docs/audit.md), a
        # ruleset secret under one keyed from the sealing key (above; the epoch's seed for
        # a game without one): both are cached with the game, so this costs no round trip
        # on the hot path.
        has_secret = any(p.secret for p in pending)
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
        result = await self.store.append(batch)
        if not result.duplicate:
            await self._advance(ruleset, game, events, result, command_id)
        return result

    async def _advance(
        self,
        ruleset: Ruleset[Any],
        game: Game,
        events: list[Struct],
        result: AppendResult,
        command_id: str,
    ) -> None:
        try:
            for seq, event in enumerate(events, start=result.first_seq):
                game = apply(ruleset, game, event, seq=seq, command_id=command_id)
        except NeedsWholeLog:
            # An amendment returns behind the head: the next load folds from seq 1.
            self._forget(game.meta.game_id)
            return
        meta = msgspec.structs.replace(game.meta, seq=result.last_seq, last_hash=result.last_hash)
        game = Game(meta, game.state)
        self._remember(meta.game_id, ruleset, game)
        before = result.first_seq - 1
        if result.last_seq // self.snapshot_every > before // self.snapshot_every:
            # The command is appended already: a snapshot that cannot be saved now (the
            # store went away) must not turn its success into an error; the next one will.
            with contextlib.suppress(StoreUnavailable, *UNREACHABLE):
                await self.store.save_snapshot(
                    meta.game_id,
                    Snapshot(meta.seq, meta.last_hash, state_hash(game), encode_game(game)),
                )

    def _result(self, game_id: str, command_id: str, result: AppendResult) -> CommandResult:
        return CommandResult(
            game_id, command_id, result.first_seq, result.last_seq, result.duplicate
        )
