"""The hash chain: any changed byte of any stored event is reported at its seq."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from umpire.events.chain import verify_chain
from umpire.events.envelope import (
    GENESIS_HASH,
    LEGACY_ENVELOPE,
    Envelope,
    decode_envelope,
    encode_envelope,
    payload_commitment,
    payload_digest,
    seal,
)
from umpire.events.epochs import Epochs
from umpire.events.errors import ChainBroken, CorruptEvent


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


def _committed_chain(seed: bytes) -> list[Envelope]:
    """Three events, the second secret (sealed under a commitment keyed from `seed`)."""
    chain, link = [], GENESIS_HASH
    for seq, secret in ((1, False), (2, True), (3, False)):
        env = seal(
            game_id="g", seq=seq, type="T", version=1, payload=f"payload-{seq}".encode(),
            command_id=f"c{seq}", recorded_at="2026-01-01T00:00:00.000Z", prev_hash=link,
            commit_seed=seed if secret else None,
        )  # fmt: skip
        chain.append(env)
        link = env.hash
    return chain


def test_a_commitment_hides_its_payload_and_opens_with_the_seed() -> None:
    seed = bytes(range(32))
    chain = _committed_chain(seed)
    secret = chain[1]
    assert secret.committed and secret.digest != payload_digest(secret.payload)
    assert secret.digest == payload_commitment(seed, "g", 2, b"payload-2")
    assert verify_chain(chain) == 3  # every link checks without the seed
    # a ruleset secret opens with the final reveal (here a log without a sealing key)
    assert verify_chain(chain, epochs=Epochs([(9, seed)], final=True)) == 3
    chain[1] = msgspec.structs.replace(secret, payload=b"payload-X")
    assert verify_chain(chain) == 3  # unopened: the link still holds
    with pytest.raises(ChainBroken) as info:
        verify_chain(chain, epochs=Epochs([(9, seed)], final=True))
    assert info.value.seq == 2 and info.value.reason == "payload_mismatch"
    with pytest.raises(ChainBroken):  # a wrong seed does not open it either
        verify_chain(_committed_chain(seed), epochs=Epochs([(9, bytes(32))], final=True))


def test_a_public_payload_is_checked_against_its_digest() -> None:
    chain = make_chain(3)
    chain[1] = msgspec.structs.replace(chain[1], payload=b"edited")
    with pytest.raises(ChainBroken) as info:
        verify_chain(chain)
    assert info.value.seq == 2 and info.value.reason == "payload_mismatch"


def test_an_old_envelope_still_verifies_by_the_old_rule() -> None:
    """Logs written before envelope version 2 hashed the payload bytes; they stay valid."""
    chain, link = [], GENESIS_HASH
    for seq in range(1, 4):
        env = seal(
            game_id="g", seq=seq, type="T", version=1, payload=b"p", command_id="c",
            recorded_at="t", prev_hash=link, envelope_version=LEGACY_ENVELOPE,
        )  # fmt: skip
        assert env.digest == "" and env.envelope_version == 1
        chain.append(env)
        link = env.hash
    old = msgspec.msgpack.encode(
        {k: getattr(chain[0], k) for k in ("game_id", "seq", "type", "version", "payload",
                                             "command_id", "recorded_at", "prev_hash", "hash")}
    )  # fmt: skip
    assert decode_envelope(old) == chain[0]  # an old stored record decodes as version 1
    assert verify_chain(chain) == 3
    chain[2] = msgspec.structs.replace(chain[2], payload=b"q")
    with pytest.raises(ChainBroken) as info:
        verify_chain(chain)
    assert info.value.reason == "hash_mismatch"


def test_epochs_follow_the_seed_reveals() -> None:
    """SYSTEM_BATCHES: events up to and including the first SeedRevealed are epoch 0; after
    the k-th, up to and including the (k+1)-th, epoch k; an unrevealed epoch has no seed."""
    epochs = Epochs([(5, b"a" * 32), (9, b"b" * 32)])
    assert [epochs.epoch_of(s) for s in (1, 5, 6, 9, 10)] == [0, 0, 1, 1, 2]
    assert [epochs.seed_of(s) for s in (5, 6, 10)] == [b"a" * 32, b"b" * 32, None]
    assert Epochs([]).seed_of(1) is None
