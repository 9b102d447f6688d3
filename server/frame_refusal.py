"""What a refused client message was wrong in, in words that say what is allowed.

msgspec's decode of a client message (events/wire.py) stops at the first mismatch and
says it in its own terms: `Object contains unknown field `die``, `Expected `str` matching
regex '^[0-9a-f]{32,64}$' - at `$.nonce``. A client's author needs what the message
takes instead: the fields of that message type, or what the field allows (its schema's
`description` where it has one, else what its schema says). The raw text stays in the
refusal's `details.error`.
"""

from __future__ import annotations

import re
import typing
from functools import cache
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.schemas import struct_schema
from umpire.engine.validation import describe
from umpire.events.wire import ClientMessage, Error
from umpire.server.nesting import MAX_DEPTH

# The request id of a frame too deep to parse, found without parsing it (best effort).
_REQUEST_ID = re.compile(r'"id"\s*:\s*"([^"\\]{1,128})"')
_UNKNOWN = re.compile(r"^Object contains unknown field `(?P<name>[^`]*)`$")
_MISSING = re.compile(r"^Object missing required field `(?P<name>[^`]*)`$")
_AT_FIELD = re.compile(r" - at `\$\.(?P<name>[A-Za-z_][A-Za-z0-9_]*)`$")


@cache
def message_types() -> dict[str, type[Struct]]:
    """Every client message type, by its `type` tag."""
    return {str(t.__struct_config__.tag): t for t in typing.get_args(ClientMessage)}


@cache
def allowed_types() -> str:
    """Every client message type, as a refusal lists them: from the wire's own union, so
    none is left out (a written list named nine of eleven, without `dispute` and `rule`)."""
    return ", ".join(message_types())


@cache
def fields_of(tag: str) -> tuple[str, ...]:
    """The fields a client message takes (`type` aside), in order."""
    return tuple(f.encode_name for f in msgspec.structs.fields(message_types()[tag]))


def takes(tag: str) -> str:
    """`it takes a, b, c`, or `it takes no fields` (no list cut off after `takes`)."""
    fields = fields_of(tag)
    return f"it takes {', '.join(fields)}" if fields else "it takes no fields"


def explained(data: Any, failure: str) -> str | None:
    """The refusal of a message whose `type` is known, in words; None when `data` names
    no known type (the caller lists the message types)."""
    kind = data.get("type") if isinstance(data, dict) else None
    if not isinstance(kind, str) or kind not in message_types():
        return None
    unknown = _UNKNOWN.match(failure)
    if unknown is not None:
        return f"{kind} has no field {unknown.group('name')[:80]!r}; {takes(kind)}"
    missing = _MISSING.match(failure)
    if missing is not None:
        return f"{kind} needs field {missing.group('name')!r}; {takes(kind)}"
    at = _AT_FIELD.search(failure)
    if at is None:
        return None
    name = at.group("name")
    node = struct_schema(message_types()[kind])["properties"].get(name)
    if not isinstance(node, dict):
        return None
    options = [o for o in node.get("anyOf", [node]) if o.get("type") != "null"]
    said = next((o["description"] for o in options if "description" in o), None)
    if said is not None:
        return f"{kind} field {name!r} is not valid: it must be {said}"
    allowed = describe(node)
    return f"{failure}; allowed: {allowed}" if allowed else None


def too_deep_refusal(raw: str) -> tuple[str, str, Error]:
    """The refusal of a frame that nests deeper than MAX_DEPTH, as (mistake code, detail,
    `error` frame): bad_message, the connection kept."""
    found = _REQUEST_ID.search(raw)
    message = f"the frame nests deeper than {MAX_DEPTH} levels of arrays and objects"
    error = Error(
        code="bad_message",
        message=f"{message}; no message needs more",
        details={"max_depth": MAX_DEPTH},
        id=found.group(1) if found else None,
    )
    return "bad_message", message, error


def not_a_message(raw: str, failure: msgspec.DecodeError) -> tuple[str, str, Error]:
    """The refusal of a frame that is not a message (not JSON, or JSON of the wrong shape),
    as (mistake code, detail, `error` frame).

    The frame is decoded again, untyped: the typed decode stops at the first mismatch,
    so it may not have seen that the rest is not JSON at all, and the untyped one
    finds the request id to answer to."""
    try:
        data = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        return "bad_json", str(exc), Error(code="bad_json", message=f"frame is not JSON: {exc}")
    request_id = None
    if isinstance(data, dict) and isinstance(data.get("id"), str):
        request_id = data["id"][:128]
    text = str(failure)
    code = "unknown_message_type" if "`$.type`" in text else "bad_message"
    error = Error(
        code=code,
        message=explained(data, text) or f"{text} (message types: {allowed_types()})",
        details={"error": text},
        id=request_id,
    )
    return code, text, error
