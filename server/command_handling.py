"""How one command is handled, with no I/O: a generator of requests that a driver carries
out (server/games.py `Games.handle`), as the session's are (server/session.py).

`handle_command` decides the command on the cached game (or a game read from the log),
appends what the rules decided with the expected version, and on a conflict reads the game
again and decides again. Each thing it needs from the world is a request it yields
(`Load`, `DiceKeys`, `RulesJob`, `Append`, ...), and the driver sends back the answer its
docstring names, or throws in the error that the work raised. It reads no clock (the
time comes in at the start, and as `Now`'s answer on the retry path) and draws no random
number (a `Pause` names its bound; the driver draws the jitter).

The steps, in the order of the log's promises (ARCHITECTURE.md "The log"):

- decide on the cached game without reading the log first: the append checks the
  version and the hash link, so a cache that is behind (another gateway wrote) costs a
  conflict and a reload, never a wrong event; a refusal judged on the cache is judged
  again on a fresh read before it is reported;
- a refusal is answered, for a command id already recorded, with its first result
  (`KnownResult`: unless its credential was revoked, or the id came with another body);
- a stale seed (a reveal rotated it since the game was read) reads the game again, at
  most MAX_STALE_SEEDS times;
- a command that ends the game carries the final reveal (`revealed`, a pure step):
  ARCHITECTURE.md, the seed is published when the game ends, atomically;
- a version conflict reads the game again and retries (with a short random pause once
  the cache is out of the way) until the busy deadline; a client's `expected_seq` is
  not retried; an expected version ahead of the log (it lost acknowledged writes) folds
  the log again.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from umpire.engine.errors import InvalidCommand
from umpire.engine.game import Game
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.events.command_body import body_hash
from umpire.events.envelope import check_command_id, check_game_id
from umpire.events.errors import ExpectedVersionAhead, UmpireError, VersionConflict
from umpire.events.types import GameEnded, SeedRevealed
from umpire.server.game_records import MAX_BACKOFF, MAX_STALE_SEEDS, CommandResult
from umpire.server.rules_job import RulesJob

if TYPE_CHECKING:
    # A type only: this module names no store (the driver holds it).
    from umpire.events.store import AppendResult

# -- requests: what handling a command asks of its driver ----------------------------------
# Frozen Structs (msgspec), made per command on the hot path: untracked by the garbage
# collector (gc=False: nothing they hold refers back to them), so that they neither cost a
# collection's work nor bring the next collection closer.


class Load(Struct, frozen=True, gc=False):
    """Answer: `(ruleset, game)` read from the log (server/game_cache.py `load`: the
    cached game and every event after it)."""

    game_id: str


class DiceKeys(Struct, frozen=True, gc=False):
    """Answer: `(seed, hidden_key)`, what the server dice of the game's current seed epoch
    (`hidden_key` None: its hidden rolls derive from the seed), or None when the store
    holds a later epoch's seed (a reveal rotated it: read the game again)."""

    game: Game


class Seed(Struct, frozen=True, gc=False):
    """Answer: the secret seed of the game's current epoch, or None (as for `DiceKeys`)."""

    game: Game


class SealingKey(Struct, frozen=True, gc=False):
    """Answer: the game's sealing key, or None for a game created before them."""

    game_id: str


class Append(Struct, frozen=True, gc=False):
    """Answer: the AppendResult of appending `events` after `game` (its seq and hash
    link the expected version), sealed by the recorder (events/recorder.py `seal_batch`)
    and appended by the store as sealed bytes, under the driver's credential, with the
    command id bound to `body` (its hash); the driver folds them into its cache. Raises
    what the recorder or the store raises: VersionConflict, ExpectedVersionAhead,
    Unauthorized, CommandIdReused."""

    ruleset: Ruleset[Any]
    game: Game
    events: list[Struct]
    command_id: str
    body: str


class KnownResult(Struct, frozen=True, gc=False):
    """Answer: the CommandResult that `command_id` already recorded, or None; raises
    Unauthorized (the driver's credential was revoked) or CommandIdReused (recorded with
    another body than `body`)."""

    game_id: str
    command_id: str
    body: str


class Forget(Struct, frozen=True, gc=False):
    """Drop the cached game and its secrets: the next `Load` folds the log. Answer: None."""

    game_id: str


class Pause(Struct, frozen=True, gc=False):
    """Wait a random time from 0 to `most` seconds (a retry's jitter). Answer: None."""

    most: float


class Now(Struct, frozen=True, gc=False):
    """Answer: the driver's clock, in the seconds that `started` was given in."""


class FindPending(Struct, frozen=True, gc=False):
    """The game ended with the final reveal: find the disputes held pending that it opens
    (server/game_disputes.py `find_pending_quietly`). Answer: None."""

    game_id: str


HandlingRequest = (
    Load | DiceKeys | RulesJob | Append | Seed | SealingKey | KnownResult | Forget | Pause | Now
    | FindPending
)  # fmt: skip
NOW = Now()

# -- the steps --------------------------------------------------------------------------------


def check_ids(game_id: str, command_id: str) -> None:
    """A command's ids as the protocol allows them; `umpire:` ids are the system's."""
    check_game_id(game_id)
    check_command_id(command_id)
    if command_id.startswith("umpire:"):
        raise InvalidCommand("command ids starting with 'umpire:' are reserved")


def revealed(events: list[Struct], seed: bytes, epoch: int, key: bytes | None) -> list[Struct]:
    """`events` that end the game, with the final reveal after them: the epoch's seed, and
    the sealing key, so that every secret opens (docs/audit.md (4.1), section 3)."""
    reveal = SeedRevealed(seed=seed.hex(), epoch=epoch, sealing_key=key.hex() if key else "")
    return [*events, reveal]


def handle_command(
    game_id: str,
    command_id: str,
    command: dict[str, Any],
    manual_dice: Sequence[Sequence[int]] | None,
    expected_seq: int | None,
    role: Role,
    nonce: str | None,
    cached: tuple[Ruleset[Any], Game] | None,
    started: float,
    busy_seconds: float,
) -> Generator[HandlingRequest, Any, CommandResult]:
    """Decide and append one command (its ids checked: `check_ids`); a known command id
    returns its first result. Returns the CommandResult.

    `cached`: the driver's cached game, if any (decided on first, with no read); `nonce`:
    the command's entropy (server/rules_job.py `decide_for`); with `expected_seq` the
    command applies only if the game is still at that seq, otherwise conflicts are
    retried until `busy_seconds` after `started`.
    """
    # What the command id is bound to: the same id with another body is refused.
    body = body_hash(command, manual_dice, nonce)
    deadline = started + busy_seconds
    attempt = 0
    stale_seeds = 0
    while True:
        if cached is not None and expected_seq is not None and cached[1].meta.seq != expected_seq:
            cached = None  # the client expects another seq: read the log to be sure
        try:
            ruleset, game = cached if cached is not None else (yield Load(game_id))
            if expected_seq is not None and game.meta.seq != expected_seq:
                raise VersionConflict(
                    f"game {game_id!r} is at seq {game.meta.seq}, not {expected_seq}",
                    expected=expected_seq,
                    actual=game.meta.seq,
                )
            seed: bytes | None = None
            hidden_key: bytes | None = None
            if manual_dice is None and not game.meta.needs_client_seed:
                dice: tuple[bytes, bytes | None] | None = yield DiceKeys(game)
                if dice is None:
                    # The store holds a later epoch's seed: a reveal rotated it since this
                    # game was read. Read the game again; a store whose seed never matches
                    # the log's commitment is refused, not retried.
                    yield Forget(game_id)
                    cached = None
                    stale_seeds += 1
                    if stale_seeds > MAX_STALE_SEEDS:
                        raise UmpireError(
                            f"game {game_id!r}: the stored dice seed does not match the "
                            f"commitment of seed epoch {game.meta.epoch}",
                            game_id=game_id,
                        )
                    continue
                seed, hidden_key = dice
            events: list[Struct] = yield RulesJob(
                ruleset, game, command, manual_dice, seed, role, nonce or "", hidden_key
            )
        except UmpireError:
            if cached is not None:
                cached = None  # judged on the cache only: judge again on the log
                continue
            known: CommandResult | None = yield KnownResult(game_id, command_id, body)
            if known is not None:
                return known
            raise
        # A loop, not any() over a generator: this runs for every command.
        ended = False
        for event in events:
            if isinstance(event, GameEnded):
                ended = True
                break
        if ended:
            final = seed if seed is not None else (yield Seed(game))
            if final is None:
                yield Forget(game_id)
                cached = None
                continue
            events = revealed(events, final, game.meta.epoch, (yield SealingKey(game_id)))
        try:
            result: AppendResult = yield Append(ruleset, game, events, command_id, body)
        except ExpectedVersionAhead:
            # The log is behind what this process saw: Redis lost acknowledged writes (a
            # crash under `everysec`, a restore). The log is the truth: fold it again.
            if cached is None:
                raise
            yield Forget(game_id)
            cached = None
            continue
        except VersionConflict:
            from_cache, cached = cached is not None, None  # Load reads only what is newer
            if expected_seq is not None and not from_cache:
                raise
            attempt += 1
            if (yield NOW) > deadline:
                # The cached game lost the last race: the retry this error asks for (same
                # command id) is decided on the log, not on it again.
                yield Forget(game_id)
                raise VersionConflict(
                    f"game {game_id!r} is busy: gave up after {attempt} conflicting "
                    f"attempts in {busy_seconds:.0f} s; retry with the same command id",
                    expected=-1,
                    actual=-1,
                ) from None
            if not from_cache:
                yield Pause(min(MAX_BACKOFF, 0.001 * attempt))
            continue
        if ended and not result.duplicate:
            # The final reveal opens what disputes held pending rested on: find them.
            yield FindPending(game_id)
        return CommandResult(
            game_id, command_id, result.first_seq, result.last_seq, result.duplicate
        )
