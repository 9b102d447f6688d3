"""Down in Flames supplemental rules (002_c21c1b1d0b6ff92b.txt): the umpire of a dogfight.

Players report the base-game card plays; umpire keeps altitude (2), resolves attacks by the
odds system (3), the bomber damage-point system (4) or rockets (7), applies damage (5),
the optional D12 system (6), agility, speed and hand limits (8), pilot qualities kept
secret until revealed (9), special characteristics and ammunition (10) and Wingman
values (11). See README.md for the rule map and interpretations.
"""

from __future__ import annotations

from umpire.engine.ruleset import Ruleset, Testing
from umpire.engine.rulesets.down_in_flames.actions import actions
from umpire.engine.rulesets.down_in_flames.board import board
from umpire.engine.rulesets.down_in_flames.commands import BeginTurn
from umpire.engine.rulesets.down_in_flames.decide import decide
from umpire.engine.rulesets.down_in_flames.events import EVENT_TYPES
from umpire.engine.rulesets.down_in_flames.evolve import evolve
from umpire.engine.rulesets.down_in_flames.labels import LABELS
from umpire.engine.rulesets.down_in_flames.readings import READINGS
from umpire.engine.rulesets.down_in_flames.setup import Setup, initial_state
from umpire.engine.rulesets.down_in_flames.state import State
from umpire.engine.rulesets.down_in_flames.terms import SEED, Side
from umpire.engine.rulesets.down_in_flames.view import SECRETS, view

RULESET: Ruleset[State] = Ruleset(
    name="down_in_flames",
    # v2: the rules corrections of issues #19 and #21 (README ledger); v1 logs audit with a note.
    # v3: the engagement ends when a side has no aircraft left (issue #28).
    # v5: a SetPosition to the position held is refused nothing_to_do (issue 41).
    # v6: a 'damaged' roll on an aircraft already damaged says 5.4 shoots it down.
    # v7: an attack card is played by the moving side only (README ledger row 1, 2.6);
    # the other side's Attack (or a VERTICAL ROLL as an attack card), or one between
    # moves, is refused and not listed.
    # v8: gunner and turret fire (3.3, 4.1.9 "defense fire") is the attacked side's, in the
    # moving side's move: refused and not listed in the shooter's own move or between
    # moves (README ledger row 4.1.9); only a formation shows its formation and damage
    # points (4.1.3-4.1.6); a count of one is said in the singular ("1 hit", not "1 hit(s)").
    # Also v8: GameEnded names the winner from the player's seat (player, opponent or draw;
    # none when the player runs both sides); decisions unchanged, v7 logs audit with the note.
    # v9: 7.1.2 "The attacking fighter is not subject to counter-fire": gunner or turret
    # fire at an aircraft whose latest attack card in the move is its rocket attack is
    # refused and not listed (State.rocket_attack_last, left out of the encoding while
    # empty, so older logs fold to the same hash); defensive fire is listed only at
    # fighters and light bombers, and each shooter with its own kind (turrets for a
    # formation bomber, gunners for a gunner; decide already refused the rest); a decision citing
    # two rules cites the seed once ("<seed> 3.2, 3.2.5", was "<seed> 3.2; <seed> 3.2.5");
    # an attack on a bomber says where its damage points stand (4.1.4-4.1.6), and a
    # left-over too small to roll for is one candidate, "no left-over roll" (was two
    # rejected ones); only a Leader's view shows a hand, Agility Cards played and bursts
    # used (a Wingman's and a formation's showed "Hand: 0"; the views' hashes change);
    # a Fuel Tank card is not aggregated (3.2.10 names IN MY SIGHTS and OUT OF THE SUN):
    # announced for aggregation or played into one it is refused and not listed.
    version="9",
    title="Down in Flames supplemental rules: odds-based combat, altitude, agility and speed",
    seed=SEED,
    setup_type=Setup,
    state_type=State,
    event_types=EVENT_TYPES,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    view=view,
    board=board,
    secrets=SECRETS,
    default_scenario="duel",
    seed_title="Down in Flames supplemental rules",
    actions=actions,
    openings=(BeginTurn(side=Side.B),),
    readings=READINGS,
    testing=Testing(
        # 9.1.11: a pilot's characteristic shows when the rules use it; a claim only the
        # hidden pilot could allow shows whether it took effect (README I25).
        published=("down_in_flames.PilotRevealed", "down_in_flames.ClaimVoided"),
        voids_on_hidden={
            "down_in_flames.ClaimVoided": "9.1.11, README I25: a claim only the hidden pilot "
            "can allow is accepted, and takes no effect where the true pilot does not",
        },
    ),
    labels=LABELS,
)
