"""Dice for tests: deterministic seeds for the server's dice (the `games` and gateway
fixtures), and server dice whose hidden rolls come out otherwise (the differential tests)."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from umpire.engine.dice import DiceKind, DiceSpec, ServerDice, face_range, total_of
from umpire.events.types import Owner


def seed_source(request: pytest.FixtureRequest) -> Callable[[], bytes]:
    """Deterministic dice seeds for one test: server dice roll the same on every run, so
    an outcome a test relies on never depends on luck (and a failure reproduces)."""
    counter = itertools.count()
    node = request.node.nodeid.split("[")[0].encode()

    def draw() -> bytes:
        return hashlib.sha256(node + b"#" + str(next(counter)).encode()).digest()

    return draw


def key_source(request: pytest.FixtureRequest) -> Callable[[], bytes]:
    """Deterministic sealing keys for one test, as `seed_source` draws seeds: a game's
    hidden rolls derive from its sealing key (engine/dice.py `roll_key`)."""
    counter = itertools.count()
    node = request.node.nodeid.split("[")[0].encode()

    def draw() -> bytes:
        return hashlib.sha256(node + b"#sealing key #" + str(next(counter)).encode()).digest()

    return draw


class AlteredDice(ServerDice):
    """Server dice whose hidden rolls come out otherwise: each face moved up by `shift`."""

    shift = 1

    def roll(
        self, spec: DiceSpec, *, purpose: str, rule: str, owner: Owner, hidden: bool = False
    ) -> Any:
        event = super().roll(spec, purpose=purpose, rule=rule, owner=owner, hidden=hidden)
        if not hidden:
            return event
        spec = DiceSpec(DiceKind(event.kind), tuple(event.sides), tuple(event.labels))
        faces = []
        for i, face in enumerate(event.faces):
            lo, hi = face_range(spec, i)
            faces.append(lo + (face - lo + self.shift) % (hi - lo + 1))
        altered = msgspec.structs.replace(event, faces=tuple(faces), total=total_of(spec, faces))
        self.rolled[-1] = altered
        return altered
