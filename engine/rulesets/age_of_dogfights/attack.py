"""Steps II and III: firing positions, target priority, and the skip-or-attack rolls.

001_989a2f850da69b66.txt Step II: "Check if the bot can get into a firing position in the
current game round (with the number already rolled on the blue/green die). Analyse paths
towards every nearby player aircraft. Take into account opportunities for both nose and
dorsal machine guns." Priorities: 1 'A' positions over 'B'; 2 'mission' aircraft; 3 damaged
aircraft; 4 a die for equal targets. The search is exact: every path the rolled movement
allows (paths.py), every level the bot can reach, every gun.
Step III: a firing position that would make the bot Exposed is attacked only on 4-6
(+1 aggressive, -1 cautious); a skip moves down the priority list; a skipped 'A' target
is considered again at 'B' only after all other 'A' opportunities.
"""

from __future__ import annotations

from itertools import groupby

from msgspec import Struct

from umpire.engine.decision import Candidate
from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.burst import fire
from umpire.engine.rulesets.age_of_dogfights.choice import equal_choice, target_tie
from umpire.engine.rulesets.age_of_dogfights.events import FiringPositionsFound
from umpire.engine.rulesets.age_of_dogfights.exposure import (
    Pose,
    check,
    is_exposed,
    reachable_levels,
)
from umpire.engine.rulesets.age_of_dogfights.firing import Shot, shots
from umpire.engine.rulesets.age_of_dogfights.geometry import Board
from umpire.engine.rulesets.age_of_dogfights.movement import collides, keep_room, move
from umpire.engine.rulesets.age_of_dogfights.paths import Path, all_paths, distinct_ends
from umpire.engine.rulesets.age_of_dogfights.state import Plane, State, is_mission
from umpire.engine.rulesets.age_of_dogfights.tables.seed_tables import (
    AGGRESSIVENESS_MODIFIER,
    SKIP_OR_ATTACK,
)
from umpire.engine.rulesets.age_of_dogfights.terms import Attitude, Column, Gun, Manoeuvre
from umpire.engine.rulesets.age_of_dogfights.turn import AgeOfDogfightsTurn
from umpire.events.plurals import counted


class Option(Struct, frozen=True, kw_only=True):
    """One way to a firing position: the path, the level, the shot, and exposure."""

    path: Path
    level: int
    shot: Shot
    exposed: bool

    def describe(self) -> str:
        """Compact text for candidates."""
        return (
            f"{self.path.describe()} L{self.level} {self.shot.gun.value} gun, range "
            f"{self.shot.range}" + (" (Exposed)" if self.exposed else "")
        )


class Opportunity(Struct, frozen=True, kw_only=True):
    """A target reachable in one column, with every option that reaches it."""

    target: str
    column: Column
    options: tuple[Option, ...]


def priority_key(state: State, opp: Opportunity) -> tuple[str, bool, bool]:
    """Step II priorities 1-3 (lower sorts first): column, mission aircraft, damaged."""
    target = state.plane(opp.target)
    return (opp.column.value, not is_mission(state, target), not target.damaged)


def find_opportunities(
    turn: AgeOfDogfightsTurn,
    bot: Plane,
    steps: int,
    *,
    rule: str = c.STEP_II,
    guns: tuple[Gun, ...] | None = None,
) -> list[Opportunity]:
    """Step II: every firing position the bot can reach this round, grouped by target and
    column, in priority order (ties left in designation order for Step III's die)."""
    state = turn.state
    model = state.model
    board = Board(model.width, model.height)
    paths = distinct_ends(
        all_paths(bot.position, bot.heading, steps, state.kind_of(bot).turn_limits(), board)
    )
    paths = keep_room(state, bot, paths)
    found: dict[tuple[str, Column], list[Option]] = {}
    for path in paths:
        for level in reachable_levels(state, bot):
            if collides(state, bot, path, level):
                continue
            pose = Pose(position=path.end, heading=path.heading, level=level)
            for shot in shots(state, bot, pose, guns):
                option = Option(path=path, level=level, shot=shot, exposed=is_exposed(state, pose))
                found.setdefault((shot.target, shot.column), []).append(option)
    opps = [
        Opportunity(target=t, column=col, options=tuple(found[(t, col)]))
        for t, col in sorted(found, key=lambda k: (k[1].value, state.plane(k[0]).number))
    ]
    opps.sort(key=lambda o: (*priority_key(state, o), state.plane(o.target).number))
    turn.emit(
        FiringPositionsFound(
            aircraft=bot.id,
            rule=rule,
            candidates=tuple(
                Candidate(
                    option=f"{o.target} column {o.column.value}",
                    chosen=i == 0,
                    reason=_describe_priority(state, o)
                    + f"; {counted(len(o.options), 'position')}, "
                    + f"{sum(not x.exposed for x in o.options)} not Exposed",
                )
                for i, o in enumerate(opps)
            ),
            explanation=f"{len(paths)} distinct end points with {steps} steps; "
            + (f"{len(opps)} opportunities" if opps else "no firing position reachable"),
            opportunities=tuple(f"{o.target}:{o.column.value}" for o in opps),
        )
    )
    return opps


def _describe_priority(state: State, opp: Opportunity) -> str:
    target = state.plane(opp.target)
    return (
        f"column {opp.column.value}, "
        + ("mission aircraft" if is_mission(state, target) else "not a mission aircraft")
        + (", damaged" if target.damaged else ", undamaged")
    )


def walk(turn: AgeOfDogfightsTurn, bot: Plane, opps: list[Opportunity]):  # type: ignore[no-untyped-def]
    """Yield opportunities in priority order; a die picks among equal targets when the
    choice is needed (Step II priority 4), and again among those left after a skip."""
    state = turn.state
    for _, group_iter in groupby(opps, key=lambda o: priority_key(state, o)):
        remaining = sorted(group_iter, key=lambda o: state.plane(o.target).number)
        while remaining:
            if len(remaining) == 1:
                yield remaining.pop()
                continue
            index = target_tie(turn, bot.id, [state.plane(o.target) for o in remaining])
            yield remaining.pop(index)


def best_option(turn: AgeOfDogfightsTurn, bot: Plane, options: list[Option], why: str) -> Option:
    """Among positions for one opportunity: the closest range (the best shot, cardinal
    rule), then a die among equal ones (General Rules)."""
    closest = min(o.shot.range for o in options)
    best = [o for o in options if o.shot.range == closest]
    index = equal_choice(
        turn, bot.id, f"equal firing positions ({why})", [o.describe() for o in best]
    )
    return best[index]


def step_iii(
    turn: AgeOfDogfightsTurn, bot: Plane, opps: list[Opportunity], *, first_rule: str = c.STEP_III
) -> tuple[Opportunity, Option] | None:
    """Step III: go down the priority list until an attack is made, or none is left."""
    modifier = AGGRESSIVENESS_MODIFIER[bot.aggressiveness]
    skipped_a: set[str] = set()
    for opp in walk(turn, bot, opps):
        rule = first_rule
        if opp.column is Column.B and opp.target in skipped_a:
            rule = c.STEP_III_B_AGAIN
        clear = [o for o in opp.options if not o.exposed]
        label = f"firing position on {opp.target} (column {opp.column.value})"
        if clear:
            choice = best_option(turn, bot, clear, label)
            pose = Pose(position=choice.path.end, heading=choice.path.heading, level=choice.level)
            check(turn, bot, pose, label, rule=rule)
            return opp, choice
        first = opp.options[0]
        pose = Pose(position=first.path.end, heading=first.path.heading, level=first.level)
        check(turn, bot, pose, label + ", every position Exposed", rule=rule)
        result = turn.table(
            bot.id,
            SKIP_OR_ATTACK,
            modifier=modifier,
            why_modifier=f"{bot.aggressiveness} pilot",
            purpose=f"skip or attack {opp.target}",
        )
        if result == "attack":
            return opp, best_option(turn, bot, list(opp.options), label)
        if opp.column is Column.A:
            skipped_a.add(opp.target)
    return None


def fly_attack(
    turn: AgeOfDogfightsTurn, bot_id: str, opp: Opportunity, option: Option, *, rule: str
) -> None:
    """Move into the firing position and fire (Long Burst). Interpretation: the bot ends
    an attack in level flight at the target's level."""

    bot = turn.state.plane(bot_id)
    move(
        turn,
        bot,
        Manoeuvre.ATTACK,
        option.path,
        option.level,
        Attitude.LEVEL,
        rule=rule,
        target=opp.target,
        candidates=[
            Candidate(
                option=o.describe(),
                chosen=o == option,
                reason="flown" if o == option else "another position",
            )
            for o in opp.options[:12]
        ],
        explanation=f"attacks {opp.target} from a column {opp.column.value} position: "
        f"{option.describe()}",
    )
    fire(turn, bot_id, option.shot)


def attack_top(
    turn: AgeOfDogfightsTurn, bot_id: str, opps: list[Opportunity], *, rule: str
) -> None:
    """Attack the top-priority opportunity (Step II priorities), from a position that is
    not Exposed where there is one (the mission and retreat attack rolls have already
    decided to attack)."""
    bot = turn.state.plane(bot_id)
    opp = next(iter(walk(turn, bot, opps)))
    clear = [o for o in opp.options if not o.exposed] or list(opp.options)
    option = best_option(turn, bot, clear, f"firing position on {opp.target}")
    fly_attack(turn, bot_id, opp, option, rule=rule)
