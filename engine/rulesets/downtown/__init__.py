"""Downtown solo (000_842c81c5c58bc2f6.txt): umpire runs the North Vietnamese air defence.

AAA, Fire Can radars, SAM battalions and MiG flights are run from the solo tables and
priority lists; the player reports the US side and asks for each phase.
"""

from __future__ import annotations

from umpire.engine.errors import InvalidSetup
from umpire.engine.ruleset import Ruleset, Testing
from umpire.engine.rulesets.downtown import commands as cmd
from umpire.engine.rulesets.downtown.actions import actions
from umpire.engine.rulesets.downtown.board import board, board_of
from umpire.engine.rulesets.downtown.decide import decide
from umpire.engine.rulesets.downtown.events import EVENT_TYPES
from umpire.engine.rulesets.downtown.evolve import evolve
from umpire.engine.rulesets.downtown.labels import LABELS
from umpire.engine.rulesets.downtown.readings import READINGS
from umpire.engine.rulesets.downtown.setup import Setup
from umpire.engine.rulesets.downtown.state import State
from umpire.engine.rulesets.downtown.tables.air_activation import scenario
from umpire.engine.rulesets.downtown.terms import SEED
from umpire.engine.rulesets.downtown.view import SECRETS, view


def initial_state(setup: Setup) -> State:
    """The state before the DRV Ground Unit Deployment Phase; the map is validated and the
    scenario id must be in the DRV Air Activation Table (5.3) (RuleError otherwise)."""
    scenario(setup.scenario)
    board = board_of(setup.map)
    if setup.raid_target not in board.targets:
        raise InvalidSetup(
            f"raid target {setup.raid_target!r} is not a target of the map "
            f"({', '.join(sorted(board.targets))})"
        )
    if setup.entry not in board.entries:
        raise InvalidSetup(
            f"entry {setup.entry!r} is not an entry hex of the map "
            f"({', '.join(sorted(board.entries))})"
        )
    return State(
        setup=setup,
        hidden_sams=setup.sam_battalions_in_reserve,
        hidden_fire_cans=setup.fire_can_units,
    )


RULESET: Ruleset[State] = Ruleset(
    name="downtown",
    # v2: the rules corrections of issues #19 and #21 (README ledger); v1 logs audit with a note.
    # v3: the DRV flies itself (RunDrvMovement), DRV rolls are checked, the raid ends by its
    # scenario data (issue #28); v1 and v2 logs audit with a note.
    # v4: 5.9.1 per step, and the first commands refused `nothing_to_do` (issue 41 item 8).
    # v5: no command changes nothing (issue 41 item 8): a restating report is refused,
    # PlanDrvFlight is no longer a command (5.8.2), a US MP spent is in the state.
    # v6: decisions say their outcome and a generated flight's hex; a 4.1.2 (b) LOAL roll
    # cites 4.1.2, not 3.4.5; an ordered attack is rolled, once and at the range of the
    # order, before play goes on (3.4.4, 2.3.1, 4.1.2).
    # v7: a 4.1.2 event's Fire Can or SAM has fired for the Movement Phase (2.3.1, 3.4.4);
    # AAA attack rolls are bounded, `aaa_attacks_per_mp` per Movement Point, Flak Damage
    # rolls follow an attack made (README ledger 2.1.7); "within 12 of Hanoi/Haiphong" is
    # logged once a Movement Phase, not at every MP; 3.2.2 placement ties go to the
    # location nearer the row's centre.
    # v8: a 4.1.2 (b) LOAL attack fires one missile (README ledger 4.1.2 (b)); a suppression
    # or radar roll says what it decided; the player's view has no next unit number; a
    # count of one is said in the singular ("1 SAM battalion switches on").
    # Also v8: GameEnded says the solo rules name no winner (winner none_stated: the scenario's
    # victory conditions, README "Raid end"); decisions unchanged, v7 logs audit with the note.
    # v9: a report of the US side is said as read off the map ("S1 (Strike, Bombing) in
    # 0520, medium, facing NE"; the log printed its fields), and missions and tasks are
    # named as the seed writes them ("Iron Hand", "SEAD", "Armed Escort", "CAP"); a US
    # flight's Movement Point is said so ("S1 spends a Movement Point: in 0620, medium,
    # facing NE"), and a set-up SAM's 3.3.1 modifiers are set off by commas; the 2.2.1
    # Fire Can check reads its public condition first (events unchanged); decisions
    # unchanged, v8 logs audit with the note.
    version="9",
    title="Downtown solo: the DRV air defence (AAA, Fire Can, SAMs, MiGs)",
    seed=SEED,
    setup_type=Setup,
    state_type=State,
    event_types=EVENT_TYPES,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    view=view,
    secrets=SECRETS,
    default_scenario="D4",
    seed_title="Downtown solo rules",
    actions=actions,
    openings=(cmd.DeployGroundUnits(), cmd.CheckDrvRadar()),
    board=board,
    testing=Testing(
        # 2.1.3: a picked concentration is set up face up.
        published=("downtown.AaaPlaced",),
        # 2.1.3: the purchased counters lie face down in view: how many is public.
        published_fields={"downtown.AaaPurchased": ("count", "hidden_count", "points")},
    ),
    readings=READINGS,
    labels=LABELS,
)
