"""The Redis Streams store against the store contract, plus Redis-specific behaviour.
Like the contract (events/), these tests use nothing of server/: a credential is a digest
the store keeps (`store.credentials.grant`), however server/ makes it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import msgspec
import pytest
from redis.exceptions import ResponseError

from umpire.events.durability import Durability
from umpire.events.envelope import GENESIS_HASH
from umpire.events.errors import Unauthorized
from umpire.events.recorder import seal_batch
from umpire.events.redis_store import (
    APPEND_SCRIPT,
    MULTI_APPEND_SCRIPT,
    RedisEventStore,
    append_argv,
    append_packed,
)
from umpire.events.resp import bulks
from umpire.events.store import Credential, SealedBatch
from umpire.testing.store_contract import (
    NOW,
    StoreContract,
    append,
    create,
    pending,
    sealed,
)

if TYPE_CHECKING:
    from umpire.server.embedded import EmbeddedRedis  # the suite's Valkey (tests/conftest.py)


class TestRedisStoreContract(StoreContract):
    """Runs every contract test on a real Valkey started by the suite."""


class TestDurableRedisStoreContract(StoreContract):
    """Every contract test again with appends that wait for the fsync (WAITAOF)."""

    @pytest.fixture
    async def store(
        self, redis_server: EmbeddedRedis, prefix: str
    ) -> AsyncIterator[RedisEventStore]:
        durable = RedisEventStore.from_url(
            redis_server.url, prefix=prefix, durability=Durability(local_fsync=True)
        )
        try:
            yield durable
        finally:
            await durable.close()


async def test_an_append_under_a_revoked_or_foreign_credential_writes_nothing(
    store: RedisEventStore,
) -> None:
    """The append checks the credential in the same atomic step as the version: no window
    between a check and the write, and no round trip of its own (tests/server/
    test_command_cost.py)."""
    await create(store, "g1")
    player, spectator, other = "a1" * 32, "b2" * 32, "c3" * 32  # digests of three tokens
    await store.credentials.grant("g1", player, "player")
    await store.credentials.grant("g1", spectator, "spectator")
    await store.credentials.grant("g2", other, "player")
    as_player = Credential(player, "player")
    first = await append(
        store, "g1", pending(2), expected_version=1, command_id="c1", recorded_at=NOW,
        credential=as_player,
    )  # fmt: skip
    assert first.seqs == [2, 3] and await store.holds("g1", as_player)

    with pytest.raises(Unauthorized, match="no longer valid"):  # a spectator's digest
        await append(
            store, "g1", pending(1), expected_version=3, command_id="c2", recorded_at=NOW,
            credential=Credential(spectator, "player"),
        )  # fmt: skip
    with pytest.raises(Unauthorized):  # game g2's player credential on g1
        await append(
            store, "g1", pending(1), expected_version=3, command_id="c3", recorded_at=NOW,
            credential=Credential(other, "player"),
        )  # fmt: skip

    await store.redis.hdel(store.keys("g1").credentials, player)
    assert not await store.holds("g1", as_player)
    for command_id, expected in (("c4", 3), ("c1", 1)):  # a new id, and a retried one
        with pytest.raises(Unauthorized, match="revoked"):
            await append(
                store, "g1", pending(1), expected_version=expected, command_id=command_id,
                recorded_at=NOW, credential=as_player,
            )  # fmt: skip
    assert await store.version("g1") == 3
    assert await store.command_result("g1", "c4") is None


@pytest.fixture(params=["one game", "many games"])
async def run_script(request: pytest.FixtureRequest, store: RedisEventStore) -> Any:
    """A sealed batch's append through APPEND_SCRIPT (a cluster's script, run here on one
    node) or MULTI_APPEND_SCRIPT (one node's), answering (status, value) as str."""
    one = store.redis.register_script(APPEND_SCRIPT)
    many = store.redis.register_script(MULTI_APPEND_SCRIPT)

    async def run(batch: SealedBatch) -> tuple[str, str]:
        keys = list(store._append_keys(store.keys(batch.game_id)))
        argv = append_argv(batch)
        if request.param == "one game":
            status, value = await one(keys=keys, args=argv)
        else:
            status, value = await many(keys=keys, args=[len(argv), *argv])
        return status.decode(), value.decode()

    return run


async def test_each_refusal_of_the_script_writes_nothing_and_keeps_its_precedence(
    store: RedisEventStore, run_script: Any
) -> None:
    """Every status of the append script, in its order: a refused append leaves no dedupe
    entry (the script writes it with HSETNX only once the checks have passed), and a
    command id seen before answers 'dup' however far the game has moved on, unless its
    credential was revoked."""
    await create(store, "gs")
    player = Credential("a1" * 32, "player")
    await store.credentials.grant("gs", player.digest, "player")
    head = await store.last_hash("gs")

    async def attempt(command_id: str, expected: int, **terms: Any) -> tuple[str, str]:
        terms.setdefault("prev_hash", await store.last_hash("gs") if expected else GENESIS_HASH)
        empty = terms.pop("empty", False)
        batch = await sealed(
            store, "gs", pending(2), expected_version=expected, command_id=command_id,
            credential=terms.pop("credential", player), **terms,
        )  # fmt: skip
        if empty:  # the recorder seals no empty batch: one made by hand
            batch = msgspec.structs.replace(batch, records=[])
        return await run_script(batch)

    keys = store.keys("gs")
    refusals = {
        "stale version": (await attempt("r1", 0), ("conflict", "1")),
        "ahead": (await attempt("r2", 5), ("conflict", "1")),
        "another head": (await attempt("r3", 1, prev_hash="ff" * 32), ("conflict", "1")),
        "exists": (await attempt("r4", 0, secret=b"\x01" * 32), ("exists", "1")),
        "no events": (await attempt("r5", 1, empty=True), ("empty", "1")),
        "foreign": (
            await attempt("r6", 1, credential=Credential("c3" * 32, "player")),
            ("unauthorized", "0"),
        ),
    }
    for name, (got, want) in refusals.items():
        assert got == want, name
    assert await store.redis.hkeys(keys.commands) == [b"create"]
    assert (await store.version("gs"), await store.last_hash("gs")) == (1, head)

    assert await attempt("c1", 1) == ("ok", "3")  # the new version
    entry = await store.redis.hget(keys.commands, "c1")
    assert entry == f"2:3:{await store.last_hash('gs')}".encode()
    assert await attempt("x", 3) == ("ok", "5")  # the game moves on
    # A retry of c1 at its old version, at the current one, with another head, with no
    # events, or as a creation: each is the first result.
    first = ("dup", entry.decode())
    assert await attempt("c1", 1) == first
    assert await attempt("c1", 5) == first
    assert await attempt("c1", 5, prev_hash="ff" * 32) == first
    assert await attempt("c1", 5, empty=True) == first
    assert await attempt("c1", 0, secret=b"\x01" * 32) == first
    await store.redis.hdel(keys.credentials, player.digest)
    assert await attempt("c1", 5) == ("unauthorized", "0")
    assert await store.version("gs") == 5


async def test_an_append_that_fails_inside_leaves_no_dedupe_entry(
    store: RedisEventStore, run_script: Any
) -> None:
    """An XADD refused (here the stream key holds a string) fails the append, and the
    dedupe entry the script wrote before it is taken back out: a retry fails the same way,
    never answers 'dup' for events that were not written."""
    await create(store, "gf")
    prev = await store.last_hash("gf")
    await store.redis.delete(store.keys("gf").stream)
    await store.redis.set(store.keys("gf").stream, "not a stream")
    batch = await sealed(store, "gf", pending(2), expected_version=1, command_id="c1",
                         prev_hash=prev)  # fmt: skip
    for _ in range(2):
        try:
            answer: Any = await run_script(batch)
        except ResponseError as exc:
            answer = exc
        if isinstance(answer, tuple):  # the many-games script answers 'error' in place
            assert answer[0] == "error" and "WRONGTYPE" in answer[1]
        else:
            assert "WRONGTYPE" in str(answer)
        assert await store.command_result("gf", "c1") is None
    assert await store.version("gf") == 1


@pytest.mark.parametrize(
    ("events", "terms"),
    [
        (1, {}),
        (2, {"credential": Credential("a1" * 32, "player"), "body_hash": "ab" * 16}),
        (3, {"secret": b"\x07" * 64, "expected_version": 0, "prev_hash": GENESIS_HASH}),
        (12, {"expected_version": 99_999, "credential": Credential("d4" * 32, "jöueur")}),
    ],
)
def test_the_packed_arguments_are_the_argument_list_s_bytes(
    events: int, terms: dict[str, Any]
) -> None:
    """The batcher's arguments packed in one go (`append_packed`) are byte for byte the
    generic packing of `append_argv`'s list with its count first (the cluster's way); a
    text that is not ASCII (here a role) takes the generic way."""
    terms = {"expected_version": 7, "prev_hash": "ee" * 32, **terms}
    batch = seal_batch("gp", pending(events), command_id="cmd-1:x", recorded_at=NOW, **terms)
    argv = append_argv(batch)
    assert append_packed(batch) == (len(argv) + 1, bulks(len(argv), *argv))
