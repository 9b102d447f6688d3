"""9: pilot quality, crack shots, keen eyesight and secrecy (9.1.11)."""

from __future__ import annotations

import pytest

from tests.rulesets.down_in_flames.setups import (
    engaged,
    entry,
    make_state,
    next_turn,
    of_type,
    run,
)
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.engine.rulesets.down_in_flames import RULESET
from umpire.engine.rulesets.down_in_flames.events import PilotRevealed
from umpire.engine.rulesets.down_in_flames.performance import (
    bursts_available,
    hand_limits,
    ratings,
    wingman_draw,
)
from umpire.engine.rulesets.down_in_flames.terms import Position


def _state(quality: str, **pilot: object):  # type: ignore[no-untyped-def]
    return make_state(
        [entry("a1", "Spitfire", "A", "A", "leader", hand=6),
         entry("a2", "Spitfire", "A", "A", "wingman", pilot_quality=quality),
         entry("b1", "P-51D-10", "B", "B", "leader", hand=6, pilot_quality=quality, **pilot)],
        starting_altitude=18,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("quality", "most"), [("recruit", 6), ("green", 6), ("regular", 8), ("veteran", 9), ("ace", 9)]
)
def test_s9_1_leader_hand_limits(quality: str, most: int) -> None:
    """9.1.1, 9.1.3, 9.1.5, 9.1.6, 9.1.8 on the P-51D-10 at level 18 (Agility 5, Speed 8)."""
    state = _state(quality)
    assert hand_limits(state, state.aircraft["b1"]).most == most


def test_s9_1_8_ace_adds_one_to_agility_speed_hp() -> None:
    state = _state("ace")
    r = ratings(state, state.aircraft["b1"])
    assert (r.agility, r.speed, r.hp) == (6, 9, 5)


def test_s9_1_1_recruit_and_s9_1_9_crack_shot_bursts() -> None:
    state = _state("recruit", crack_shot=True)
    assert bursts_available(state, state.aircraft["b1"], Position.ADVANTAGED) == (2, 1)


@pytest.mark.parametrize(
    ("quality", "draw"), [("recruit", (0, 0)), ("green", (0, 1)), ("regular", (1, 1))]
)
def test_s9_1_2_and_9_1_4_wingman_draws(quality: str, draw: tuple[int, int]) -> None:
    state = _state(quality)
    assert wingman_draw(state, state.aircraft["a2"]) == draw


def test_s9_1_7_veteran_wingman_draws_one_more_on_even_moves() -> None:
    state = next_turn(_state("veteran"), "A")
    assert wingman_draw(state, state.aircraft["a2"]) == (1, 1)
    state = next_turn(state, "B")
    assert wingman_draw(state, state.aircraft["a2"]) == (1, 2)


def test_s9_1_9_crack_shot_reveals_itself_when_its_burst_is_used() -> None:
    state = engaged(_state("regular", crack_shot=True), "b1", "a1", "neutral")
    cmd = {"type": "Attack", "attacker": "b1", "target": "a1", "card": "in_my_sights",
           "hits": 1, "bursts": 2}  # fmt: skip
    state, events = run(state, cmd, [[6]])
    revealed = of_type(events, PilotRevealed)
    assert [(r.characteristic, r.value) for r in revealed] == [("crack shot", "yes")]
    assert RULESET.view(state, Role.SPECTATOR)["aircraft"]["b1"]["pilot"]["characteristics"] == [
        "crack shot"
    ]


def test_s9_1_8_ace_pilot_card_once_per_game() -> None:
    state, events = run(_state("ace"), {"type": "DeclareAcePilot", "aircraft": "b1"})
    assert of_type(events, PilotRevealed)[0].value == "ace"
    with pytest.raises(RuleError):
        run(state, {"type": "DeclareAcePilot", "aircraft": "b1"})
    with pytest.raises(RuleError):  # a2: the player's own pilot, known to be no Ace Leader
        run(_state("veteran"), {"type": "DeclareAcePilot", "aircraft": "a2"})


def test_s9_1_10_keen_eyesight_first_turn_maneuver() -> None:
    state = next_turn(_state("veteran", keen_eyesight=True), "B")
    state, _ = run(state, {"type": "UseKeenEyesight", "aircraft": "b1", "target": "a1"})
    assert state.positions["b1>a1"] is Position.ADVANTAGED
    with pytest.raises(RuleError):
        run(state, {"type": "UseKeenEyesight", "aircraft": "b1", "target": "a1"})
    # An Ace's keen eyesight gives no first-turn MANEUVERING: on the hidden pilot the claim
    # is accepted and void (test_s9_1_11_hidden_pilot.py); on a known one it is refused.
    known = make_state(
        [entry("a1", "Spitfire", "A", "A", "leader", hand=6),
         entry("b1", "P-51D-10", "B", "B", "leader", hand=6, pilot_quality="ace",
               keen_eyesight=True)],
        starting_altitude=18, player_sides=["A", "B"],
    )  # fmt: skip
    with pytest.raises(RuleError):
        run(next_turn(known, "B"), {"type": "UseKeenEyesight", "aircraft": "b1", "target": "a1"})


def test_s9_1_11_pilots_are_secret_until_revealed() -> None:
    state = _state("ace", crack_shot=True)
    player = RULESET.view(state, Role.PLAYER)["aircraft"]
    spectator = RULESET.view(state, Role.SPECTATOR)["aircraft"]
    referee = RULESET.view(state, Role.REFEREE)
    assert player["a2"]["pilot"]["quality"] == "ace"  # the player's own side A
    assert player["b1"]["pilot"] == {"quality": "unknown", "characteristics": [], "revealed": []}
    assert spectator["a2"]["pilot"]["quality"] == "unknown"
    assert referee["secrets"]["b1"]["pilot_quality"] == "ace"
    assert (
        "hand_limits" not in player["b1"]
        and not player["b1"]["ratings"]["pilot_modifiers_included"]
    )
    state, _ = run(state, {"type": "RevealPilot", "aircraft": "b1"})
    shown = RULESET.view(state, Role.PLAYER)["aircraft"]["b1"]["pilot"]
    assert shown["quality"] == "ace" and shown["characteristics"] == ["crack shot"]


def test_s9_1_11_game_created_is_redacted_for_players_and_spectators() -> None:
    from umpire.events.types import GameCreated

    created = GameCreated(
        game_id="g1", ruleset="down_in_flames", ruleset_version="1", client_seed="x",
        seed_commitment="0" * 64,
        setup={"aircraft": [entry("b1", "Bf 109", "B", "B", "leader", pilot_quality="ace",
                                  crack_shot=True)]},
    )  # fmt: skip
    for role in (Role.PLAYER, Role.SPECTATOR):
        shown = RULESET.redact(created, role)
        assert isinstance(shown, GameCreated)
        assert shown.setup["aircraft"] == [entry("b1", "Bf 109", "B", "B", "leader")]
    assert RULESET.redact(created, Role.REFEREE) is created


def test_s9_1_1_recruit_crack_shot_floor_is_taken_after_both_changes() -> None:
    """README ledger 9.1.1/9.1.9: a recruit crack shot with a simple sight, Neutral: 0 - 1 + 1
    = 0 bursts (the floor at 0 comes after both changes, not between them)."""
    band = {"low": 1, "high": 20, "agility": 6, "speed": 6, "hp": 3}
    cards = {"S": {"name": "S", "aircraft_class": "fighter", "ceiling_level": 20, "defense": 6,
                   "hit_value": 8, "sight": "simple", "performance": [band]}}  # fmt: skip
    state = make_state(
        [entry("a1", "Spitfire", "A", "A", "leader", hand=6),
         entry("b1", "S", "B", "B", "leader", hand=6, pilot_quality="recruit", crack_shot=True)],
        starting_altitude=18, custom_aircraft=cards,
    )  # fmt: skip
    assert bursts_available(state, state.aircraft["b1"], Position.NEUTRAL) == (0, 0)
    assert bursts_available(state, state.aircraft["b1"], Position.ADVANTAGED) == (1, 0)
