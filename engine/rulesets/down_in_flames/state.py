"""The state umpire keeps of a dogfight (frozen; dicts keyed by id)."""

from __future__ import annotations

from msgspec import UNSET, Struct, UnsetType, field

from umpire.engine.errors import RuleError
from umpire.engine.rulesets.down_in_flames.aircraft import AircraftCard
from umpire.engine.rulesets.down_in_flames.terms import (
    CombatDie,
    GyroReading,
    PilotQuality,
    Position,
    Side,
    Station,
)
from umpire.events.types import Owner

SECRET_FIELDS = ("pilot_quality", "crack_shot", "keen_eyesight")  # 9.1.11


class Plane(Struct, frozen=True, kw_only=True):
    """One aircraft: who flies it (secret until revealed), its condition and this turn's
    counters."""

    id: str
    aircraft: str
    side: Side
    element: str
    station: Station
    pilot_quality: PilotQuality
    crack_shot: bool
    keen_eyesight: bool
    revealed: tuple[str, ...] = ()
    loaded: bool = False
    rockets: bool = False
    rockets_used: bool = False
    hand: int = 0
    damaged: bool = False
    shot_down: bool = False
    damage_points: int = 0
    in_formation: bool = True
    ammo_depleted: bool = False
    agility_played: int = 0
    bursts_used: int = 0
    attack_cards_played: int = 0
    ace_card_used: bool = False
    keen_eyesight_used: bool = False


class Element(Struct, frozen=True, kw_only=True):
    """An Element (Leader and Wingman, or a bomber formation) and its altitude (2.3);
    altitude 0 means the starting altitude is not set yet."""

    id: str
    side: Side
    altitude: int = 0


class PendingAttack(Struct, frozen=True, kw_only=True):
    """3.2.10: attack cards announced for aggregation, not yet resolved."""

    attacker: str
    target: str
    cards: int
    hits: int
    bursts: int
    reduced_hv: bool = False
    heavy_fire: bool = False


class State(Struct, frozen=True, kw_only=True):
    """A dogfight under the supplemental rules."""

    cards: dict[str, AircraftCard]
    aircraft: dict[str, Plane]
    elements: dict[str, Element]
    player_sides: tuple[Side, ...]
    combat_die: CombatDie
    ammunition_rule: bool
    rockets_rule: bool
    gyro_reading: GyroReading
    positions: dict[str, Position] = field(default_factory=dict)
    pending: dict[str, PendingAttack] = field(default_factory=dict)
    move: int = 0
    active_side: Side | None = None
    last_attack_card_by: str = ""
    victory_points_conceded: dict[str, int] = field(default_factory=dict)
    thach_weave: tuple[Side, ...] = ()
    turns_taken: dict[str, int] = field(default_factory=dict)
    # 7.1.2 (v9): the aircraft whose latest attack card in this move was their rocket
    # attack, "not subject to counter-fire" until they play another attack card. UNSET
    # (left out of the encoding) while there is none, so a log made before the field
    # existed folds to the same state hash; `rocket_attackers` reads it.
    rocket_attack_last: tuple[str, ...] | UnsetType = UNSET

    def plane(self, plane_id: str) -> Plane:
        """The aircraft `plane_id` (KeyError if unknown; decide checks first)."""
        return self.aircraft[plane_id]

    def card_of(self, plane: Plane) -> AircraftCard:
        """The data card of `plane`."""
        return self.cards[plane.aircraft]

    def altitude_of(self, plane: Plane) -> int:
        """2.3: the altitude of `plane`'s Element."""
        return self.elements[plane.element].altitude

    def leader_of(self, element: str) -> Plane | None:
        """The Leader of `element`, if it has one."""
        for plane_id in sorted(self.aircraft):
            plane = self.aircraft[plane_id]
            if plane.element == element and plane.station is Station.LEADER:
                return plane
        return None

    def members(self, element: str) -> list[Plane]:
        """The aircraft of `element` still flying, by id."""
        return [
            self.aircraft[i]
            for i in sorted(self.aircraft)
            if self.aircraft[i].element == element and not self.aircraft[i].shot_down
        ]

    def rocket_attackers(self) -> tuple[str, ...]:
        """7.1.2: the aircraft whose latest attack card this move was their rocket attack."""
        return () if self.rocket_attack_last is UNSET else self.rocket_attack_last

    def pilot_visible(self, plane: Plane, sides: tuple[Side, ...]) -> bool:
        """Whether a role running `sides` knows `plane`'s pilot (9.1.11)."""
        return plane.side in sides


def position_key(attacker: str, target: str) -> str:
    """The key of a position in State.positions."""
    return f"{attacker}>{target}"


def pilot_known(state: State, plane: Plane, characteristic: str) -> bool:
    """9.1.11: whether the player knows `characteristic` ("quality", "crack shot", "keen
    eyesight") of `plane`'s pilot: one of the player's own sides, or revealed. A refusal
    states a number or rule that the characteristic decides only where this holds."""
    return plane.side in state.player_sides or characteristic in plane.revealed


def find_plane(state: State, plane_id: str, rule: str) -> Plane:
    """The aircraft `plane_id` still flying, or RuleError citing `rule`."""
    plane = state.aircraft.get(plane_id)
    if plane is None:
        raise RuleError(
            f"no aircraft {plane_id!r} in this dogfight; "
            f"aircraft: {', '.join(sorted(state.aircraft))}",
            rule=rule,
        )
    if plane.shot_down:
        raise RuleError(f"{plane_id} has been shot down and takes no further part", rule=rule)
    return plane


def owner_of(state: State, side: Side) -> Owner:
    """Whose roll a roll for `side` is: the player's for a side the player runs
    (Setup.player_sides), else the opponent's (the umpire rolls for it)."""
    return Owner.PLAYER if side in state.player_sides else Owner.OPPONENT
