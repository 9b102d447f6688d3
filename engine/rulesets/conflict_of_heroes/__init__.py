"""Conflict of Heroes solo expansion: the Order Card AI (seed 003_368c69a730e6e14a.txt).

The umpire holds the Order Card deck, draws and logs the cards, finds the first order that
can be executed, picks the AI, the target and the hex by the solo rules' priorities and
tie-breaks, and makes the AP Spent Checks of both sides. The player reports their own
actions and the base game's results. See README.md for the rule map and interpretations.
"""

from __future__ import annotations

from umpire.engine.ruleset import Ruleset
from umpire.engine.rulesets.conflict_of_heroes.actions import actions
from umpire.engine.rulesets.conflict_of_heroes.board import board
from umpire.engine.rulesets.conflict_of_heroes.commands import Pass, ReportCounters, TakeAiTurn
from umpire.engine.rulesets.conflict_of_heroes.decide import decide
from umpire.engine.rulesets.conflict_of_heroes.events import EVENTS
from umpire.engine.rulesets.conflict_of_heroes.evolve import evolve
from umpire.engine.rulesets.conflict_of_heroes.labels import LABELS
from umpire.engine.rulesets.conflict_of_heroes.readings import READINGS
from umpire.engine.rulesets.conflict_of_heroes.setup import Setup, initial_state
from umpire.engine.rulesets.conflict_of_heroes.state import State
from umpire.engine.rulesets.conflict_of_heroes.terms import SEED
from umpire.engine.rulesets.conflict_of_heroes.view import SECRETS, view

RULESET: Ruleset[State] = Ruleset(
    name="conflict_of_heroes",
    # v2: the mission ends by its data, reinforcements and the most exposed hex are
    # umpire's, 5.3 literal by default (issue #28); v1 logs audit with a note.
    # v4: a position report that restates the state is refused nothing_to_do (issue 41).
    # v5: the 1D6 random choice reads the face as the option's number (ledger (6)).
    # v6: a Control Marker an AI holds is no Player Control Marker (ledger "5.0 Player
    # Control Markers"); yes/no priorities are said in words ("hit; best un-hit"), and the
    # Mission Track check says what it counted.
    # v7: a Control Marker the AI has taken stays the AI's after the AI leaves its hex,
    # until a Unit stands there alone (State.ai_markers; ledger "5.0 Player Control
    # Markers"), and facings are said as compass points ("facing S"), not numbers; v6 logs
    # audit with the note.
    # v8: a reinforcement reported as arriving this round and then placed on the map counts
    # once on the Mission Track (4.0; README ledger "4.0 Mission Track reinforcements"), and
    # the check says what it counted; v7 logs audit with the note.
    # Also v8: GameEnded names the winner its result states (player, AI or draw; README "End
    # of the mission"); decisions unchanged, v7 logs audit with the note.
    version="8",
    title="Conflict of Heroes: Solo Expansion (Order Card AI)",
    seed=SEED,
    setup_type=Setup,
    state_type=State,
    event_types=EVENTS,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    view=view,
    secrets=SECRETS,
    default_scenario="sample-crossroads",
    seed_title="Conflict of Heroes Solo Expansion rules summary",
    actions=actions,
    openings=(ReportCounters(rumored=1, reinforcements=1), Pass(), TakeAiTurn()),
    board=board,
    readings=READINGS,
    labels=LABELS,
)

__all__ = ["RULESET"]
