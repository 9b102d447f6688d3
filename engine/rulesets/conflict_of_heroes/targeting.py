"""5.2 AI Fire Order Target Priority, with the 11+ fall-through of 5.1.

Seed 003_368c69a730e6e14a.txt 5.2: among target Units equally distant from the firing AI,
fire at the one with the lowest total DV, then the hit Unit, the fresh Unit, the highest
firepower, the lowest cost to fire, the lowest cost to move, then a 1D6 random choice.
"Executing an AI Order" (fire): "If the AI needs an 11 or higher to hit this Target,
repeat the Target selection process, excluding the current Target".
"""

from __future__ import annotations

from umpire.engine.rulesets.conflict_of_heroes.eligibility import AiOption, Target
from umpire.engine.rulesets.conflict_of_heroes.hit_chance import NEVER_FIRES_AT
from umpire.engine.rulesets.conflict_of_heroes.priority import Choice, Key, Prefer, choose, narrow
from umpire.engine.rulesets.conflict_of_heroes.terms import cite
from umpire.engine.rulesets.conflict_of_heroes.turn import ConflictOfHeroesTurn

RULE = cite("5.2")


TARGET_KEYS: tuple[Key[Target], ...] = (
    Key("easiest to hit: lowest total DV (5.2)", lambda t: t.total_dv, Prefer.LOW),
    Key(
        "the hit Unit (5.2)",
        lambda t: int(t.unit is not None and t.unit.hit),
        Prefer.HIGH,
        lambda v: "hit" if v else "not hit",
    ),
    Key(
        "the fresh Unit (5.2)",
        lambda t: int(t.unit is not None and t.unit.fresh),
        Prefer.HIGH,
        lambda v: "fresh" if v else "spent",
    ),
    Key("highest firepower (5.2)", lambda t: t.unit.firepower if t.unit else 0, Prefer.HIGH),
    Key("lowest cost to fire (5.2)", lambda t: t.unit.fire_cost if t.unit else 0, Prefer.LOW),
    Key("lowest cost to move (5.2)", lambda t: t.unit.move_cost if t.unit else 0, Prefer.LOW),
)


def choose_fire_target(turn: ConflictOfHeroesTurn, option: AiOption) -> Choice[Target]:
    """5.2 target priority among the closest targets; a choice needing 11+ is excluded and
    the selection repeated (ties on every criterion need the same roll, so a failing
    best group is excluded whole without rolling for it)."""
    pool = sorted(option.targets, key=lambda t: t.id)
    excluded: list[tuple[str, str]] = []
    while pool:
        d = min(t.distance for t in pool)
        group = [(t.id, t) for t in pool if t.distance == d]
        best = narrow(group, TARGET_KEYS).survivors
        if best[0][1].needed >= NEVER_FIRES_AT:
            for name, t in best:
                excluded.append(
                    (
                        name,
                        f"needs {t.needed} or higher on 2D6: 11+, excluded; target selection "
                        "repeated without it (5.1)",
                    )
                )
            gone = {name for name, _ in best}
            pool = [t for t in pool if t.id not in gone]
            continue
        farther = [
            (t.id, f"{t.distance} hexes away: farther than the closest target ({d})")
            for t in pool
            if t.distance != d
        ]
        return choose(
            turn,
            group,
            TARGET_KEYS,
            purpose=f"5.2 target for {option.ai.id}",
            rule=RULE,
            rejected=[*excluded, *farther],
        )
    raise AssertionError("eligibility guarantees a target needing 10 or less")  # pragma: no cover
