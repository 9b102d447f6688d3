"""The store contract as tests, shipped with umpire: a store that fails these is not a store.

A store plugs in (events/store.py says what it implements) by subclassing StoreContract
in its own tests with a `store` fixture that yields a fresh, empty store (or one with a
fresh key prefix) on which the test's loop runs:

    from umpire.testing.store_contract import StoreContract

    class TestMyStore(StoreContract):
        @pytest.fixture
        async def store(self):
            store = MyStore(...)
            yield store
            await store.close()

Every append goes through the recorder (events/recorder.py `seal_batch`, here `append`),
so the store only keeps and returns sealed bytes; the chain check (events/chain.py
`verify_chain`, `chain_damages`, what `umpire store check` runs over a store's entries)
runs over what the store returns, and a byte changed in it is found. The last part runs
the operations of the rest of the store's contract (events/store.py `Store`: the event
store with its `credentials` and `notifications`, the protocols of
events/credential_store.py and events/notifications.py) against the store, and checks
that it offers each of their members with the protocol's parameters. The contract is
events/'s: this suite imports nothing of server/."""

from __future__ import annotations

import asyncio
import inspect
import itertools
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from redis.crc import key_slot

from umpire.events.backoff import Backoff
from umpire.events.chain import chain_damages, verify_chain
from umpire.events.credential_store import CredentialStore
from umpire.events.envelope import (
    GENESIS_HASH,
    Envelope,
    decode_envelope,
    encode_envelope,
)
from umpire.events.epochs import Epochs
from umpire.events.errors import (
    ChainBroken,
    CommandIdReused,
    CorruptEvent,
    ExpectedVersionAhead,
    GameExists,
    UmpireError,
    VersionConflict,
)
from umpire.events.notifications import GameChannels, Notifications, RevocationHearing
from umpire.events.recorder import seal_batch
from umpire.events.store import (
    AppendResult,
    Credential,
    EventStore,
    InspectableStore,
    PendingEvent,
    SealedBatch,
    Store,
)

NOW = "2026-01-01T00:00:00.000Z"
SEED = b"\x01" * 32  # the seed `create` keeps: it keys the contract's commitments


def pending(n: int, label: str = "x") -> list[PendingEvent]:
    """n opaque events (the store never looks inside payloads)."""
    return [PendingEvent("Opaque", 1, f"{label}{i}".encode()) for i in range(n)]


async def hash_at(store: Any, game_id: str, seq: int) -> str:
    """The hash of event `seq` as the store returns it (genesis for 0 or no such event:
    the store's version check then says what is wrong)."""
    if seq <= 0:
        return GENESIS_HASH
    found = await store.read(game_id, seq, seq)
    return found[0].hash if found else GENESIS_HASH


async def sealed(
    store: Any,
    game_id: str,
    events: list[PendingEvent],
    *,
    expected_version: int,
    command_id: str,
    recorded_at: str = NOW,
    prev_hash: str | None = None,
    commit_seed: bytes | None = None,
    secret: bytes | None = None,
    credential: Credential | None = None,
    body_hash: str = "",
) -> SealedBatch:
    """`events` sealed by the recorder after `expected_version`, linked to `prev_hash` or,
    when None, to the hash of the event the store holds at `expected_version`."""
    if prev_hash is None:
        prev_hash = await hash_at(store, game_id, expected_version)
    return seal_batch(
        game_id, events, expected_version=expected_version, prev_hash=prev_hash,
        command_id=command_id, recorded_at=recorded_at, commit_seed=commit_seed,
        secret=secret, credential=credential, body_hash=body_hash,
    )  # fmt: skip


async def append(
    store: Any,
    game_id: str,
    events: list[PendingEvent],
    *,
    expected_version: int,
    command_id: str,
    recorded_at: str = NOW,
    prev_hash: str | None = None,
    commit_seed: bytes | None = None,
    secret: bytes | None = None,
    credential: Credential | None = None,
    body_hash: str = "",
) -> AppendResult:
    """Seal `events` with the recorder (see `sealed`) and append them to `store`."""
    batch = await sealed(
        store, game_id, events, expected_version=expected_version, command_id=command_id,
        recorded_at=recorded_at, prev_hash=prev_hash, commit_seed=commit_seed, secret=secret,
        credential=credential, body_hash=body_hash,
    )  # fmt: skip
    result: AppendResult = await store.append(batch)
    return result


async def create(store: Any, game: str, n: int = 1) -> None:
    await append(
        store, game, pending(n, "c"), expected_version=0, command_id="create", recorded_at=NOW,
        secret=SEED,
    )  # fmt: skip


class StoreContract:
    """What any EventStore must do."""

    async def test_ordered_append_and_read(self, store: Any) -> None:
        await create(store, "g1")
        r = await append(
            store, "g1", pending(3), expected_version=1, command_id="c1", recorded_at=NOW
        )
        assert (r.first_seq, r.last_seq, r.duplicate) == (2, 4, False)
        events = await store.read("g1")
        assert [e.seq for e in events] == [1, 2, 3, 4]
        assert [e.payload for e in events[1:]] == [b"x0", b"x1", b"x2"]
        assert events[0].prev_hash == GENESIS_HASH
        assert all(b.prev_hash == a.hash for a, b in itertools_pairs(events))
        assert [e.seq for e in await store.read("g1", 3)] == [3, 4]
        assert [e.seq for e in await store.read("g1", 2, 3)] == [2, 3]
        assert await store.version("g1") == 4

    async def test_stale_version_conflicts_and_writes_nothing(self, store: Any) -> None:
        await create(store, "g2")
        await append(store, "g2", pending(1), expected_version=1, command_id="a", recorded_at=NOW)
        with pytest.raises(VersionConflict) as info:
            await append(
                store, "g2", pending(2), expected_version=1, command_id="b", recorded_at=NOW
            )
        assert info.value.actual == 2
        assert await store.version("g2") == 2
        assert len(await store.read("g2")) == 2

    async def test_version_ahead_is_refused(self, store: Any) -> None:
        await create(store, "g3")
        with pytest.raises(ExpectedVersionAhead, match="ahead"):
            await append(
                store, "g3", pending(1), expected_version=5, command_id="a", recorded_at=NOW
            )
        assert await store.version("g3") == 1

    async def test_creating_twice_is_refused(self, store: Any) -> None:
        await create(store, "g4")
        with pytest.raises(GameExists):
            await append(
                store, "g4", pending(1), expected_version=0, command_id="other", recorded_at=NOW,
                secret=b"\x02" * 32,
            )  # fmt: skip
        assert await store.version("g4") == 1

    async def test_retried_command_id_returns_first_result(self, store: Any) -> None:
        await create(store, "g5")
        first = await append(
            store, "g5", pending(2), expected_version=1, command_id="same", recorded_at=NOW
        )
        again = await append(
            store, "g5", pending(5), expected_version=3, command_id="same", recorded_at=NOW
        )
        assert (again.first_seq, again.last_seq, again.duplicate) == (2, 3, True)
        assert first.last_hash == again.last_hash
        assert await store.version("g5") == 3

    async def test_batch_is_atomic_and_contiguous(self, store: Any) -> None:
        await create(store, "g6")

        async def writer(w: int) -> None:
            for i in range(10):
                while True:
                    v = await store.version("g6")
                    try:
                        await append(
                            store, "g6", pending(3, f"w{w}-{i}-"), expected_version=v,
                            command_id=f"w{w}-{i}", recorded_at=NOW,
                        )  # fmt: skip
                        break
                    except VersionConflict:
                        await asyncio.sleep(0)

        await asyncio.gather(*(writer(w) for w in range(5)))
        events = await store.read("g6")
        assert [e.seq for e in events] == list(range(1, 152))
        body = events[1:]
        for k in range(0, len(body), 3):
            ids = {e.command_id for e in body[k : k + 3]}
            assert len(ids) == 1, "a batch was interleaved"

    async def test_tail_has_no_gap_or_repeat(self, store: Any) -> None:
        await create(store, "g7")
        seen: list[int] = []

        async def consume() -> None:
            async for env in store.tail("g7", 1):
                seen.append(env.seq)
                if env.seq == 201:
                    return

        task = asyncio.create_task(consume())
        for i in range(200):
            await append(
                store, "g7", pending(1), expected_version=i + 1, command_id=f"t{i}", recorded_at=NOW
            )
        await asyncio.wait_for(task, 10)
        assert seen == list(range(2, 202))

    async def test_games_lists_created_games(self, store: Any) -> None:
        await create(store, "ga")
        await create(store, "gb")
        assert set(await store.games()) >= {"ga", "gb"}

    # -- server/'s protocols ----------------------------------------------------------------

    async def test_offers_every_member_of_the_protocols(self, store: Any) -> None:
        channels = store.notifications.game_channels(lambda _: None, Backoff(), Backoff)
        hearing = await store.notifications.hear_revocations()
        try:
            for protocol, target in (
                (Store, store),
                (EventStore, store),
                (CredentialStore, store.credentials),
                (Notifications, store.notifications),
                (GameChannels, channels),
                (RevocationHearing, hearing),
            ):
                assert_conforms(target, protocol)
            if hasattr(store, "entries"):  # what `umpire store check` reads, where offered
                assert_conforms(store, InspectableStore)
        finally:
            await channels.close()
            await hearing.close()

    async def test_versions_of_many_games_at_once(self, store: Any) -> None:
        await create(store, "gv1")
        await create(store, "gv2", 3)
        assert await store.versions(["gv2", "gv-none", "gv1"]) == [3, None, 1]
        assert await store.versions([]) == []

    async def test_a_command_id_is_bound_to_its_body(self, store: Any) -> None:
        """Issue 42: the same id with the same body hash is a duplicate; with another, it
        is refused and nothing is written; an entry without a hash (written before bodies
        were hashed, or by a system batch) still answers as a duplicate."""
        await create(store, "gb")
        first = await append(
            store, "gb", pending(2), expected_version=1, command_id="c1", recorded_at=NOW,
            body_hash="aa" * 16,
        )  # fmt: skip
        again = await append(
            store, "gb", pending(2), expected_version=3, command_id="c1", recorded_at=NOW,
            body_hash="aa" * 16,
        )  # fmt: skip
        assert (again.first_seq, again.last_seq, again.duplicate) == (2, 3, True)
        with pytest.raises(CommandIdReused) as info:
            await append(
                store, "gb", pending(1), expected_version=3, command_id="c1", recorded_at=NOW,
                body_hash="bb" * 16,
            )  # fmt: skip
        assert info.value.code == "command_id_reused"
        found = await store.command_result("gb", "c1")
        assert found is not None and found.body_hash == "aa" * 16 and first.last_seq == 3
        unhashed = await append(
            store, "gb", pending(1), expected_version=3, command_id="old", recorded_at=NOW
        )
        again = await append(
            store, "gb", pending(1), expected_version=4, command_id="old", recorded_at=NOW,
            body_hash="cc" * 16,
        )  # fmt: skip
        assert again.duplicate and again.first_seq == unhashed.first_seq == 4
        assert await store.version("gb") == 4

    async def test_command_result_is_the_first_result(self, store: Any) -> None:
        await create(store, "gr")
        first = await append(
            store, "gr", pending(2), expected_version=1, command_id="c1", recorded_at=NOW
        )
        found = await store.command_result("gr", "c1")
        assert found is not None
        assert (found.first_seq, found.last_seq, found.last_hash) == (2, 3, first.last_hash)
        assert await store.command_result("gr", "unknown") is None

    async def test_an_append_with_the_known_prev_hash_links_it(self, store: Any) -> None:
        await create(store, "gp")
        head = (await store.read("gp"))[-1].hash
        await append(
            store, "gp", pending(1), expected_version=1, command_id="ok", recorded_at=NOW,
            prev_hash=head,
        )  # fmt: skip
        with pytest.raises(VersionConflict):
            await append(
                store, "gp", pending(1), expected_version=2, command_id="bad", recorded_at=NOW,
                prev_hash=head,  # the hash of seq 1, not of seq 2
            )  # fmt: skip
        assert await store.version("gp") == 2

    # -- the chain over what the store returns (issue 43 items 1 and 6) -----------------

    async def test_it_keeps_the_sealed_bytes_and_their_chain_verifies(self, store: Any) -> None:
        """The store returns every record exactly as the recorder sealed it, and the chain
        check (events/chain.py, what `umpire store check` runs) finds it whole: links,
        hashes, digests and a secret event's commitment, opened with the seed the store
        holds."""
        records = await chained_game(store, "gh")
        returned = await store.read("gh")
        assert [encode_envelope(env) for env in returned] == records
        held = await held_epochs(store, "gh")
        assert verify_chain(returned, game_id="gh", epochs=held) == len(records)
        assert any(env.committed for env in returned)
        assert chain_damages(await stored_entries(store, "gh"), game_id="gh", epochs=held) == []

    async def test_a_byte_changed_in_what_it_returns_is_found(self, store: Any) -> None:
        """Whichever byte of a stored record changes, the chain check names that seq,
        over the store's entries and over its read."""
        records = await chained_game(store, "gd")
        held = await held_epochs(store, "gd")
        damaged = 5  # the secret event, after two batches
        assert decode_envelope(records[damaged - 1]).committed
        for offset in range(len(records[damaged - 1])):
            changed = ChangedByte(store, damaged, offset)
            found = chain_damages(await stored_entries(changed, "gd"), game_id="gd", epochs=held)
            assert [(d.first, d.last) for d in found] == [(damaged, damaged)], (offset, found)
            with pytest.raises((ChainBroken, CorruptEvent)) as info:
                verify_chain(await changed.read("gd"), game_id="gd", epochs=held)
            if isinstance(info.value, ChainBroken):
                assert info.value.seq == damaged, (offset, info.value)

    async def test_receipt_keys_are_kept_never_replaced_and_one_is_current(
        self, store: Any
    ) -> None:
        """docs/audit.md 8.4: the receipt signing keys, beside the games' secrets."""
        first = await store.first_receipt_key("k-one", b"\x01" * 32)
        # Two gateways that start at once agree on one current key, whoever came first.
        assert await store.first_receipt_key("k-two", b"\x02" * 32) == first
        assert (await store.receipt_key())[0] == first
        await store.keep_receipt_key("k-three", b"\x03" * 32, current=True)  # a rotation
        assert await store.receipt_key() == ("k-three", b"\x03" * 32)
        await store.keep_receipt_key("k-three", b"\x04" * 32, current=False)
        assert await store.receipt_key("k-three") == ("k-three", b"\x03" * 32)
        assert await store.receipt_key("k-none") is None
        kept = await store.receipt_keys()
        assert kept["k-three"] == b"\x03" * 32 and first in kept and "current" not in kept

    async def test_ping(self, store: Any) -> None:
        assert await store.ping() is True

    async def test_credentials_are_granted_listed_checked_and_withdrawn(self, store: Any) -> None:
        keep: CredentialStore = store.credentials
        player, spectator = "a" * 64, "b" * 64
        await keep.grant("gc", player, "player")
        await keep.grant("gc", spectator, "spectator")
        assert await keep.grants("gc") == {player: "player", spectator: "spectator"}
        assert await keep.grants("gc-none") == {}
        assert await keep.role_of("gc", player) == "player"
        assert await keep.role_of("gc", spectator) == "spectator"
        assert await keep.role_of("gc", "c" * 64) is None
        assert await keep.role_of("gc-none", player) is None
        assert await store.holds("gc", Credential(player, "player"))
        assert not await store.holds("gc", Credential(spectator, "player"))
        assert await keep.held([("gc", player), ("gc-none", player), ("gc", "c" * 64)]) == [
            True,
            False,
            False,
        ]
        assert await keep.held([]) == []
        assert await keep.withdraw("gc", player) is True
        assert await keep.withdraw("gc", player) is False
        assert await keep.grants("gc") == {spectator: "spectator"}
        assert await keep.role_of("gc", player) is None
        assert not await store.holds("gc", Credential(player, "player"))

    async def test_a_slot_s_credentials_replace_its_previous_ones(self, store: Any) -> None:
        keep: CredentialStore = store.credentials
        first, a, b, c = "1" * 64, "a" * 64, "b" * 64, "c" * 64
        await keep.grant("gs", first, "player")
        assert await keep.replace("gs", "retry", {a: "player", b: "spectator"}) == []
        assert await keep.grants("gs") == {first: "player", a: "player", b: "spectator"}
        assert sorted(await keep.replace("gs", "retry", {c: "player"})) == [a, b]
        assert await keep.grants("gs") == {first: "player", c: "player"}  # no slot listed
        assert await keep.role_of("gs", a) is None
        assert await keep.role_of("gs", c) == "player"
        assert await keep.held([("gs", first), ("gs", b), ("gs", c)]) == [True, False, True]
        assert await keep.replace("gs", "other", {a: "spectator"}) == []  # slots apart
        assert await keep.grants("gs") == {first: "player", c: "player", a: "spectator"}

    async def test_every_change_of_a_game_s_credentials_is_counted(self, store: Any) -> None:
        """`tally` (changes, entries) moves with each change that changes something, so
        that one the store later loses is told from those recorded outside it."""
        keep: CredentialStore = store.credentials
        assert (await keep.tally("gt"))[0] == 0
        await keep.grant("gt", "a" * 64, "player")
        first = await keep.tally("gt")
        await keep.replace("gt", "retry", {"b" * 64: "spectator"})
        second = await keep.tally("gt")
        assert second[0] == first[0] + 1 and second[1] > first[1]
        assert await keep.withdraw("gt", "b" * 64) is True
        assert (await keep.tally("gt"))[0] == second[0] + 1
        assert await keep.withdraw("gt", "b" * 64) is False  # nothing changed: not counted
        assert (await keep.tally("gt"))[0] == second[0] + 1
        assert await keep.grants("gt") == {"a" * 64: "player"}  # the count is no credential

    async def test_an_append_is_heard_on_a_watched_game_only(self, store: Any) -> None:
        await create(store, "gw")
        await create(store, "gw-other")
        heard: list[str] = []
        channels = store.notifications.game_channels(heard.append, Backoff(), Backoff)
        channels.start()
        try:
            await channels.watch("gw")
            version = 1

            async def push() -> None:
                nonlocal version
                await append(
                    store, "gw", pending(1), expected_version=version, command_id=f"p{version}",
                    recorded_at=NOW,
                )  # fmt: skip
                await append(
                    store, "gw-other", pending(1), expected_version=version,
                    command_id=f"p{version}", recorded_at=NOW,
                )  # fmt: skip
                version += 1

            # A subscription is made asynchronously: push until the first one is heard.
            await until(push, lambda: bool(heard))
            assert set(heard) == {"gw"}, "only the watched game is heard"
            await channels.unwatch("gw")
            # Two games whose channels ride the connection gw's did (the same slot, on a
            # cluster too), where messages arrive in the order they were published.
            before, after = slot_mates("gw", 2)
            await heard_on(store, channels, heard, before)  # subscribed after the unwatch:
            heard.clear()  # once it is heard, the unsubscribe has been served
            await push()
            await heard_on(store, channels, heard, after)  # published after gw's push
            assert not {"gw", "gw-other"} & set(heard), heard
        finally:
            await channels.close()

    async def test_a_revocation_announced_is_heard(self, store: Any) -> None:
        hearing = await store.notifications.hear_revocations()
        message = "gx " + "d" * 64
        got: list[str] = []
        try:

            async def announce() -> None:
                await store.notifications.announce_revocation(message)
                while (text := await hearing.message(timeout=0.1)) is not None:
                    got.append(text)

            await until(announce, lambda: message in got)
            assert set(got) == {message} and not hearing.ended
        finally:
            await hearing.close()


async def chained_game(store: Any, game_id: str) -> list[bytes]:
    """A game of three batches, the last holding a secret event sealed under a commitment
    keyed from the seed the store keeps (`create`'s): every record the recorder sealed, in
    seq order."""
    records: list[bytes] = []
    head = GENESIS_HASH
    batches = [
        pending(2, "c"),
        pending(2, "a"),
        [PendingEvent("Opaque", 1, b"hidden", secret=True), *pending(1, "b")],
    ]
    for n, events in enumerate(batches):
        batch = seal_batch(
            game_id, events, expected_version=len(records), prev_hash=head,
            command_id=f"chain-{n}", recorded_at=NOW, commit_seed=SEED,
            secret=SEED if n == 0 else None,
        )  # fmt: skip
        result = await store.append(batch)
        assert (result.last_seq, result.last_hash) == (batch.last_seq, batch.last_hash)
        records += batch.records
        head = batch.last_hash
    return records


async def held_epochs(store: Any, game_id: str) -> Epochs:
    """The keys the store holds for the game (its seed, its sealing key): every commitment
    opens with them, as in `umpire store check`."""
    return Epochs([]).with_held_keys(await store.secret(game_id), await store.sealing_key(game_id))


async def stored_entries(store: Any, game_id: str) -> list[tuple[int, Envelope | UmpireError]]:
    """What the chain check reads: the store's entries (InspectableStore) where it offers
    them, else its read, each under its seq."""
    if hasattr(store, "entries"):
        entries: list[tuple[int, Envelope | UmpireError]] = await store.entries(game_id)
        return entries
    return [(env.seq, env) for env in await store.read(game_id)]


class ChangedByte:
    """A store whose reads return record `seq` with the byte at `offset` changed, as a
    damaged medium would (a flipped bit; the rest is the store's own)."""

    def __init__(self, store: Any, seq: int, offset: int) -> None:
        self.store, self.seq, self.offset = store, seq, offset

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)  # everything but the reads is the store's own

    def _changed(self, env: Envelope) -> Envelope | CorruptEvent:
        if env.seq != self.seq:
            return env
        data = bytearray(encode_envelope(env))
        data[self.offset] ^= 0x01
        try:
            changed = decode_envelope(bytes(data), where=f"seq {env.seq}")
        except CorruptEvent as exc:
            return exc
        return changed

    async def read(
        self, game_id: str, from_seq: int = 1, to_seq: int | None = None
    ) -> list[Envelope]:
        out = []
        for env in await self.store.read(game_id, from_seq, to_seq):
            changed = self._changed(env)
            if isinstance(changed, CorruptEvent):
                raise changed  # as a store's read meets an entry that does not decode
            out.append(changed)
        return out

    async def entries(self, game_id: str) -> list[tuple[int, Envelope | UmpireError]]:
        return [
            (seq, self._changed(item) if isinstance(item, Envelope) else item)
            for seq, item in await stored_entries(self.store, game_id)
        ]


async def until(step: Callable[[], Awaitable[None]], done: Callable[[], bool]) -> None:
    """Run `step` until `done()` (a pub/sub subscription takes effect asynchronously),
    for at most 30 s (a loaded machine is slow, not wrong)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while loop.time() < deadline:
        await step()
        await asyncio.sleep(0.05)
        if done():
            return
    raise AssertionError("never heard")


def slot_mates(game_id: str, count: int) -> list[str]:
    """`count` other game ids whose keys share `game_id`'s cluster slot: their channels
    are heard on the same pub/sub connection as its, on a cluster too."""
    slot = key_slot(game_id.encode())
    mates = (f"{game_id}-{n}" for n in itertools.count())
    return list(itertools.islice((m for m in mates if key_slot(m.encode()) == slot), count))


async def heard_on(store: Any, channels: GameChannels, heard: list[str], game_id: str) -> None:
    """Create `game_id`, watch it, and append to it until its channel is heard."""
    await create(store, game_id)
    version = 1

    async def push() -> None:
        nonlocal version
        await append(
            store, game_id, pending(1), expected_version=version, command_id=f"p{version}",
            recorded_at=NOW,
        )  # fmt: skip
        version += 1

    await channels.watch(game_id)
    await until(push, lambda: game_id in heard)


def _members(protocol: type) -> dict[str, Any]:
    """The members a protocol declares (its own and its bases'), by name."""
    found: dict[str, Any] = {}
    for cls in reversed(protocol.__mro__):
        if cls is object or not getattr(cls, "_is_protocol", False):
            continue
        for name, value in vars(cls).items():
            if not name.startswith("_"):
                found[name] = value
        for name in getattr(cls, "__annotations__", {}):
            if not name.startswith("_"):
                found.setdefault(name, None)
    return found


def assert_conforms(target: Any, protocol: type) -> None:
    """`target` has every member of `protocol`, each method with the same parameters."""
    for name, declared in _members(protocol).items():
        assert hasattr(target, name), f"{type(target).__name__} lacks {protocol.__name__}.{name}"
        if not inspect.isfunction(declared):
            continue
        wanted = [(p.name, p.kind) for p in inspect.signature(declared).parameters.values()][1:]
        offered = [
            (p.name, p.kind) for p in inspect.signature(getattr(target, name)).parameters.values()
        ]
        assert offered == wanted, f"{type(target).__name__}.{name}: {offered} != {wanted}"
        assert inspect.iscoroutinefunction(declared) == inspect.iscoroutinefunction(
            getattr(target, name)
        ) or inspect.isasyncgenfunction(getattr(target, name)), name


def itertools_pairs(items: list[Any]) -> list[tuple[Any, Any]]:
    return list(itertools.pairwise(items))
