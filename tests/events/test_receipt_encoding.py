"""The receipt's state hash is defined over the role's view as canonical JSON of its
builtins (docs/audit.md "Receipts"); the command path hashes the view Struct directly
(events/receipt.py). Both must give the same bytes for every view a game reaches, or a
client checking its receipt against the `state` frame it was sent would fail."""

from __future__ import annotations

import hashlib

import msgspec
import pytest

from tests.support.golden_logs import DATA, load, start
from umpire.engine.game import apply, codec_for
from umpire.engine.redaction import view_for
from umpire.engine.registry import get
from umpire.engine.roles import Role
from umpire.events.codec import canonical_json
from umpire.events.receipt import receipt_state_hash

HEAD = "ab" * 32
# Every ruleset with a recorded golden log (tests/data/golden/<ruleset>.json).
RULESETS = sorted(p.stem for p in DATA.glob("*.json") if p.stem != "scenarios")


def defined(seq: int, view: object) -> str:
    """docs/audit.md's definition, spelled out: label, seq, head, canonical JSON of the
    view's builtins."""
    body = b"umpire-receipt:" + f"{seq}:{HEAD}:".encode() + canonical_json(view)
    return hashlib.sha256(body).hexdigest()


@pytest.mark.parametrize("name", RULESETS)
def test_a_views_struct_hashes_as_its_builtins_at_every_state_of_a_recorded_game(
    name: str,
) -> None:
    data = load(name)
    ruleset = get(name)
    codec = codec_for(ruleset)
    game = start(ruleset, data["setup"])
    states = [game.state]
    for tag, version, payload in data["events"]:
        game = apply(ruleset, game, codec.decode(tag, version, bytes.fromhex(payload)))
        states.append(game.state)
    for seq, state in enumerate(states):
        for role in Role:
            for revealed in (False, True):
                view = view_for(ruleset, state, role, revealed=revealed)
                assert not _sets(view), (name, seq, role)
                expected = defined(seq, msgspec.to_builtins(view))
                assert receipt_state_hash(seq, HEAD, view) == expected, (name, seq, role)
                assert receipt_state_hash(seq, HEAD, msgspec.to_builtins(view)) == expected


class _Piece(msgspec.Struct, frozen=True):
    # Fields out of alphabetical order, as a ruleset's view may hold them.
    zone: str
    armour: int
    marks: tuple[str, ...] = ()


def test_a_struct_in_a_view_hashes_as_its_builtins_whatever_its_field_order() -> None:
    view = {"turn": 3, "pieces": [_Piece("north", 2, ("b", "a"))], "hexes": {"0101": "x"}}
    expected = defined(7, msgspec.to_builtins(view))
    assert receipt_state_hash(7, HEAD, view) == expected


def _sets(value: object) -> list[object]:
    """Every set in a view: the one thing the two encodings would order differently (a
    set's builtins list keeps its iteration order; "sorted" sorts it)."""
    if isinstance(value, (set, frozenset)):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _sets(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _sets(v)]
    if isinstance(value, msgspec.Struct):
        return [s for f in value.__struct_fields__ for s in _sets(getattr(value, f))]
    return []
