"""Citations of the seed's sections (001_989a2f850da69b66.txt names its sections by heading).

The seed numbers nothing: it has headings (Game Setup, Combat, I, II, III, Long Burst, ...).
Every rule in this package cites through `cite("<heading>")` ("<seed> <heading>"); the
Step II heading is printed as a Cyrillic "П" in the seed text (a garbled "II") and is cited
as "Step II".
"""

from __future__ import annotations

from umpire.engine.kit.citation import citations

SEED = "001_989a2f850da69b66.txt"
cite = citations(SEED)

INTRODUCTION = cite("Introduction")
GAME_SETUP = cite("Game Setup")
SETUP_SKILL = cite("Game Setup (pilot skill level)")
SETUP_AGGRESSIVENESS = cite("Game Setup (aggressiveness)")
SETUP_PLACEMENT = cite("Game Setup (placement)")
SETUP_ALTITUDE = cite("Game Setup (service ceiling)")
COMBAT = cite("Combat")
COMBAT_DIE = cite("Combat (blue or green die)")
COMBAT_CONFIRM = cite("Combat (full throttle at '?')")
STEP_I = cite("Step I")
STEP_I_RESPONSE = cite("Step I (Exposed response roll)")
STEP_II = cite("Step II")
STEP_II_PRIORITY = cite("Step II (target priorities)")
STEP_II_TIE = cite("Step II (priority 4, equal targets)")
STEP_III = cite("Step III")
STEP_III_B_AGAIN = cite("Step III (skipped 'A' target reconsidered at 'B')")
STEP_III_APPROACH_EXPOSED = cite(
    "Step III (whether the Approach maneuver would make the bot Exposed)"
)
STEP_III_APPROACH_RANDOM = cite("Step III (Approach maneuver, 1 = Random maneuver)")
LONG_BURST = cite("Long Burst")
LONG_BURST_LOW_AMMO = cite("Long Burst (less than half ammunition)")
JAMMED = cite("Jammed Machine Guns")
APPROACH = cite("Approach Maneuver")
APPROACH_ALTITUDE = cite("Approach Maneuver: Altitude")
RANDOM = cite("Random Maneuver")
RANDOM_LEVELS = cite("Random Maneuver (tilted start, level changes)")
RANDOM_ATTITUDE = cite("Random Maneuver (attitude at the end of movement)")
MISSION = cite("'Mission' Aircraft")
MISSION_ATTACK = cite("'Mission' Aircraft (attack on the way)")
GENERAL = cite("General Rules")
RETREAT = cite("General Rules (retreat)")
RETREAT_DAMAGE = cite("General Rules (damage to wings, tail or engine)")
RETREAT_ATTACK = cite("General Rules (retreating bot reaches a firing position)")
RETREAT_PATH = cite("General Rules (retreat path, altitude and throttle)")
AVOIDANCE = cite("General Rules (collision and board edge)")
EQUAL_CHOICE = cite("General Rules (equal choices not covered)")
CARDINAL = cite("General Rules (cardinal rule)")
BASE_GAME = "Age of Dogfights base game (placeholder model, see README)"
