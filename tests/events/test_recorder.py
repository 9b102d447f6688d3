"""The recorder (events/recorder.py): a command's events sealed onto the chain, pure."""

from __future__ import annotations

import pytest

from umpire.events.chain import verify_chain
from umpire.events.envelope import (
    GENESIS_HASH,
    decode_envelope,
    encode_envelope,
    payload_commitment,
    public_record,
    seal,
)
from umpire.events.epochs import Epochs
from umpire.events.errors import ExpectedVersionAhead, InvalidCommandId, UmpireError
from umpire.events.recorder import seal_batch
from umpire.events.store import Credential, PendingEvent

NOW = "2026-11-29T00:00:00.000Z"
SEED = b"\x05" * 32
EVENTS = [
    PendingEvent("Opaque", 1, b"public"),
    PendingEvent("Opaque", 2, b"hidden", secret=True),
    PendingEvent("Opaque", 1, b"after"),
]


def test_a_batch_holds_the_bytes_each_event_seals_to_in_one_chain() -> None:
    """The same bytes as sealing each event in turn with `seal` (what the store did before
    the recorder), linked from `prev_hash`, with the head they make."""
    head = seal(
        game_id="g", seq=1, type="Opaque", version=1, payload=b"c", command_id="create",
        recorded_at=NOW, prev_hash=GENESIS_HASH,
    )  # fmt: skip
    batch = seal_batch(
        "g", EVENTS, expected_version=1, prev_hash=head.hash, command_id="c1",
        recorded_at=NOW, commit_seed=SEED, secret=b"\x09" * 32,
        credential=Credential("d" * 64, "player"), body_hash="ab" * 16,
    )  # fmt: skip
    link, expected = head.hash, []
    for seq, event in enumerate(EVENTS, start=2):
        env = seal(
            game_id="g", seq=seq, type=event.type, version=event.version,
            payload=event.payload, command_id="c1", recorded_at=NOW, prev_hash=link,
            commit_seed=SEED if event.secret else None, envelope_version=event.envelope_version,
        )  # fmt: skip
        expected.append(encode_envelope(env))
        link = env.hash
    assert list(batch.records) == expected
    assert (batch.first_seq, batch.last_seq, batch.last_hash) == (2, 4, link)
    assert (batch.prev_hash, batch.expected_version, batch.command_id) == (head.hash, 1, "c1")
    assert batch.secret == b"\x09" * 32 and batch.body_hash == "ab" * 16
    assert batch.credential == Credential("d" * 64, "player")
    envelopes = [head, *map(decode_envelope, batch.records)]
    hidden = envelopes[2]
    assert hidden.committed and hidden.digest == payload_commitment(SEED, "g", 3, b"hidden")
    held = Epochs([]).with_held_keys(SEED, None)
    assert verify_chain(envelopes, game_id="g", epochs=held) == 4


def test_a_re_sealed_digest_needs_no_seed() -> None:
    """An imported event carries its digest: it is sealed with it as it is."""
    source = seal_batch(
        "g", EVENTS[:2], expected_version=0, prev_hash=GENESIS_HASH, command_id="c",
        recorded_at=NOW, commit_seed=SEED,
    )  # fmt: skip
    again = [decode_envelope(r) for r in source.records]
    copy = seal_batch(
        "g",
        [PendingEvent(e.type, e.version, e.payload, secret=e.committed, digest=e.digest)
         for e in again],
        expected_version=0, prev_hash=GENESIS_HASH, command_id="c", recorded_at=NOW,
    )  # fmt: skip
    assert copy.records == source.records and copy.secret == b""


@pytest.mark.parametrize(
    ("change", "error", "match"),
    [
        ({"command_id": "a b"}, InvalidCommandId, "is not allowed"),
        ({"events": []}, UmpireError, "at least one event"),
        ({"expected_version": -1}, ExpectedVersionAhead, "negative"),
        ({"commit_seed": None}, UmpireError, "needs the game's seed"),
    ],
)
def test_what_cannot_be_sealed_is_refused_saying_why(
    change: dict[str, object], error: type[Exception], match: str
) -> None:
    asked: dict[str, object] = {
        "events": EVENTS, "expected_version": 0, "prev_hash": GENESIS_HASH,
        "command_id": "c1", "recorded_at": NOW, "commit_seed": SEED,
    }  # fmt: skip
    asked.update(change)
    with pytest.raises(error, match=match):
        seal_batch("g", **asked)  # type: ignore[arg-type]


def test_a_public_event_is_the_record_seal_makes_of_it() -> None:
    """`public_record`, the one call a public event is sealed with, makes the hash and the
    bytes that `seal` and `encode_envelope` make of it (game, seq and ids of every length)."""
    for game_id, seq, command_id in (("g", 1, "c"), ("x" * 64, 2**40, "c.:-_" * 25)):
        sealed = seal(
            game_id=game_id, seq=seq, type="DiceRolled", version=3, payload=b"\x81\xa1k\x01",
            command_id=command_id, recorded_at=NOW, prev_hash=GENESIS_HASH,
        )  # fmt: skip
        made = public_record(
            game_id, seq, "DiceRolled", 3, b"\x81\xa1k\x01", command_id, NOW, GENESIS_HASH
        )
        assert made == (sealed.hash, encode_envelope(sealed))
