"""The declared map (engine/map_view.py, a state frame's `map`): the grid comes from the
ruleset, and only what is on the map now is a piece. Issue #18's findings: removed
phantoms and a fighter's setup hex stayed on the viewer's map, which collected every
`hex` field of the state."""

from __future__ import annotations

from typing import Any

import msgspec

from umpire.engine import registry
from umpire.engine.map_view import drawn
from umpire.engine.roles import Role
from umpire.engine.rulesets.downtown.state import Sam
from umpire.engine.rulesets.downtown.synthetic_map import SYNTHETIC
from umpire.engine.rulesets.downtown.terms import SamStatus
from umpire.engine.rulesets.nightfighter.state import Counter, FighterState
from umpire.engine.rulesets.nightfighter.terms import Status, Uncertainty
from umpire.engine.scenarios import default_setup


def _view(name: str, change: Any = None, role: Role = Role.PLAYER) -> Any:
    ruleset = registry.get(name)
    state = ruleset.initial_state(msgspec.convert(default_setup(ruleset), ruleset.setup_type))
    if change is not None:
        state = change(state)
    return ruleset, msgspec.to_builtins(ruleset.view(state, role))


def test_nightfighter_declares_even_columns_down_and_draws_only_what_is_on_the_map() -> None:
    def played(state: Any) -> Any:
        on, high, low = Status.ON_MAP, Uncertainty.HIGH, Uncertainty.LOW
        counters = (
            Counter(id="B1-a", bomber="B1", status=on, level=high, hex="0405"),
            Counter(id="B1-b", bomber="B1", status=Status.REMOVED, level=high, hex="0406"),
            Counter(id="B1-c", bomber="B1", status=Status.OFF_MAP, level=low, hex="0407"),
            Counter(id="B2", bomber="B2", status=Status.PENDING, level=low, hex=""),
        )
        fighters = (FighterState(id="F1", hex="1118", facing=1, moved=True),)
        return msgspec.structs.replace(state, counters=counters, fighters=fighters)

    ruleset, view = _view("nightfighter", played)
    assert view["setup"]["fighters"][0]["hex"] == "1020"  # the setup hex is still in the view
    board = drawn(ruleset.board, view)
    assert board is not None
    assert board["grid"] == {"layout": "flat", "parity": "even_down", "min_col": 1,
                             "max_col": 18, "min_row": 1, "max_row": 27}  # fmt: skip
    pieces = {p["id"]: p["hex"] for p in board["pieces"]}
    assert pieces == {"B1-a": "0405", "F1": "1118"}  # no phantom, no setup hex, none off map
    zones = [f for f in board["features"] if f["kind"] == "zone"]
    assert zones and all(f["label"].startswith("searchlight zone ") for f in zones)


def test_conflict_of_heroes_declares_its_scenario_grid_terrain_and_objectives() -> None:
    def destroyed(state: Any) -> Any:
        units = tuple(
            msgspec.structs.replace(u, destroyed=True) if u.id == "AI-MG" else u
            for u in state.units
        )
        return msgspec.structs.replace(state, units=units)

    ruleset, view = _view("conflict_of_heroes", destroyed)
    board = drawn(ruleset.board, view)
    assert board is not None
    assert board["grid"]["parity"] == view["rules"]["grid"]["parity"]
    ids = {p["id"] for p in board["pieces"]}
    assert "AI-MG" not in ids and "P-RIFLE-1" in ids
    kinds = {f["kind"] for f in board["features"]}
    assert kinds == {"terrain", "target"}


def test_downtown_declares_its_map_data_targets_zones_and_only_sams_still_on_it() -> None:
    def sams(state: Any) -> Any:
        return msgspec.structs.replace(
            state,
            sams=(Sam(id="S1", hex="1010"), Sam(id="S2", hex="1011", status=SamStatus.REMOVED)),
        )

    ruleset, view = _view("downtown", sams)
    board = drawn(ruleset.board, view)
    assert board is not None
    assert board["grid"]["parity"] == SYNTHETIC.parity.value
    assert {p["id"] for p in board["pieces"]} == {"S1"}
    labels = [f["label"] for f in board["features"]]
    assert any(label.startswith("target ") for label in labels)
    assert any(label.startswith("downtown ") for label in labels)


def test_a_ruleset_without_a_declared_map_has_none() -> None:
    # Every shipped ruleset declares a map or a diagram now (test_board_diagram.py).
    assert drawn(registry.get("counter").board, {"value": 0}) is None
