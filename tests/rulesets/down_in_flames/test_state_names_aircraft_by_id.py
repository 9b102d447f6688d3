"""`umpire state` in words a player can act on: each aircraft by the id the commands take
("a1"), not a label made of it ("A1": an `Attack attacker=A1` would name no aircraft), and
an altitude not yet set as such, not as a level 0."""

from __future__ import annotations

from tests.rulesets.down_in_flames.setups import duel, entry, make_state
from umpire.engine.roles import Role
from umpire.engine.rulesets.down_in_flames import RULESET
from umpire.server.render import view_lines


def test_aircraft_are_shown_by_their_ids() -> None:
    lines = [
        line.strip()
        for line in view_lines(RULESET.view(duel(), Role.PLAYER), labels=RULESET.labels)
    ]
    assert "a1:" in lines and "b1:" in lines
    assert "A1:" not in lines


def test_an_altitude_not_yet_set_is_not_shown_as_level_0() -> None:
    """Before 2.5's start no Element has an altitude: 'Altitude: not set yet (2.5)', not
    'Altitude: 0' (levels run from 1); once set, the level as it is ('Altitude: 5')."""
    start = make_state(
        [entry("a1", "Spitfire", "A", "A", "leader"), entry("b1", "Bf 109", "B", "B", "leader")]
    )
    lines = [
        line.strip() for line in view_lines(RULESET.view(start, Role.PLAYER), labels=RULESET.labels)
    ]
    assert "Altitude: not set yet (2.5)" in lines and "Altitude: 0" not in lines
    lines = [
        line.strip()
        for line in view_lines(RULESET.view(duel(), Role.PLAYER), labels=RULESET.labels)
    ]
    assert "Altitude: 5" in lines


def test_only_a_leader_shows_a_hand_agility_cards_and_bursts() -> None:
    """8.2-8.4 and 3.1 (README I4, I13): umpire keeps a hand, the Agility Cards played and
    the bursts spent for Leaders only. A B-17 in formation and a Wingman showed "Hand: 0",
    "Agility played: 0" and "Bursts used: 0" in `umpire state` (found playing
    bomber-escort through the CLI); their views now leave them out."""
    state = make_state(
        [entry("p1", "P-51D-10", "A", "ESC", "leader", hand=6),
         entry("p2", "P-51D-10", "A", "ESC", "wingman"),
         entry("bomber", "B-17G", "A", "BOX", "formation"),
         entry("f1", "Fw 190A-8", "B", "JG", "leader", hand=5)],
        starting_altitude=8,
    )  # fmt: skip
    planes = RULESET.view(state, Role.PLAYER)["aircraft"]
    kept = {"hand", "agility_played", "bursts_used"}
    assert kept <= set(planes["p1"]) and planes["p1"]["hand"] == 6
    assert kept <= set(planes["f1"])
    assert not kept & set(planes["p2"]) and not kept & set(planes["bomber"])
