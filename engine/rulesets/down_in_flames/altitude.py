"""2: altitude in 2,000-foot levels: starting altitude (2.5), dives (2.1), climbs (2.2) and
VERTICAL ROLL responses (2.6.1-2.6.5), with the characteristics of 10.1-10.5."""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.dice import d6, d20
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.down_in_flames.card_play import check_agility, play_agility
from umpire.engine.rulesets.down_in_flames.commands import (
    BidStartingAltitude,
    Climb,
    Dive,
    PlayVerticalRoll,
    RollStartingAltitude,
)
from umpire.engine.rulesets.down_in_flames.events import AltitudeChanged, StartingAltitudeSet
from umpire.engine.rulesets.down_in_flames.performance import check_can_spend
from umpire.engine.rulesets.down_in_flames.setup import MAX_START_LEVEL
from umpire.engine.rulesets.down_in_flames.state import (
    Plane,
    State,
    find_plane,
    owner_of,
    position_key,
)
from umpire.engine.rulesets.down_in_flames.terms import (
    RULE_TURN,
    Card,
    Characteristic,
    Direction,
    Position,
    Side,
    Station,
    cite,
)
from umpire.engine.rulesets.down_in_flames.turn import DownInFlamesTurn
from umpire.events.plurals import counted
from umpire.events.types import DiceRolled, Owner

LOWEST_LEVEL = 1  # 2: "Levels are numbered, with 1 being the lowest"
MAX_REROLLS = 10  # 2.5 interpretation: reroll a start above the limit at most this often


def start_limit(state: State) -> int:
    """2.5.1, 2.5.2: no higher than every Leader can reach, never above 20."""
    ceilings = [
        state.card_of(p).ceiling_level
        for p in state.aircraft.values()
        if p.station is Station.LEADER
    ]
    return min([MAX_START_LEVEL, *ceilings])


def _check_not_started(state: State) -> None:
    if any(e.altitude for e in state.elements.values()):
        raise RuleError("the starting altitude is already set", rule=cite("2.5"))


def decide_roll_start(turn: DownInFlamesTurn, command: RollStartingAltitude) -> None:
    """2.5: roll a D20 for the starting altitude of all aircraft; a roll above the 2.5.1 /
    2.5.2 limit is rolled again (after MAX_REROLLS, the limit is used)."""
    state = turn.state
    _check_not_started(state)
    limit = start_limit(state)
    rolls: list[DiceRolled] = []
    candidates: list[Candidate] = []
    altitude = limit
    for _ in range(MAX_REROLLS):
        roll = turn.roll(d20(), purpose="starting altitude", rule=cite("2.5"), owner=Owner.OPPONENT)
        rolls.append(roll)
        if roll.total <= limit:
            altitude = roll.total
            candidates.append(
                Candidate(
                    option=f"level {roll.total}",
                    chosen=True,
                    reason=f"at or below the start limit {limit}",
                )
            )
            break
        candidates.append(
            Candidate(
                option=f"level {roll.total}",
                chosen=False,
                reason=f"above level {limit} (2.5.1, 2.5.2): roll again",
            )
        )
    turn.emit(
        StartingAltitudeSet(
            altitude=altitude,
            method="d20",
            rule=cite("2.5"),
            dice=tuple(r.roll for r in rolls),
            candidates=tuple(candidates),
            explanation=f"all aircraft start at altitude level {altitude}"
            + _rerolled(rolls, limit),
        )
    )


def _rerolled(rolls: list[DiceRolled], limit: int) -> str:
    """The rolls above the 2.5.1/2.5.2 limit that were rolled again, in words (ledger I1),
    so that the line says why the first roll is not the start."""
    high = [str(r.total) for r in rolls if r.total > limit]
    if not high:
        return ""
    return (
        f" (rolled again on {', '.join(high)}: above level {limit}, the highest every Leader "
        f"can reach and never above 20, 2.5.1-2.5.2)"
    )


def decide_bid_start(turn: DownInFlamesTurn, command: BidStartingAltitude) -> None:
    """2.5: the higher victory-point bid prevails; tied bids dice (a D6 each, higher wins,
    equal rolls again). The prevailing side concedes its bid."""
    state = turn.state
    _check_not_started(state)
    limit = start_limit(state)
    first, second = command.bids
    if first.side is second.side:
        raise RuleError("each side writes one bid", rule=cite("2.5"))
    for bid in command.bids:
        if bid.altitude > limit:
            raise RuleError(
                f"side {bid.side.value} bids level {bid.altitude}, above level {limit}, the "
                "highest every Leader can reach (never above 20)",
                rule=cite("2.5.1") if bid.altitude <= MAX_START_LEVEL else cite("2.5.2"),
            )
    rolls: list[DiceRolled] = []
    ordered = sorted(command.bids, key=lambda b: b.side.value)
    if first.victory_points != second.victory_points:
        winner = max(ordered, key=lambda b: b.victory_points)
        why = "the higher victory-point bid"
    else:
        winner = ordered[0]
        why = "tied bids: side A wins the dice"
        for _ in range(MAX_REROLLS):
            a = turn.roll(
                d6(),
                purpose="altitude bid tie, side A",
                rule=cite("2.5"),
                owner=owner_of(state, Side.A),
            )
            b = turn.roll(
                d6(),
                purpose="altitude bid tie, side B",
                rule=cite("2.5"),
                owner=owner_of(state, Side.B),
            )
            rolls += [a, b]
            if a.total != b.total:
                winner = ordered[0] if a.total > b.total else ordered[1]
                why = f"tied bids: side A rolled {a.total}, side B {b.total}"
                break
    candidates = tuple(
        Candidate(
            option=f"side {b.side.value}: level {b.altitude} for {b.victory_points} VP",
            chosen=b is winner,
            reason=why if b is winner else "did not prevail",
        )
        for b in ordered
    )
    turn.emit(
        StartingAltitudeSet(
            altitude=winner.altitude,
            method="bid",
            winning_side=winner.side.value,
            victory_points=winner.victory_points,
            rule=cite("2.5"),
            dice=tuple(r.roll for r in rolls),
            candidates=candidates,
            explanation=f"side {winner.side.value}'s bid prevails ({why}); all aircraft start "
            f"at level {winner.altitude}",
        )
    )


def _element_altitude(state: State, element: str, rule: str) -> int:
    if element not in state.elements:
        raise RuleError(
            f"no element {element!r}; elements: {', '.join(sorted(state.elements))}", rule=rule
        )
    if not state.members(element):
        raise RuleError(f"element {element} has no aircraft still flying", rule=rule)
    altitude = state.elements[element].altitude
    if altitude == 0:
        raise RuleError("set the starting altitude first (2.5)", rule=cite("2.5"))
    return altitude


def dive_gain(plane: Plane | None, state: State, levels: int) -> int:
    """2.1 one card per level dived; 10.2 Quick Dive two; 10.4 Dive Limit at most one."""
    if plane is None:
        return 0
    card = state.card_of(plane)
    gain = levels * (2 if card.has(Characteristic.QUICK_DIVE) else 1)
    return min(gain, 1) if card.has(Characteristic.DIVE_LIMIT) else gain


def climb_cost(plane: Plane | None, state: State) -> int:
    """2.2 two cards per level climbed; 10.1 Quick Climb one; 10.5 Slow Climb three."""
    if plane is None:
        return 0
    card = state.card_of(plane)
    if card.has(Characteristic.QUICK_CLIMB):
        return 1
    return 3 if card.has(Characteristic.SLOW_CLIMB) else 2


def change(
    state: State, element: str, direction: Direction, levels: int, rule: str, extra_cards: int = 0
) -> AltitudeChanged:
    """An Element dives `levels` or climbs 1 level, with its Leader's card gain or discard.
    `extra_cards` are cards the Leader already spends with the same play (a VERTICAL ROLL)."""
    altitude = _element_altitude(state, element, rule)
    leader = state.leader_of(element)
    if direction is Direction.DIVE:
        to = altitude - levels
        if to < LOWEST_LEVEL:
            raise RuleError(
                f"element {element} at level {altitude} cannot dive {levels}: level 1 is lowest",
                rule=cite("2.1"),
            )
        delta = dive_gain(leader, state, levels)
        what = f"dives {counted(levels, 'level')}; its Leader gains {counted(delta, 'card')}"
    else:
        to = altitude + 1
        ceiling = min(state.card_of(p).ceiling_level for p in state.members(element))
        if to > ceiling:
            raise RuleError(
                f"element {element} at level {altitude} cannot climb: its maximum ceiling is "
                f"level {ceiling}",
                rule=cite("2.2"),
            )
        cost = climb_cost(leader, state)
        if leader is not None:
            check_can_spend(state, leader, cost + extra_cards, cite("2.2"), "climb a level")
        delta = -cost
        what = f"climbs 1 level; its Leader discards {counted(cost, 'card')}"
    return AltitudeChanged(
        element=element,
        from_level=altitude,
        to_level=to,
        leader=leader.id if leader else "",
        hand_change=delta,
        rule=rule,
        explanation=f"element {element} {what} (level {altitude} to {to})",
    )


def _check_own_turn(state: State, element: str, rule: str) -> None:
    side = state.elements[element].side if element in state.elements else None
    if side is not None and state.active_side is not side:
        raise RuleError(
            f"element {element} may change altitude only during its side's turn", rule=rule
        )


def decide_dive(turn: DownInFlamesTurn, command: Dive) -> None:
    """2.1: dive 1 or 2 levels; Leaders gain 1 card per level (10.2, 10.4)."""
    _check_own_turn(turn.state, command.element, cite("2.1"))
    turn.emit(change(turn.state, command.element, Direction.DIVE, command.levels, cite("2.1")))


def decide_climb(turn: DownInFlamesTurn, command: Climb) -> None:
    """2.2: climb 1 level up to the maximum ceiling; Leaders discard 2 cards (10.1, 10.5)."""
    _check_own_turn(turn.state, command.element, cite("2.2"))
    turn.emit(change(turn.state, command.element, Direction.CLIMB, 1, cite("2.2")))


def engaged_with(state: State, one: str, other: str) -> bool:
    """Whether any aircraft of Element `one` is Advantaged or Tailing on one of `other`'s,
    or the other way round (base game engagement)."""
    for a in state.members(one):
        for b in state.members(other):
            for key in (position_key(a.id, b.id), position_key(b.id, a.id)):
                if state.positions.get(key) in (Position.ADVANTAGED, Position.TAILING):
                    return True
    return False


def decide_vertical_roll(turn: DownInFlamesTurn, command: PlayVerticalRoll) -> None:
    """2.6.1-2.6.5: a VERTICAL ROLL changes the Element's altitude unless negated; engaged
    enemy Elements (2.6.4), and a Neutral one whose aircraft played the last IN MY SIGHTS or
    OUT OF THE SUN (2.6.5), may follow; 10.3 Slow Dive; 8.4.1 counts it as an Agility Card
    unless diving. Every check reads the state the command started from (the followers'
    levels before the roll moves anyone)."""
    state = turn.state
    rule = cite("2.6.1") if command.response else cite("2.6.3")
    plane = find_plane(state, command.aircraft, rule)
    if not command.response and plane.side is not state.active_side:
        # 1, 2.6.3: an attack card is played in the side's own move (README ledger 1, 2.6).
        moving = state.active_side
        now = f"side {moving.value} is moving" if moving is not None else "no side is moving"
        raise RuleError(
            f"{plane.id} (side {plane.side.value}) may not play a VERTICAL ROLL as an attack "
            f"card: {now}; it may play it as a response card (response true)",
            rule=RULE_TURN,
        )
    counted = command.direction is Direction.CLIMB
    check_can_spend(state, plane, 1, cite("2.6.2"), "play VERTICAL ROLL")
    check_agility(state, plane, counted)
    if command.negated:
        if command.followers:
            raise RuleError(
                "a negated VERTICAL ROLL changes no altitude: nobody follows", rule=cite("2.6.1")
            )
        play_agility(turn, plane, Card.VERTICAL_ROLL, counted, cite("8.4.1"), "PlayVerticalRoll")
        return
    extra = 1 if plane.station is Station.LEADER else 0
    moved = change(state, plane.element, command.direction, 1, cite("2.6.3"), extra_cards=extra)
    events = [moved]
    rolling_slow = state.card_of(plane).has(Characteristic.SLOW_DIVE)
    for follower in command.followers:
        if follower not in state.elements or state.elements[follower].side is plane.side:
            raise RuleError(f"{follower!r} is not an enemy element", rule=cite("2.6.4"))
        engaged = engaged_with(state, follower, plane.element)
        last = state.aircraft.get(state.last_attack_card_by)
        followed_fire = last is not None and last.element == follower
        if not engaged and not followed_fire:
            raise RuleError(
                f"element {follower} is neither engaged with element {plane.element} (2.6.4) "
                "nor played the last IN MY SIGHTS or OUT OF THE SUN card (2.6.5)",
                rule=cite("2.6.5"),
            )
        if (
            command.direction is Direction.DIVE
            and not rolling_slow
            and any(state.card_of(p).has(Characteristic.SLOW_DIVE) for p in state.members(follower))
        ):
            raise RuleError(
                f"element {follower} has Slow Dive and cannot follow a VERTICAL ROLL dive by an "
                "aircraft without Slow Dive",
                rule=cite("10.3"),
            )
        events.append(
            change(
                state, follower, command.direction, 1, cite("2.6.4") if engaged else cite("2.6.5")
            )
        )
    # The card last, once every other check passed: a hidden pilot may settle it (8.4).
    if play_agility(turn, plane, Card.VERTICAL_ROLL, counted, cite("8.4.1"), "PlayVerticalRoll"):
        turn.emit_all(events)
