"""The store contract: what any store of umpire's logs must do.

`EventStore` is the log; `Store` is the log with its credential digests
(events/credential_store.py `CredentialStore`) and its notifications
(events/notifications.py `Notifications`), which is what server/ holds. The contract is the
store's, so all of it lives in events/: `umpire.testing.store_contract` (testing/
store_contract.py) states it as tests (importing events/ only), and every store subclasses
it. The Redis Streams store lives in `umpire.events.redis_store`. The protocols list
exactly the operations server/ uses (tests/server/test_store_boundary.py checks that
server/ types against them and never reaches the Redis client). Every operation raises
StoreUnavailable when the store cannot be reached (events/unreachable.py).

Store and recorder apart. A store keeps sealed bytes: the hash chain, the payload digests
and the commitments are made before the append, store-neutrally, by the recorder
(events/recorder.py `seal_batch`), and a store's `append` takes its `SealedBatch` as it
is. A new store plugs in by implementing these protocols over its storage:

- `append(batch)`: in one atomic step, check the batch's terms against what it holds
  (the credential still grants its role; a known command id answers its first result,
  or CommandIdReused for another body hash; a creation finds no game; the version is
  `expected_version` and the head hash `prev_hash`), then keep `records` as seqs
  `first_seq`..`last_seq`, `last_hash` as the head hash, the command id's result (with
  the body hash), and `secret` when given. It never decodes or re-hashes a record.
- `read`, `tail`: the records decoded with events/envelope.py `decode_envelope` (a record
  filed under another seq than the one it holds is ChainBroken, never passed on).
- The rest (versions, command results, credentials, notifications, the secrets beside
  the log, snapshots) as each protocol member says; `InspectableStore` for `umpire store
  check`; a `HeadRecorder`, if the server gives one, told each head before its append is
  acknowledged.

Then its tests subclass `StoreContract` with a `store` fixture; the contract appends
through the recorder, reads back and checks the chain (events/chain.py) over what the
store returns.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Protocol

from msgspec import Struct

from umpire.events.credential_store import CredentialStore
from umpire.events.envelope import ENVELOPE_VERSION, Envelope
from umpire.events.errors import UmpireError
from umpire.events.notifications import Notifications


class PendingEvent(Struct, frozen=True):
    """An event ready to append: its tag, schema version and canonical payload bytes.

    A `secret` payload (one some role may not fully see before the reveal) is sealed under
    a commitment keyed from the seed the recorder is given (docs/audit.md). `digest` and
    `envelope_version` re-seal an imported event exactly as it was sealed."""

    type: str
    version: int
    payload: bytes
    secret: bool = False
    digest: str = ""
    envelope_version: int = ENVELOPE_VERSION


class AppendResult(Struct, frozen=True):
    """Where a command's events landed. `duplicate` is true for a retried command id."""

    first_seq: int
    last_seq: int
    last_hash: str
    duplicate: bool = False
    # The hash of the body the command id was first sent with (events/command_body.py);
    # "" for a batch without one (a system batch, an entry from before bodies were hashed).
    body_hash: str = ""

    @property
    def seqs(self) -> list[int]:
        """Every seq the command's events occupy."""
        return list(range(self.first_seq, self.last_seq + 1))


def parse_command_entry(raw: bytes | str, duplicate: bool = False) -> AppendResult:
    """A stored dedupe entry: `first:last:last_hash`, then `:body_hash` where the command's
    body was hashed (entries written before that have none). Raises ValueError when the
    entry is not of that form."""
    text = raw.decode() if isinstance(raw, bytes) else raw
    first, last, last_hash, *body = text.split(":")
    if len(body) > 1:
        raise ValueError(f"a dedupe entry has at most four parts: {text!r}")
    return AppendResult(int(first), int(last), last_hash, duplicate, body[0] if body else "")


class Credential(Struct, frozen=True):
    """A credential an append is made under: the hash of its token and the role it must
    still hold when the events are written (a revoked one is refused atomically)."""

    digest: str
    role: str


class SealedBatch(Struct, frozen=True, kw_only=True, gc=False):
    """One command's events sealed onto its game's chain (events/recorder.py `seal_batch`)
    with the terms of their append: everything a store needs for one atomic append, and
    nothing it must compute: one self-contained value per append, so a batched append of
    many games per loop turn (issue #44) can take a sequence of them.

    `records` are the sealed envelopes' bytes (events/envelope.py `encode_envelope`), for
    seqs `expected_version + 1`..; the first links to `prev_hash` and the last hashes to
    `last_hash`, the head the store keeps. The terms: `secret`, the game's seed (and its
    sealing key after it) to keep, replacing the held one (a creation, a reveal that
    commits the next seed; b"" for none); `credential`, the one the append is made under
    (None: a system batch); `body_hash`, the command body's hash bound to its id
    (events/command_body.py; "" for none). Not tracked by the garbage collector: its
    fields (strings, bytes, a Credential) can form no cycle."""

    game_id: str
    command_id: str
    expected_version: int
    prev_hash: str
    last_hash: str
    records: tuple[bytes, ...]
    secret: bytes = b""
    credential: Credential | None = None
    body_hash: str = ""

    @property
    def first_seq(self) -> int:
        """The seq of the first record."""
        return self.expected_version + 1

    @property
    def last_seq(self) -> int:
        """The seq of the last record: the head after the append."""
        return self.expected_version + len(self.records)


class Snapshot(Struct, frozen=True):
    """A folded state at `seq`, with the state hash it must reproduce before use."""

    seq: int
    last_hash: str
    state_hash: str
    state: bytes


class EventStore(Protocol):
    """A log of games: atomic, versioned, idempotent appends and gap-free reads."""

    async def append(
        self, batch: SealedBatch, on_sent: Callable[[], None] | None = None
    ) -> AppendResult:
        """Append a sealed batch (events/recorder.py `seal_batch`) atomically after
        `batch.expected_version`.

        `on_sent`, when given, is called (at least once) when the append has been handed
        to the store and before its answer is awaited, so the caller can work while the
        store does; it says nothing of the append's outcome.

        Raises Unauthorized when `batch.credential` is given and the game no longer grants
        it its role (checked before anything else, in the same atomic step). A command id
        seen before returns its first result and writes nothing; kept with it is
        `batch.body_hash`, and the same id sent again with another body hash raises
        CommandIdReused (either hash "" passes). Else raises GameExists when a creation
        (expected version 0 with a secret) finds the game already there, VersionConflict
        if the log is past the expected version or its head hash is not
        `batch.prev_hash`, ExpectedVersionAhead if the log has not reached it. A `secret`
        given with a later batch replaces the game's seed in the same atomic step (a
        reveal that commits the next seed).
        """
        ...

    async def read(
        self, game_id: str, from_seq: int = 1, to_seq: int | None = None
    ) -> list[Envelope]:
        """Events `from_seq`..`to_seq` (inclusive) in order."""
        ...

    def tail(self, game_id: str, after_seq: int = 0) -> AsyncIterator[Envelope]:
        """Every event after `after_seq`, in order, waiting for new ones: no gap, no repeat."""
        ...

    async def version(self, game_id: str) -> int:
        """The seq of the last event (0 for no game)."""
        ...

    async def versions(self, game_ids: Sequence[str]) -> list[int | None]:
        """The version of each game in one round trip (None: no such game)."""
        ...

    async def command_result(self, game_id: str, command_id: str) -> AppendResult | None:
        """The first result of a command id, if that command was appended (with the hash
        of the body it was sent with, `body_hash`)."""
        ...

    async def holds(self, game_id: str, credential: Credential) -> bool:
        """Whether the game still grants `credential` its role (the append's own check)."""
        ...

    async def games(self) -> list[str]:
        """Every game id, in creation order."""
        ...

    async def secret(self, game_id: str) -> bytes:
        """The game's dice seed, kept outside the log."""
        ...

    async def sealing_key(self, game_id: str) -> bytes | None:
        """The game's sealing key (docs/audit.md section 3: it keys the commitments of the
        ruleset's secrets, published only by the final reveal), kept outside the log beside
        the seed; None for a game created before sealing keys."""
        ...

    async def receipt_key(self, key_id: str = "") -> tuple[str, bytes] | None:
        """A receipt signing key the server keeps (docs/audit.md 8.4): (its id, its 32-byte
        Ed25519 private seed), by id, or with "" the current one (what new games take);
        None if there is none. Kept outside every log, beside the games' secrets."""
        ...

    async def keep_receipt_key(self, key_id: str, seed: bytes, *, current: bool) -> None:
        """Keep a receipt signing key (never replacing one of that id); with `current`, it
        becomes the one new games take (a rotation: older games keep theirs)."""
        ...

    async def first_receipt_key(self, key_id: str, seed: bytes) -> str:
        """Keep `seed` as the current receipt key unless one is current already (two
        gateways that start at once agree on one); the current key's id."""
        ...

    async def receipt_keys(self) -> dict[str, bytes]:
        """Every receipt signing key kept, by id (the current one and those rotated out)."""
        ...

    async def save_snapshot(self, game_id: str, snapshot: Snapshot) -> None:
        """Keep `snapshot` if it is newer than the one held."""
        ...

    async def load_snapshot(self, game_id: str) -> Snapshot | None:
        """The newest snapshot, or None."""
        ...

    async def ping(self) -> bool:
        """Whether the store answers (never raises)."""
        ...

    async def close(self) -> None:
        """Let go of the store's connections."""
        ...


class Store(EventStore, Protocol):
    """An event store with its credential digests and notifications: the store as server/
    holds it (the Redis adapter, `RedisEventStore`, is built only by server/store_access.py;
    docs/architecture.md "The store boundary")."""

    @property
    def credentials(self) -> CredentialStore:
        """The credential digests of every game."""
        ...

    @property
    def notifications(self) -> Notifications:
        """Appends and revocations as they happen."""
        ...

    async def persistence(self) -> dict[str, int]:
        """The store server's append-only-file figures for /metrics (server/metrics.py):
        `aof_pending_bio_fsync`, `aof_delayed_fsync`, `aof_last_write_ok` (1 or 0); {}
        when it does not answer or keeps no such file (never raises)."""
        ...


class InspectableStore(EventStore, Protocol):
    """A store whose owner can look at every stored entry as it is (`umpire store check`,
    server/store_check.py): damaged ones included, and the dedupe entries."""

    @property
    def credentials(self) -> CredentialStore:
        """The credential digests of every game (their `tally` is checked)."""
        ...

    async def entries(self, game_id: str) -> list[tuple[int, Envelope | UmpireError]]:
        """Every stored event as (the seq it is filed under, the envelope or why it does
        not decode), in seq order."""
        ...

    async def last_hash(self, game_id: str) -> str:
        """The head hash the store's own bookkeeping holds for the game."""
        ...

    async def command_results(self, game_id: str) -> dict[str, str]:
        """Every dedupe entry as stored: command id -> `first:last:hash[:body_hash]`
        (`parse_command_entry` reads one)."""
        ...


class HeadRecorder(Protocol):
    """Where a store records the heads it acknowledges (server/head_checkpoints.py): every
    head is recorded before its append returns, so that a head acknowledged and later
    lost (a repair, a restore) is named."""

    def record(
        self, heads: dict[str, tuple[int, str]], firsts: dict[str, int] | None = None
    ) -> None:
        """Write these heads (game -> (seq, hash)) now, in one write; `firsts`: each
        game's first seq written since its last head (a seq an acknowledged head already
        covered was written again: the store had lost it)."""
        ...

    def credentials(self, game_id: str, changes: int, fields: int) -> None:
        """Write a change of `game_id`'s credentials (its count, and the entries they
        hold after it: events/redis_credentials.py CHANGES_FIELD) now."""
        ...

    def note(self, game_id: str, seq: int, hash_: str, first: int = 0) -> Awaitable[object]:
        """Add one head to this loop turn's write (`first`: its append's first seq);
        awaitable until it is written."""
        ...
