"""The hash chain: any changed byte of any stored event is reported at its seq."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.chain import verify_chain
from events.envelope import GENESIS_HASH, Envelope, decode_envelope, encode_envelope, seal
from events.errors import ChainBroken, CorruptEvent


def make_chain(n: int) -> list[Envelope]:
    chain, link = [], GENESIS_HASH
    for seq in range(1, n + 1):
        env = seal(
            game_id="g", seq=seq, type="T", version=1, payload=f"payload-{seq}".encode(),
            command_id=f"c{seq}", recorded_at="2026-01-01T00:00:00.000Z", prev_hash=link,
        )  # fmt: skip
        chain.append(env)
        link = env.hash
    return chain


def test_an_intact_chain_verifies() -> None:
    assert verify_chain(make_chain(20)) == 20


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 19), st.data())
def test_any_changed_byte_is_found_at_its_seq(index: int, data: st.DataObject) -> None:
    chain = make_chain(20)
    raw = bytearray(encode_envelope(chain[index]))
    pos = data.draw(st.integers(0, len(raw) - 1))
    delta = data.draw(st.integers(1, 255))
    raw[pos] = (raw[pos] + delta) % 256
    try:
        tampered = decode_envelope(bytes(raw))
    except CorruptEvent:
        return  # the bytes no longer decode: that is reported as corruption at read time
    chain[index] = tampered
    with pytest.raises(ChainBroken) as info:
        verify_chain(chain, game_id="g")
    assert info.value.seq == index + 1


def test_removed_event_is_reported_at_the_gap() -> None:
    chain = make_chain(10)
    del chain[4]
    with pytest.raises(ChainBroken) as info:
        verify_chain(chain)
    assert info.value.seq == 5 and info.value.reason == "seq_gap"


def test_reordered_events_are_reported() -> None:
    chain = make_chain(10)
    chain[3], chain[4] = chain[4], chain[3]
    with pytest.raises(ChainBroken) as info:
        verify_chain(chain)
    assert info.value.seq == 4


def test_a_resealed_edit_breaks_the_next_link() -> None:
    chain = make_chain(5)
    old = chain[2]
    forged = seal(
        game_id="g", seq=3, type="T", version=1, payload=b"forged", command_id=old.command_id,
        recorded_at=old.recorded_at, prev_hash=old.prev_hash,
    )  # fmt: skip
    chain[2] = forged
    with pytest.raises(ChainBroken) as info:
        verify_chain(chain)
    assert info.value.seq == 4 and info.value.reason == "broken_link"
