"""Whether a JSON text repeats a key within one object (sans-I/O).

RFC 8259 leaves a repeated name's meaning to each parser: msgspec keeps the last value,
other parsers (a proxy's, a logger's, the client's own check before it sent the frame)
keep the first or refuse. The gateway took `{"command": A, "command": B}` as B without a
word, and `{"type": "view", "type": "command"}` got "Invalid value 'command' ... allowed:
'command'" (red team, 2026-11-29). So a frame that names one field twice in any object is
refused like a misspelt one: `bad_message` naming the field, nothing written.

Most frames are proved free of repeats in about a microsecond: a frame that msgspec
decodes and encodes back to the very same bytes has, token for token, the text of a
decoded object, whose keys are distinct (compact JSON, as JSON.stringify and the clients
send it). Any other frame (spaces, escapes, another float spelling, NaN) goes to the exact
check, which costs about 5 µs a frame (too much on every command of issue #44's budget):
the standard library's scanner reports every object's pairs in order; the values are
not kept (numbers are not even converted: a frame of long digit strings costs nothing
more), and the gateway has already refused a frame nesting deeper than
server/nesting.py's limit.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from umpire.events.wire import Error


class _Repeated(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _pairs(pairs: list[tuple[str, Any]]) -> None:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise _Repeated(key)
        seen.add(key)


def _ignored(_: str) -> None:
    return None


_GENERIC = msgspec.json.Decoder()
_ENCODER = msgspec.json.Encoder()
_DECODER = json.JSONDecoder(
    object_pairs_hook=_pairs, parse_int=_ignored, parse_float=_ignored, parse_constant=_ignored
)


def repeated_key(text: str) -> str | None:
    """The first key that `text` repeats within one object (as decoded: `"a"` and
    `"\\u0061"` are one key), or None; None too for text that is not JSON, which the
    typed parser has refused already."""
    try:
        if _ENCODER.encode(_GENERIC.decode(text)) == text.encode():
            return None  # the bytes of an object: each key once (the module docstring)
    except (msgspec.DecodeError, UnicodeEncodeError):
        pass  # not msgspec's JSON, or a lone surrogate: the exact check says
    try:
        _DECODER.decode(text)
    except _Repeated as found:
        return found.key
    except ValueError:
        return None
    return None


def repeated_refusal(text: str) -> Error | None:
    """The `bad_message` answer to a frame that repeats a key in an object (naming it,
    with the frame's request id where one is found), or None."""
    key = repeated_key(text)
    if key is None:
        return None
    shown = key[:64]
    try:
        data = msgspec.json.decode(text)
    except msgspec.DecodeError:  # NaN or Infinity: the standard library's scanner takes them
        data = None
    request_id = data.get("id") if isinstance(data, dict) else None
    return Error(
        code="bad_message",
        message=f"the frame gives the field {shown!r} twice in one object: give each field "
        "once (a parser may keep either value)",
        details={"field": shown},
        id=request_id[:128] if isinstance(request_id, str) else None,
    )
