"""2.4, 3, 8.1, 10, 11: the aircraft data card format, validated on load, and sample cards.

The seed does not print the data cards. A card here holds what the rules read from one:
class, ceiling (as an altitude level, 2), defense and Hit Values (3, 10.15), performance
bands (Agility, Speed and Horsepower by altitude level, 2.4 and 8.1), Wingman offense and
defense card draws (11), sight (3.1.1, 3.1.2, 10.8, 10.9) and special characteristics (10).

Every value the seed does not state is listed in the card's `placeholders` (dotted field
paths, e.g. "performance[0].hp"); README.md lists them too. A scenario may bring its own
cards in Setup.custom_aircraft, validated the same way.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta, Struct

from umpire.engine.errors import RuleError
from umpire.engine.rulesets.down_in_flames.terms import AircraftClass, Characteristic, Sight, cite

Level = Annotated[int, Meta(ge=1, le=30)]
Rating = Annotated[int, Meta(ge=1, le=30)]
RULE_CARD = cite("2.4")


class Band(Struct, frozen=True, kw_only=True):
    """2.4, 8.1: Agility, Speed and Horsepower over altitude levels low..high."""

    low: Level
    high: Level
    agility: Rating
    speed: Rating
    hp: Rating


class AircraftCard(Struct, frozen=True, kw_only=True):
    """One aircraft data card."""

    name: Annotated[str, Meta(min_length=1, max_length=40)]
    aircraft_class: AircraftClass
    ceiling_level: Level
    defense: Annotated[int, Meta(ge=1, le=200)]
    hit_value: Annotated[int, Meta(ge=0, le=200)]
    reduced_hit_value: Annotated[int, Meta(ge=0, le=200)] | None = None  # 10.15
    performance: Annotated[tuple[Band, ...], Meta(min_length=1, max_length=30)]
    wingman_offense: Annotated[int, Meta(ge=0, le=10)] = 1
    wingman_defense: Annotated[int, Meta(ge=0, le=10)] = 1
    sight: Sight = Sight.REFLECTOR
    characteristics: Annotated[
        tuple[Characteristic, ...], Meta(max_length=len(Characteristic))
    ] = ()
    # Dotted field names of this card: at most one per field of the card and its bands.
    placeholders: Annotated[
        tuple[Annotated[str, Meta(max_length=40)], ...], Meta(max_length=64)
    ] = ()

    def __post_init__(self) -> None:
        """Bands must cover levels 1..ceiling_level without gap or overlap; the reduced
        Hit Value (10.15) may not exceed the normal one."""
        expected = 1
        for band in self.performance:
            if band.low != expected or band.high < band.low:
                raise ValueError(
                    f"{self.name}: performance bands must run contiguously from level 1; "
                    f"band {band.low}-{band.high} found where level {expected} was expected"
                )
            expected = band.high + 1
        if expected != self.ceiling_level + 1:
            raise ValueError(
                f"{self.name}: performance bands end at level {expected - 1}, "
                f"not at the ceiling level {self.ceiling_level}"
            )
        if self.reduced_hit_value is not None and self.reduced_hit_value > self.hit_value:
            raise ValueError(f"{self.name}: the right-hand Hit Value exceeds the left-hand one")

    def band_at(self, level: int) -> Band:
        """2.4: the performance band for altitude `level`."""
        for band in self.performance:
            if band.low <= level <= band.high:
                return band
        raise RuleError(
            f"{self.name} cannot fly at altitude level {level} (levels 1-{self.ceiling_level})",
            rule=cite("2.2"),
        )

    def has(self, characteristic: Characteristic) -> bool:
        """Whether the card notes `characteristic` (10)."""
        return characteristic in self.characteristics


def _b(low: int, high: int, agility: int, speed: int, hp: int) -> Band:
    return Band(low=low, high=high, agility=agility, speed=speed, hp=hp)


_ALL = (
    "ceiling_level", "defense", "hit_value", "performance", "wingman_offense",
    "wingman_defense", "sight", "characteristics",
)  # fmt: skip


def _except(*stated: str) -> tuple[str, ...]:
    return tuple(f for f in _ALL if f not in stated)


SAMPLE_AIRCRAFT: tuple[AircraftCard, ...] = (
    # 3.2.9 and 6.1.6: "a Spitfire with a hit value of 8".
    AircraftCard(
        name="Spitfire", aircraft_class=AircraftClass.FIGHTER, ceiling_level=18, defense=6,
        hit_value=8, performance=(_b(1, 18, 6, 6, 3),), placeholders=_except("hit_value"),
    ),
    # 3.2.9 and 6.1.6: "a Bf 109 with a defense of 6".
    AircraftCard(
        name="Bf 109", aircraft_class=AircraftClass.FIGHTER, ceiling_level=18, defense=6,
        hit_value=8, performance=(_b(1, 18, 6, 6, 3),), placeholders=_except("defense"),
    ),
    # 4.1.8: "The Fw 190 has an HV of 20".
    AircraftCard(
        name="Fw 190A-8", aircraft_class=AircraftClass.FIGHTER, ceiling_level=18, defense=7,
        hit_value=20, reduced_hit_value=12, performance=(_b(1, 18, 5, 7, 4),),
        placeholders=(*_except("hit_value"), "reduced_hit_value"),
    ),
    # 8.3: "an A6M2's Agility Rating at altitude level 2 is 9 and its speed rating is 6".
    AircraftCard(
        name="A6M2", aircraft_class=AircraftClass.FIGHTER, ceiling_level=16, defense=4,
        hit_value=10, reduced_hit_value=6,
        performance=(_b(1, 1, 9, 6, 3), _b(2, 2, 9, 6, 3), _b(3, 16, 8, 6, 3)),
        placeholders=(
            *_except("performance"), "reduced_hit_value", "performance[0]",
            "performance[1].hp", "performance[2]",
        ),
    ),
    # 8.4.4: "a P-51D-10 Leader at altitude level 18 has an Agility Rating of 5 and a Speed
    # rating of 8".
    AircraftCard(
        name="P-51D-10", aircraft_class=AircraftClass.FIGHTER, ceiling_level=20, defense=7,
        hit_value=12,
        performance=(_b(1, 17, 6, 8, 4), _b(18, 18, 5, 8, 4), _b(19, 20, 5, 7, 4)),
        placeholders=(
            *_except("performance"), "performance[0]", "performance[1].hp", "performance[2]",
        ),
    ),
    # 4.1.8: a B-17G heavy bomber target.
    AircraftCard(
        name="B-17G", aircraft_class=AircraftClass.HEAVY_BOMBER, ceiling_level=17, defense=16,
        hit_value=8, performance=(_b(1, 17, 1, 3, 2),), wingman_offense=0, wingman_defense=0,
        placeholders=_except(),
    ),
    # 7.1.1: rocket carriers (every value a placeholder).
    AircraftCard(
        name="Bf 109G-6", aircraft_class=AircraftClass.FIGHTER, ceiling_level=18, defense=6,
        hit_value=12, reduced_hit_value=8, performance=(_b(1, 18, 5, 7, 4),),
        placeholders=(*_except(), "reduced_hit_value"),
    ),
    AircraftCard(
        name="Fw 190A-6", aircraft_class=AircraftClass.FIGHTER, ceiling_level=17, defense=7,
        hit_value=16, performance=(_b(1, 17, 5, 7, 4),), placeholders=_except(),
    ),
    AircraftCard(
        name="Bf 110G-2", aircraft_class=AircraftClass.FIGHTER, ceiling_level=16, defense=8,
        hit_value=16, performance=(_b(1, 16, 3, 5, 3),),
        characteristics=(Characteristic.GUNNER,), placeholders=_except(),
    ),
    # 10.12: "The Hurricane IIC's weapons can be fired at a Hit Value of 8 or 16".
    AircraftCard(
        name="Hurricane IIC", aircraft_class=AircraftClass.FIGHTER, ceiling_level=16, defense=6,
        hit_value=8, performance=(_b(1, 16, 6, 5, 3),),
        characteristics=(Characteristic.HURRICANE_IIC_FIRING,),
        placeholders=_except("hit_value", "characteristics"),
    ),
    # 10.13: the Beaufighter IF special firing rule.
    AircraftCard(
        name="Beaufighter IF", aircraft_class=AircraftClass.FIGHTER, ceiling_level=14,
        defense=8, hit_value=16, performance=(_b(1, 14, 3, 5, 3),),
        characteristics=(Characteristic.BEAUFIGHTER_IF_FIRING,),
        placeholders=_except("characteristics"),
    ),
    # 10.11.4: Thach developed the weave "for the F4F-4".
    AircraftCard(
        name="F4F-4", aircraft_class=AircraftClass.FIGHTER, ceiling_level=17, defense=6,
        hit_value=10, performance=(_b(1, 17, 5, 5, 3),),
        characteristics=(Characteristic.THACH_WEAVE,), placeholders=_except("characteristics"),
    ),
)  # fmt: skip


def catalog(custom: dict[str, AircraftCard] | None = None) -> dict[str, AircraftCard]:
    """The sample cards by name, with a scenario's own cards added (they win on a clash)."""
    cards = {card.name: card for card in SAMPLE_AIRCRAFT}
    for name, card in sorted((custom or {}).items()):
        if name != card.name:
            raise ValueError(f"custom aircraft key {name!r} differs from its name {card.name!r}")
        cards[name] = card
    return cards


def card_from_data(data: object) -> AircraftCard:
    """Validate a card from plain data (JSON/TOML), with a message naming the bad field."""
    return msgspec.convert(data, AircraftCard)
