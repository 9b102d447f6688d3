"""What the games of server/games.py answer and share: a new game (`Created`), a
command's result (`CommandResult`), the system command ids of the seeds, and the limits
and retries of the command path."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from msgspec import Struct

from umpire.engine.dice import commitment
from umpire.engine.redaction import is_secret
from umpire.engine.ruleset import Ruleset
from umpire.events.envelope import payload_commitment
from umpire.events.errors import UmpireError
from umpire.events.receipt_signature import BatchSignature, Statement
from umpire.events.store import PendingEvent
from umpire.events.types import ClientEntropy, DiceRolled

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
    secret: Sequence[bool] | None = None,
) -> list[PendingEvent]:
    """The events to append from `first_seq` on: a ruleset secret (engine.redaction
    `is_sealed`), and a hidden roll of a game whose hidden rolls derive from the sealing
    key (`sealed_dice`: GameCreated.sealing_commitment), committed here under the game's
    sealing key `key`; any other hidden roll (and, without a key, a ruleset secret too)
    left to the store to commit under the epoch's seed; any other event public.
    `secret`: each event's `is_secret`, if the caller asked it already (not again)."""
    if secret is None:
        secret = [is_secret(ruleset, event) for event, _ in encoded]
    pending = []
    for at, (event, (tag, version, payload)) in enumerate(encoded):
        hidden = secret[at]
        # is_sealed(event) is `hidden` and not a hidden roll.
        if key is not None and hidden and (sealed_dice or not isinstance(event, DiceRolled)):
            digest = payload_commitment(key, game_id, first_seq + at, payload)
            pending.append(PendingEvent(tag, version, payload, digest=digest))
        else:
            pending.append(PendingEvent(tag, version, payload, secret=hidden))
    return pending


def needs_sealing_key(events: Sequence[Struct], secret: Sequence[bool], sealed_dice: bool) -> bool:
    """Whether `sealed_pending` will commit any of `events` (each `secret` by `is_secret`)
    under the game's sealing key: a ruleset secret, or a hidden roll in a game whose
    hidden rolls derive from it (`sealed_dice`)."""
    return True in secret and any(
        hidden and (sealed_dice or not isinstance(event, DiceRolled))
        for event, hidden in zip(events, secret, strict=True)
    )


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
    # The receipt of the `accepted` reply, signed while the append was on its way
    # (server/receipt_batch.py `EarlySignatures`): its statement, set by `Games.handle`,
    # and its signature, set by the driver once it holds that head still (server/driver.py
    # `serve_frame`). With both, the session answers with no request more.
    receipt: Statement | None = None
    signed: BatchSignature | None = None

    @property
    def seqs(self) -> list[int]:
        """Every appended seq."""
        return list(range(self.first_seq, self.last_seq + 1))
