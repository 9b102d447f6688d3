"""Poison: a game whose secrets cannot be read without saying so (docs/audit.md "Disputes").

A dispute's finding is an event every role receives. Re-making a line under another
reading on the real game could answer from a secret (a hidden pilot's limit in a refusal,
a parting seq that moves with a hidden count). So the line is re-made a second time on a
*blinded* game: every declared secret of its state (each `SecretState` of the ruleset,
engine/secret_fields.py) and every hidden roll's faces stand replaced by a `Poison`, and
any read of one raises `SecretRead`. A line that finishes without a raise never read a
secret, so it is the same whatever the secrets are; one that raises read one, and the
finding waits for the final reveal. The rule's own outcome rests on nothing hidden: up to
the first read, everything the line did was the same in every game that differs only in
its secrets, so whether (and where) it raises is the same too.

Two layers, because Python cannot intercept an identity test (`x is Quality.ACE`):
- a struct field that holds a secret is poisoned at the attribute: the struct is given a
  subclass of its own type whose property for that field raises while the field holds a
  `Poison` (a `replace` that puts a real value there reads as that value);
- the field's slot holds a `Poison` value, which raises on every operation Python routes
  through its type (compare, hash, bool, len, iterate, index, arithmetic, str, format,
  attribute), so a struct's own `==` or `hash`, which read slots below the attributes,
  raise too. msgspec encodes it as the marker `{"poison": "secret"}` without asking it,
  which `holds_poison` finds in an event or a view before anything publishes it.
A sequence whose length is public (`SecretState.count_public`: Downtown's hidden pool,
whose size the player sees) keeps its length and has each item poisoned instead.

`SecretRead` is a `BaseException`, so no `except Exception` of a ruleset's swallows it.
Pure: no I/O, clock or randomness.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, NoReturn

import msgspec
from msgspec import Struct

from umpire.engine.secret_fields import SecretState
from umpire.events.types import DiceRolled

POISON_TAG_FIELD = "poison"
POISON_TAG = "secret"
_MARKER = {POISON_TAG_FIELD: POISON_TAG}


class SecretRead(BaseException):
    """A blinded line read one of the game's secrets: what it would publish rests on it."""


class Poison(Struct, frozen=True, tag_field=POISON_TAG_FIELD, tag=POISON_TAG):
    """Stands where a secret was; every operation on it raises `SecretRead`."""


def _read(self: Poison, *args: Any, **kwargs: Any) -> NoReturn:
    raise SecretRead("a secret of the game was read")


# Every operation Python routes through the type: each one is a read of the secret.
_OPERATIONS = (
    "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__bool__",
    "__len__", "__iter__", "__reversed__", "__getitem__", "__contains__", "__str__",
    "__repr__", "__format__", "__bytes__", "__int__", "__float__", "__complex__",
    "__index__", "__round__", "__trunc__", "__floor__", "__ceil__", "__neg__", "__pos__",
    "__abs__", "__invert__", "__call__", "__getattr__",
    *(f"__{r}{op}__" for op in ("add", "sub", "mul", "matmul", "truediv", "floordiv",
                                "mod", "divmod", "pow", "lshift", "rshift", "and", "xor",
                                "or") for r in ("", "r", "i")),
)  # fmt: skip
for _name in _OPERATIONS:
    setattr(Poison, _name, _read)


def poisoned(count: int | None = None) -> Any:
    """A fresh `Poison` (a fresh one per secret: two secrets are never the same object, so
    no identity shortcut compares them equal), or a tuple of `count` of them."""
    if count is None:
        return Poison()
    return tuple(Poison() for _ in range(count))


def _raw(obj: Struct, name: str) -> Any:
    """A struct field's value read from its slot, past a blinding property."""
    for klass in type(obj).__mro__:
        slot = klass.__dict__.get(name)
        if slot is not None and not isinstance(slot, property):
            return slot.__get__(obj, type(obj))
    raise AttributeError(name)


def _guard(name: str, slot: Any) -> property:
    def read(obj: Struct) -> Any:
        value = slot.__get__(obj, type(obj))
        if isinstance(value, Poison):
            raise SecretRead(f"the secret {name!r} was read")
        return value

    return property(read)


@cache
def _blinded_type(struct_type: type[Struct], names: frozenset[str]) -> type[Struct]:
    """A subclass of `struct_type` (its own name and configuration) whose attributes
    `names` raise while they hold a Poison."""
    base = getattr(struct_type, "__blinded_base__", struct_type)
    blinded = type(base.__name__, (base,), {"__module__": base.__module__})
    for name in names:
        slot = next(k.__dict__[name] for k in base.__mro__ if name in k.__dict__)
        setattr(blinded, name, _guard(name, slot))

    # A struct's own `==` holds two types unequal without reading a field: compared with
    # its base type's struct, the blinded one compares field by field (a Poison raises).
    def equal(self: Struct, other: Any) -> Any:
        if getattr(type(other), "__blinded_base__", type(other)) is not base:
            return NotImplemented
        return all(_raw(self, f) == _raw(other, f) for f in base.__struct_fields__)

    def unequal(self: Struct, other: Any) -> Any:
        same = equal(self, other)
        return same if same is NotImplemented else not same

    blinded.__eq__ = equal  # type: ignore[assignment,method-assign]
    blinded.__ne__ = unequal  # type: ignore[assignment,method-assign]
    blinded.__blinded_base__ = base  # type: ignore[attr-defined]
    blinded.__blinded_names__ = names  # type: ignore[attr-defined]
    return blinded


def _with_field(obj: Struct, name: str, value: Any, *, guarded: bool) -> Struct:
    """`obj` with field `name` set to `value`, guarded at the attribute if asked."""
    base = getattr(type(obj), "__blinded_base__", type(obj))
    names: frozenset[str] = getattr(type(obj), "__blinded_names__", frozenset())
    if guarded:
        names = names | {name}
    fields = {f: _raw(obj, f) for f in obj.__struct_fields__}
    fields[name] = value
    target = _blinded_type(base, names) if names else base
    return target(**fields)


def _blind(obj: Any, path: Sequence[str], declared: SecretState) -> Any:
    """`obj` with the secret at `path` (the rest of a SecretState path, `*` for every key
    or item) poisoned, unless `declared.shown` says its holder shows it; SecretRead when
    the path names no field of a struct (a declaration that does not match the state
    cannot be blinded, so nothing is given at once)."""
    head, rest = path[0], path[1:]
    if head == "*":
        if isinstance(obj, dict):
            return {k: _leaf(obj, v, rest, declared) for k, v in obj.items()}
        if isinstance(obj, tuple | list):
            return type(obj)(_leaf(obj, v, rest, declared) for v in obj)
        return obj
    if isinstance(obj, dict):
        if head not in obj:
            return obj
        return {**obj, head: _leaf(obj, obj[head], rest, declared)}
    if isinstance(obj, Struct):
        if head not in obj.__struct_fields__:
            raise SecretRead(f"a declared secret state path names no field {head!r}")
        value = _raw(obj, head)
        if rest:
            return _with_field(obj, head, _blind(value, rest, declared), guarded=False)
        if declared.shown is not None and declared.shown(obj):
            return obj
        if declared.count_public and isinstance(value, tuple | list):
            return _with_field(obj, head, poisoned(len(value)), guarded=False)
        return _with_field(obj, head, poisoned(), guarded=True)
    if obj is None:
        return obj
    raise SecretRead(f"a declared secret state path passes through no field at {head!r}")


def _leaf(holder: Any, value: Any, rest: Sequence[str], declared: SecretState) -> Any:
    """An item or value of `holder` at the end of a path, or on the way."""
    if rest:
        return _blind(value, rest, declared)
    if declared.shown is not None and declared.shown(holder):
        return value
    if declared.count_public and isinstance(value, tuple | list):
        return poisoned(len(value))
    return poisoned()


def blinded_state(state: Any, secrets: Sequence[SecretState]) -> Any:
    """`state` with every declared secret poisoned (module docstring)."""
    for declared in secrets:
        state = _blind(state, declared.path.split("."), declared)
    return state


def blinded_roll(event: DiceRolled) -> DiceRolled:
    """A hidden roll with its faces and total poisoned (how many dice, of which kind, and
    why, are public); any other roll as it is."""
    if not event.hidden:
        return event
    return msgspec.structs.replace(event, faces=poisoned(len(event.faces)), total=poisoned())


def holds_poison(value: Any) -> bool:
    """Whether `value` (an event, a view) holds a Poison anywhere, as msgspec encodes it:
    a secret copied into what would be published, though never read."""
    return _marked(msgspec.to_builtins(value))


def _marked(data: Any) -> bool:
    if isinstance(data, dict):
        return data == _MARKER or any(_marked(v) for v in data.values())
    if isinstance(data, list | tuple):
        return any(_marked(v) for v in data)
    return False


def blind(call: Callable[[], Any]) -> tuple[bool, Any]:
    """Run `call`: (True, its result), or (False, None) when it read a secret."""
    try:
        return True, call()
    except SecretRead:
        return False, None
