"""Turns, hands, positions and card plays: 8.2-8.5, 8.4.1, 10.6, 10.7, 10.11.3.

The base game's turn sequence, draws and response rules stay the base game's; umpire keeps
the counts the supplemental rules add and refuses plays they forbid.
"""

from __future__ import annotations

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
from umpire.engine.rulesets.down_in_flames.performance import (
    agility_card_limit,
    check_can_spend,
    hand_limits,
)
from umpire.engine.rulesets.down_in_flames.pilot import QUALITY
from umpire.engine.rulesets.down_in_flames.state import Plane, State, find_plane, pilot_known
from umpire.engine.rulesets.down_in_flames.terms import Card, Characteristic, Station, cite
from umpire.engine.rulesets.down_in_flames.turn import DownInFlamesTurn

RULE_TURN = cite("1")  # the base game's turn sequence
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
    for plane_id in sorted(state.aircraft):
        plane = state.aircraft[plane_id]
        if plane.side is not command.side or plane.shot_down or plane.station is not Station.LEADER:
            continue
        limits = hand_limits(state, plane)
        if plane.hand > limits.most:
            if not pilot_known(state, plane, QUALITY):
                # 9.1.11: the limit would show the pilot's quality (recruit -2, veteran +1).
                raise RuleError(
                    f"{plane.id} holds {plane.hand} cards, more than its hand limit at the end "
                    "of its turn; play or discard down to it (8.2, 8.5; the limit depends on "
                    "its pilot, secret until revealed, 9.1.11)",
                    rule=cite("8.5"),
                )
            raise RuleError(
                f"{plane.id} holds {plane.hand} cards but may hold at most {limits.most} at the "
                f"end of its turn; play or discard {plane.hand - limits.most} (8.2, 8.5)",
                rule=cite("8.5"),
            )
        if plane.hand < limits.fewest:
            raise RuleError(
                f"{plane.id} holds {plane.hand} cards but must retain {limits.fewest}",
                rule=cite("8.3"),
            )
    turn.emit(TurnEnded(side=command.side, move=state.move, rule=cite("8.2")))


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
    turn.emit(
        PositionSet(attacker=attacker.id, target=target.id, position=command.position, rule=rule)
    )


def counts_as_agility(plane: Plane, card: Card, response_to: Card | None, quick_bank: bool) -> bool:
    """8.4.1: MANEUVERING, TIGHT TURN, BARREL ROLL, HALF LOOP, SCISSORS, and ACE PILOT in
    response to an Agility Card; 10.6 Quick Bank leaves SCISSORS uncounted."""
    if card is Card.SCISSORS and quick_bank:
        return False
    if card in AGILITY_CARDS:
        return True
    return card is Card.ACE_PILOT and response_to in AGILITY_CARDS


def agility_events(state: State, plane: Plane, card: Card, counted: bool, rule: str) -> CardPlayed:
    """8.4, 8.4.2: refuse an Agility Card beyond the limit; the CardPlayed event otherwise."""
    limit = agility_card_limit(state, plane) if plane.station is Station.LEADER else None
    if counted and limit is not None and plane.agility_played + 1 > limit:
        if not pilot_known(state, plane, QUALITY):
            # 9.1.11: an Ace's Agility is one more (9.1.8): the limit would show it.
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
    if not counted:
        why = "does not count as an Agility Card"
    elif limit is None:
        why = "an Agility Card, not tracked: Speed does not exceed Agility (8.4.2)"
    else:
        why = f"Agility Card {plane.agility_played + 1} of {limit} this turn"
    return CardPlayed(
        aircraft=plane.id,
        card=card,
        agility_card=counted and limit is not None,
        rule=rule,
        explanation=f"{plane.id} plays {card.value}: {why}",
    )


def decide_play_card(turn: DownInFlamesTurn, command: PlayCard) -> None:
    """8.4.1, 10.6, 10.7: a non-attack card (attack cards: Attack; VERTICAL ROLL:
    PlayVerticalRoll)."""
    state = turn.state
    rule = cite("8.4.1")
    plane = find_plane(state, command.aircraft, rule)
    if command.card.is_attack or command.card is Card.VERTICAL_ROLL:
        raise RuleError(
            f"report {command.card.value} with the "
            f"{'PlayVerticalRoll' if command.card is Card.VERTICAL_ROLL else 'Attack'} command",
            rule=rule,
        )
    card = state.card_of(plane)
    if command.card is Card.SCISSORS and card.has(Characteristic.SLOW_BANK):
        against = state.aircraft.get(command.against or "")
        slow_target = against is not None and (
            state.card_of(against).has(Characteristic.SLOW_BANK)
            or state.card_of(against).aircraft_class.value == "medium_bomber"
        )
        if command.response_to is not Card.TIGHT_TURN and not slow_target:
            raise RuleError(
                f"{plane.id} is a Slow Bank aircraft: SCISSORS only in response to TIGHT TURN "
                "unless played against another slow bank aircraft",
                rule=cite("10.7"),
            )
    counted = counts_as_agility(
        plane, command.card, command.response_to, card.has(Characteristic.QUICK_BANK)
    )
    check_can_spend(state, plane, 1, rule, f"play {command.card.value}")
    turn.emit(agility_events(state, plane, command.card, counted, rule))


def decide_thach_weave(turn: DownInFlamesTurn, command: BidThachWeave) -> None:
    """10.11, 10.11.3: a side with 2 or more Elements of a Thach Weave type bids victory
    points for the weave; it may be used if the opponent accepts."""
    state = turn.state
    rule = cite("10.11.3")
    types: dict[str, int] = {}
    for element in sorted(state.elements):
        leader = state.leader_of(element)
        if leader is None or leader.side is not command.side:
            continue
        if state.card_of(leader).has(Characteristic.THACH_WEAVE):
            types[leader.aircraft] = types.get(leader.aircraft, 0) + 1
    if not any(n >= 2 for n in types.values()):
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
