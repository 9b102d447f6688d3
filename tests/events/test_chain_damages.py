"""`chain_damages` (events/chain.py): every damaged or missing seq of a stored chain is
named, not only the first, and one changed event is named once."""

from __future__ import annotations

import msgspec

from umpire.events.chain import Damage, chain_damages, merged
from umpire.events.envelope import GENESIS_HASH, Envelope, seal
from umpire.events.errors import CorruptEvent


def _chain(n: int) -> list[Envelope]:
    chain, link = [], GENESIS_HASH
    for seq in range(1, n + 1):
        env = seal(game_id="g", seq=seq, type="T", version=1, payload=b"p%d" % seq,
                   command_id=f"c{seq}", recorded_at="2026-01-01T00:00:00.000Z",
                   prev_hash=link)  # fmt: skip
        chain.append(env)
        link = env.hash
    return chain


def test_a_whole_chain_has_no_damage() -> None:
    assert chain_damages([(e.seq, e) for e in _chain(5)], game_id="g") == []


def test_each_damage_is_named_at_its_seq_and_the_events_after_it_are_still_checked() -> None:
    chain = _chain(12)
    entries: list[tuple[int, Envelope | Exception]] = [(e.seq, e) for e in chain]
    entries[2] = (3, msgspec.structs.replace(chain[2], payload=b"changed"))  # its digest
    entries[5] = (6, msgspec.structs.replace(chain[5], command_id="forged"))  # its hash
    entries[8] = (9, CorruptEvent("does not decode", where="entry 9-0"))
    del entries[10]  # seq 11 gone
    found = chain_damages(entries, game_id="g")
    assert [(d.first, d.last, d.reason) for d in found] == [
        (3, 3, "payload_mismatch"),
        (6, 6, "hash_mismatch"),
        (9, 9, "undecodable"),
        (11, 11, "missing"),
    ]
    assert found[1].describe("g") == (
        "game g seq 6: does not match its hash: its content was changed"
    )


def test_neighbouring_damages_of_one_reason_merge_into_a_range() -> None:
    found = merged([Damage(4, 4, "missing", "m"), Damage(5, 7, "missing", "m"),
                    Damage(8, 8, "hash_mismatch", "h")])  # fmt: skip
    assert [(d.first, d.last) for d in found] == [(4, 7), (8, 8)]
