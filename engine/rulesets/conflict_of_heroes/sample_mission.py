"""SAMPLE mission, units and map: made-up values, NOT a published Conflict of Heroes mission.

The defaults of setup.Setup, so that a game can be created with no setup and every rule can
be exercised. The values are in the range of the base game's counters (AtB) but invented.
Map: columns 01-12, rows 01-10, odd columns drawn half a hex lower. AI-RIFLE-3 is a
reinforcement: out of play until Counteraction 1 brings it in.
"""

from __future__ import annotations

from umpire.engine.rulesets.conflict_of_heroes.scenario import (
    MissionEnd,
    MissionInstruction,
    MissionSpec,
    ObjectiveSpec,
    TerrainSpec,
    UnitSpec,
)
from umpire.engine.rulesets.conflict_of_heroes.terms import MissionTarget, Side

AI, PLAYER = Side.AI, Side.PLAYER

SAMPLE_UNITS: tuple[UnitSpec, ...] = (
    UnitSpec(id="AI-RIFLE-1", name="Rifles", side=AI, hex="1004", facing=4,
             firepower=5, front_dv=12, flank_dv=10, range=5, long_range=10),
    UnitSpec(id="AI-RIFLE-2", name="Rifles", side=AI, hex="1007", facing=5,
             firepower=5, front_dv=12, flank_dv=10, range=5, long_range=10),
    UnitSpec(id="AI-MG", name="Heavy MG", side=AI, hex="1105", facing=4,
             firepower=6, front_dv=11, flank_dv=9, range=8, long_range=16,
             fire_cost=2, move_cost=2, cc_penalty=True),
    UnitSpec(id="AI-RIFLE-3", name="Rifles", side=AI, hex="1201", facing=4,
             firepower=5, front_dv=12, flank_dv=10, range=5, long_range=10, in_play=False),
    UnitSpec(id="P-RIFLE-1", name="Rifles", side=PLAYER, hex="0304", facing=1,
             firepower=5, front_dv=13, flank_dv=11, range=5, long_range=10),
    UnitSpec(id="P-RIFLE-2", name="Rifles", side=PLAYER, hex="0307", facing=2,
             firepower=5, front_dv=13, flank_dv=11, range=5, long_range=10),
    UnitSpec(id="P-SMG", name="SMG", side=PLAYER, hex="0206", facing=2,
             firepower=4, front_dv=12, flank_dv=10, range=3, long_range=6, fire_cost=1),
)  # fmt: skip

SAMPLE_TERRAIN: tuple[TerrainSpec, ...] = (
    TerrainSpec(hex="0605", name="woods", dm=1, move_extra=1),
    TerrainSpec(hex="0705", name="woods", dm=1, move_extra=1),
    TerrainSpec(hex="0704", name="building", dm=2, move_extra=1, blocks_los=True),
    TerrainSpec(hex="0806", name="wall", dm=1),
    TerrainSpec(hex="0507", name="pond", impassable=True),
)

SAMPLE_OBJECTIVES: tuple[ObjectiveSpec, ...] = (
    ObjectiveSpec(id="OBJ-A", hex="0605"),
    ObjectiveSpec(id="CM-1", hex="0309", control_marker=True),
)

SAMPLE_MISSION = MissionSpec(
    name="Sample: the crossroads (not a published mission)",
    counteractions=(
        MissionInstruction(
            number=1,
            text="Reinforcement: one AI Rifles unit (AI-RIFLE-3) enters at hex 1201",
            reinforcements=("AI-RIFLE-3",),
        ),
        MissionInstruction(
            number=2,
            text="The AI secures its flank",
            order="Fresh AI closest to Control Marker -> Low Risk Move",
        ),
    ),
    mission_orders=(
        MissionInstruction(
            number=1,
            text="Take the woods at the crossroads",
            order="Highest FP AI closest to Objective OBJ-A -> Move",
        ),
        MissionInstruction(
            number=2,
            text="The AI calls in smoke on its most exposed hex (place the smoke marker there)",
            target=MissionTarget.MOST_EXPOSED_AI_HEX,
        ),
    ),
    # The mission's end (sample values): after round 5 the AI wins if it holds the woods at
    # the crossroads, else the player wins.
    end=MissionEnd(last_round=5, ai_holds=("OBJ-A",)),
)
