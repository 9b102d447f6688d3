"""Canonical payload encoding and the registry of event types, versions and upcasters.

Canonical means: the same payload always encodes to the same bytes (struct fields in
declaration order, dict keys sorted), so re-encoding an exported JSON payload reproduces
the hashed bytes exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec
from msgspec import Struct

from umpire.events.errors import CorruptEvent, UnknownEventType
from umpire.events.types import UNIVERSAL_EVENT_TYPES, event_tag, event_version

_canonical = msgspec.msgpack.Encoder(order="deterministic")
_json = msgspec.json.Encoder(order="deterministic")

Upcaster = Callable[[Any], Struct]


def canonical_bytes(value: Any) -> bytes:
    """Canonical MessagePack of any msgspec-encodable value."""
    return _canonical.encode(value)


def canonical_json(value: Any) -> bytes:
    """Canonical JSON of any msgspec-encodable value (sorted keys)."""
    return _json.encode(value)


def _same_fields(current: type[Struct]) -> Upcaster:
    """The upcaster of an old version that holds the same fields as `current`."""

    def upcast(old: Any) -> Struct:
        return current(**msgspec.structs.asdict(old))

    return upcast


class EventRegistry:
    """Maps (type tag, version) to a payload type, and old versions to upcasters.

    A registry holds the universal events plus one ruleset's events. Old versions stay
    decodable forever: register the old struct with `register_upcaster`, and reading it
    returns the current version.
    """

    def __init__(self, types: Iterable[type[Struct]] = ()) -> None:
        self._current: dict[str, type[Struct]] = {}
        self._old: dict[tuple[str, int], tuple[type[Struct], Upcaster]] = {}
        self._decoders: dict[type[Struct], msgspec.msgpack.Decoder[Any]] = {}
        # Each current type's tag and version, by the type (`encode`: one lookup an event,
        # where the tag and the version were each a call).
        self._terms: dict[type[Struct], tuple[str, int]] = {}
        for event_type in (*UNIVERSAL_EVENT_TYPES, *types):
            self.register(event_type)

    def register(self, event_type: type[Struct]) -> None:
        """Add the current version of an event type."""
        tag = event_type.__struct_config__.tag
        if not isinstance(tag, str):
            raise TypeError(f"{event_type.__name__} needs a string tag")
        known = self._current.get(tag)
        if known is not None and known is not event_type:
            raise ValueError(f"event tag {tag!r} registered twice")
        self._current[tag] = event_type
        self._terms[event_type] = (tag, event_version(event_type))
        self._decoders[event_type] = msgspec.msgpack.Decoder(event_type)
        # Old versions the type declares (`old_versions`: their Structs, with the same tag,
        # fields and `version`, in another order) are read as it, field by field.
        for old in getattr(event_type, "old_versions", ()):
            self.register_upcaster(tag, event_version(old), old, _same_fields(event_type))

    def register_upcaster(
        self, tag: str, version: int, old_type: type[Struct], upcast: Upcaster
    ) -> None:
        """Keep `version` of `tag` readable: decode it as `old_type`, then `upcast` it."""
        self._old[(tag, version)] = (old_type, upcast)
        self._decoders[old_type] = msgspec.msgpack.Decoder(old_type)

    def types(self) -> list[type[Struct]]:
        """Every current event type, in tag order."""
        return [self._current[tag] for tag in sorted(self._current)]

    def knows(self, tag: str) -> bool:
        """Whether a tag is registered."""
        return tag in self._current

    def encode(self, event: Struct) -> tuple[str, int, bytes]:
        """The tag, version and canonical bytes of a payload."""
        terms = self._terms.get(type(event))
        if terms is not None:
            return terms[0], terms[1], _canonical.encode(event)
        tag = event_tag(event)
        if self._current.get(tag) is not type(event):
            raise UnknownEventType(
                f"event type {tag!r} is not registered for this game",
                type=tag,
            )
        return tag, event_version(type(event)), _canonical.encode(event)

    def decode(self, tag: str, version: int, payload: bytes, *, seq: int = 0) -> Struct:
        """Decode a stored payload into the current version of its type.

        Raises UnknownEventType for a tag or version this build does not know, and
        CorruptEvent for bytes that do not decode as that type.
        """
        current = self._current.get(tag)
        if current is None:
            raise UnknownEventType(
                f"event {seq}: type {tag!r} is unknown to this build "
                f"(known: {', '.join(sorted(self._current))})",
                seq=seq,
                type=tag,
                version=version,
            )
        current_version = event_version(current)
        if version == current_version:
            return self._decode_as(current, payload, seq)
        old = self._old.get((tag, version))
        if old is None:
            raise UnknownEventType(
                f"event {seq}: {tag!r} version {version} is unknown to this build "
                f"(current version {current_version})",
                seq=seq,
                type=tag,
                version=version,
            )
        old_type, upcast = old
        return upcast(self._decode_as(old_type, payload, seq))

    def _decode_as(self, event_type: type[Struct], payload: bytes, seq: int) -> Struct:
        try:
            decoded: Struct = self._decoders[event_type].decode(payload)
        except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as exc:
            raise CorruptEvent(
                f"event {seq}: payload does not decode as {event_type.__name__}: {exc}",
                seq=seq,
                type=event_type.__name__,
            ) from exc
        return decoded

    def from_builtins(self, tag: str, version: int, data: Any, *, seq: int = 0) -> Struct:
        """Rebuild a payload from JSON-like data (an export line), then canonical bytes."""
        current = self._current.get(tag)
        target: type[Struct] | None = current
        if current is not None and version != event_version(current):
            old = self._old.get((tag, version))
            target = old[0] if old else None
        if target is None:
            raise UnknownEventType(
                f"event {seq}: type {tag!r} version {version} is unknown to this build",
                seq=seq,
                type=tag,
                version=version,
            )
        try:
            value: Struct = msgspec.convert(data, target)
        except msgspec.ValidationError as exc:
            raise CorruptEvent(
                f"event {seq}: payload does not match {target.__name__}: {exc}", seq=seq
            ) from exc
        return value
