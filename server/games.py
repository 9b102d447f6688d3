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
import hashlib
import random
import secrets
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine import registry, scenarios
from umpire.engine.dice import (
    Dice,
    ManualDice,
    ServerDice,
    UnboundDice,
    commitment,
    hidden_dice_key,
)
from umpire.engine.errors import ClientSeedRefused, GameOver, InvalidCommand
from umpire.engine.game import (
    Game,
    apply,
    codec_for,
    decode_game,
    encode_game,
    fold,
    parse_setup,
    ruleset_of,
    state_hash,
)
from umpire.engine.game import start as start_game
from umpire.engine.handling import decide_command
from umpire.engine.redaction import is_sealed, is_secret
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.events.chain import verify_chain
from umpire.events.codec import canonical_bytes
from umpire.events.envelope import check_command_id, check_game_id, payload_commitment
from umpire.events.errors import (
    ExpectedVersionAhead,
    GameExists,
    GameNotFound,
    StoreUnavailable,
    UmpireError,
    Unauthorized,
    VersionConflict,
)
from umpire.events.store import AppendResult, Credential, PendingEvent, Snapshot, Store
from umpire.events.types import ClientEntropy, ClientSeedBound, GameCreated, GameEnded, SeedRevealed
from umpire.events.unreachable import UNREACHABLE
from umpire.server.clock import utc_now_iso
from umpire.server.disk_watch import DiskWatch
from umpire.server.rules_pool import RulesPool, WorkMeter

MAX_ATTEMPTS = 200  # reveal retries
MAX_BACKOFF = 0.02
BUSY_SECONDS = 30.0  # how long a command keeps retrying version conflicts
REVEAL_COMMAND_ID = "umpire:reveal"
MAX_STALE_SEEDS = 5  # reads of a seed that a concurrent reveal had just rotated
CLIENT_SEED_MAX = 128


def sealed_pending(
    ruleset: Ruleset[Any],
    game_id: str,
    first_seq: int,
    encoded: Sequence[tuple[Struct, tuple[str, int, bytes]]],
    key: bytes | None,
    *,
    sealed_dice: bool = False,
) -> list[PendingEvent]:
    """The events to append from `first_seq` on: a ruleset secret (engine.redaction
    `is_sealed`), and a hidden roll of a game whose hidden rolls derive from the sealing
    key (`sealed_dice`: GameCreated.sealing_commitment), committed here under the game's
    sealing key `key`; any other hidden roll (and, without a key, a ruleset secret too)
    left to the store to commit under the epoch's seed; any other event public."""
    pending = []
    for seq, (event, (tag, version, payload)) in enumerate(encoded, start=first_seq):
        if key is not None and (
            is_sealed(ruleset, event) or (sealed_dice and is_secret(ruleset, event))
        ):
            digest = payload_commitment(key, game_id, seq, payload)
            pending.append(PendingEvent(tag, version, payload, digest=digest))
        else:
            pending.append(PendingEvent(tag, version, payload, secret=is_secret(ruleset, event)))
    return pending


def reveal_command_id(epoch: int) -> str:
    """The system batch id of the reveal of seed epoch `epoch` (SYSTEM_BATCHES)."""
    return REVEAL_COMMAND_ID if epoch == 0 else f"{REVEAL_COMMAND_ID}:{epoch}"


def bind_command_id(epoch: int) -> str:
    """The system batch id of the client seed bound for seed epoch `epoch`."""
    return f"umpire:bind:{epoch}"


# A cached seed is checked against the game's commitment on every command: its SHA-256
# is kept (the seeds are already held in `Games._secrets`; bounded like the game cache).
_commitment_of = lru_cache(maxsize=4096)(commitment)


class NoDiceSeed(UmpireError):
    """A game that holds no dice seed of its own (a re-adjudication copy)."""

    code = "no_dice_seed"


class Created(Struct, frozen=True):
    """A new game: its id and the commitment to its seed. `client_seed` is empty until the
    client binds one (`Games.bind_client_seed`), and stays empty if it was waived."""

    game_id: str
    ruleset: str
    seed_commitment: str
    client_seed: str
    seq: int
    duplicate: bool = False  # created before, by an earlier create with the same game id
    client_entropy: ClientEntropy = ClientEntropy.BIND


class CommandResult(Struct, frozen=True):
    """What a command appended (or, for a retried id, what it appended the first time)."""

    game_id: str
    command_id: str
    first_seq: int
    last_seq: int
    duplicate: bool

    @property
    def seqs(self) -> list[int]:
        """Every appended seq."""
        return list(range(self.first_seq, self.last_seq + 1))


def game_id_for_create(create_id: str) -> str:
    """The game id a client's create_id stands for: the same create_id always names the
    same game, and the game id (public) does not give the create_id (a secret) away."""
    return "g" + hashlib.sha256(b"umpire-create:" + create_id.encode()).hexdigest()[:16]


def decide_for(
    ruleset: Ruleset[Any],
    game: Game,
    command: dict[str, Any],
    manual_dice: Sequence[Sequence[int]] | None,
    seed: bytes | None,
    role: Role,
    hidden_key: bytes | None = None,
) -> list[Struct]:
    """The events one command appends (engine.handling.decide_command) with the dice it
    is owed: the player's entries, the epoch's server dice (its hidden rolls from
    `hidden_key`, engine/dice.py `roll_key`), or none before a client seed is bound.
    Pure of I/O, so it runs in a worker thread or process (server/rules_pool.py).
    """
    if manual_dice is not None:
        manual = ManualDice(
            manual_dice, game.meta.rolls, opponent_dice=game.meta.opponent_manual_dice
        )
        events = decide_command(ruleset, game, command, manual, role=role, manual=True)
        manual.check_all_used()
        return events
    dice: Dice
    if seed is not None:
        # The epoch's seed and client seed (docs/audit.md (4.1)); roll numbers run on
        # across epochs.
        dice = ServerDice(
            seed, game.meta.client_seed, game.meta.rolls,
            opponent_entries=game.meta.opponent_manual_dice, hidden_key=hidden_key,
        )  # fmt: skip
    elif game.meta.needs_client_seed:
        # A roll is refused: bind a client seed first.
        dice = UnboundDice(game.meta.epoch, opponent_entries=game.meta.opponent_manual_dice)
    else:
        raise RuntimeError("the secret must be loaded before deciding with server dice")
    return decide_command(ruleset, game, command, dice, role=role)


class Games:
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
        self.snapshot_every = snapshot_every
        self._cache: OrderedDict[str, tuple[Ruleset[Any], Game]] = OrderedDict()
        self._cache_size = cache_size
        self._secrets: dict[str, bytes] = {}
        # The embedded store's free-space watermark (server/disk_watch.py), when watched:
        # every write is refused with store_full while the disk is under it.
        self.disk: DiskWatch | None = None

    def _refuse_if_full(self) -> None:
        if self.disk is not None:
            self.disk.refuse_if_full()

    # -- creation --------------------------------------------------------------------------

    async def create(
        self,
        ruleset_name: str,
        setup: dict[str, Any] | None = None,
        *,
        client_entropy: ClientEntropy | str = ClientEntropy.WAIVED,
        client_seed: str | None = None,
        game_id: str | None = None,
        command_id: str | None = None,
        scenario: str | None = None,
        opponent_manual_dice: bool = False,
    ) -> Created:
        """Create a game: draw its secret seed and log its commitment (GameCreated).

        With `client_entropy` "bind" (what the clients use) no server roll happens until
        the client has bound its seed with `bind_client_seed`, after seeing the
        commitment. The default "waived" lets the server's seed alone derive the dice (for
        tests, benches and tools that create and roll at once): the waiver is logged in
        GameCreated and shown by `log` and `audit`. A `client_seed` is refused here: taken
        before the commitment is published, it would let a server grind its seed.

        With `scenario`, the game starts from that shipped scenario's setup, with `setup`'s
        top-level fields laid over it (engine/scenarios.py). `opponent_manual_dice` lets the
        player enter physical dice for the opponent's rolls (recorded in GameCreated; without
        it such dice are refused).
        """
        self._refuse_if_full()
        if client_seed is not None:
            raise ClientSeedRefused(
                "a client seed is not taken with create: create the game, read its seed "
                "commitment from the reply, then bind your seed (the `bind_seed` message, "
                "Games.bind_client_seed); taken before the commitment is published, it "
                "would let the server choose a seed that suits it"
            )
        try:
            entropy = ClientEntropy(client_entropy)
        except ValueError:
            raise InvalidCommand(
                f"client_entropy must be 'bind' or 'waived', not {client_entropy!r}"
            ) from None
        ruleset = registry.get(ruleset_name)
        setup = scenarios.resolve(ruleset, setup, scenario)
        scenarios.validate_setup(ruleset, setup)  # names the field and what is allowed
        parsed = parse_setup(ruleset, setup)
        game_id = check_game_id(game_id or "g" + secrets.token_hex(8))
        seed = self.draw_seed()
        key = self.draw_key()
        if len(seed) != 32 or len(key) != 32:
            raise ValueError("a dice seed and a sealing key must be 32 bytes each")
        created = GameCreated(
            game_id=game_id,
            ruleset=ruleset.name,
            ruleset_version=ruleset.version,
            setup=msgspec.to_builtins(parsed),
            seed_commitment=commitment(seed),
            client_entropy=entropy,
            opponent_manual_dice=opponent_manual_dice,
            sealing_commitment=commitment(key),
        )
        ruleset.initial_state(parsed)  # a setup the ruleset cannot start from fails here
        codec = codec_for(ruleset)
        tag, version, payload = codec.encode(created)
        result = await self.store.append(
            game_id,
            sealed_pending(ruleset, game_id, 1, [(created, (tag, version, payload))], key),
            expected_version=0,
            command_id=check_command_id(command_id or "umpire:create"),
            recorded_at=utc_now_iso(),
            secret=seed + key,  # the store keeps the sealing key after the seed
            commit_seed=seed,
        )
        if result.duplicate:
            # Created before under this game id and command id (a re-sent create): answer
            # with that game, as it was created, if this request asks for the same one.
            return await self._created_before(game_id, created)
        # The creating gateway is where the game's first commands usually come: start
        # with it cached, so the first command costs one round trip like every other.
        game = start_game(ruleset, created)
        meta = msgspec.structs.replace(game.meta, seq=result.last_seq, last_hash=result.last_hash)
        self._remember(game_id, ruleset, Game(meta, game.state))
        self._secrets[game_id] = seed
        self._keys[game_id] = key
        return Created(
            game_id, ruleset.name, created.seed_commitment, "", result.last_seq,
            client_entropy=entropy,
        )  # fmt: skip

    async def _created_before(self, game_id: str, asked: GameCreated) -> Created:
        first = await self.store.read(game_id, 1, 1)
        stored = codec_for(ruleset_of(first[0])).decode(
            first[0].type, first[0].version, first[0].payload, seq=first[0].seq
        )
        if (
            not isinstance(stored, GameCreated)
            or stored.ruleset != asked.ruleset
            # Canonical bytes, not ==: the stored setup decodes with lists where the
            # parsed one holds tuples, and every real ruleset's setup has a list.
            or canonical_bytes(stored.setup) != canonical_bytes(asked.setup)
            or stored.client_entropy != asked.client_entropy
            or stored.opponent_manual_dice != asked.opponent_manual_dice
        ):
            raise GameExists(
                f"game {game_id!r} was already created with another ruleset, setup or "
                "client entropy: a create_id (or game id) names one game; use a new one",
                game_id=game_id,
            )
        # A re-send mints a player credential, so it is honoured only while the game is
        # as its create left it: once a seed is bound or a command recorded, the first
        # answer arrived, and the create_id must not stay a standing key to the game (an
        # operator's revocation would not hold against it).
        if (version := await self.store.version(game_id)) > first[0].seq:
            raise GameExists(
                f"game {game_id!r} is in play (its log is at seq {version}): a create is "
                "answered again only until the game's first command or seed binding; use "
                "the credentials of its first answer",
                game_id=game_id,
            )
        return Created(
            game_id,
            stored.ruleset,
            stored.seed_commitment,
            stored.client_seed,
            first[0].seq,
            duplicate=True,
            client_entropy=stored.client_entropy,
        )

    # -- client entropy --------------------------------------------------------------------

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

    # -- loading ---------------------------------------------------------------------------

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
        game = fold(envelopes, game, ruleset)
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
        if key is None or _commitment_of(key) != game.meta.sealing_commitment:
            raise UmpireError(
                f"game {game.meta.game_id!r}: the stored sealing key does not match the "
                "game's sealing commitment",
                game_id=game.meta.game_id,
            )
        return hidden_dice_key(key)

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
            raise NoDiceSeed(
                f"game {game_id!r} holds no dice seed of its own (a re-adjudication copy "
                "records its original's rolls): it cannot roll server dice or reveal a "
                "seed; its original's seed is published only by revealing the original",
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
    ) -> CommandResult:
        """Decide and append one command; a known command id returns its first result.

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
                    hidden_key,
                )
            except UmpireError:
                if cached is not None:
                    reload = True  # judged on the cache only: judge again on the log
                    continue
                known = await self._known_result(game_id, command_id, credential)
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
                result = await self._append(ruleset, game, events, command_id, credential)
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
            return self._result(game_id, command_id, result)

    async def _known_result(
        self, game_id: str, command_id: str, credential: Credential | None
    ) -> CommandResult | None:
        """On the way to refusing a command: a retried command id answers with its first
        result even where the rules would refuse it now (the game may have ended since),
        unless its credential was revoked. Looked up only on this path: on the happy path
        the append script answers both."""
        if credential is not None and not await self.store.holds(game_id, credential):
            raise Unauthorized(
                f"the credential is no longer valid for game {game_id!r} (revoked)",
                game_id=game_id,
            )
        known = await self.store.command_result(game_id, command_id)
        return None if known is None else self._result(game_id, command_id, known)

    async def _append(
        self,
        ruleset: Ruleset[Any],
        game: Game,
        events: list[Struct],
        command_id: str,
        credential: Credential | None = None,
        *,
        secret: bytes | None = None,
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
        result = await self.store.append(
            game.meta.game_id,
            pending,
            expected_version=game.meta.seq,
            command_id=command_id,
            recorded_at=utc_now_iso(),
            prev_hash=game.meta.last_hash,
            credential=credential,
            secret=secret,
            commit_seed=commit_seed,
        )
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
        for seq, event in enumerate(events, start=result.first_seq):
            game = apply(ruleset, game, event, seq=seq, command_id=command_id)
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

    def cached(self, game_id: str) -> tuple[Ruleset[Any], Game] | None:
        """The cached game, if any, without I/O (a reply's receipt reads it)."""
        return self._cache.get(game_id)

    # -- reveal ----------------------------------------------------------------------------

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
