"""Evolve folded over events: the state a list of events leads to."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from msgspec import Struct

S = TypeVar("S")


def fold(evolve: Callable[[S, Struct], S], state: S, events: Iterable[Struct]) -> S:
    """`state` after each of `events` in turn, exactly as replaying the log folds them.

    For a procedure that must read the state its own earlier events make before it
    returns them (a Turn does this as it goes; `fold` serves one that builds a list)."""
    for event in events:
        state = evolve(state, event)
    return state
