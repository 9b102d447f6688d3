"""`umpire actions`' example keeps outside the listed schema's `not` (issue 41 item 8): a
command that would change nothing is refused, so an example that `umpire send` accepts as
printed is not one. Pure: the schema and the rules, no store."""

from __future__ import annotations

import json

from umpire.engine.actions import legal_actions
from umpire.engine.dice import RecordedDice
from umpire.engine.handling import parse_command
from umpire.engine.roles import Role
from umpire.engine.rulesets.downtown import RULESET
from umpire.engine.rulesets.downtown.setup import Setup
from umpire.engine.schemas import accepts
from umpire.events.action_text import as_wire, example, render


def test_an_object_example_gives_a_field_another_value_to_leave_the_not() -> None:
    schema = {
        "type": "object",
        "properties": {
            "items": {"type": "array", "items": {"enum": ["a", "b"]}},
            "count": {"type": "integer", "minimum": 0, "maximum": 3, "default": 0},
        },
        "required": ["items"],
        "not": {"properties": {"items": {"maxItems": 0}, "count": {"const": 0}}},
    }
    value = example(schema)
    assert accepts(schema, value) and value != {"items": []}


def test_downtown_s_first_report_example_is_not_the_empty_report() -> None:
    """1.2.1: before any US flight is reported, an empty report restates the US side."""
    state = RULESET.initial_state(Setup())
    (report,) = [
        a
        for a in legal_actions(RULESET, state, Role.PLAYER, ended=False)
        if a.type == "ReportUsFlights"
    ]
    lines = render(report)
    assert any("restates the game as it stands" in line for line in lines)
    shown = next(line for line in lines if line.strip().startswith("e.g."))
    command = json.loads(shown.strip().removeprefix("e.g. "))
    assert command["flights"] and accepts(as_wire(report), command)
    assert RULESET.decide(state, parse_command(RULESET, command), RecordedDice(()))
