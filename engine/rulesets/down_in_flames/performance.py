"""5, 7.1.4, 8, 9: an aircraft's ratings as modified, hand limits and Agility Card limits.

Order of modifiers (README ledger, I14): the data card's band at the Element's
altitude (2.4); Ace +1 (9.1.8); loaded penalties (9.2.1, 9.2.2); damage penalties (5.1);
rocket penalties (7.1.4). No rating goes below 1.
"""

from __future__ import annotations

from msgspec import Struct
from msgspec.structs import replace

from umpire.engine.errors import RuleError
from umpire.engine.rulesets.down_in_flames.state import Plane, State, pilot_known
from umpire.engine.rulesets.down_in_flames.tables.burst import (
    CRACK_SHOT_BURST_CHANGE,
    RECRUIT_BURST_CHANGE,
    BurstRow,
    row_for,
)
from umpire.engine.rulesets.down_in_flames.terms import (
    Characteristic,
    PilotQuality,
    Position,
    Station,
    cite,
)


class Ratings(Struct, frozen=True, kw_only=True):
    """Agility, Speed and Horsepower of an aircraft now."""

    agility: int
    speed: int
    hp: int


class HandLimits(Struct, frozen=True, kw_only=True):
    """8.2, 8.3, 9.1.1, 9.1.3, 9.1.6: most and fewest cards a Leader may hold."""

    most: int
    fewest: int


def reduce_agility(agility: int) -> int:
    """5.1.2 and 9.2.1: by 2 if more than 4, otherwise by 1, not below 1."""
    return agility - 2 if agility > 4 else max(1, agility - 1)


def ratings(state: State, plane: Plane, *, with_pilot: bool = True) -> Ratings:
    """The ratings of `plane` at its altitude (9.3: damage penalties as in 5; 9.2.3 a loaded
    aircraft's Speed is unchanged); `with_pilot` False leaves out 9.1.8 (for a role that
    does not know the pilot)."""
    card = state.card_of(plane)
    # A formation may start above its own ceiling (2.5.1 limits only Leaders): read the
    # card's highest band there (README I22).
    band = card.band_at(min(max(1, state.altitude_of(plane)), card.ceiling_level))
    agility, speed, hp = band.agility, band.speed, band.hp
    if with_pilot and plane.pilot_quality is PilotQuality.ACE:  # 9.1.8
        agility, speed, hp = agility + 1, speed + 1, hp + 1
    if plane.loaded and not plane.damaged:  # 9.2.1-9.2.4
        agility, hp = reduce_agility(agility), max(1, hp - 1)
    if plane.damaged:  # 5.1.1-5.1.3
        agility, speed, hp = reduce_agility(agility), max(1, speed - 1), max(1, hp - 1)
    if plane.rockets or plane.rockets_used:  # 7.1.4
        speed = max(1, speed - 1)
        if not plane.rockets_used:
            agility = max(1, agility - 1)
    return Ratings(agility=agility, speed=speed, hp=hp)


def hand_limits(state: State, plane: Plane) -> HandLimits:
    """8.2 most = greater of Agility and Speed; 8.3 fewest = Agility minus Speed when
    Agility is greater; 9.1.1/9.1.3 recruits and greens hold 2 fewer; 9.1.5 regulars as
    these rules say; 9.1.6 veterans 1 more."""
    r = ratings(state, plane)
    most = max(r.agility, r.speed)
    if plane.pilot_quality in (PilotQuality.RECRUIT, PilotQuality.GREEN):
        most -= 2
    elif plane.pilot_quality is PilotQuality.VETERAN:
        most += 1
    fewest = r.agility - r.speed if r.agility > r.speed else 0
    return HandLimits(most=max(0, most), fewest=fewest)


def agility_card_limit(state: State, plane: Plane) -> int | None:
    """8.4, 8.4.2: Agility Cards a Leader may play in a turn, tracked only when its Speed
    exceeds its Agility (None: not limited)."""
    r = ratings(state, plane)
    return r.agility if r.speed > r.agility else None


def wingman_draw(state: State, plane: Plane) -> tuple[int, int]:
    """(offense, defense) card draws of a Wingman: 11 card values; 9.1.2 recruit; 9.1.4
    green; 5.2 damage; 9.1.7 veteran on even-numbered moves."""
    card = state.card_of(plane)
    offense, defense = card.wingman_offense, card.wingman_defense
    quality = plane.pilot_quality
    if quality is PilotQuality.RECRUIT:
        offense, defense = offense - 1, defense - 1
    elif quality is PilotQuality.GREEN:
        if defense > offense:
            defense -= 1
        else:
            offense -= 1
    if plane.damaged:
        if defense > offense:
            defense -= 1
        else:
            offense -= 1
    if quality is PilotQuality.VETERAN and state.move % 2 == 0 and state.move > 0:
        if offense < defense:
            offense += 1
        else:
            defense += 1
    return max(0, offense), max(0, defense)


def burst_row(state: State, plane: Plane) -> BurstRow:
    """3.1-3.1.2, 10.8-10.10: the burst row of a Leader's sight and beam-attack training."""
    card = state.card_of(plane)
    return row_for(card.sight, card.has(Characteristic.BEAM_ATTACKS), state.gyro_reading)


def bursts_available(state: State, plane: Plane, position: Position) -> tuple[int, int]:
    """3.1-3.1.2, 10.8-10.10, 9.1.1, 9.1.9: (bursts this turn, bursts a regular pilot
    without the crack-shot ability would have), for a Leader at `position`."""
    base = burst_row(state, plane).at(position)
    if plane.pilot_quality is PilotQuality.RECRUIT:
        base += RECRUIT_BURST_CHANGE
    bonus = CRACK_SHOT_BURST_CHANGE if plane.crack_shot else 0
    return max(0, base + bonus), max(0, base)


def check_can_spend(state: State, plane: Plane, count: int, rule: str, why: str) -> None:
    """A Leader must hold `count` cards to play or discard them, and 8.3 keeps at least the
    Agility-minus-Speed minimum in hand. Wingmen hold no hand (base game): no check."""
    if plane.station is not Station.LEADER:
        return
    if plane.hand < count:
        raise RuleError(
            f"{plane.id} holds {plane.hand} cards and cannot spend {count} to {why}",
            rule=rule,
        )
    fewest = fewest_kept(state, plane)
    if plane.hand - count < fewest:
        secret = "" if pilot_known(state, plane, "quality") else (
            ", the most any pilot it may have keeps while its pilot is secret, 9.1.11"
        )  # fmt: skip
        raise RuleError(
            f"{plane.id} must always retain {fewest} cards (Agility exceeds Speed, 8.3"
            f"{secret}); it holds {plane.hand} and cannot spend {count} to {why}",
            rule=cite("8.3"),
        )


def fewest_kept(state: State, plane: Plane) -> int:
    """8.3: the cards a Leader must keep in hand. An Ace's +1 Agility can raise it, so
    while the pilot's quality is secret (9.1.11) it is the most any quality the player
    may suppose would keep (README I25): a refusal never turns on the hidden pilot."""
    if pilot_known(state, plane, "quality"):
        return hand_limits(state, plane).fewest
    return max(
        hand_limits(state, replace(plane, pilot_quality=quality)).fewest for quality in PilotQuality
    )
