"""What a player reads of Downtown's decisions and DRV rolls: a decision is headed by what
it decided, not "Decision made" (events/rules_words.py kind_in_words, as `umpire log`,
`watch` and `explain` say it), and RollDrvAttack's listing names the rolls it takes now,
not the command's general description."""

from __future__ import annotations

import msgspec

from tests.rulesets.downtown.setups import drv_attack, manual_for, move_us, new_state, of, run
from umpire.engine import registry
from umpire.engine.actions import legal_actions
from umpire.engine.dice import ManualDice
from umpire.engine.explain import explain
from umpire.engine.roles import Role
from umpire.engine.rulesets.downtown import RULESET, aaa, fire_can, sam_activation
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.labels import LABELS
from umpire.engine.rulesets.downtown.state import AaaUnit, DrvFlight, FireCan, Sam, UsFlight
from umpire.engine.rulesets.downtown.terms import Altitude, Mission, Phase, SamStatus, Task
from umpire.engine.rulesets.downtown.turn import DowntownTurn
from umpire.engine.scenarios import scenarios
from umpire.engine.schemas import ruleset_document
from umpire.server.render import capitals_of, describe, type_words, view_lines


def test_a_decision_is_headed_by_what_it_decided() -> None:
    """5.1: the initiative of the first Movement Phase reads "Initiative: US moves first
    ...", `umpire log`'s type column "Initiative", and `explain` heads it "Event 7:
    Initiative"; before: "Decision made"."""
    decided = ev.DecisionMade(
        rule="000_842c81c5c58bc2f6.txt 5.1",
        topic="initiative",
        result="US",
        explanation="US moves first: first Movement Phase of the raid",
    )
    assert describe(decided, ruleset=RULESET).startswith("Initiative: US moves first")
    # `umpire log`'s type column says the kind too; the bare type stays "Decision made".
    assert type_words("downtown.DecisionMade", RULESET, decided) == "Initiative"
    assert type_words("downtown.DecisionMade", RULESET) == "Decision made"
    lines = explain([decided] * 7, 7).lines(capitals_of(RULESET))
    assert lines[0] == "Event 7: Initiative"


def test_the_roll_listed_names_the_unit_the_roll_the_flight_and_the_range() -> None:
    """A1 (L) in 2021 beside S1 in 2022: "Roll A1's AAA attack on S1 (1 hex away)". A1's
    double (2, 2) near the raid target, Event! (10): a Fire Can in 2021 is ordered to fire,
    and the listing says "Roll FC…'s Fire Can attack on S1, ordered at 1 hex"."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="2022")
    state = msgspec.structs.replace(
        new_state(), phase=Phase.MOVEMENT, turn=1, us=(s1,),
        aaa=(AaaUnit(id="A1", hex="2021", density="L"),),
    )  # fmt: skip

    def text() -> str:
        listed = legal_actions(RULESET, state, Role.PLAYER, ended=False)
        return next(a.description for a in listed if a.type == "RollDrvAttack")

    assert text().startswith("Roll A1's AAA attack on S1 (1 hex away)")
    state, events = run(state, drv_attack("A1", "aaa_attack", "S1"), [[2, 2], [10]])
    can = of(events, ev.FireCanPlaced)[0].unit_id
    assert text().startswith(f"Roll {can}'s Fire Can attack on S1, ordered at 1 hex")


def test_within_12_of_the_cities_is_said_once_a_movement_phase() -> None:
    """4.1.2 (b) "within 12 hexes of Hanoi or Haiphong ... this Movement Phase": S1's MPs
    into 1721 and 1821 (both within 12) log the fact once; before, every MP repeated it."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="1621")
    state = msgspec.structs.replace(new_state(), phase=Phase.MOVEMENT, turn=1, us=(s1,))
    said = []
    for hex_ in ("1721", "1821"):
        state, events = run(state, move_us(hex_, "S1"), [])
        said += [e for e in of(events, ev.DecisionMade) if e.topic == "near_flight"]
    assert [e.result for e in said] == ["S1"] and state.phase_near == ("S1",)


def test_a_drv_flight_that_holds_stays_where_it_is_in_words() -> None:
    """5.8.2: M1 in the Approach zone (1522, 5 hexes from S1) finds no eligible target (S1,
    in 2022, is within five hexes of SAM1's radar in 2021), and holds: "M1 (approach)
    stays in 1522", not "moves stays in 1522 toward 1522"."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="2022")
    sam = Sam(id="SAM1", hex="2021", status=SamStatus.ACTIVE, radar_on=True)
    state = msgspec.structs.replace(
        new_state(), phase=Phase.MOVEMENT, turn=1, us=(s1,), sams=(sam,),
        drv=(DrvFlight(id="M1", hex="1522", altitude=Altitude.LOW),),
    )  # fmt: skip
    _, events = run(state, {"type": "RunDrvMovement"}, [])
    (moved,) = of(events, ev.DrvFlightMoved)
    assert moved.path == () and moved.explanation.startswith("M1 (approach) stays in 1522: ")


def test_a_distance_of_one_reads_one_hex() -> None:
    """3.3.1 in the Admin Phase: SAM3 (located) with S1 one hex away rolls 7: +2 +2 +2
    (within 8, within 5, bombing within 12) = 13, possible activation; the words say
    "nearest US flight 1 hex", not "1 hexes". The dummy check (5, 6) = 11 activates."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="2021", bomber=True)
    sam = Sam(id="SAM3", hex="2022")
    state = msgspec.structs.replace(
        new_state(fire_can_units=0, sam_battalions_in_reserve=0, aaa_points=1),
        phase=Phase.MOVEMENT, turn=1, us=(s1,), sams=(sam,),
    )  # fmt: skip
    faces = manual_for(
        state,
        {"type": "RunAdminPhase"},
        {"SAM Activation Table SAM3": (7,), "SAM Dummy Check SAM3": (5, 6)},
    )
    _, events = run(state, {"type": "RunAdminPhase"}, faces)
    (rolled,) = of(events, ev.SetUpSamRolled)
    assert rolled.explanation.startswith("SAM3: nearest US flight 1 hex; roll 7, ")


def test_a_generic_flight_shows_no_made_up_fuel_or_count() -> None:
    """A generic DRV flight before any report: `umpire state` reads "Fuel: not reported
    (99)" and "Count: not identified yet (5.6.2)", not "Fuel: 99" and "Count: 0"."""
    state = msgspec.structs.replace(new_state(), drv=(DrvFlight(id="M1", hex="1522"),))
    lines = [line.strip() for line in view_lines(RULESET.view(state, Role.PLAYER), labels=LABELS)]
    assert "Fuel: not reported (99)" in lines and "Count: not identified yet (5.6.2)" in lines


def test_the_suppression_roll_says_the_marker_comes_off_not_the_unit() -> None:
    """2.1.7 "roll for suppression removal": what a roll removes is the suppression, not
    the concentration. A1 suppressed rolls 3 (`suppression_removal_max` 5): "A1 rolls 3 for
    suppression removal (5 or less removes it): its suppression is removed"; A1 rolls 6:
    "... it stays suppressed". Before: "A1 rolls 3: removed on 5 or less", which reads as
    A1 removed."""
    unit = AaaUnit(id="A1", hex="2021", density="L", suppressed=True)
    state = msgspec.structs.replace(new_state(), aaa=(unit,))
    for roll, outcome in ((3, "its suppression is removed"), (6, "it stays suppressed")):
        led = DowntownTurn(state, ManualDice([[roll]], 0))
        aaa.suppression(led)
        (rolled,) = of(led.events, ev.AaaSuppressionRolled)
        assert rolled.explanation == (
            f"A1 rolls {roll} for suppression removal (5 or less removes it): {outcome}"
        )


def test_the_radar_roll_says_whether_the_radar_came_on() -> None:
    """2.3.1: a Fire Can whose radar was shut down rolls each Admin Phase to turn it back on
    (`radar_restart_max` 5): the roll's words say what came of it."""
    led = DowntownTurn(
        msgspec.structs.replace(
            new_state(), fire_cans=(FireCan(id="FC1", hex="2021", radar_on=False),)
        ),
        ManualDice([[7]], 0),
    )
    fire_can.radar_restart(led)
    (rolled,) = of(led.events, ev.RadarRestartRolled)
    assert rolled.explanation == (
        "FC1 rolls 7 to turn its radar back on (5 or less turns it on): radar stays off"
    )


def test_the_players_view_has_no_unit_counter() -> None:
    """The number the next placed unit's id takes is umpire's bookkeeping, no rule's: the
    player's and a spectator's view leave it out ("Next unit number" before); the referee's
    view is the whole state."""
    state = new_state()
    assert "next_id" not in RULESET.view(state, Role.PLAYER)
    assert "next_id" not in RULESET.view(state, Role.SPECTATOR)
    assert RULESET.view(state, Role.REFEREE)["next_id"] == 1


def test_a_set_up_sam_roll_without_modifiers_reads_once() -> None:
    """3.3.1: F1 (CAP, no bombing task) 13 hexes from SAM1 in the Admin Phase takes no
    modifier; the roll of 6 reads "roll 6, no modifiers: no activation", not "roll 6 no
    modifiers = 6"."""
    us = (UsFlight(id="F1", mission=Mission.CAP, task=Task.CAP, hex="0721"),)
    state = msgspec.structs.replace(new_state(), us=us, sams=(Sam(id="SAM1", hex="2021"),))
    led = DowntownTurn(state, ManualDice([[6]], 0))
    sam_activation.setup_check(led, Phase.ADMIN)
    (rolled,) = of(led.events, ev.SetUpSamRolled)
    assert (
        rolled.explanation
        == "SAM1: nearest US flight 13 hexes; roll 6, no modifiers: no activation"
    )


def test_a_sam_without_an_acquisition_says_so() -> None:
    """3.4.3: a SAM that has acquired no flight shows "Level: not acquired" in the state,
    not "Level: None" (read as a value missing)."""
    assert LABELS.words("level", "none") == "not acquired"
    assert LABELS.words("level", "full") == "Full"


def test_this_movement_phase_is_empty_outside_it() -> None:
    """The state's "Flights with a random event this Movement Phase (4)" and the other
    records of the Movement Phase are kept until the next one begins; in the Detection
    Phase after it the view shows them empty, not the last phase's S1 as if current."""
    state = msgspec.structs.replace(
        new_state(), phase=Phase.DETECTION, turn=2, phase_events=("S1",), phase_near=("S1",),
        drv_moved=("M1",), us_mp=("S1",),
    )  # fmt: skip
    for role in (Role.PLAYER, Role.REFEREE):
        data = RULESET.view(state, role)
        assert not data["phase_events"] and not data["phase_near"] and not data["drv_moved"]
    moving = msgspec.structs.replace(state, phase=Phase.MOVEMENT)
    assert list(RULESET.view(moving, Role.PLAYER)["phase_events"]) == ["S1"]


def test_what_the_drv_keeps_secret_is_said_once_on_a_line() -> None:
    """2.1.2: the AAA purchase as the player reads it says "(details withheld: DRV
    secret)" once: its citation carries it (the table's row is the hidden die), so its
    explanation does not say it again on the same line of `umpire log`."""
    bought = ev.AaaPurchased(
        rule="000_842c81c5c58bc2f6.txt 2.1.2 AAA Generation Table row 7",
        points=6,
        count=3,
        hidden_count=2,
        pool_densities=("light", "medium", "heavy"),
        explanation="6 AAA Points bought 3 concentrations: light, medium, heavy",
    )
    shown = RULESET.redact(bought, Role.PLAYER)
    assert shown is not None
    line = describe(shown, ruleset=RULESET)
    assert line.count("details withheld") == 1, line
    assert "3 concentrations (1 set up now, 2 hidden)" in line, line


def test_a_flights_facing_says_what_its_numbers_mean() -> None:
    """A US flight's facing (reported and moved) says each number's hex side in its schema
    (`umpire play`'s help, the table's form), not a bare "0..5"; the state says it by
    compass point."""
    document = ruleset_document(
        RULESET.name, RULESET.version, RULESET.title, RULESET.seed, RULESET.setup_type,
        RULESET.command_types,
    )  # fmt: skip
    found = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            facing = node.get("properties", {}).get("facing")
            if facing is not None:
                found.append(facing)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(document)
    assert found, document
    for facing in found:
        assert "0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW" in facing.get("description", ""), facing
    assert LABELS.shown("facing", 2) == "SE"


def test_no_scenario_says_a_plural_as_a_form() -> None:
    """`umpire scenarios` and the table's scenario list read "4 DRV flights at most", not
    "flight(s)": every scenario's counts are known, so each says its own number."""
    for ruleset in map(registry.get, registry.shipped()):
        for each in scenarios(ruleset):
            assert "(s)" not in each.description, (ruleset.name, each.description)
