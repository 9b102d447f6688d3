"""Every die table printed in 001_989a2f850da69b66.txt, as data with its citation.

`printed` is the table as it reads in the seed (whitespace normalised); a test checks each
one against the seed text, and each band against `printed`.
"""

from __future__ import annotations

from umpire.engine.kit.seed_table import Band, SeedTable
from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.terms import Aggressiveness

PILOT_SKILL = SeedTable(
    name="pilot skill",
    citation=c.SETUP_SKILL,
    printed="1-2 = rookie | 3-5 = average | 6 = ace",
    bands=(Band(1, 2, "rookie"), Band(3, 5, "average"), Band(6, 6, "ace")),
)
AGGRESSIVENESS = SeedTable(
    name="aggressiveness",
    citation=c.SETUP_AGGRESSIVENESS,
    printed="1-2 = cautious | 3-4 = average | 5-6 = aggressive",
    bands=(Band(1, 2, "cautious"), Band(3, 4, "average"), Band(5, 6, "aggressive")),
)
BOT_ALTITUDE_FIRST = SeedTable(
    name="bot altitude (service ceiling L5 or higher)",
    citation=c.SETUP_ALTITUDE,
    printed="If a bot aircraft's service ceiling is L5 or higher and 4-6 is rolled, it is "
    "placed at its maximum height. If 1-3 is rolled",
    bands=(Band(1, 3, "roll again"), Band(4, 6, "maximum height")),
)
DIE_CHOICE = SeedTable(
    name="blue or green die",
    citation=c.COMBAT_DIE,
    printed="1-4 = blue die | 5-6 = green die",
    bands=(Band(1, 4, "blue"), Band(5, 6, "green")),
)
THROTTLE_CONFIRM = SeedTable(
    name="full throttle at '?'",
    citation=c.COMBAT_CONFIRM,
    printed="1-3 = no (use the blue die instead) | 4-6 = yes (green)",
    bands=(Band(1, 3, "blue"), Band(4, 6, "green")),
)
EXPOSED_RESPONSE = SeedTable(
    name="Exposed initial position",
    citation=c.STEP_I_RESPONSE,
    printed="1 =Random maneuver (see page 4) | 2-6 =ignored",
    bands=(Band(1, 1, "random maneuver"), Band(2, 6, "ignored")),
)
SKIP_OR_ATTACK = SeedTable(
    name="skip or attack",
    citation=c.STEP_III,
    printed="1-3 = skip | 4-6 = attack",
    bands=(Band(1, 3, "skip"), Band(4, 6, "attack")),
)
APPROACH_RANDOM = SeedTable(
    name="Approach maneuver not Exposed",
    citation=c.STEP_III_APPROACH_RANDOM,
    printed="If 1 is rolled, the bot will perform a Random maneuver",
    bands=(Band(1, 1, "random maneuver"), Band(2, 6, "approach maneuver")),
)
LONG_BURST = SeedTable(
    name="long burst",
    citation=c.LONG_BURST,
    printed="1-3 = short burst | 4-6 = long burst",
    bands=(Band(1, 3, "short"), Band(4, 6, "long")),
)
LONG_BURST_LOW_AMMO = SeedTable(
    name="long burst, less than half ammunition",
    citation=c.LONG_BURST_LOW_AMMO,
    printed="1-4 = short burst | 5-6 = long burst",
    bands=(Band(1, 4, "short"), Band(5, 6, "long")),
)
UNJAM = SeedTable(
    name="unjamming while Exposed",
    citation=c.JAMMED,
    printed="1-4 = Random maneuver | 5-6 = continue unjamming",
    bands=(Band(1, 4, "random maneuver"), Band(5, 6, "continue unjamming")),
)
TWO_LEVELS = SeedTable(
    name="one or two level changes",
    citation=c.RANDOM_LEVELS,
    printed="1-3 = one level | 4-6 = two levels",
    bands=(Band(1, 3, "1"), Band(4, 6, "2")),
)
THREE_LEVELS = SeedTable(
    name="one, two or three level changes",
    citation=c.RANDOM_LEVELS,
    printed="1-2 = one level | 3-4 = two levels | 5-6 = three levels",
    bands=(Band(1, 2, "1"), Band(3, 4, "2"), Band(5, 6, "3")),
)
ATTITUDE = SeedTable(
    name="attitude at the end of a Random Maneuver",
    citation=c.RANDOM_ATTITUDE,
    printed="1-2 = nose-down | 3-4 = level | 5-6 = nose-up",
    bands=(Band(1, 2, "nose-down"), Band(3, 4, "level"), Band(5, 6, "nose-up")),
)
TWO_TARGETS = SeedTable(
    name="two equal targets",
    citation=c.STEP_II_TIE,
    printed="For two targets: 1-3 = lower designation number, 4-6 = higher number",
    bands=(Band(1, 3, "lower"), Band(4, 6, "higher")),
)
THREE_TARGETS = SeedTable(
    name="three equal targets",
    citation=c.STEP_II_TIE,
    printed="For three targets with equal priority: 1-2 = lower, 3-4 = medium, 5-6 = higher",
    bands=(Band(1, 2, "lower"), Band(3, 4, "medium"), Band(5, 6, "higher")),
)
MISSION_ATTACK = SeedTable(
    name="mission aircraft attack on the way",
    citation=c.MISSION_ATTACK,
    printed="1-5 = ignore | 6 = attack",
    bands=(Band(1, 5, "ignore"), Band(6, 7, "attack")),
)
DAMAGE_RETREAT = SeedTable(
    name="damage to wings, tail or engine",
    citation=c.RETREAT_DAMAGE,
    printed="1-2 = retreat | 3-6 = continue fighting",
    bands=(Band(1, 2, "retreat"), Band(3, 6, "continue fighting")),
)
RETREAT_ATTACK = SeedTable(
    name="retreating bot at a firing position",
    citation=c.RETREAT_ATTACK,
    printed="1-3 = ignore | 4-6 = attack",
    bands=(Band(1, 3, "ignore"), Band(4, 6, "attack")),
)
RETREAT_THROTTLE = SeedTable(
    name="retreat at full throttle '?'",
    citation=c.RETREAT_PATH,
    printed="If full throttle cannot be used safely (\\*?), roll a standard die: 1-5 = use "
    "the blue die",
    bands=(Band(1, 5, "blue"), Band(6, 6, "green")),
)

ALL_TABLES: tuple[SeedTable[str], ...] = (
    PILOT_SKILL,
    AGGRESSIVENESS,
    BOT_ALTITUDE_FIRST,
    DIE_CHOICE,
    THROTTLE_CONFIRM,
    EXPOSED_RESPONSE,
    SKIP_OR_ATTACK,
    APPROACH_RANDOM,
    LONG_BURST,
    LONG_BURST_LOW_AMMO,
    UNJAM,
    TWO_LEVELS,
    THREE_LEVELS,
    ATTITUDE,
    TWO_TARGETS,
    THREE_TARGETS,
    MISSION_ATTACK,
    DAMAGE_RETREAT,
    RETREAT_ATTACK,
    RETREAT_THROTTLE,
)

# Step I, Step III, Jammed Machine Guns, General Rules: "+1 for aggressive pilots, -1 for
# cautious pilots". Mission aircraft (no aggressiveness roll) take 0.
AGGRESSIVENESS_MODIFIER: dict[Aggressiveness | None, int] = {
    Aggressiveness.CAUTIOUS: -1,
    Aggressiveness.AVERAGE: 0,
    Aggressiveness.AGGRESSIVE: 1,
    None: 0,
}
# Combat: "if only one or two safe usages of full throttle are left, deduct 1".
FEW_SAFE_THROTTLE_USES = (1, 2)
FEW_SAFE_THROTTLE_MODIFIER = -1
# 'Mission' Aircraft: "+1 to die roll if it can come to an 'A' position".
MISSION_A_MODIFIER = 1
# General Rules: "+2 if it can come into an 'A' firing position".
RETREAT_A_MODIFIER = 2
