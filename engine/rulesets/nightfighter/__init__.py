"""Nightfighter solitaire (Philip Sabin): the umpire holds the fog of war.

Seed: 004_c3eb2ad371d7bb6a.txt. See README.md for the rule map and interpretations.
"""

from __future__ import annotations

from umpire.engine.ruleset import Ruleset, Testing
from umpire.engine.rulesets.nightfighter.actions import actions
from umpire.engine.rulesets.nightfighter.board import board
from umpire.engine.rulesets.nightfighter.commands import MoveBombers
from umpire.engine.rulesets.nightfighter.decide import decide
from umpire.engine.rulesets.nightfighter.events import EVENT_TYPES
from umpire.engine.rulesets.nightfighter.evolve import evolve, initial_state, opened_under
from umpire.engine.rulesets.nightfighter.labels import LABELS
from umpire.engine.rulesets.nightfighter.readings import READINGS
from umpire.engine.rulesets.nightfighter.setup import Setup
from umpire.engine.rulesets.nightfighter.state import State
from umpire.engine.rulesets.nightfighter.terms import SEED
from umpire.engine.rulesets.nightfighter.view import SECRETS, view

RULESET: Ruleset[State] = Ruleset(
    name="nightfighter",
    # v2: phases with nothing to decide run on (Setup.pace, issue #28); v1 logs audit
    # with a note.
    # v4: a pilot campaign has no night-continuation roll, and the full campaign's week end
    # gives no Pilot Campaign verdict (the Pilot Campaign's one scenario a week).
    # v5: the lite pilot campaign's Iron Cross 1st Class, once reported, is kept for the
    # end-of-May verdict (README ledger, "Pilot Campaign, the Iron Cross"); v4 logs audit
    # with the version note.
    # v6: S14.0, a searchlight location in another zone that has searched this phase but
    # holds no fix fixes the bomber there (v5 refused it); and a Pilot Campaign retrains
    # only after two idle weeks both begun in November or later (v5 also counted an
    # October week); a radar search counter searches only the counter it was placed on, and
    # says so when an earlier search removed it (v5 searched whatever counter had been
    # shifted into its hex since, or said nothing); v5 logs audit with the note.
    # v7: facings are said as compass points and the hex faced ("facing NW, towards
    # 1006"), not numbers; MoveBombers.handoff_dice may cut a searchlight hand-off's dice
    # (base-game 28.3, README ledger); v6 logs audit with the note.
    # v8: a game's first step is turn 1's bomber movement: MoveBombers at the opening
    # begins turn 1 and moves the bombers, listed first (EndPhase still begins turn 1
    # there, as in v7; README ledger "the opening"); a searchlight search says it was the
    # player's choice; a counter flying off the map and a phantom test's count are said as
    # read ("on its 2nd hex of 3", "1 other counter"); v7 logs audit with the note.
    # Also v8: GameEnded says the seed names no winner (winner none_stated: the base game's
    # scoring, README "end of game"); decisions unchanged, v7 logs audit with the note.
    # v9: a new game opens at turn 1's Bomber Movement Phase, the sequence of play's first
    # step (it opened at turn 0, "before turn 1", its Combat Phase over); a game recorded
    # under v8 or before still opens there (`opened_under`), so old logs and the views their
    # receipts hash fold as they did (README ledger "the opening"). Also v9: a scenario whose
    # victory condition the seed states (scenario_rules.VICTORY; 4B: one Lancaster shot
    # down, example of play turn 13) names the winner at the end (v8: none_stated); README
    # "end of game". Also v9: the Fighter Movement phase the bombers' move begins is said
    # ("Fighter Movement phase", was blank).
    version="9",
    title="Nightfighter solitaire rules (Philip Sabin)",
    seed=SEED,
    setup_type=Setup,
    state_type=State,
    event_types=EVENT_TYPES,
    initial_state=initial_state,
    opened_under=opened_under,
    decide=decide,
    evolve=evolve,
    view=view,
    secrets=SECRETS,
    default_scenario="4B",
    seed_title="Nightfighter solitaire rules",
    actions=actions,
    openings=(MoveBombers(),),
    board=board,
    # S5.2/S5.3: a located bomber's counter moves to its hex, which its hidden roll chose.
    testing=Testing(
        published=(
            "nightfighter.Localised",
            # S5.2-S5.4: whether a location roll found the bomber is public (a found
            # high-uncertainty counter tests for phantoms at once); where a failed one
            # pointed stays withheld.
            "nightfighter.LocationRolled",
        ),
        # README "Hidden rolls, and what their count says": whether the next roll is
        # another hidden location roll (the last pointed at a barred hex, S5.5/S7.0) or the
        # public phantom test of a location found inside the area (S5.4) is public; the
        # faces stay hidden either way.
        published_fields={"DiceRolled": ("hidden",)},
    ),
    readings=READINGS,
    labels=LABELS,
)

__all__ = ["RULESET"]
