"""Citations of the seed's sections (001_989a2f850da69b66.txt names its sections by heading).

The seed numbers nothing: it has headings (Game Setup, Combat, I, II, III, Long Burst, ...).
Every rule in this package cites `SEED <heading>`; the Step II heading is printed as a
Cyrillic "П" in the seed text (a garbled "II") and is cited as "Step II".
"""

from __future__ import annotations

from umpire.engine.kit.citation import citations

SEED = "001_989a2f850da69b66.txt"
cite = citations(SEED)

INTRODUCTION = f"{SEED} Introduction"
GAME_SETUP = f"{SEED} Game Setup"
SETUP_SKILL = f"{GAME_SETUP} (pilot skill level)"
SETUP_AGGRESSIVENESS = f"{GAME_SETUP} (aggressiveness)"
SETUP_PLACEMENT = f"{GAME_SETUP} (placement)"
SETUP_ALTITUDE = f"{GAME_SETUP} (service ceiling)"
COMBAT = f"{SEED} Combat"
COMBAT_DIE = f"{COMBAT} (blue or green die)"
COMBAT_CONFIRM = f"{COMBAT} (full throttle at '?')"
STEP_I = f"{SEED} Step I"
STEP_I_RESPONSE = f"{STEP_I} (Exposed response roll)"
STEP_II = f"{SEED} Step II"
STEP_II_PRIORITY = f"{STEP_II} (target priorities)"
STEP_II_TIE = f"{STEP_II} (priority 4, equal targets)"
STEP_III = f"{SEED} Step III"
STEP_III_B_AGAIN = f"{STEP_III} (skipped 'A' target reconsidered at 'B')"
STEP_III_APPROACH_EXPOSED = f"{STEP_III} (Approach maneuver would be Exposed)"
STEP_III_APPROACH_RANDOM = f"{STEP_III} (Approach maneuver, 1 = Random maneuver)"
LONG_BURST = f"{SEED} Long Burst"
LONG_BURST_LOW_AMMO = f"{LONG_BURST} (less than half ammunition)"
JAMMED = f"{SEED} Jammed Machine Guns"
APPROACH = f"{SEED} Approach Maneuver"
APPROACH_ALTITUDE = f"{SEED} Approach Maneuver: Altitude"
RANDOM = f"{SEED} Random Maneuver"
RANDOM_LEVELS = f"{RANDOM} (tilted start, level changes)"
RANDOM_ATTITUDE = f"{RANDOM} (attitude at the end of movement)"
MISSION = f"{SEED} 'Mission' Aircraft"
MISSION_ATTACK = f"{MISSION} (attack on the way)"
GENERAL = f"{SEED} General Rules"
RETREAT = f"{GENERAL} (retreat)"
RETREAT_DAMAGE = f"{GENERAL} (damage to wings, tail or engine)"
RETREAT_ATTACK = f"{GENERAL} (retreating bot reaches a firing position)"
RETREAT_PATH = f"{GENERAL} (retreat path, altitude and throttle)"
AVOIDANCE = f"{GENERAL} (collision and board edge)"
EQUAL_CHOICE = f"{GENERAL} (equal choices not covered)"
CARDINAL = f"{GENERAL} (cardinal rule)"
BASE_GAME = "Age of Dogfights base game (placeholder model, see README)"
