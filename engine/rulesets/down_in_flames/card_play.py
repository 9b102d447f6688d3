"""Turns, hands, positions and card plays: 8.2-8.5, 8.4.1, 10.6, 10.7, 10.11.3.

The base game's turn sequence, draws and response rules stay the base game's; umpire keeps
the counts the supplemental rules add and refuses plays they forbid.
"""

from __future__ import annotations

from collections.abc import Callable

from umpire.engine.errors import NothingToDo, RuleError
from umpire.engine.rulesets.down_in_flames.commands import (
    BeginTurn,
    BidThachWeave,
    Discard,
    EndTurn,
    PlayCard,
    ReportHand,
    SetPosition,
)
from umpire.engine.rulesets.down_in_flames.end import sides_flying
from umpire.engine.rulesets.down_in_flames.events import (
    CardPlayed,
    CardsDiscarded,
    HandReported,
    PositionSet,
    ThachWeaveBid,
    TurnBegan,
    TurnEnded,
)
from umpire.engine.rulesets.down_in_flames.labels import LABELS
from umpire.engine.rulesets.down_in_flames.performance import (
    agility_card_limit,
    check_can_spend,
    hand_limits,
)
from umpire.engine.rulesets.down_in_flames.pilot import QUALITY, pilot_may, settle
from umpire.engine.rulesets.down_in_flames.state import (
    Plane,
    State,
    find_plane,
    pilot_known,
    position_key,
)
from umpire.engine.rulesets.down_in_flames.terms import (
    RULE_TURN,
    Card,
    Characteristic,
    Position,
    Side,
    Station,
    cite,
)
from umpire.engine.rulesets.down_in_flames.turn import DownInFlamesTurn

AGILITY_CARDS = (Card.MANEUVERING, Card.TIGHT_TURN, Card.BARREL_ROLL, Card.HALF_LOOP, Card.SCISSORS)


def decide_begin_turn(turn: DownInFlamesTurn, command: BeginTurn) -> None:
    """Base game: a side starts its move; 3.1 bursts, 4.1.1 Wingman attack cards and 8.4
    Agility Cards are counted per turn from here."""
    state = turn.state
    if state.active_side is not None:
        raise RuleError(
            f"side {state.active_side.value} is still moving; end its turn first", rule=RULE_TURN
        )
    flying = sides_flying(state)
    if command.side not in flying:
        raise RuleError(
            f"side {command.side.value} has no aircraft left in the engagement; sides that "
            f"may move: {', '.join(s.value for s in flying) or 'none'}",
            rule=RULE_TURN,
        )
    turn.emit(TurnBegan(side=command.side, move=state.move + 1, rule=RULE_TURN))


def decide_end_turn(turn: DownInFlamesTurn, command: EndTurn) -> None:
    """8.2, 8.3, 8.5: at the end of its turn each Leader of the side must hold no more than
    its hand limit and no fewer than its minimum; 3.2.10 aggregated attacks must be done."""
    state = turn.state
    if state.active_side is not command.side:
        raise RuleError(f"side {command.side.value} is not moving now", rule=RULE_TURN)
    for attacker in sorted(state.pending):
        raise RuleError(
            f"{attacker} announced aggregation (3.2.10); play the next card or negate the attack",
            rule=cite("3.2.10"),
        )
    # Every refusal first: one that no pilot allows, then the hidden pilots' (9.1.11,
    # pilot.settle), so that whether the command is refused never turns on a hidden pilot.
    hidden = []
    for plane_id in sorted(state.aircraft):
        plane = state.aircraft[plane_id]
        if plane.side is not command.side or plane.shot_down or plane.station is not Station.LEADER:
            continue
        verdict = pilot_may(state, plane, hand_allowed(state, plane.hand))
        if verdict is None:
            hidden.append(plane)
        elif not verdict:
            _refuse_hand(state, plane)
    for plane in hidden:
        why = (
            f"{plane.id} holds {plane.hand} cards, outside its pilot's hand limits at the end "
            "of its turn: play or discard to them and end the turn again (8.2, 8.3, 8.5; the "
            "limits depend on its pilot, secret until revealed, 9.1.11)"
        )
        if not settle(turn, plane, hand_allowed(state, plane.hand), "EndTurn", why, cite("8.5")):
            return
    turn.emit(TurnEnded(side=command.side, move=state.move, rule=cite("8.2")))


def hand_allowed(state: State, hand: int) -> Callable[[Plane], bool]:
    """8.2, 8.3, 8.5: whether a pilot may end its side's turn holding `hand` cards."""

    def allowed(pilot: Plane) -> bool:
        limits = hand_limits(state, pilot)
        return limits.fewest <= hand <= limits.most

    return allowed


def _hand_refusal(plane: Plane, most: int, fewest: int) -> str:
    """Why `plane` may not end its turn with its hand, limits known."""
    if plane.hand > most:
        return (
            f"{plane.id} holds {plane.hand} cards but may hold at most {most} at the end of "
            f"its turn; play or discard {plane.hand - most} (8.2, 8.5)"
        )
    return f"{plane.id} holds {plane.hand} cards but must retain {fewest} (8.3)"


def _refuse_hand(state: State, plane: Plane) -> None:
    """Refuse the end of the turn: no pilot `plane` may have allows its hand. Where its
    quality is hidden, the limits are not named (9.1.11)."""
    limits = hand_limits(state, plane)
    too_many = plane.hand > limits.most
    rule = cite("8.5") if too_many else cite("8.3")
    if not pilot_known(state, plane, QUALITY):
        side = "more than its hand limit" if too_many else "fewer than it must retain"
        raise RuleError(
            f"{plane.id} holds {plane.hand} cards, {side} at the end of its turn whatever its "
            "pilot (8.2, 8.3, 8.5; the limits depend on its pilot, secret until revealed, "
            "9.1.11)",
            rule=rule,
        )
    raise RuleError(_hand_refusal(plane, limits.most, limits.fewest), rule=rule)


def decide_report_hand(turn: DownInFlamesTurn, command: ReportHand) -> None:
    """8.2: umpire keeps each Leader's hand size; players report it after base-game draws."""
    state = turn.state
    plane = find_plane(state, command.aircraft, cite("8.2"))
    if plane.station is not Station.LEADER:
        raise RuleError(f"{plane.id} is not a Leader; only Leaders hold hands", rule=cite("8.2"))
    if command.cards == plane.hand:
        raise NothingToDo(
            f"ReportHand changes nothing: {plane.id} holds {plane.hand} cards already",
            rule=cite("8.2"),
        )
    turn.emit(HandReported(aircraft=plane.id, cards=command.cards))


def decide_discard(turn: DownInFlamesTurn, command: Discard) -> None:
    """8.5: a Leader discards to bring its hand within its limit (or as the base game says);
    8.4.3 discarded Agility Cards do not count as played."""
    state = turn.state
    rule = cite("8.5")
    plane = find_plane(state, command.aircraft, rule)
    check_can_spend(state, plane, command.count, rule, "discard")
    turn.emit(CardsDiscarded(aircraft=plane.id, count=command.count, reason="discard", rule=rule))


def decide_set_position(turn: DownInFlamesTurn, command: SetPosition) -> None:
    """3.1: the base-game position (Neutral, Advantaged, Tailing) that sets bursts."""
    state = turn.state
    rule = cite("3.1")
    attacker = find_plane(state, command.attacker, rule)
    target = find_plane(state, command.target, rule)
    if attacker.side is target.side:
        raise RuleError(f"{attacker.id} and {target.id} are on the same side", rule=rule)
    held = state.positions.get(position_key(attacker.id, target.id))
    if held == command.position:
        others = [p.value for p in Position if p is not held]
        others += [] if held is None else ["none (null)"]
        raise NothingToDo(
            f"SetPosition changes nothing: {attacker.id}'s position on {target.id} is "
            f"{held.value if held else 'none'} already; another: {', '.join(others)}",
            rule=rule,
        )
    turn.emit(
        PositionSet(attacker=attacker.id, target=target.id, position=command.position, rule=rule)
    )


def slow_target(state: State, plane: Plane) -> bool:
    """10.7: a target a Slow Bank aircraft may play SCISSORS against at any time (another
    Slow Bank aircraft, or a medium bomber)."""
    card = state.card_of(plane)
    return card.has(Characteristic.SLOW_BANK) or card.aircraft_class.value == "medium_bomber"


def counts_as_agility(plane: Plane, card: Card, response_to: Card | None, quick_bank: bool) -> bool:
    """8.4.1: MANEUVERING, TIGHT TURN, BARREL ROLL, HALF LOOP, SCISSORS, and ACE PILOT in
    response to an Agility Card; 10.6 Quick Bank leaves SCISSORS uncounted."""
    if card is Card.SCISSORS and quick_bank:
        return False
    if card in AGILITY_CARDS:
        return True
    return card is Card.ACE_PILOT and response_to in AGILITY_CARDS


def agility_allowed(plane: Plane, counted: bool, state: State) -> Callable[[Plane], bool]:
    """8.4, 8.4.2: whether a pilot may play one more card that `counted` as an Agility Card
    (a Leader whose Speed exceeds its Agility plays at most Agility of them a turn)."""

    def allowed(pilot: Plane) -> bool:
        limit = agility_card_limit(state, pilot) if pilot.station is Station.LEADER else None
        return not counted or limit is None or plane.agility_played + 1 <= limit

    return allowed


def check_agility(state: State, plane: Plane, counted: bool) -> bool | None:
    """8.4: refuse an Agility Card that no pilot `plane` may have would allow (naming the
    limit only where the player knows the pilot, 9.1.11); None when only the hidden pilot
    can tell (`play_agility` settles it), else True."""
    verdict = pilot_may(state, plane, agility_allowed(plane, counted, state))
    if verdict is not False:
        return verdict
    limit = agility_card_limit(state, plane)
    if not pilot_known(state, plane, QUALITY):
        raise RuleError(
            f"{plane.id}'s Speed exceeds its Agility: it has played {plane.agility_played} "
            "Agility Cards this turn and may play no more (8.4; the limit depends on its "
            "pilot, secret until revealed, 9.1.11)",
            rule=cite("8.4"),
        )
    raise RuleError(
        f"{plane.id}'s Speed exceeds its Agility ({limit}): it has played "
        f"{plane.agility_played} Agility Cards this turn and may play no more than {limit}",
        rule=cite("8.4"),
    )


def play_agility(
    turn: DownInFlamesTurn, plane: Plane, card: Card, counted: bool, rule: str, command: str
) -> bool:
    """8.4, 8.4.2: the CardPlayed event of a card `check_agility` passed, after every
    other check: an Agility Card that only the hidden pilot can allow is settled on it
    (pilot.settle: revealed, and void beyond its limit). Whether the card is played."""
    state = turn.state
    limit = agility_card_limit(state, plane) if plane.station is Station.LEADER else None
    if pilot_may(state, plane, agility_allowed(plane, counted, state)) is None:
        why = (
            f"{plane.id}'s Speed exceeds its Agility: it has played {plane.agility_played} "
            "Agility Cards this turn and may play no more (8.4; the limit depends on its "
            "pilot, secret until revealed, 9.1.11)"
        )
        allowed = agility_allowed(plane, counted, state)
        if not settle(turn, plane, allowed, command, why, cite("8.4")):
            return False
    # 9.1.11: a Leader's limit (and whether it is tracked at all) can turn on its pilot's
    # quality (an Ace's +1 Agility); while that is secret the record names neither, and
    # counts the card whatever the pilot, so the public event is the same for every pilot
    # the plane may have (the hidden pilot settles the limit, above).
    hidden = plane.station is Station.LEADER and not pilot_known(state, plane, QUALITY)
    if not counted:
        why = "does not count as an Agility Card"
    elif hidden:
        why = (
            f"Agility Card {plane.agility_played + 1} this turn (its limit, if any, depends on "
            "its pilot, secret until revealed, 9.1.11)"
        )
    elif limit is None:
        why = "an Agility Card, not tracked: Speed does not exceed Agility (8.4.2)"
    else:
        why = f"Agility Card {plane.agility_played + 1} of {limit} this turn"
    turn.emit(
        CardPlayed(
            aircraft=plane.id,
            card=card,
            agility_card=counted and (hidden or limit is not None),
            rule=rule,
            explanation=f"{plane.id} plays {LABELS.words('card', card)}: {why}",
        )
    )
    return True


def decide_play_card(turn: DownInFlamesTurn, command: PlayCard) -> None:
    """8.4.1, 10.6, 10.7: a non-attack card (attack cards: Attack; VERTICAL ROLL:
    PlayVerticalRoll)."""
    state = turn.state
    rule = cite("8.4.1")
    plane = find_plane(state, command.aircraft, rule)
    if command.card.is_attack or command.card is Card.VERTICAL_ROLL:
        raise RuleError(
            f"report {LABELS.words('card', command.card)} with the "
            f"{'PlayVerticalRoll' if command.card is Card.VERTICAL_ROLL else 'Attack'} command",
            rule=rule,
        )
    card = state.card_of(plane)
    if command.card is Card.SCISSORS and card.has(Characteristic.SLOW_BANK):
        against = state.aircraft.get(command.against or "")
        slow = against is not None and slow_target(state, against)
        if command.response_to is not Card.TIGHT_TURN and not slow:
            raise RuleError(
                f"{plane.id} is a Slow Bank aircraft: SCISSORS only in response to TIGHT TURN "
                "unless played against another slow bank aircraft",
                rule=cite("10.7"),
            )
    counted = counts_as_agility(
        plane, command.card, command.response_to, card.has(Characteristic.QUICK_BANK)
    )
    check_can_spend(state, plane, 1, rule, f"play {LABELS.words('card', command.card)}")
    check_agility(state, plane, counted)
    play_agility(turn, plane, command.card, counted, rule, "PlayCard")


def weaves(state: State, side: Side) -> bool:
    """10.11: whether `side` has 2 or more Elements of one Thach Weave aircraft type (the
    Elements' Leaders' cards), the condition for bidding on the weave (10.11.3)."""
    types: dict[str, int] = {}
    for element in sorted(state.elements):
        leader = state.leader_of(element)
        if leader is None or leader.side is not side:
            continue
        if state.card_of(leader).has(Characteristic.THACH_WEAVE):
            types[leader.aircraft] = types.get(leader.aircraft, 0) + 1
    return any(n >= 2 for n in types.values())


def decide_thach_weave(turn: DownInFlamesTurn, command: BidThachWeave) -> None:
    """10.11, 10.11.3: a side with 2 or more Elements of a Thach Weave type bids victory
    points for the weave; it may be used if the opponent accepts."""
    state = turn.state
    rule = cite("10.11.3")
    if not weaves(state, command.side):
        raise RuleError(
            f"side {command.side.value} has no 2 Elements of a Thach Weave aircraft type (10.11)",
            rule=cite("10.11"),
        )
    if command.side in state.thach_weave:
        raise RuleError(f"side {command.side.value} already has the Thach Weave", rule=rule)
    turn.emit(
        ThachWeaveBid(
            side=command.side,
            victory_points=command.victory_points,
            accepted=command.accepted,
            rule=rule,
        )
    )
