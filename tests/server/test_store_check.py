"""The whole-store check (server/store_check.py) on a real store: what the AOF scan
cannot see, because every stored value holds together on its own, the chain, the dedupe
entries, the head and the head checkpoints still name, with game and seqs."""

from __future__ import annotations

from typing import Any

from umpire.events.envelope import decode_envelope, encode_envelope, seal
from umpire.server.head_checkpoints import Heads
from umpire.server.store_check import check_game
from umpire.testing.store_contract import NOW, ChangedByte, append, chained_game, create, pending


async def _game(store: Any, game: str) -> None:
    """Seqs 1 (creation), 2-4 (command c1), 5-6 (command c2)."""
    await create(store, game)
    await append(store, game, pending(3), expected_version=1, command_id="c1", recorded_at=NOW)
    await append(store, game, pending(2), expected_version=4, command_id="c2", recorded_at=NOW)


Finding = tuple[int, int, str]


async def _findings(store: Any, game: str) -> list[Finding]:
    found = await check_game(store, game, Heads())
    return [(d.first, d.last, d.reason) for d in found.damages]


async def test_a_whole_game_has_no_finding(store: Any) -> None:
    await _game(store, "g1")
    assert await _findings(store, "g1") == []


async def test_an_event_sealed_anew_in_place_breaks_the_link_after_it(store: Any) -> None:
    await _game(store, "g1")
    keys = store.keys("g1")
    entries = await store.redis.xrange(keys.stream)
    old = decode_envelope(entries[2][1][b"e"])  # seq 3: a forger seals a new payload
    forged = seal(game_id="g1", seq=3, type=old.type, version=old.version, payload=b"forged",
                  command_id=old.command_id, recorded_at=NOW, prev_hash=old.prev_hash)  # fmt: skip
    await store.redis.delete(keys.stream)
    for entry_id, fields in entries:
        value = encode_envelope(forged) if entry_id == b"3-0" else fields[b"e"]
        await store.redis.xadd(keys.stream, {"e": value}, id=entry_id)
    assert await _findings(store, "g1") == [(4, 4, "broken_link")]


async def test_a_changed_dedupe_entry_and_head_are_named(store: Any) -> None:
    await _game(store, "g1")
    keys = store.keys("g1")
    await store.redis.hset(keys.commands, "c1", "2:4:" + "0" * 64)
    await store.redis.hset(keys.meta, "last_hash", "f" * 64)
    assert await _findings(store, "g1") == [(2, 4, "dedupe_mismatch"), (6, 6, "head_mismatch")]


async def test_a_command_without_its_dedupe_entry_or_appended_twice_is_named(
    store: Any,
) -> None:
    # Fails without the check: neither was a finding (the chain holds together).
    await _game(store, "g1")
    keys = store.keys("g1")
    await store.redis.hdel(keys.commands, "c1")
    assert await _findings(store, "g1") == [(2, 4, "dedupe_missing")]
    # Sent again, it is a new command: its events come in the log a second time.
    await append(store, "g1", pending(3), expected_version=6, command_id="c1", recorded_at=NOW)
    assert await _findings(store, "g1") == [(7, 9, "command_reused")]


async def test_acknowledged_seqs_the_store_lacks_are_named_lost(store: Any) -> None:
    await _game(store, "g1")
    heads = Heads(heads={"g1": (9, "a" * 64)})
    found = await check_game(store, "g1", heads)
    assert [(d.first, d.last, d.reason) for d in found.damages] == [(7, 9, "lost")]
    assert found.lines() == [
        "lost: game g1 lost seqs 7 to 9: acknowledged (the head checkpoint holds seq 9), "
        "not in the store"
    ]


async def test_the_check_finds_a_byte_changed_in_what_any_store_returns(store: Any) -> None:
    """Issue 43 items 1 and 6: the whole-store check reads the store only through its
    protocol, so it finds a byte changed in a record as the store contract's damaged store
    returns it (a store other than Redis), naming the game and the seq."""
    records = await chained_game(store, "g1")
    assert await _findings(store, "g1") == []
    for seq in (2, 5):  # a public event, and the secret one (its commitment opened)
        for offset in range(0, len(records[seq - 1]), 7):
            found = await _findings(ChangedByte(store, seq, offset), "g1")
            # The seq is named; a changed hash also names its command's dedupe entry.
            assert (seq, seq) in [(first, last) for first, last, _ in found], (seq, offset)
            assert all(first <= seq <= last for first, last, _ in found), (seq, offset, found)
