"""The priority lists as data, checked against the seed text: each list's criteria appear
in the seed in the same order as in the code (003_368c69a730e6e14a.txt 5.1.1, 5.2, 5.3)."""

from __future__ import annotations

import pytest

from tests.rulesets.conflict_of_heroes.setups import ai, ai_turn, card, one, state, unit
from umpire.engine.rulesets.conflict_of_heroes.ai_orders import FIRE_KEYS, MOVE_KEYS
from umpire.engine.rulesets.conflict_of_heroes.events import AiTargetSelected, AiUnitSelected
from umpire.engine.rulesets.conflict_of_heroes.movement import HEX_KEYS
from umpire.engine.rulesets.conflict_of_heroes.priority import Key, Prefer
from umpire.engine.rulesets.conflict_of_heroes.targeting import TARGET_KEYS
from umpire.testing.support.seeds import seed_text

SEED = "003_368c69a730e6e14a.txt"

LISTS: dict[str, tuple[str, str, tuple[Key, ...], list[tuple[str, str, Prefer]]]] = {  # type: ignore[type-arg]
    "5.1.1 fire": (
        "AI Fire or Move Eligible AI Priority (5.1.1)",
        "AI Fire Order Target Priority (5.2)",
        FIRE_KEYS,
        [
            ("Un-hit AI", "un-hit AI", Prefer.LOW),
            ("highest Firepower", "highest Firepower", Prefer.HIGH),
            ("lowest cost to fire", "lowest cost to fire", Prefer.LOW),
            ("highest DM hex", "highest DM hex", Prefer.HIGH),
        ],
    ),
    "5.1.1 move": (
        "AI Fire or Move Eligible AI Priority (5.1.1)",
        "To Fire:",
        MOVE_KEYS,
        [
            ("Un-hit AI", "un-hit AI", Prefer.LOW),
            ("lowest cost to move", "lowest cost to move", Prefer.LOW),
        ],
    ),
    "5.2": (
        "AI Fire Order Target Priority (5.2)",
        "AI Movement Orders (5.3)",
        TARGET_KEYS,
        [
            ("lowest total DV", "lowest total DV", Prefer.LOW),
            ("**hit Unit**", "hit Unit", Prefer.HIGH),
            ("**fresh Unit**", "fresh Unit", Prefer.HIGH),
            ("**highest firepower**", "highest firepower", Prefer.HIGH),
            ("**lowest cost to fire**", "lowest cost to fire", Prefer.LOW),
            ("**lowest cost to move**", "lowest cost to move", Prefer.LOW),
        ],
    ),
    "5.3": (
        "AI Movement Orders (5.3)",
        "AI Low Risk Move (5.3.1)",
        HEX_KEYS,
        [
            ("fewer number of hexes away", "fewer hexes away", Prefer.LOW),
            ("out of a Fire Zone", "out of a Fire Zone", Prefer.LOW),
            ("highest DM hex", "highest DM hex", Prefer.HIGH),
            ("towards an enemy's flank", "towards an enemy's flank", Prefer.HIGH),
        ],
    ),
}


@pytest.mark.parametrize("name", sorted(LISTS))
def test_priority_list_matches_the_seed(name: str) -> None:
    """The criteria, their order and their direction are the seed's."""
    start, end, keys, rows = LISTS[name]
    text = seed_text(SEED)
    section = text[text.index(start) : text.index(end, text.index(start))]
    positions = [section.index(phrase) for phrase, _, _ in rows]
    assert positions == sorted(positions), f"{name}: the seed orders them differently"
    assert len(keys) == len(rows)
    for key, (_, key_phrase, prefer) in zip(keys, rows, strict=True):
        assert key_phrase.lower() in key.name.lower() and key.prefer is prefer


def test_the_seeds_example_order_is_executed() -> None:
    """'Ex: Highest FP AI closest to Lowest DV Unit → Fire': the highest-FP eligible AI (B)
    fires at the lowest-DV Unit it can hit (U1), though A and U2 are closer."""
    order = "Highest FP AI closest to Lowest DV Unit → Fire"
    units = [
        ai("A", "0505", turreted=True),
        ai("B", "0503", turreted=True, firepower=6),
        unit("U1", "0508", front_dv=11, flank_dv=11),
        unit("U2", "0506", front_dv=13, flank_dv=13),
    ]
    events, _ = ai_turn(state(units, (card(1, "blue", 12, order),)), 1, [3, 3])
    assert one(events, AiUnitSelected).unit == "B"
    target = one(events, AiTargetSelected)
    assert (target.target, target.needed) == ("U1", 5)
