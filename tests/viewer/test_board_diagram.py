"""The engagement diagrams (engine/map_view.py `Diagram`, issue #29 item 3): Age of
Dogfights and Down in Flames declare their board from the role's view: the altitude
bands, every aircraft at its level with its state, the field and headings where the
game has one, and the positions between aircraft."""

from __future__ import annotations

from typing import Any

import msgspec

from umpire.engine import registry
from umpire.engine.map_view import drawn
from umpire.engine.roles import Role
from umpire.engine.rulesets.down_in_flames.state import position_key
from umpire.engine.rulesets.down_in_flames.terms import Position
from umpire.engine.scenarios import default_setup


def _state(name: str) -> Any:
    ruleset = registry.get(name)
    return ruleset, ruleset.initial_state(
        msgspec.convert(default_setup(ruleset), ruleset.setup_type)
    )


def _board(name: str, state: Any, role: Role = Role.PLAYER) -> dict[str, Any]:
    ruleset = registry.get(name)
    board = drawn(ruleset.board, msgspec.to_builtins(ruleset.view(state, role)))
    assert board is not None
    return msgspec.json.decode(msgspec.json.encode(board))  # as a state frame carries it


def test_age_of_dogfights_draws_the_field_the_levels_and_each_planes_heading() -> None:
    _, state = _state("age_of_dogfights")
    lost = state.planes[-1].id
    planes = tuple(
        msgspec.structs.replace(p, out="lost") if p.id == lost else p for p in state.planes
    )
    board = _board("age_of_dogfights", msgspec.structs.replace(state, planes=planes))
    assert board["kind"] == "diagram"
    assert board["field"] == {"width": state.model.width, "height": state.model.height}
    assert [b["low"] for b in board["bands"]] == list(range(1, state.model.max_level + 1))
    by_id = {a["id"]: a for a in board["aircraft"]}
    assert set(by_id) == {p.id for p in state.planes}
    p1 = next(p for p in state.planes if p.id == "P1")
    assert by_id["P1"]["point"] == list(p1.position) and by_id["P1"]["level"] == p1.level
    assert by_id["P1"]["heading"] == {"E": 90, "W": 270}[p1.heading.value]
    assert by_id[lost]["out"] and by_id[lost]["point"] is None and by_id[lost]["level"] is None
    assert board["player_sides"] == ["player"]
    assert {z["label"] for z in board["zones"]} == {z.name for z in state.zones}


def test_down_in_flames_draws_levels_positions_and_only_the_pilots_the_role_knows() -> None:
    _, state = _state("down_in_flames")
    ids = sorted(state.aircraft)
    attacker, target = ids[0], ids[-1]
    state = msgspec.structs.replace(
        state, positions={position_key(attacker, target): Position.TAILING}
    )
    board = _board("down_in_flames", state)
    assert board["kind"] == "diagram" and board["field"] is None
    assert board["links"] == [{"source": attacker, "target": target, "label": "tailing"}]
    by_id = {a["id"]: a for a in board["aircraft"]}
    levels = {e.altitude for e in state.elements.values()}
    assert {a["level"] for a in by_id.values()} == levels
    assert max(b["high"] for b in board["bands"]) > max(levels)  # room to climb
    # 9.1.11: the opposing pilot's quality is as the view shows it, "unknown".
    other = next(a for a in by_id.values() if a["side"] not in board["player_sides"])
    assert "pilot unknown" in other["state"]
    referee = _board("down_in_flames", state, Role.REFEREE)
    assert "pilot unknown" not in {w for a in referee["aircraft"] for w in a["state"]}
