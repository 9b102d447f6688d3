"""A client's frame is decoded as the wire's own decoder decodes it (server/client_frames.py):
the same message, or the same refusal word for word, with a command's ids matched at C
speed first. Pure: no gateway."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from umpire.events.wire import SendCommand, client_decoder
from umpire.server.client_frames import decode_client

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


@pytest.mark.parametrize("frame", FRAMES, ids=range(len(FRAMES)))
def test_a_frame_decodes_as_the_wire_decoder_decodes_it(frame: Any) -> None:
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
