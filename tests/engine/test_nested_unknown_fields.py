"""A misspelt field inside a command's list of records is refused, as one at its top is
(engine/handling.py `parse_command`): Down in Flames' `Bid` and Nightfighter's
`RadarSearch` dropped an unknown field without a word (red team 10: `bids.1.altitdue=7`
beside the right field was accepted), so a later optional field, misspelt, would run on
its default."""

from __future__ import annotations

import typing
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from umpire.engine import registry
from umpire.engine.errors import InvalidCommand
from umpire.engine.handling import command_types, parse_command


def _nested(kind: Any, seen: set[type]) -> Iterator[type[msgspec.Struct]]:
    """Every Struct type a command's fields hold, at any depth."""
    origin = typing.get_origin(kind)
    if origin is typing.Annotated:
        yield from _nested(typing.get_args(kind)[0], seen)
    elif origin is not None:
        for arg in typing.get_args(kind):
            yield from _nested(arg, seen)
    elif isinstance(kind, type) and issubclass(kind, msgspec.Struct) and kind not in seen:
        seen.add(kind)
        yield kind
        hints = typing.get_type_hints(kind, include_extras=True)
        for field in msgspec.structs.fields(kind):
            yield from _nested(hints[field.name], seen)


@pytest.mark.parametrize("name", registry.available())
def test_every_record_inside_a_command_refuses_an_unknown_field(name: str) -> None:
    lax = []
    for tag, command in command_types(registry.get(name)).items():
        for inner in _nested(command, set()):
            if inner is not command and not inner.__struct_config__.forbid_unknown_fields:
                lax.append(f"{tag}: {inner.__name__}")
    assert lax == [], lax


def test_a_misspelt_bid_field_is_refused() -> None:
    bid = {"side": "A", "altitude": 7, "victory_points": 0}
    command = {"type": "BidStartingAltitude", "bids": [bid, {**bid, "side": "B", "altitdue": 9}]}
    with pytest.raises(InvalidCommand, match="altitdue"):
        parse_command(registry.get("down_in_flames"), command)
