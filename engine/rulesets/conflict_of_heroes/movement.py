"""5.3 AI Movement Orders and 5.3.1 AI Low Risk Move: which hexes an AI may move into, and
which one it picks; pivoting toward a flanking Unit.

Seed 003_368c69a730e6e14a.txt 5.3, 5.3.1. A Move order moves the AI one hex (one base-game
move action). The hexes it may enter are its neighbours on the map that are passable, hold
no other AI ("AIs will not stack with other AIs") and are no farther from the target than
its own hex ("Movement Orders will direct the AI towards Targets"). A hex at the same
distance is the sideways step of 5.3.1 "towards the Target's flank if the AI cannot move
closer": a Low Risk Move may take it; a Move order only with `Setup.sideways_moves`
(README ledger 5.3), otherwise the AI cannot carry the order out and the next candidate
is tried. An AI with close-combat penalties never enters a hex holding a Unit (5.1).
"""

from __future__ import annotations

from dataclasses import dataclass

from umpire.engine.rulesets.conflict_of_heroes.battlefield import (
    ai_at,
    distance,
    dm,
    enemies_of,
    fire_zones,
    flanked,
    hex_of,
    in_close_combat,
    in_fire_zone,
    short_range_fire_zones,
    terrain,
)
from umpire.engine.rulesets.conflict_of_heroes.priority import Key, Prefer
from umpire.engine.rulesets.conflict_of_heroes.state import State, Unit
from umpire.engine.rulesets.conflict_of_heroes.terms import cite


@dataclass(frozen=True)
class HexOption:
    """A hex an AI may move into, with the values 5.3 ranks it by."""

    label: str
    to_target: int
    in_fire_zone: int  # 1 if in an enemy Fire Zone
    dm: int
    flank: int  # 1 if on the target Unit's flank
    cost: int


# 5.3: the movement hex priorities, in order (the 1D6 random choice ends them).
HEX_KEYS: tuple[Key[HexOption], ...] = (
    Key("fewer hexes away from the Target (5.3)", lambda h: h.to_target, Prefer.LOW),
    Key(
        "out of a Fire Zone (5.3)",
        lambda h: h.in_fire_zone,
        Prefer.LOW,
        lambda v: "in a Fire Zone" if v else "out of Fire Zones",
    ),
    Key("into the highest DM hex (5.3)", lambda h: h.dm, Prefer.HIGH),
    Key(
        "towards an enemy's flank (5.3)",
        lambda h: h.flank,
        Prefer.HIGH,
        lambda v: "on its flank" if v else "not on its flank",
    ),
)

# A CC-penalty AI disengaging (5.1) has no target to close on: out of Fire Zones, then DM.
DISENGAGE_KEYS: tuple[Key[HexOption], ...] = HEX_KEYS[1:3]


def _option(state: State, ai: Unit, label: str, target_hex: str, target: Unit | None) -> HexOption:
    return HexOption(
        label=label,
        to_target=distance(state, label, target_hex),
        in_fire_zone=1 if fire_zones(state, ai, label) else 0,
        dm=dm(state, label),
        flank=1 if target is not None and flanked(state, target, label) else 0,
        cost=ai.move_cost + terrain(state, label).move_extra,
    )


def _neighbours(state: State, ai: Unit) -> list[str]:
    return sorted(h.label for h in state.rules.grid.neighbours(hex_of(ai.hex)))


def _basic_reason(state: State, ai: Unit, label: str) -> str:
    if terrain(state, label).impassable:
        return "impassable terrain"
    other = ai_at(state, label, but=ai.id)
    if other is not None:
        return f"holds {other.id}: AIs will not stack with other AIs (5.3.1)"
    return ""


def hex_options(
    state: State, ai: Unit, target_hex: str, target: Unit | None, *, low_risk: bool
) -> tuple[list[HexOption], list[tuple[str, str]]]:
    """5.3 / 5.3.1: the hexes `ai` may move into toward the target, and why the others
    are not allowed (both by hex label)."""
    here = distance(state, ai.hex, target_hex)
    sideways = state.rules.sideways_moves
    start_fz = bool(fire_zones(state, ai, ai.hex))
    start_dm = dm(state, ai.hex)
    allowed: list[HexOption] = []
    rejected: list[tuple[str, str]] = []
    for label in _neighbours(state, ai):
        reason = _basic_reason(state, ai, label)
        option = _option(state, ai, label, target_hex, target)
        if not reason and option.to_target > here:
            reason = "farther from the Target (moves go towards Targets, 5.3)"
        if not reason and option.to_target == here and not (low_risk or sideways):
            reason = (
                "no closer to the Target: only a Low Risk Move steps sideways (5.3.1; "
                "README ledger 5.3, the sideways moves switch)"
            )
        if not reason and in_close_combat(state, ai, label):
            if ai.cc_penalty:
                reason = "close combat: an AI with CC penalties will not move into CC (5.1)"
            elif low_risk:
                reason = "close combat: a Low Risk Move never enters CC (5.3.1)"
        if not reason and low_risk:
            reason = _low_risk_reason(state, ai, label, option, start_fz, start_dm)
        if reason:
            rejected.append((label, reason))
        else:
            allowed.append(option)
    return allowed, rejected


def _low_risk_reason(
    state: State, ai: Unit, label: str, option: HexOption, start_fz: bool, start_dm: int
) -> str:
    """5.3.1: the Low Risk Move conditions for one hex ('' when allowed)."""
    if short_range_fire_zones(state, ai, label):
        return "in a Short Range Fire Zone (5.3.1)"
    if not option.in_fire_zone:
        return ""
    if not start_fz and option.dm == 0:
        return "a Fire Zone hex without DM, and the AI is not in a Fire Zone (5.3.1)"
    if start_fz and option.dm < start_dm:
        return f"a Fire Zone hex with DM {option.dm} below the starting hex's DM {start_dm} (5.3.1)"
    return ""


def disengage_options(state: State, ai: Unit) -> tuple[list[HexOption], list[tuple[str, str]]]:
    """5.1: the hexes a CC-penalty AI in close combat may disengage into."""
    allowed: list[HexOption] = []
    rejected: list[tuple[str, str]] = []
    for label in _neighbours(state, ai):
        reason = _basic_reason(state, ai, label)
        if not reason and in_close_combat(state, ai, label):
            reason = "still close combat"
        if reason:
            rejected.append((label, reason))
        else:
            allowed.append(_option(state, ai, label, ai.hex, None))
    return allowed, rejected


def facing_after_move(state: State, to: str, target_hex: str, travel: int) -> int:
    """The AI faces the target after moving (the facing whose front hex is nearest to it,
    lowest direction on a tie); in the target's hex it keeps the direction of travel."""
    if to == target_hex:
        return travel
    grid = state.rules.grid
    return min(
        range(6),
        key=lambda f: (grid.distance(grid.neighbour(hex_of(to), f), hex_of(target_hex)), f),
    )


def flanking_units(state: State, ai: Unit) -> list[Unit]:
    """5.3.1: Units flanking the AI: outside its front arc, with the AI in their Fire Zone."""
    return [
        e
        for e in enemies_of(state, ai)
        if flanked(state, ai, e.hex) and in_fire_zone(state, e, ai.hex, e.range)
    ]


def pivot_facing(state: State, ai: Unit, toward: Unit) -> int:
    """5.3.1: the facing that points the AI at the flanking Unit: the front hex nearest to
    it, then the least turning, then the lowest direction."""
    grid = state.rules.grid
    here, there = hex_of(ai.hex), hex_of(toward.hex)

    def rank(f: int) -> tuple[int, int, int]:
        turn = min((f - ai.facing) % 6, (ai.facing - f) % 6)
        return (grid.distance(grid.neighbour(here, f), there), turn, f)

    return min(range(6), key=rank)


PIVOT_RULE = cite("5.3.1")
