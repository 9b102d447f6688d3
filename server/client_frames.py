"""A client's frame decoded as its message (events/wire.py `ClientMessage`), a command's
ids checked at C speed (sans-I/O).

msgspec checks a `Meta(pattern=...)` constraint by calling the compiled pattern from C,
~1.5 µs a field here where the same pattern's own `fullmatch` takes ~0.5: a `command`
frame's three (game id, command id, nonce) were two thirds of its decode (6.2 µs of 6.6
measured together, 1.5 without them). So a frame is first decoded as the same union with
those three left unconstrained (`_UncheckedCommand`), and a command's ids are then
matched here, all three in one pattern. Whatever that does not accept (a frame the
decode refuses, an id that does not match) is decoded again by the wire's own decoder,
whose answer stands: its message or its refusal, word for word. This accepts no frame
that one refuses: the unchecked type differs only in those three constraints, and the
pattern here accepts less than the wire's (it allows no final newline, where a
`$`-anchored search does).
"""

from __future__ import annotations

import re
from typing import Any, Union, get_args

import msgspec
from msgspec.structs import astuple

from umpire.events.wire import ClientMessage, SendCommand, client_decoder


class _UncheckedCommand(SendCommand, frozen=True, tag="command"):
    """SendCommand as decoded before its ids are matched (`decode_client`)."""

    game_id: str
    command_id: str
    nonce: str | None = None


# The members of ClientMessage, in its order, with the command unchecked. (A Union of a
# computed tuple: the `|` spelling takes no tuple.)
_UNCHECKED = msgspec.json.Decoder(
    Union[tuple(_UncheckedCommand if t is SendCommand else t for t in get_args(ClientMessage))]  # noqa: UP007
)
# events/wire.py's GameId, CommandId and nonce patterns, each fully matched, in one: the
# nonce part is empty for a command sent without one.
_IDS = re.compile(r"[A-Za-z0-9_-]{1,64}\x00[A-Za-z0-9_.:-]{1,128}\x00(?:[0-9a-f]{32,64})?")


def decode_client(raw: str | bytes) -> Any:
    """The client message of `raw`, as `client_decoder.decode(raw)` makes it, or its
    msgspec.DecodeError (ValidationError included)."""
    try:
        message = _UNCHECKED.decode(raw)
    except msgspec.DecodeError:
        return client_decoder.decode(raw)  # the wire's own refusal
    if type(message) is not _UncheckedCommand:
        return message
    nonce = message.nonce
    if nonce == "" or not _IDS.fullmatch(f"{message.game_id}\0{message.command_id}\0{nonce or ''}"):
        return client_decoder.decode(raw)  # the wire's own answer
    # Every field, in order (the subclass keeps its base's fields and order), so that a
    # field the wire adds to SendCommand is carried without a change here.
    return SendCommand(*astuple(message))
