"""The scenario a game starts from: the Order Card deck, the units, the map and the mission.

Seed 003_368c69a730e6e14a.txt does not print the cards, the missions or the base game's
unit values, so all of them are setup data here (README "Interpretations"). A setup with
no fields is the shipped SAMPLE (sample_deck.py, sample_mission.py), not published cards.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct, field

from umpire.engine.errors import InvalidSetup
from umpire.engine.hexgrid import Hex, HexGrid, Parity
from umpire.engine.rulesets.conflict_of_heroes.battlefield import with_control
from umpire.engine.rulesets.conflict_of_heroes.orders import (
    Order,
    OrderAction,
    OrderSyntaxError,
    parse_order,
)
from umpire.engine.rulesets.conflict_of_heroes.sample_deck import SAMPLE_DECK
from umpire.engine.rulesets.conflict_of_heroes.sample_mission import (
    SAMPLE_MISSION,
    SAMPLE_OBJECTIVES,
    SAMPLE_TERRAIN,
    SAMPLE_UNITS,
)
from umpire.engine.rulesets.conflict_of_heroes.scenario import (
    CardSpec,
    MissionInstruction,
    MissionSpec,
    ObjectiveSpec,
    TerrainSpec,
    UnitSpec,
)
from umpire.engine.rulesets.conflict_of_heroes.state import Card, Instruction, Rules, State, Unit
from umpire.engine.rulesets.conflict_of_heroes.terms import Side

Small = Annotated[int, Meta(ge=0, le=20)]
# Bounds (issue 32, README "Bounds"): what one scenario of the game can use, so that one
# create and one AI turn stay small. A map of up to 40 x 40 hexes (four geomorphic boards
# and more); a terrain entry per hex at most; 60 units (the counter mix of both sides);
# a deck of 60 Order Cards; 20 objectives.
MAX_MAP_INDEX = 40
MAX_HEXES = MAX_MAP_INDEX * MAX_MAP_INDEX
MAX_UNITS = 60
MAX_CARDS = 60
MAX_OBJECTIVES = 20
MapIndex = Annotated[int, Meta(ge=1, le=MAX_MAP_INDEX)]


class Setup(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Everything a game needs that the seed leaves to the scenario, with documented defaults.

    - `deck`: the Order Cards (4.0), written in the grammar of orders.py.
    - `units`: both sides' counters with their base-game values.
    - `terrain`: hexes that differ from clear terrain (DM 0, no extra cost, no LOS block).
    - `objectives`: Mission Objectives and Player Control Markers (5.0).
    - `mission`: Counteractions (7.0) and Mission Orders (7.1).
    - `player_caps`: the player's CAPs each round (3.2); `caps_lost_per_destroyed_unit`
      is how far each destroyed Unit on the CAP track lowers it (7.3, 7.4 AtB).
    - `max_unit_aps`: the most APs one unit may spend on one action (AtB: 7).
    - `short_range`, `short_range_fp_modifier`, `long_range_fp_modifier`,
      `attack_modifier`: the parameters of the 2D6 hit formula (hit_chance.py).
    - `pivot_cost`: AP cost of a pivot (5.3.1).
    - `reshuffle_each_round`: whether all discards return to the deck when a round ends.
    - `sideways_moves`: whether a Move order may take a step that comes no closer to the
      Target (README ledger 5.3; default False: only a Low Risk Move may, 5.3.1).
    """

    deck: Annotated[tuple[CardSpec, ...], Meta(max_length=MAX_CARDS)] = SAMPLE_DECK
    units: Annotated[tuple[UnitSpec, ...], Meta(max_length=MAX_UNITS)] = SAMPLE_UNITS
    terrain: Annotated[tuple[TerrainSpec, ...], Meta(max_length=MAX_HEXES)] = SAMPLE_TERRAIN
    objectives: Annotated[tuple[ObjectiveSpec, ...], Meta(max_length=MAX_OBJECTIVES)] = (
        SAMPLE_OBJECTIVES
    )
    mission: MissionSpec = field(default_factory=lambda: SAMPLE_MISSION)
    parity: Parity = Parity.ODD_COLUMNS_DOWN
    min_col: MapIndex = 1
    max_col: MapIndex = 12
    min_row: MapIndex = 1
    max_row: MapIndex = 10
    player_caps: Small = 3
    caps_lost_per_destroyed_unit: Small = 1
    max_unit_aps: Annotated[int, Meta(ge=1, le=20)] = 7
    short_range: Annotated[int, Meta(ge=0, le=10)] = 1
    short_range_fp_modifier: Annotated[int, Meta(ge=-10, le=10)] = 0
    long_range_fp_modifier: Annotated[int, Meta(ge=-10, le=10)] = 0
    attack_modifier: Annotated[int, Meta(ge=-10, le=10)] = 0
    pivot_cost: Small = 1
    reshuffle_each_round: bool = True
    mission_track: Annotated[int, Meta(ge=0, le=99)] = 0
    sideways_moves: bool = False


def _fail(message: str) -> InvalidSetup:
    return InvalidSetup(f"conflict_of_heroes setup: {message}", error=message)


def _order(text: str, where: str) -> Order:
    try:
        return parse_order(text)
    except OrderSyntaxError as exc:
        raise _fail(f"{where}: {exc}") from exc


def _card(spec: CardSpec) -> Card:
    where = f"card {spec.number}"
    return Card(
        number=spec.number,
        colour=spec.colour,
        ap_spent_number=spec.ap_spent_number,
        symbol=spec.symbol,
        mission_requirement=spec.mission_requirement,
        priority_orders=tuple(_order(t, where) for t in spec.priority_orders),
        tactical_orders=tuple(_order(t, where) for t in spec.tactical_orders),
        remain_fresh=spec.remain_fresh,
        hex_number=spec.hex_number,
    )


def _instruction(spec: MissionInstruction, kind: str) -> Instruction:
    order = _order(spec.order, f"{kind} {spec.number}") if spec.order else None
    if order is not None and order.action in (
        OrderAction.COUNTERACTION,
        OrderAction.MISSION_ORDER,
    ):
        raise _fail(
            f"{kind} {spec.number}: its order cannot be another Counteraction or Mission Order"
        )
    return Instruction(
        number=spec.number,
        text=spec.text,
        order=order,
        reinforcements=spec.reinforcements,
        target=spec.target,
    )


def _unique(values: list[str] | list[int], what: str) -> None:
    seen: set[object] = set()
    for v in values:
        if v in seen:
            raise _fail(f"{what} {v} appears twice")
        seen.add(v)


def initial_state(setup: Setup) -> State:
    """The game at the start of round 1, validated (InvalidSetup says what is wrong)."""
    try:
        grid = HexGrid(
            parity=setup.parity,
            min_col=setup.min_col,
            max_col=setup.max_col,
            min_row=setup.min_row,
            max_row=setup.max_row,
        )
    except ValueError as exc:
        raise _fail(str(exc)) from exc
    if not setup.deck:
        raise _fail("the deck needs at least one Order Card")
    _unique([c.number for c in setup.deck], "card number")
    _unique([u.id for u in setup.units], "unit id")
    _unique([o.id for o in setup.objectives], "objective id")
    _unique([t.hex for t in setup.terrain], "terrain hex")
    _unique([i.number for i in setup.mission.counteractions], "Counteraction")
    _unique([i.number for i in setup.mission.mission_orders], "Mission Order")
    impassable = {t.hex for t in setup.terrain if t.impassable}
    for label in [u.hex for u in setup.units] + [o.hex for o in setup.objectives]:
        if not grid.contains(Hex.parse(label)) or label in impassable:
            raise _fail(f"hex {label} is off the map or impassable")
    ai_hexes = [u.hex for u in setup.units if u.side is Side.AI and u.in_play]
    _unique(ai_hexes, "AI hex (AIs will not stack, 5.3.1)")
    for u in setup.units:
        if u.long_range and u.long_range < u.range:
            raise _fail(f"unit {u.id}: long_range {u.long_range} is below range {u.range}")
    _check_mission(setup)
    cards = tuple(sorted((_card(c) for c in setup.deck), key=lambda c: c.number))
    objective_ids = {o.id for o in setup.objectives}
    counteractions = tuple(_instruction(i, "Counteraction") for i in setup.mission.counteractions)
    mission_orders = tuple(_instruction(i, "Mission Order") for i in setup.mission.mission_orders)
    orders = [o for c in cards for o in (*c.priority_orders, *c.tactical_orders)]
    orders += [i.order for i in (*counteractions, *mission_orders) if i.order is not None]
    for o in orders:
        if o.objective and o.objective not in objective_ids:
            raise _fail(
                f"order {o.text!r} names objective {o.objective}, which is not in "
                f"the scenario ({sorted(objective_ids)})"
            )
    # An AI set up alone on a Control Marker's hex holds it from the start (5.0).
    return with_control(_state(setup, grid, cards, counteractions, mission_orders))


def _state(
    setup: Setup,
    grid: HexGrid,
    cards: tuple[Card, ...],
    counteractions: tuple[Instruction, ...],
    mission_orders: tuple[Instruction, ...],
) -> State:
    return State(
        rules=Rules(
            grid=grid,
            player_caps=setup.player_caps,
            caps_lost_per_destroyed_unit=setup.caps_lost_per_destroyed_unit,
            max_unit_aps=setup.max_unit_aps,
            short_range=setup.short_range,
            short_range_fp_modifier=setup.short_range_fp_modifier,
            long_range_fp_modifier=setup.long_range_fp_modifier,
            attack_modifier=setup.attack_modifier,
            pivot_cost=setup.pivot_cost,
            reshuffle_each_round=setup.reshuffle_each_round,
            sideways_moves=setup.sideways_moves,
        ),
        cards=cards,
        deck=tuple(c.number for c in cards),
        units=tuple(Unit(**{f: getattr(u, f) for f in u.__struct_fields__}) for u in setup.units),
        terrain=setup.terrain,
        objectives=setup.objectives,
        counteractions=counteractions,
        mission_orders=mission_orders,
        mission_name=setup.mission.name,
        caps=setup.player_caps,
        mission_track=setup.mission_track,
        end=setup.mission.end,
    )


def _check_mission(setup: Setup) -> None:
    """Reinforcements are AI counters set up out of play, each named once; the objectives
    the AI must hold exist."""
    units = {u.id: u for u in setup.units}
    named: list[str] = []
    for spec in (*setup.mission.counteractions, *setup.mission.mission_orders):
        for uid in spec.reinforcements:
            u = units.get(uid)
            if u is None or u.side is not Side.AI or u.in_play:
                raise _fail(
                    f"instruction {spec.number}: reinforcement {uid} must be an AI counter "
                    "set up with in_play false"
                )
            named.append(uid)
    _unique(named, "reinforcement")
    objective_ids = {o.id for o in setup.objectives}
    for oid in setup.mission.end.ai_holds:
        if oid not in objective_ids:
            raise _fail(f"end: objective {oid} is not in the scenario ({sorted(objective_ids)})")
