"""Age of Dogfights solo mode (001_989a2f850da69b66.txt, by Dragan Lazović): the umpire
flies the bots. See README.md for the rule map, placeholders and interpretations."""

from __future__ import annotations

from umpire.engine.ruleset import Ruleset
from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.actions import actions
from umpire.engine.rulesets.age_of_dogfights.board import board
from umpire.engine.rulesets.age_of_dogfights.commands import FlyBots, RollSetup
from umpire.engine.rulesets.age_of_dogfights.decide import decide
from umpire.engine.rulesets.age_of_dogfights.events import EVENT_TYPES
from umpire.engine.rulesets.age_of_dogfights.evolve import evolve
from umpire.engine.rulesets.age_of_dogfights.labels import LABELS
from umpire.engine.rulesets.age_of_dogfights.readings import READINGS
from umpire.engine.rulesets.age_of_dogfights.setup import (
    FACING_ACROSS,
    Setup,
    aircraft_types,
    validate,
)
from umpire.engine.rulesets.age_of_dogfights.state import Phase, Plane, Side, State
from umpire.engine.rulesets.age_of_dogfights.terms import OPPOSITE_EDGE
from umpire.engine.rulesets.age_of_dogfights.view import SECRETS, view


def initial_state(setup: Setup) -> State:
    """Game Setup: the placed aircraft (RuleError on a breach of the placement rules)."""

    validate(setup)
    types = aircraft_types(setup)
    bot_edge = OPPOSITE_EDGE[setup.player_edge]
    planes = [
        Plane(
            id=a.id,
            number=a.number,
            side=Side.PLAYER,
            aircraft_type=a.aircraft_type,
            position=a.position,
            heading=a.heading,
            level=a.level,
            attitude=a.attitude,
            skill=a.skill,
            start_edge=setup.player_edge,
        )
        for a in setup.players
    ] + [
        Plane(
            id=b.id,
            number=b.number,
            side=Side.BOT,
            aircraft_type=b.aircraft_type,
            position=b.position,
            heading=b.heading or FACING_ACROSS[bot_edge],
            level=1,
            skill=b.skill,
            aggressiveness=b.aggressiveness,
            start_edge=bot_edge,
            ammo_nose=types[b.aircraft_type].ammo if types[b.aircraft_type].nose_guns else 0,
            ammo_dorsal=types[b.aircraft_type].ammo if types[b.aircraft_type].dorsal_guns else 0,
            safe_throttle_left=types[b.aircraft_type].safe_full_throttle,
        )
        for b in setup.bots
    ]
    return State(
        model=setup.model,
        types=types,
        player_edge=setup.player_edge,
        zones=setup.zones,
        planes=tuple(planes),
        phase=Phase.SETUP,
        round=0,
        bombed=(),
        photographed=(),
        last_roll=0,
        approach_altitude_reading=setup.approach_altitude_reading,
    )


RULESET: Ruleset[State] = Ruleset(
    name="age_of_dogfights",
    # v3: a report that restates the state is refused nothing_to_do (issue 41); v2 logs
    # audit with a note. v4: the Approach altitude notes say the height advantage in words
    # and the Step III Approach exposure check cites "whether the Approach maneuver would
    # make the bot Exposed", and a Random Maneuver's refused attitude says why (decisions
    # unchanged; v3 logs audit with the version note). v5: GameEnded says what ended the
    # engagement and every aircraft's fate (ending.py; the seed states no victory), and a
    # view shows each aircraft only its own side's fields (view.py); decisions unchanged,
    # v4 logs audit with the version note. v6: every bot fighter's blue/green roll and
    # its die come first in the round, then the bots' steps (Combat: "first ... then");
    # a player aircraft's pilot-skill roll is the player's own (Game Setup).
    # A roll nothing modifies reads "rolled 2", not "rolled 2 = 2"; the view has no roll
    # counter ("Last roll"); counts of one in the singular.
    # Also v6: GameEnded says the seed states no victory condition (winner none_stated).
    version="6",
    title="Age of Dogfights: solo bots (Dragan Lazović)",
    seed=c.SEED,
    setup_type=Setup,
    state_type=State,
    event_types=EVENT_TYPES,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    view=view,
    board=board,
    secrets=SECRETS,
    default_scenario="patrol",
    seed_title="Age of Dogfights solo rules",
    actions=actions,
    openings=(RollSetup(), FlyBots()),
    readings=READINGS,
    labels=LABELS,
)
