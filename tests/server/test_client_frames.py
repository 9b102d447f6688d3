"""A client's frame is decoded as the wire's own decoder decodes it (server/client_frames.py):
the same message, or the same refusal word for word, with a command's ids matched at C
speed first. Pure: no gateway."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from umpire.events.wire import SendCommand, client_decoder
from umpire.server.client_frames import _UncheckedCommand, decode_client

NONCE = "0123456789abcdef" * 2
COMMAND: dict[str, Any] = {
    "type": "command", "game_id": "g00a9244413a0fdce", "command_id": "m-1.2:3_x",
    "command": {"type": "RollDice", "dice": "d6"}, "nonce": NONCE, "id": "r1",
}  # fmt: skip

# Each differs from COMMAND in one way: an id or nonce at or past its pattern's edge (a
# final newline, which a `$`-anchored search allows), a field of the wrong type, one too
# many, one missing, another message, or text that is no message at all.
FRAMES: list[Any] = [
    COMMAND,
    {**COMMAND, "nonce": None},
    {k: v for k, v in COMMAND.items() if k != "nonce"},
    {**COMMAND, "nonce": ""},
    {**COMMAND, "nonce": NONCE.upper()},
    {**COMMAND, "nonce": NONCE[:31]},
    {**COMMAND, "nonce": NONCE * 2},
    {**COMMAND, "nonce": NONCE * 2 + "0"},
    {**COMMAND, "nonce": NONCE + "\n"},
    {**COMMAND, "nonce": 5},
    {**COMMAND, "game_id": "g" * 64},
    {**COMMAND, "game_id": "g" * 65},
    {**COMMAND, "game_id": ""},
    {**COMMAND, "game_id": "g1\n"},
    {**COMMAND, "game_id": "g\x001"},
    {**COMMAND, "game_id": "g.1"},
    {**COMMAND, "game_id": "é"},
    {**COMMAND, "command_id": "c" * 128},
    {**COMMAND, "command_id": "c" * 129},
    {**COMMAND, "command_id": "c 1"},
    {**COMMAND, "command_id": "c\n"},
    {**COMMAND, "command_id": 7},
    {**COMMAND, "game_id": "bad id", "command_id": 7},
    {**COMMAND, "expected_seq": -1},
    {**COMMAND, "dice": [[3]], "nonce": None},
    {**COMMAND, "credential": "x" * 257},
    {**COMMAND, "nonces": NONCE},
    {k: v for k, v in COMMAND.items() if k != "command"},
    {"type": "view", "game_id": "g1", "id": "v"},
    {"type": "view", "game_id": "g 1"},
    {"type": "subscribe", "game_id": "g1", "from_seq": 0},
    {"type": "nope"},
    [],
    "text",
]


def _same_as_the_wire(frame: Any) -> None:
    for raw in (msgspec.json.encode(frame).decode(), msgspec.json.encode(frame)):
        try:
            expected = client_decoder.decode(raw)
        except msgspec.DecodeError as refused:
            with pytest.raises(type(refused)) as got:
                decode_client(raw)
            assert str(got.value) == str(refused)
        else:
            decoded = decode_client(raw)
            assert type(decoded) is type(expected)
            assert decoded == expected


@pytest.mark.parametrize("frame", FRAMES, ids=range(len(FRAMES)))
def test_a_frame_decodes_as_the_wire_decoder_decodes_it(frame: Any) -> None:
    _same_as_the_wire(frame)


# Ids and nonces drawn near the patterns' edges: mostly well formed (so that the other
# fields pass and the one under test decides), at or past either end of their lengths,
# or with one stray character put in; the fast path must agree with the wire on each.
_STRAY = st.sampled_from(list(".:\n\x00 é/A_-"))


def _near(chars: str, least: int, most: int) -> st.SearchStrategy[str]:
    good = st.from_regex(rf"[{chars}]{{{least},{most}}}", fullmatch=True)
    edge = st.sampled_from([least - 1, least, most, most + 1]).map(lambda n: "a" * n)
    stray = st.tuples(good, _STRAY, st.integers(0, most)).map(
        lambda t: t[0][: t[2]] + t[1] + t[0][t[2] :]
    )
    return st.one_of(good, edge, stray)


@settings(max_examples=400, deadline=None)
@given(
    game_id=_near("A-Za-z0-9_-", 1, 64),
    command_id=_near("A-Za-z0-9_.:-", 1, 128),
    nonce=st.one_of(st.none(), _near("0-9a-f", 32, 64), st.just("")),
    which=st.integers(0, 2),
)
def test_any_ids_decode_as_the_wire_decodes_them(
    game_id: str, command_id: str, nonce: str | None, which: int
) -> None:
    # One drawn field at a time beside COMMAND's good ones, then all three together.
    drawn = {"game_id": game_id, "command_id": command_id, "nonce": nonce}
    field = ("game_id", "command_id", "nonce")[which]
    _same_as_the_wire({**COMMAND, field: drawn[field]})
    _same_as_the_wire({**COMMAND, **drawn})


def test_the_unchecked_command_carries_every_field_of_the_wires() -> None:
    # decode_client copies a command's fields by position: a field the wire adds to
    # SendCommand must be the unchecked type's too, in the same place.
    assert _UncheckedCommand.__struct_fields__ == SendCommand.__struct_fields__


def test_text_that_is_not_json_is_refused_as_the_wire_refuses_it() -> None:
    for raw in ('{"type": "command", "game_id": ', "{]", "\ufeff{}", ""):
        with pytest.raises(msgspec.DecodeError) as refused:
            client_decoder.decode(raw)
        with pytest.raises(type(refused.value)) as got:
            decode_client(raw)
        assert str(got.value) == str(refused.value)


def test_a_well_formed_command_is_the_wires_command() -> None:
    decoded = decode_client(msgspec.json.encode(COMMAND))
    assert type(decoded) is SendCommand
    assert (decoded.game_id, decoded.command_id, decoded.nonce) == (
        COMMAND["game_id"], COMMAND["command_id"], NONCE,
    )  # fmt: skip
