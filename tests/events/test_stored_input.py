"""Bad data in a stream and bad ids: typed errors with clear messages, nothing written."""

from __future__ import annotations

from typing import ClassVar

import msgspec
import pytest
from umpire_counter import RULESET

from umpire.engine.game import codec_for
from umpire.events.codec import EventRegistry
from umpire.events.envelope import encode_envelope, seal
from umpire.events.errors import ChainBroken, CorruptEvent, InvalidGameId, UnknownEventType
from umpire.server.games import Games


@pytest.mark.parametrize("reseal", [False, True])
async def test_changed_byte_in_redis_is_found_by_verification(games: Games, reseal: bool) -> None:
    created = await games.create("counter", {"target": 1000})
    for i in range(5):
        await games.handle(created.game_id, f"c{i}", {"type": "Push"})
    keys = games.store.keys(created.game_id)
    env = (await games.store.read(created.game_id, 6, 6))[0]
    assert env.type == "DiceRolled"
    forged = seal(
        game_id=env.game_id, seq=env.seq, type=env.type, version=env.version,
        payload=env.payload.replace(b"bot push", b"bot pvsh"), command_id=env.command_id,
        recorded_at=env.recorded_at, prev_hash=env.prev_hash,
    )  # fmt: skip
    if not reseal:  # an edit that keeps the old hash
        forged = msgspec.structs.replace(forged, hash=env.hash)
    # Rewrite the stream with the forged entry (what an attacker with Redis access could do).
    redis = games.store.redis
    entries = await games.store.read(created.game_id)
    await redis.delete(keys.stream)
    for e in entries:
        body = encode_envelope(forged if e.seq == 6 else e)
        await redis.execute_command("XADD", keys.stream, f"{e.seq}-0", "e", body)
    from umpire.events.chain import verify_chain

    with pytest.raises(ChainBroken) as info:
        verify_chain(sorted(await games.store.read(created.game_id), key=lambda e: e.seq))
    assert info.value.seq == (7 if reseal else 6)


async def test_unknown_type_and_version_and_corrupt_bytes_are_typed(games: Games) -> None:
    codec = codec_for(RULESET)
    with pytest.raises(UnknownEventType, match="'nope' is unknown"):
        codec.decode("nope", 1, b"\x80", seq=3)
    with pytest.raises(UnknownEventType, match="version 9 is unknown"):
        codec.decode("DiceRolled", 9, b"\x80", seq=3)
    with pytest.raises(CorruptEvent, match="does not decode as DiceRolled"):
        codec.decode("DiceRolled", 1, b"\xc1garbage", seq=3)
    created = await games.create("counter", {"target": 1000})
    redis = games.store.redis
    await redis.execute_command(
        "XADD", games.store.keys(created.game_id).stream, "2-0", "e", b"\xc1not msgpack"
    )
    with pytest.raises(CorruptEvent, match="entry 2-0"):
        await games.store.read(created.game_id)


async def test_unknown_event_in_stream_fails_load_with_its_seq(games: Games) -> None:
    created = await games.create("counter", {"target": 1000})
    head = (await games.store.read(created.game_id))[0]
    alien = seal(
        game_id=created.game_id, seq=2, type="alien.Thing", version=1, payload=b"\x80",
        command_id="x", recorded_at=head.recorded_at, prev_hash=head.hash,
    )  # fmt: skip
    await games.store.redis.execute_command(
        "XADD", games.store.keys(created.game_id).stream, "2-0", "e", encode_envelope(alien)
    )
    fresh = Games(games.store)
    with pytest.raises(UnknownEventType) as info:
        await fresh.load(created.game_id)
    assert info.value.details["seq"] == 2


def test_game_ids_with_illegal_characters_are_refused(store) -> None:
    for bad in ["", "a{b}", "a b", "x" * 65, "a:b", "é"]:
        with pytest.raises(InvalidGameId, match="not allowed"):
            store.keys(bad)


class NoteV1(msgspec.Struct, frozen=True, tag="Note"):
    version: ClassVar[int] = 1
    text: str


class Note(msgspec.Struct, frozen=True, tag="Note"):
    version: ClassVar[int] = 2
    text: str
    author: str


def test_upcasting_reads_an_old_version_as_the_current_one() -> None:
    registry = EventRegistry([Note])
    registry.register_upcaster("Note", 1, NoteV1, lambda old: Note(text=old.text, author="?"))
    old_bytes = msgspec.msgpack.encode(NoteV1(text="hello"))
    assert registry.decode("Note", 1, old_bytes) == Note(text="hello", author="?")
    _, version, data = registry.encode(Note(text="x", author="y"))
    assert version == 2 and registry.decode("Note", 2, data) == Note(text="x", author="y")
