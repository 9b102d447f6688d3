"""What a view shows of each aircraft: its own side's fields only. A player aircraft has
no ammunition slider, throttle or retreat that the umpire keeps (those are the bots'
bookkeeping: Long Burst, Combat, General Rules), so `umpire state` does not show it
"Nose gun ammunition: 0"; a bot has no player's report (has ammo, can fire, ...)."""

from __future__ import annotations

import msgspec

from tests.rulesets.age_of_dogfights.setups import combat_state
from umpire.engine.roles import Role
from umpire.engine.rulesets.age_of_dogfights.board import board
from umpire.engine.rulesets.age_of_dogfights.labels import LABELS
from umpire.engine.rulesets.age_of_dogfights.state import BOT_FIELDS, PLAYER_FIELDS, Plane
from umpire.engine.rulesets.age_of_dogfights.view import view

SHARED = {
    "id", "number", "side", "aircraft_type", "position", "heading", "level", "attitude",
    "skill", "start_edge", "out",
}  # fmt: skip


def test_each_aircraft_shows_only_its_own_sides_fields() -> None:
    s = combat_state({"P1": ("se5a", (2, 2), "E", 3)}, {"B1": ("bristol_f2b", (15, 6), "W", 3)})
    for role in Role:
        planes = {p["id"]: p for p in view(s, role)["planes"]}
        assert set(planes["P1"]) == SHARED | set(PLAYER_FIELDS)
        assert set(planes["B1"]) == SHARED | set(BOT_FIELDS)
        assert planes["B1"]["ammo_dorsal"] == 6 and "ammo_nose" not in planes["P1"]
    # The board reads the view of either side without a missing key.
    assert {a.id for a in board(view(s, Role.PLAYER)).aircraft} == {"P1", "B1"}


def test_every_plane_field_is_shared_or_one_sides() -> None:
    """A field added to Plane must be placed (else both sides would show it)."""
    fields = {f.name for f in msgspec.structs.fields(Plane)}
    assert not set(PLAYER_FIELDS) & set(BOT_FIELDS)
    assert fields == SHARED | set(PLAYER_FIELDS) | set(BOT_FIELDS)


def test_the_view_has_no_roll_counter_and_says_out_in_words() -> None:
    """The index of the last die rolled is umpire's bookkeeping ("Last roll: 3" read as a
    die that showed 3): the view leaves it out. An aircraft in the Combat Zone is "Out:
    no", one that left by its edge "left the Combat Zone" (General Rules), and a bot
    without a rotary engine has "no rotary engine" (Random Maneuver), not "None"."""
    state = combat_state({"P1": ("se5a", (2, 2), "E", 3)}, {"B1": ("albatros_dv", (8, 6), "W", 3)})
    data = view(state, Role.PLAYER)
    assert "last_roll" not in data
    assert LABELS.words("out", "") == "no"
    assert LABELS.words("out", "exited") == "left the Combat Zone"
    assert LABELS.words("rotary", "none") == "no rotary engine"


def test_the_model_s_level_out_count_reads_as_a_count() -> None:
    """Random Maneuver's example: a bot that "has just descended three altitude levels"
    ends level. The model's number for it read "A three-level descent levels out: 3" in
    `umpire state` (a sentence and a number; found playing the duel through the CLI): it
    reads as the count it is."""
    label = LABELS.label("three_level_descent_levels_out")
    assert label == "Levels descended in a round after which it ends level"
