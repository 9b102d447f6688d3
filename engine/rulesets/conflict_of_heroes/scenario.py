"""Data formats of the scenario: Order Cards, units, terrain, objectives, mission.

Seed 003_368c69a730e6e14a.txt 4.0 names the four sections of an Order Card: the card
number, symbol and Mission Track advancement; the AI Priority Orders; the AI Tactical
Orders; the 'Remain Fresh' symbol, AP Spent Number and Hex #. `CardSpec` holds exactly
those, with orders as text in the grammar of orders.py. Unit values (firepower, front and
flank DV, ranges, AP costs) are the base game's (AtB) and are entered per counter.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct, field

from umpire.engine.hexgrid import Facing
from umpire.engine.rulesets.conflict_of_heroes.terms import CardColour, MissionTarget, Side

HexLabel = Annotated[str, Meta(pattern=r"^[0-9]{4}$", description="CCRR hex label")]
Ident = Annotated[str, Meta(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.\-]+$")]
OrderText = Annotated[str, Meta(min_length=1, max_length=200)]
# Bounds (issue 32): an Order Card prints a short list of orders.
ORDERS_PER_CARD = 12
Value = Annotated[int, Meta(ge=0, le=30)]


class CardSpec(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One Order Card (4.0), top section to bottom section.

    `mission_requirement` is the Green card's Mission Track requirement (None: none);
    `remain_fresh` is the 'Remain Fresh' symbol (3.1.1); `ap_spent_number` the AP Spent
    Number (3.1.1); `hex_number` the Hex # (kept for missions that use it).
    """

    number: Annotated[int, Meta(ge=1, le=999)]
    colour: CardColour
    ap_spent_number: Annotated[int, Meta(ge=1, le=20)]
    symbol: Annotated[str, Meta(max_length=40)] = ""
    mission_requirement: Annotated[int, Meta(ge=0, le=99)] | None = None
    priority_orders: Annotated[tuple[OrderText, ...], Meta(max_length=ORDERS_PER_CARD)] = ()
    tactical_orders: Annotated[tuple[OrderText, ...], Meta(max_length=ORDERS_PER_CARD)] = ()
    remain_fresh: bool = False
    hex_number: Annotated[int, Meta(ge=0, le=99)] = 0


class UnitSpec(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One counter (a player Unit or an AI) with the base-game values the rules read.

    `range` is the normal range; `long_range` the longest long-range shot (0: no long
    range). `turreted` gives a 360° arc of fire (5.3.1). `cc_penalty` marks units with
    close-combat penalties such as MGs and mortars (5.1). `non_combat` units (trucks,
    wagons) do not count toward the Mission Track (4.0). `in_play` False: a reinforcement
    not yet on the map.
    """

    id: Ident
    side: Side
    hex: HexLabel
    firepower: Value
    front_dv: Value
    flank_dv: Value
    range: Value
    name: Annotated[str, Meta(max_length=60)] = ""
    facing: Facing = 0
    long_range: Value = 0
    fire_cost: Value = 2
    move_cost: Value = 1
    rally_cost: Value = 2
    turreted: bool = False
    cc_penalty: bool = False
    non_combat: bool = False
    hidden: bool = False
    in_play: bool = True
    fresh: bool = True
    hit: bool = False


class TerrainSpec(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A hex that is not clear terrain: its defense modifier (DM), extra move cost, whether
    it blocks line of sight through it, and whether it can be entered at all."""

    hex: HexLabel
    dm: Annotated[int, Meta(ge=0, le=10)] = 0
    move_extra: Annotated[int, Meta(ge=0, le=10)] = 0
    blocks_los: bool = False
    impassable: bool = False
    name: Annotated[str, Meta(max_length=40)] = ""


class ObjectiveSpec(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A Mission Objective, or a Player Control Marker (5.0: those are Mission Objectives)."""

    id: Ident
    hex: HexLabel
    control_marker: bool = False


class MissionInstruction(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A Counteraction (7.0) or Mission Order (7.1): its number, the mission's text and,
    when the AI carries it out with a unit, the order in the grammar of orders.py.

    `reinforcements`: AI counters set up out of play (`in_play` False) that umpire places
    at their set-up hex and facing when the instruction is carried out. `target`: a hex
    umpire computes for the instruction (terms.MissionTarget), named in the event.
    """

    number: Annotated[int, Meta(ge=1, le=99)]
    text: Annotated[str, Meta(min_length=1, max_length=400)]
    order: Annotated[str, Meta(max_length=200)] = ""
    # Units that enter: at most every unit of the scenario (setup.MAX_UNITS).
    reinforcements: Annotated[tuple[Ident, ...], Meta(max_length=60)] = ()
    target: MissionTarget = MissionTarget.NONE


class MissionEnd(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """How the mission ends (README "End of the mission"; the seed leaves it to the
    mission): after round `last_round` (0: no round limit) the AI wins if it holds every
    objective in `ai_holds` (an AI in the hex and no Unit; a Control Marker by its side,
    battlefield.ai_controls), else the player wins (a draw
    when `ai_holds` is empty). At any time, a side with no counter in play or to come
    loses."""

    last_round: Annotated[int, Meta(ge=0, le=99)] = 0
    # Objectives the AI must hold: at most every objective (setup.MAX_OBJECTIVES).
    ai_holds: Annotated[tuple[Ident, ...], Meta(max_length=20)] = ()


class MissionSpec(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A mission's Counteractions and Mission Orders (7.0, 7.1)."""

    name: Annotated[str, Meta(max_length=80)] = ""
    counteractions: Annotated[tuple[MissionInstruction, ...], Meta(max_length=20)] = ()
    mission_orders: Annotated[tuple[MissionInstruction, ...], Meta(max_length=20)] = ()
    end: MissionEnd = field(default_factory=MissionEnd)
