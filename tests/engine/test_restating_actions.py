"""A listed action can leave out one whole command: the report that restates the state
(engine/actions.py `but_not`, engine/offers.py `restating`; issue 41 item 8). Its schema's
`not` names exactly the commands that read as it (a field left out is its default), the
schema sampler draws around it, and `umpire actions`' example is never it."""

from __future__ import annotations

import random
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.actions import but_not, offer, one_of
from umpire.events.action_text import example, render
from umpire.testing.support.schema_sampler import accepts, sample


class Report(Struct, frozen=True, kw_only=True, tag="Report"):
    """A counter's hex and facing as on the table."""

    unit: str
    hex: str
    facing: int = 0
    in_play: bool = True


def _schema(held: Report, **narrow: Any) -> dict[str, Any]:
    action = but_not(offer(Report, "R1", "Report a counter", **narrow), [held])
    wire = action.wire()
    schema: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(wire.schema))
    return schema


def test_the_not_leaves_out_exactly_the_commands_that_read_as_the_held_one() -> None:
    schema = _schema(Report(unit="u1", hex="0101", facing=2))
    same = {"type": "Report", "unit": "u1", "hex": "0101", "facing": 2}
    assert not accepts(schema, same)
    assert not accepts(schema, {**same, "in_play": True})  # the default, sent
    assert accepts(schema, {**same, "in_play": False})
    assert accepts(schema, {**same, "facing": 3})
    assert accepts(schema, {k: v for k, v in same.items() if k != "facing"})  # facing 0
    assert accepts(schema, {**same, "unit": "u2"})


def test_a_held_value_other_than_its_default_must_be_sent_to_restate() -> None:
    schema = _schema(Report(unit="u1", hex="0101", in_play=False))
    same = {"type": "Report", "unit": "u1", "hex": "0101", "in_play": False}
    assert not accepts(schema, same)
    assert accepts(schema, {k: v for k, v in same.items() if k != "in_play"})  # in play


def test_the_sampler_and_the_example_stay_outside_the_not() -> None:
    held = Report(unit="u1", hex="0101")  # what the plain example would be
    narrow = {"unit": one_of(["u1"]), "hex": one_of(["0101"]), "facing": {"maximum": 1}}
    schema = _schema(held, **narrow)
    rng = random.Random(41)
    for _ in range(40):
        assert accepts(schema, sample(schema, rng))
    shown = example(schema)
    assert accepts(schema, shown), shown
    action = but_not(offer(Report, "R1", "Report a counter", **narrow), [held]).wire()
    lines = render(action)
    assert any("but not one that restates the game as it stands" in line for line in lines)
    printed = next(line for line in lines if line.strip().startswith("e.g."))
    assert accepts(schema, msgspec.json.decode(printed.split("e.g. ", 1)[1]))
