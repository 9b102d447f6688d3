"""The worked numbers of docs/audit.md are what the code computes (a third party who
follows the document gets the same bytes)."""

from __future__ import annotations

import hashlib
import hmac
import struct
from pathlib import Path

import msgspec

from umpire.engine.dice import commitment, d6, d10, d20, d100, derive_faces, total_of, two_d6
from umpire.events.envelope import GENESIS_HASH, commitment_key, payload_commitment, seal

DOC = (Path(__file__).resolve().parents[2] / "docs" / "audit.md").read_text()
SEED = bytes(range(32))


def _in_doc(*values: str) -> None:
    for value in values:
        assert value in DOC, f"docs/audit.md does not state {value!r}"


def test_the_seed_commitment_example() -> None:
    assert SEED.hex() == "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    _in_doc(SEED.hex(), commitment(SEED))
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()


def test_the_dice_example() -> None:
    first = hmac.new(SEED, b"alice:0:0", hashlib.sha256).digest()
    word = struct.unpack(">8I", first)[0]
    _in_doc(first.hex()[:8], first.hex()[-8:], str(word), f"{word} mod 6 = {word % 6}")
    rows = [(0, d6(), "2"), (1, two_d6(), "5, 2"), (2, d10(), "4"), (3, d100(), "tens 0, units 4"),
            (4, d20(), "2")]  # fmt: skip
    for n, spec, shown in rows:
        faces = derive_faces(SEED, "alice", n, spec)
        total = total_of(spec, faces)
        expected = ", ".join(map(str, faces)) if spec.kind.value != "d100" else (
            f"tens {faces[0]}, units {faces[1]}"
        )  # fmt: skip
        assert shown == expected
        _in_doc(f"| {n} | {spec.kind.value} |", f"| {shown} | {total} |")


def test_the_envelope_and_commitment_examples() -> None:
    env = seal(game_id="g1", seq=1, type="T", version=1, payload=b"\x80", command_id="c",
               recorded_at="2026-01-01T00:00:00.000Z", prev_hash=GENESIS_HASH)  # fmt: skip
    body = msgspec.msgpack.encode(
        (2, "g1", 1, "T", 1, env.digest, False, "c", "2026-01-01T00:00:00.000Z", GENESIS_HASH)
    )
    assert hashlib.sha256(body).hexdigest() == env.hash
    _in_doc(env.digest, env.hash, "".join(body.hex()[i : i + 80] for i in range(0, 80, 80)))
    flat = "".join(line.strip() for line in DOC.splitlines())
    assert body.hex() in flat
    payload = b"\x81\xa4type\xa1X"
    assert msgspec.msgpack.decode(payload) == {"type": "X"}
    _in_doc(commitment_key(SEED, "g1", 2).hex(), payload_commitment(SEED, "g1", 2, payload))
