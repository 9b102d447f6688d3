"""The dogfight a game starts from: aircraft, sides, options (validated by msgspec).

Sides: a dogfight has sides A and B. `player_sides` names the side(s) whose secrets
(pilot characteristics, 9.1.11) Role.PLAYER may see: the default ("A",) models the solo
player running side A while the umpire's log records side B's card plays as they are
reported; ("A", "B") models one player running both sides. Spectators see neither side's
secrets; the referee sees all.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct, field

from umpire.engine.errors import RuleError
from umpire.engine.rulesets.down_in_flames.aircraft import AircraftCard, catalog
from umpire.engine.rulesets.down_in_flames.state import Element, Plane, State
from umpire.engine.rulesets.down_in_flames.tables.rocket import RULE_CARRIERS, rocket_row
from umpire.engine.rulesets.down_in_flames.terms import (
    CombatDie,
    GyroReading,
    PilotQuality,
    Side,
    Station,
    cite,
)

Ident = Annotated[str, Meta(pattern=r"^[A-Za-z0-9_.-]{1,24}$")]


class AircraftEntry(Struct, frozen=True, kw_only=True):
    """One aircraft in the dogfight.

    `aircraft` names a data card; `element` groups a Leader with its Wingman (or a bomber
    formation); pilot fields are secret (9.1.11); `loaded` carries bombs or torpedoes (9.2);
    `rockets` carries air-to-air rockets (7.1.1); `hand` is the Leader's starting hand size
    as dealt under the base game.
    """

    id: Ident
    aircraft: Annotated[str, Meta(min_length=1, max_length=40)]
    side: Side
    element: Ident
    station: Station
    pilot_quality: PilotQuality = PilotQuality.REGULAR
    crack_shot: bool = False
    keen_eyesight: bool = False
    loaded: bool = False
    rockets: bool = False
    hand: Annotated[int, Meta(ge=0, le=30)] = 0


class Setup(Struct, frozen=True, kw_only=True):
    """The dogfight and its options.

    combat_die: D6 (3.2.5) or the optional D12 system (6). ammunition_rule: 10.15.
    rockets_rule: 7. starting_altitude: a level agreed in advance (otherwise roll or bid,
    2.5). gyro_reading: which of 3.1.2 / 10.9 sets a gyro sight's Advantaged bursts.
    custom_aircraft: a scenario's own data cards, by name.
    """

    aircraft: Annotated[tuple[AircraftEntry, ...], Meta(min_length=1, max_length=64)]
    player_sides: Annotated[tuple[Side, ...], Meta(max_length=2)] = (Side.A,)
    combat_die: CombatDie = CombatDie.D6
    ammunition_rule: bool = False
    rockets_rule: bool = False
    starting_altitude: Annotated[int, Meta(ge=1, le=20)] | None = None
    gyro_reading: GyroReading = GyroReading.RULE_3_1_2
    # One data card per aircraft the setup may place at most.
    custom_aircraft: Annotated[
        dict[Annotated[str, Meta(max_length=40)], AircraftCard], Meta(max_length=64)
    ] = field(default_factory=dict)


def starting_altitude_limit(
    cards: dict[str, AircraftCard], entries: tuple[AircraftEntry, ...]
) -> int:
    """2.5.1, 2.5.2: no higher than every Leader can reach, and never above level 20."""
    ceilings = [cards[e.aircraft].ceiling_level for e in entries if e.station is Station.LEADER]
    return min([MAX_START_LEVEL, *ceilings])


MAX_START_LEVEL = 20  # 2.5.2


def initial_state(setup: Setup) -> State:
    """The dogfight before the starting altitude is set (unless agreed in the setup).

    Raises RuleError for an unknown aircraft (2.4), rockets on a type that may not carry
    them or with the rocket rule off (7.1.1), an impossible Element, or a starting altitude
    above what every Leader can reach (2.5.1, 2.5.2).
    """
    try:
        cards = catalog(setup.custom_aircraft)
    except ValueError as exc:
        raise RuleError(str(exc), rule=cite("2.4")) from exc
    seen: set[str] = set()
    for entry in setup.aircraft:
        if entry.id in seen:
            raise RuleError(f"aircraft id {entry.id!r} is used twice", rule=cite("1"))
        seen.add(entry.id)
        if entry.aircraft not in cards:
            raise RuleError(
                f"unknown aircraft {entry.aircraft!r} for {entry.id!r}: no data card (2.4); "
                f"known: {', '.join(sorted(cards))}, or add one in custom_aircraft",
                rule=cite("2.4"),
            )
        card = cards[entry.aircraft]
        _check_station(entry, card)
        if entry.rockets:
            if not setup.rockets_rule:
                raise RuleError(
                    f"{entry.id} carries rockets but the optional rocket rule (7) is off",
                    rule=RULE_CARRIERS,
                )
            if rocket_row(entry.aircraft) is None:
                raise RuleError(
                    f"{entry.aircraft} may not carry air-to-air rockets; only Bf 109G-6, "
                    "Fw 190A-6 and Bf 110G-2 Leaders and Wingmen can",
                    rule=RULE_CARRIERS,
                )
    elements = _elements(setup.aircraft)
    altitude = 0
    if setup.starting_altitude is not None:
        limit = starting_altitude_limit(cards, setup.aircraft)
        if setup.starting_altitude > limit:
            raise RuleError(
                f"starting altitude {setup.starting_altitude} is above level {limit}, the "
                "highest every Leader can reach (and never above 20)",
                rule=cite("2.5.1"),
            )
        altitude = setup.starting_altitude
    used = sorted({e.aircraft for e in setup.aircraft})
    return State(
        cards={name: cards[name] for name in used},
        aircraft={
            e.id: Plane(
                id=e.id,
                aircraft=e.aircraft,
                side=e.side,
                element=e.element,
                station=e.station,
                pilot_quality=e.pilot_quality,
                crack_shot=e.crack_shot,
                keen_eyesight=e.keen_eyesight,
                loaded=e.loaded,
                rockets=e.rockets,
                hand=e.hand,
            )
            for e in setup.aircraft
        },
        elements={
            name: Element(id=name, side=side, altitude=altitude)
            for name, side in sorted(elements.items())
        },
        player_sides=tuple(sorted(set(setup.player_sides))),
        combat_die=setup.combat_die,
        ammunition_rule=setup.ammunition_rule,
        rockets_rule=setup.rockets_rule,
        gyro_reading=setup.gyro_reading,
    )


def _check_station(entry: AircraftEntry, card: AircraftCard) -> None:
    bomber = card.aircraft_class.is_formation_bomber
    if bomber != (entry.station is Station.FORMATION):
        raise RuleError(
            f"{entry.id}: {card.name} is a {card.aircraft_class.value}; medium and heavy "
            "bombers fly in formation, fighters and light bombers as Leader or Wingman",
            rule=cite("4"),
        )


def _elements(entries: tuple[AircraftEntry, ...]) -> dict[str, Side]:
    sides: dict[str, Side] = {}
    stations: dict[str, list[Station]] = {}
    for entry in entries:
        if sides.setdefault(entry.element, entry.side) is not entry.side:
            raise RuleError(f"element {entry.element!r} mixes both sides", rule=cite("1"))
        stations.setdefault(entry.element, []).append(entry.station)
    for element, held in sorted(stations.items()):
        if Station.FORMATION in held:
            continue
        if held.count(Station.LEADER) != 1 or held.count(Station.WINGMAN) > 1:
            raise RuleError(
                f"element {element!r} must have exactly one Leader and at most one Wingman",
                rule=cite("11"),
            )
    return sides
