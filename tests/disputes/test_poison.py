"""engine/poison.py: a blinded game's secrets cannot be read without raising SecretRead,
which no `except Exception` swallows, while what is public reads as it is (the blind rule
of docs/audit.md "Disputes")."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import msgspec
import pytest
from msgspec import Struct

from umpire.engine.poison import (
    Poison,
    SecretRead,
    blinded_roll,
    blinded_state,
    holds_poison,
    poisoned,
)
from umpire.engine.secret_fields import SecretState
from umpire.events.types import DiceRolled

GREEN = "green"


class Plane(Struct, frozen=True, kw_only=True):
    quality: str
    crack_shot: bool = False
    revealed: tuple[str, ...] = ()
    hand: int = 6


class State(Struct, frozen=True, kw_only=True):
    planes: dict[str, Plane]
    pool: tuple[str, ...] = ()
    hidden: int = 0


READS: dict[str, Callable[[Any], Any]] = {
    "compare": lambda p: p == 1,
    "order": lambda p: p < 1,
    "reflected": lambda p: 1 < p,  # noqa: SIM300 (the point: the poison on the right)
    "hash": hash,
    "bool": bool,
    "len": len,
    "iterate": list,
    "index": lambda p: p[0],
    "index with": lambda p: [1, 2][p],
    "contains": lambda p: 1 in p,
    "in a set": lambda p: p in {1},
    "arithmetic": lambda p: p + 1,
    "reflected arithmetic": lambda p: 1 + p,
    "in place": lambda p: operator.iadd(p, 1),
    "negate": operator.neg,
    "int": int,
    "str": str,
    "repr": repr,
    "format": lambda p: f"{p}",
    "attribute": lambda p: p.value,
    "call": lambda p: p(),
}


@pytest.mark.parametrize("read", READS.values(), ids=list(READS))
def test_every_read_of_a_poison_raises_past_except_exception(read: Callable[[Any], Any]) -> None:
    with pytest.raises(SecretRead):
        try:
            read(poisoned())
        except Exception:  # a ruleset's broad handler must not swallow it
            pytest.fail("SecretRead was caught as an Exception")


def _state() -> State:
    return State(
        planes={"a1": Plane(quality="ace", crack_shot=True, revealed=("crack_shot",)),
                "b1": Plane(quality="green")},
        pool=("heavy", "light", "medium"),
        hidden=3,
    )  # fmt: skip


SECRETS = (
    SecretState("planes.*.quality"),
    SecretState("planes.*.crack_shot", shown=lambda plane: "crack_shot" in plane.revealed),
    SecretState("pool", count_public=True),
    SecretState("hidden"),
)


def test_a_secret_field_raises_at_the_attribute_even_for_an_identity_test() -> None:
    state = blinded_state(_state(), SECRETS)
    with pytest.raises(SecretRead):
        _ = state.planes["b1"].quality is GREEN
    with pytest.raises(SecretRead):
        _ = state.hidden
    # A struct's own == and hash read its slots below the attributes: they raise too.
    with pytest.raises(SecretRead):
        _ = state.planes["b1"] == Plane(quality=GREEN)
    with pytest.raises(SecretRead):
        _ = Plane(quality=GREEN) != state.planes["b1"]
    with pytest.raises(SecretRead):
        _ = state.planes["b1"] == msgspec.structs.replace(state.planes["b1"], hand=5)
    with pytest.raises(SecretRead):
        hash(state.planes["b1"])


def test_what_is_public_reads_as_it_is() -> None:
    state = blinded_state(_state(), SECRETS)
    a1, b1 = state.planes["a1"], state.planes["b1"]
    assert isinstance(a1, Plane) and a1.hand == 6
    assert a1.crack_shot is True  # revealed: every role sees it (SecretState.shown)
    assert len(state.pool) == 3  # its count is public (SecretState.count_public)
    with pytest.raises(SecretRead):
        _ = state.pool[0] == "heavy"
    # A field set again holds what was set: the player's possible pilots, say.
    assert msgspec.structs.replace(b1, quality="ace").quality == "ace"
    assert msgspec.structs.replace(b1, hand=5).hand == 5
    with pytest.raises(SecretRead):
        _ = msgspec.structs.replace(b1, hand=5).quality


def test_a_declaration_that_names_no_field_cannot_be_blinded() -> None:
    with pytest.raises(SecretRead):
        blinded_state(_state(), (SecretState("planes.*.pilot"),))


def test_a_copied_secret_is_found_in_what_would_be_published() -> None:
    state = blinded_state(_state(), SECRETS)
    assert holds_poison({"view": msgspec.to_builtins(state)})
    assert holds_poison({"pool": state.pool})
    assert not holds_poison({"hand": state.planes["b1"].hand, "pool_size": len(state.pool)})
    assert isinstance(poisoned(), Poison) and poisoned() is not poisoned()


def test_a_hidden_rolls_faces_and_total_are_poisoned_and_a_public_roll_is_not() -> None:
    roll = DiceRolled(roll=4, kind="d6", sides=(6,), faces=(5,), total=5, purpose="p",
                      rule="r", hidden=True)  # fmt: skip
    blinded = blinded_roll(roll)
    assert (blinded.kind, blinded.sides, len(blinded.faces)) == ("d6", (6,), 1)
    with pytest.raises(SecretRead):
        _ = blinded.total > 3
    with pytest.raises(SecretRead):
        _ = blinded.faces[0] + 0
    public = msgspec.structs.replace(roll, hidden=False)
    assert blinded_roll(public) is public
