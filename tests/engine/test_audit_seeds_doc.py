"""The worked numbers of docs/audit.md (4.1) are what engine/dice.py derives, and the doc
states them (a change to either side fails here)."""

from __future__ import annotations

import hashlib
import hmac
import struct
from pathlib import Path

from umpire.engine.dice import d6, d100, derive_faces, total_of, two_d6

DOC = (Path(__file__).resolve().parents[2] / "docs" / "audit.md").read_text()
DOC_TEXT = " ".join(DOC.split())  # line breaks in the doc do not matter
SEED_0 = bytes(range(32))
SEED_1 = bytes(range(32, 64))


def _first_words(seed: bytes, message: str) -> tuple[int, ...]:
    digest = hmac.new(seed, message.encode(), hashlib.sha256).digest()
    return struct.unpack(">8I", digest)


def _in_doc(*texts: str) -> None:
    for text in texts:
        assert text in DOC_TEXT, f"docs/audit.md (4.1) should state {text!r}"


def test_the_commitments() -> None:
    commitment_0 = hashlib.sha256(SEED_0).hexdigest()
    commitment_1 = hashlib.sha256(SEED_1).hexdigest()
    assert commitment_0 == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert commitment_1 == "72dbb7336c76780023f83da4c355f2eeea85733b13d3477697917790c1229084"
    _in_doc(SEED_0.hex(), SEED_1.hex(), commitment_0, commitment_1)


def test_epoch_0_rolls() -> None:
    digest = hmac.new(SEED_0, b"alice:0:0", hashlib.sha256).hexdigest()
    assert digest == "1a23092d344123b75fc0fc9f3c8c380eff9feba8d2638125948782bac026065c"
    assert _first_words(SEED_0, "alice:0:0")[0] == 438503725
    assert derive_faces(SEED_0, "alice", 0, d6()) == (2,)
    assert _first_words(SEED_0, "alice:1:0")[:2] == (3924345916, 2404385785)
    assert derive_faces(SEED_0, "alice", 1, two_d6()) == (5, 2)
    assert _first_words(SEED_0, "alice:2:0")[:2] == (4163195563, 2864647528)
    faces = derive_faces(SEED_0, "alice", 2, d100())
    assert faces == (3, 8) and total_of(d100(), faces) == 38
    _in_doc(digest, "438503725", "3924345916 and 2404385785", "4163195563 and 2864647528",
            "face **2**", "faces **5, 2** (total 7)", "reading **38**")  # fmt: skip


def test_epoch_1_roll_is_not_the_published_seeds() -> None:
    assert _first_words(SEED_1, "bob:3:0")[0] == 2727324679
    assert derive_faces(SEED_1, "bob", 3, d6()) == (2,)
    assert derive_faces(SEED_0, "alice", 3, d6()) == (5,)
    _in_doc("2727324679", "face 5, which is not what was rolled")


def test_the_waived_roll() -> None:
    assert derive_faces(SEED_0, "", 0, d6()) == (3,)
    _in_doc("roll 0 (msg `:0:0`) of a d6 shows face **3**")
