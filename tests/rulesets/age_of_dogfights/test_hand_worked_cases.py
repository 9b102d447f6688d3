"""Rules of 001_989a2f850da69b66.txt worked by hand with stated dice, as an outside reviewer
works them: each expected result comes from the seed's words (cited by heading), not from
the code. These are the boundary faces the other tests leave open: the top and bottom of a
band once a modifier has moved it, the cap at a service ceiling, the second die of the
Game Setup altitude roll."""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.age_of_dogfights.setups import (
    arrange,
    combat_state,
    decide,
    of_type,
    run,
    run_until,
)
from umpire.engine.rulesets.age_of_dogfights import initial_state
from umpire.engine.rulesets.age_of_dogfights.burst import fire
from umpire.engine.rulesets.age_of_dogfights.commands import ReportBotDamage, RollSetup
from umpire.engine.rulesets.age_of_dogfights.events import (
    AltitudeRolled,
    BotMoved,
    BurstChosen,
    DieChosen,
    ExposureChecked,
    GunsUnjammed,
    ResponseRolled,
    RetreatDecided,
)
from umpire.engine.rulesets.age_of_dogfights.fighter import fly_fighter
from umpire.engine.rulesets.age_of_dogfights.firing import Shot
from umpire.engine.rulesets.age_of_dogfights.mission import fly_mission
from umpire.engine.rulesets.age_of_dogfights.retreat import check_triggers, fly_retreat
from umpire.engine.rulesets.age_of_dogfights.setup import Setup
from umpire.engine.rulesets.age_of_dogfights.terms import (
    Attitude,
    Column,
    Damage,
    DieColour,
    Gun,
    Manoeuvre,
)
from umpire.engine.rulesets.age_of_dogfights.throttle import choose_die, retreat_die

PLAYER = {"id": "P1", "number": 1, "aircraft_type": "se5a", "position": [0, 5], "heading": "E",
          "level": 3, "skill": "ace"}  # fmt: skip


def _one_bot(aircraft_type: str):  # type: ignore[no-untyped-def]
    """One bot whose skill and aggressiveness are fixed, so RollSetup rolls only altitude."""
    bot = {"id": "B1", "number": 1, "aircraft_type": aircraft_type, "position": [17, 4],
           "skill": "average", "aggressiveness": "average"}  # fmt: skip
    return initial_state(msgspec.convert({"players": [PLAYER], "bots": [bot]}, Setup))


@pytest.mark.parametrize(
    ("aircraft_type", "faces", "level"),
    [
        ("se5a", [[4]], 6),  # ceiling L6, 4 is in 4-6: maximum height, no second die
        ("se5a", [[6]], 6),
        ("albatros_dv", [[1], [6]], 5),  # ceiling L5, 1 is in 1-3: again; 6 > L5: L5
        ("se5a", [[3], [5]], 5),  # ceiling L6, 3: again; 5 is the level
        ("albatros_dv", [[3], [1]], 1),  # the second die may give L1
        ("albatros_dv", [[4]], 5),  # ceiling exactly L5 and a 4: maximum height, one die
        ("nieuport_17", [[3]], 3),  # ceiling L4: the die is the level, 3 is not "again"
        ("nieuport_17", [[5]], 4),  # ceiling L4: a 5 is above it, the ceiling
    ],
)
def test_game_setup_bot_altitude(aircraft_type: str, faces: list[list[int]], level: int) -> None:
    """Game Setup, bot altitude: ceiling L5+ and 4-6 = its maximum height; 1-3 = roll
    again, the second die is the level, a level above the ceiling is the ceiling."""
    state, events = decide(_one_bot(aircraft_type), RollSetup(), faces)
    (alt,) = of_type(events, AltitudeRolled)
    assert alt.level == level and len(alt.dice) == len(faces)
    assert state.plane("B1").level == level


def _fighter(**fields):  # type: ignore[no-untyped-def]
    s = combat_state({"P1": ("se5a", (2, 6), "E", 3)}, {"B1": ("albatros_dv", (15, 6), "W", 3)})
    return arrange(s, "B1", **fields)


@pytest.mark.parametrize(
    ("safe", "faces", "colour", "left"),
    [
        (2, [[6]], DieColour.GREEN, 1),  # two safe usages: 6 - 1 = 5, green, one used
        (2, [[1]], DieColour.BLUE, 2),  # 1 - 1 = 0 reads as the first band: blue
        (5, [[5]], DieColour.GREEN, 4),  # five left: no deduction
    ],
)
def test_combat_blue_or_green_at_the_band_edges(
    safe: int, faces: list[list[int]], colour: DieColour, left: int
) -> None:
    """Combat: 1-4 blue, 5-6 green; deduct 1 only with one or two safe usages left."""
    state = _fighter(safe_throttle_left=safe)
    ctx, events = run(state, lambda c: choose_die(c, c.state.plane("B1")), faces)
    assert of_type(events, DieChosen)[0].colour is colour
    assert ctx.state.plane("B1").safe_throttle_left == left


@pytest.mark.parametrize(("face", "colour"), [(1, DieColour.BLUE), (6, DieColour.GREEN)])
def test_retreat_at_question_mark(face: int, colour: DieColour) -> None:
    """General Rules: a retreating bot that cannot use full throttle safely ('?') rolls:
    1-5 = the blue die (ledger: 6 = full throttle, the green die)."""
    state = _fighter(safe_throttle_left=0)
    _, events = run(state, lambda c: retreat_die(c, c.state.plane("B1")), [[face]])
    assert of_type(events, DieChosen)[0].colour is colour


@pytest.mark.parametrize(("roll", "result"), [(3, "ignored"), (2, "random maneuver")])
def test_step_i_cautious_pilot(roll: int, result: str) -> None:
    """Step I: Exposed initial position, 1 = Random maneuver, -1 for a cautious pilot: a
    3 reads 2 (ignored), a 2 reads 1 (Random maneuver)."""
    s = combat_state({"P1": ("se5a", (8, 6), "E", 3)}, {"B1": ("albatros_dv", (10, 6), "E", 3)})
    s = arrange(s, "B1", aggressiveness="cautious")
    events, _ = run_until(s, lambda c: fly_fighter(c, "B1"), [[1], [1], [roll]])
    response = [e for e in of_type(events, ResponseRolled) if e.table == "Exposed initial position"]
    assert response[0].modified == roll - 1 and response[0].result == result


APPROACH = {"P2": ("dh4", (12, 6), "E", 3), "P3": ("se5a", (5, 6), "E", 3)}
BOT = {"B1": ("albatros_dv", (4, 6), "E", 3)}


@pytest.mark.parametrize(
    ("aggressiveness", "roll", "random"),
    [("aggressive", 3, False), ("cautious", 4, True), ("cautious", 5, False)],
)
def test_step_iii_exposed_approach_with_aggressiveness(
    aggressiveness: str, roll: int, random: bool
) -> None:
    """Step III: an Approach maneuver that would be Exposed rolls the skip/attack die
    (1-3 skip, 4-6 attack, +1 aggressive, -1 cautious); skip = Random maneuver."""
    s = arrange(combat_state(APPROACH, BOT), "B1", aggressiveness=aggressiveness)
    events, asked = run_until(s, lambda c: fly_fighter(c, "B1"), [[1], [1], [roll]])
    rolled = [e for e in of_type(events, ResponseRolled) if e.table == "skip or attack"]
    assert rolled[-1].result == ("skip" if random else "attack")
    if random:
        assert "solo die, step 1" in asked and not of_type(events, BotMoved)
    else:
        (moved,) = of_type(events, BotMoved)
        assert moved.manoeuvre is Manoeuvre.APPROACH


@pytest.mark.parametrize(("roll", "unjams"), [(6, True), (5, False)])
def test_jammed_guns_cautious_pilot(roll: int, unjams: bool) -> None:
    """Jammed Machine Guns: Exposed straight flight, 1-4 Random maneuver, 5-6 continue
    unjamming, -1 for a cautious pilot: a 6 reads 5 (continue), a 5 reads 4 (Random)."""
    s = combat_state({"P1": ("se5a", (5, 6), "E", 3)}, {"B1": ("albatros_dv", (4, 6), "E", 3)})
    s = arrange(s, "B1", pilot_guns_jammed=True, aggressiveness="cautious")
    events, _ = run_until(s, lambda c: fly_fighter(c, "B1"), [[1], [1], [roll]])
    rolled = [e for e in of_type(events, ResponseRolled) if e.table.startswith("unjamming")]
    assert rolled[0].modified == roll - 1
    assert bool(of_type(events, GunsUnjammed)) is unjams


@pytest.mark.parametrize(
    ("aggressiveness", "roll", "retreats"),
    [("cautious", 4, False), ("aggressive", 1, True), ("cautious", 1, True)],
)
def test_damage_roll_band_edges(aggressiveness: str, roll: int, retreats: bool) -> None:
    """General Rules: wings, tail or engine damage: 1-2 retreat, 3-6 continue (+1
    aggressive, -1 cautious): cautious 4 reads 3, aggressive 1 reads 2, cautious 1 reads 0
    (below the table: the first band)."""
    s = combat_state({"P1": ("se5a", (2, 2), "E", 3)}, {"B1": ("albatros_dv", (15, 6), "E", 3)})
    s = arrange(s, "B1", aggressiveness=aggressiveness)
    s, events = decide(s, ReportBotDamage(aircraft="B1", damage=Damage.ENGINE), [[roll]])
    (decision,) = of_type(events, RetreatDecided)
    assert decision.retreating is retreats and s.plane("B1").retreating is retreats


@pytest.mark.parametrize(("roll", "attacks"), [(2, False), (3, True)])
def test_retreating_cautious_pilot_at_an_a_position(roll: int, attacks: bool) -> None:
    """General Rules: a retreating bot at a firing position, 1-3 ignore, 4-6 attack, -1
    cautious and +2 for an 'A' position: a 2 reads 3 (ignore), a 3 reads 4 (attack)."""
    s = combat_state({"P1": ("se5a", (14, 6), "E", 3)}, {"B1": ("albatros_dv", (9, 6), "E", 3)})
    s = arrange(s, "B1", retreating=True, full_throttle_available=False, aggressiveness="cautious")
    events, _ = run_until(s, lambda c: fly_retreat(c, "B1"), [[1], [roll], [1], [1], [1]])
    rolled = [e for e in of_type(events, ResponseRolled) if e.table.startswith("retreating")]
    assert rolled[0].modified == roll + 1
    assert rolled[0].result == ("attack" if attacks else "ignore")


def test_mission_aircraft_at_an_a_position_on_a_six() -> None:
    """'Mission' Aircraft: 1-5 ignore, 6 attack, +1 for an 'A' position: a 6 reads 7, above
    the table, and attacks (ledger: the last band)."""
    zones = [{"name": "Z1", "position": [10, 6], "radius": 1},
             {"name": "Z2", "position": [4, 2], "radius": 1},
             {"name": "Z3", "position": [4, 10], "radius": 1}]  # fmt: skip
    s = combat_state({"P2": ("se5a", (9, 6), "W", 3)}, {"B1": ("dh4", (14, 6), "W", 3)},
                     zones=zones)  # fmt: skip
    events, _ = run_until(s, lambda c: fly_mission(c, "B1"), [[1], [6], [1], [1]])
    rolled = [e for e in of_type(events, ResponseRolled) if e.table.startswith("mission")]
    assert rolled[0].modified == 7 and rolled[0].result == "attack"


def _two_seater(nose: int, dorsal: int):  # type: ignore[no-untyped-def]
    s = combat_state({"P1": ("se5a", (2, 2), "E", 3)}, {"B1": ("bristol_f2b", (9, 6), "E", 3)})
    return arrange(s, "B1", ammo_nose=nose, ammo_dorsal=dorsal)


@pytest.mark.parametrize(
    ("gun", "roll", "burst"),
    [(Gun.DORSAL, 4, "short"), (Gun.DORSAL, 5, "long"), (Gun.NOSE, 4, "long")],
)
def test_long_burst_counts_the_guns_that_are_firing(gun: Gun, roll: int, burst: str) -> None:
    """Long Burst: "less than half of its ammunition left for the machine guns that are
    firing": a two-seater with full nose guns (6) and 2 left in the dorsal guns reads the
    1-4 / 5-6 table for a dorsal burst and the 1-3 / 4-6 table for a nose burst."""
    shot = Shot(target="P1", gun=gun, column=Column.B, range=2, long_burst=True)
    _, events = run(_two_seater(6, 2), lambda c: fire(c, "B1", shot), [[roll]])
    assert of_type(events, BurstChosen)[0].burst == burst


@pytest.mark.parametrize(("nose", "dorsal", "retreats"), [(0, 3, False), (0, 0, True)])
def test_all_of_its_ammunition_means_every_gun(nose: int, dorsal: int, retreats: bool) -> None:
    """General Rules: a bot retreats when it "uses all of its ammunition": a two-seater
    with dorsal ammunition left fights on when its nose guns are empty."""
    ctx, events = run(_two_seater(nose, dorsal), lambda c: check_triggers(c, "B1"), [])
    assert bool(of_type(events, RetreatDecided)) is retreats
    assert ctx.state.plane("B1").retreating is retreats


def test_step_i_distance_equal_to_basic_speed_is_exposed() -> None:
    """Step I condition 2 (hand-worked, round 7): 'not greater than the player aircraft's
    basic speed number': the SE5a (basic speed 4) 4 steps behind the bot meets it, so all
    five conditions hold and the bot rolls the Exposed response (a 2: ignored)."""
    s = combat_state({"P1": ("se5a", (6, 6), "E", 3)}, {"B1": ("albatros_dv", (10, 6), "E", 3)})
    events, _ = run_until(s, lambda c: fly_fighter(c, "B1"), [[1], [1], [2]])
    check = of_type(events, ExposureChecked)[0]
    assert check.exposed and check.threats == ("P1",)
    assert check.candidates[0].reason == "meets all five conditions"
    (response,) = [e for e in of_type(events, ResponseRolled)
                   if e.table == "Exposed initial position"]  # fmt: skip
    assert response.result == "ignored"


def test_retreat_climbs_only_when_more_than_half_of_the_player_fighters_are_lower() -> None:
    """General Rules (hand-worked, round 7): 'If more than half of the remaining player
    fighter planes have a service ceiling lower than the service ceiling of a retreating
    bot, the bot must climb'. SPAD bot (ceiling L6) against a Nieuport 17 (L4), an SE5a
    (L6) and a DH4 bomber (L5): the DH4 is no fighter, so 1 of 2 fighters is lower, not
    more than half: the bot descends (nose down from level flight). Dice: green die 1."""
    s = combat_state({"P1": ("nieuport_17", (2, 2), "E", 3), "P2": ("se5a", (2, 10), "E", 3),
                      "P3": ("dh4", (2, 6), "E", 3)},
                     {"B1": ("spad_xiii", (8, 6), "E", 3)})  # fmt: skip
    s = arrange(s, "B1", retreating=True)
    events, _ = run_until(s, lambda ctx: fly_retreat(ctx, "B1"), [[1], [1]])
    (moved,) = of_type(events, BotMoved)
    assert moved.attitude is Attitude.NOSE_DOWN
    assert "descends to the lowest level" in moved.explanation


def test_every_wings_tail_or_engine_hit_rolls_again_until_the_bot_retreats() -> None:
    """General Rules: "If a bot receives damage to its wings, tail or engine, roll a
    standard die": each such hit rolls while the bot fights on. An average B1 hit in the
    wings rolls 3 (continue fighting); hit again in the tail it rolls 2 (retreat, noted);
    a third hit, in the engine, rolls nothing: it is retreating already."""
    s = _fighter(aggressiveness="average")
    s, events = decide(s, ReportBotDamage(aircraft="B1", damage=Damage.WINGS), [[3]])
    assert [e.retreating for e in of_type(events, RetreatDecided)] == [False]
    s, events = decide(s, ReportBotDamage(aircraft="B1", damage=Damage.TAIL), [[2]])
    (decision,) = of_type(events, RetreatDecided)
    assert decision.retreating and decision.reason == "damage to its tail"
    s, events = decide(s, ReportBotDamage(aircraft="B1", damage=Damage.ENGINE), [])
    assert of_type(events, RetreatDecided) == [] and s.plane("B1").retreating
    assert s.plane("B1").damage == ("wings", "tail", "engine")


@pytest.mark.parametrize(("roll", "retreats"), [(2, True), (3, False)])
def test_a_mission_aircraft_hit_in_the_engine_rolls_unmodified(roll: int, retreats: bool) -> None:
    """General Rules' damage roll (+1 aggressive, -1 cautious) for a bot with no
    aggressiveness (a 'Mission' aircraft: Game Setup rolls it for fighters only): the DH4
    reads the die as it falls, 2 retreats and 3 fights on."""
    s = combat_state({"P1": ("se5a", (2, 2), "E", 3)}, {"B4": ("dh4", (15, 6), "W", 3)})
    assert s.plane("B4").aggressiveness is None
    s, events = decide(s, ReportBotDamage(aircraft="B4", damage=Damage.ENGINE), [[roll]])
    (decision,) = of_type(events, RetreatDecided)
    assert decision.retreating is retreats and s.plane("B4").retreating is retreats
