"""The 2D6 hit chance of a fire attack: the documented formula (README "Hit formula").

Seed 003_368c69a730e6e14a.txt 5.1 ("will not fire at a Target if it needs a modified 2D6
result of 11 or higher") and 5.2 ("lowest total DV, 7.3 AtB") need the base game's attack
arithmetic, which the seed does not print. umpire uses:

    total DV  = (front DV if the attacker is in the target's front arc, else flank DV)
                + DM of the target's hex
    attack    = firepower + range modifier + scenario attack modifier
                range modifier = short_range_fp_modifier within `short_range` hexes,
                                 long_range_fp_modifier beyond normal range, else 0
    needed    = total DV - attack     (the 2D6 result needed to hit; hit if 2D6 >= needed)

All parameters are scenario data (setup.Setup).
"""

from __future__ import annotations

from enum import StrEnum

from msgspec import Struct

from umpire.engine.rulesets.conflict_of_heroes.battlefield import distance, dm, in_front_arc
from umpire.engine.rulesets.conflict_of_heroes.state import State, Unit

NEVER_FIRES_AT = 11  # 5.1: "needs a modified 2D6 result of 11 or higher"


class RangeBand(StrEnum):
    """How far a shot is, by the attacker's ranges."""

    SHORT = "short"
    NORMAL = "normal"
    LONG = "long"
    OUT = "out of range"


class Shot(Struct, frozen=True, kw_only=True):
    """One possible attack and its arithmetic."""

    band: RangeBand
    total_dv: int
    attack: int
    needed: int


def range_band(state: State, attacker: Unit, target: Unit) -> RangeBand:
    """The range band of a shot from attacker to target."""
    d = distance(state, attacker.hex, target.hex)
    if d <= min(state.rules.short_range, attacker.range):
        return RangeBand.SHORT
    if d <= attacker.range:
        return RangeBand.NORMAL
    if d <= attacker.long_range:
        return RangeBand.LONG
    return RangeBand.OUT


def total_dv(state: State, attacker: Unit, target: Unit) -> int:
    """5.2 / 7.3 AtB: the target's DV facing the attacker plus its hex's DM."""
    facing_dv = (
        target.front_dv
        if attacker.hex == target.hex or in_front_arc(state, target, attacker.hex)
        else target.flank_dv
    )
    return facing_dv + dm(state, target.hex)


def shot(state: State, attacker: Unit, target: Unit) -> Shot:
    """The arithmetic of attacker firing at target (module docstring)."""
    band = range_band(state, attacker, target)
    modifier = {
        RangeBand.SHORT: state.rules.short_range_fp_modifier,
        RangeBand.LONG: state.rules.long_range_fp_modifier,
    }.get(band, 0)
    attack = attacker.firepower + modifier + state.rules.attack_modifier
    dv = total_dv(state, attacker, target)
    return Shot(band=band, total_dv=dv, attack=attack, needed=dv - attack)
