"""4.0 AI WhoseTurn: draw an Order Card and execute one order on it, or pass.

Seed 003_368c69a730e6e14a.txt 4.0: the Mission Track check of a Green card; then the
Priority Orders, then the Tactical Orders, top down, until one can be executed; Blue
(Command) cards are executed by fresh or spent AI with no AP Spent Check, Green (Action)
cards only by fresh AI, with an AP Spent Check; Counteractions (7.0) and Mission Orders
(7.1) come from the mission's data. When no order can be executed the AI passes (3.0),
and a pass right after the player's pass ends the round.
"""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.rulesets.conflict_of_heroes import mission
from umpire.engine.rulesets.conflict_of_heroes.ai_orders import Executed, execute
from umpire.engine.rulesets.conflict_of_heroes.battlefield import active
from umpire.engine.rulesets.conflict_of_heroes.deck import draw_card, reshuffle
from umpire.engine.rulesets.conflict_of_heroes.eligibility import AiOption, ai_options
from umpire.engine.rulesets.conflict_of_heroes.events import (
    AiOrderSelected,
    AiPassed,
    AiTurnEnded,
    MissionInstructionIssued,
    MissionTrackChecked,
    RoundEnded,
)
from umpire.engine.rulesets.conflict_of_heroes.orders import Order, OrderAction
from umpire.engine.rulesets.conflict_of_heroes.spent_check import spent_check
from umpire.engine.rulesets.conflict_of_heroes.state import Card, Instruction, State
from umpire.engine.rulesets.conflict_of_heroes.terms import (
    CardColour,
    DrawPurpose,
    Section,
    Side,
    WhoseTurn,
    cite,
)
from umpire.engine.rulesets.conflict_of_heroes.turn import ConflictOfHeroesTurn


class Plan:
    """An order that can be executed: the order the AI carries out (the card's own, or a
    Counteraction's / Mission Order's), its eligible AIs, and the mission text if any."""

    def __init__(
        self,
        order: Order | None,
        options: list[AiOption],
        rejected: list[tuple[str, str]],
        instruction: Instruction | None = None,
        kind: OrderAction | None = None,
    ) -> None:
        self.order = order
        self.options = options
        self.rejected = rejected
        self.instruction = instruction
        self.kind = kind  # COUNTERACTION or MISSION_ORDER when `instruction` is set


def on_map_count(state: State) -> int:
    """4.0: AI plus Units in play (fresh or spent, hidden included, this round's arrivals
    too); non-combat units do not count."""
    return len([u for u in active(state) if not u.non_combat])


def mission_count(state: State) -> int:
    """4.0: AI plus Units in play, Rumored Enemy counters and the reinforcements arriving
    this round that are not yet in play (each reinforcement counts once: evolve takes an
    arrival off the reported number)."""
    return on_map_count(state) + state.rumored_counters + state.reinforcements_this_round


def check_mission_track(turn: ConflictOfHeroesTurn, card: Card) -> None:
    """4.0 Mission Track Advance: a Green card's requirement against the count."""
    if card.colour is not CardColour.GREEN or card.mission_requirement is None:
        return
    count = mission_count(turn.state)
    advanced = count <= card.mission_requirement
    track = turn.state.mission_track + (1 if advanced else 0)
    turn.emit(
        MissionTrackChecked(
            card=card.number,
            requirement=card.mission_requirement,
            count=count,
            advanced=advanced,
            track=track,
            rule=cite("4.0") + " Mission Track Advance",
            explanation=f"{count} counted ({_counted(turn.state)}) against the requirement "
            f"{card.mission_requirement}: "
            + (f"the Mission Track advances to {track}" if advanced else "no advance"),
        )
    )


def _counted(state: State) -> str:
    """What the Mission Track count is made of, so the player can check it at the table."""
    return (
        f"{on_map_count(state)} AI and Units in play, {state.rumored_counters} Rumored "
        f"Enemy counters, {state.reinforcements_this_round} reinforcements still to arrive "
        "this round"
    )


def plan(state: State, card: Card, order: Order) -> Plan | str:
    """Whether `order` can be executed now: a Plan, or the reason it cannot."""
    if order.action in (OrderAction.COUNTERACTION, OrderAction.MISSION_ORDER):
        book = (
            state.counteractions
            if order.action is OrderAction.COUNTERACTION
            else state.mission_orders
        )
        rule = "7.0" if order.action is OrderAction.COUNTERACTION else "7.1"
        found = next((i for i in book if i.number == order.number), None)
        if found is None:
            return f"this mission has no {order.text} ({rule})"
        if found.order is None:
            why = mission.unexecutable(state, found)
            if why:
                return f"{order.text} cannot be executed: {why}"
            return Plan(None, [], [], found, order.action)
        inner = plan(state, card, found.order)
        if isinstance(inner, str):
            return f"{order.text} ('{found.order.text}') cannot be executed: {inner}"
        inner.instruction, inner.kind = found, order.action
        return inner
    options, rejected = ai_options(state, card, order)
    if not options:
        return "no eligible AI: " + "; ".join(f"{a}: {r}" for a, r in rejected)
    return Plan(order, options, rejected)


def _label(section: Section, index: int, order: Order) -> str:
    return f"{section.value} {index}: {order.text}"


def ai_turn(turn: ConflictOfHeroesTurn) -> None:
    """4.0: draw, check the Mission Track, execute the first executable order or pass."""
    card = draw_card(turn, DrawPurpose.AI_TURN, cite("4.0"))
    check_mission_track(turn, card)
    listed = [(Section.PRIORITY, i + 1, o) for i, o in enumerate(card.priority_orders)]
    listed += [(Section.TACTICAL, i + 1, o) for i, o in enumerate(card.tactical_orders)]
    tried: list[Candidate] = []
    for k, (section, index, order) in enumerate(listed):
        result = plan(turn.state, card, order)
        if isinstance(result, str):
            tried.append(
                Candidate(option=_label(section, index, order), chosen=False, reason=result)
            )
            continue
        chosen = Candidate(
            option=_label(section, index, order),
            chosen=True,
            reason="the first order on the card that can be executed",
        )
        later = [
            Candidate(option=_label(s, i, o), chosen=False, reason="not reached")
            for s, i, o in listed[k + 1 :]
        ]
        turn.emit(
            AiOrderSelected(
                card=card.number,
                section=section,
                index=index,
                order=order.text,
                action=order.action,
                rule=cite("4.0"),
                candidates=(*tried, chosen, *later),
                explanation=f"card {card.number} ({card.colour.value}): {section.value} order "
                f"{index} '{order.text}' is the first that can be executed",
            )
        )
        _carry_out(turn, card, result)
        return
    turn.emit(
        AiPassed(
            card=card.number,
            rule=cite("4.0"),
            candidates=tuple(tried),
            explanation=f"no order on card {card.number} can be executed: the AI passes",
        )
    )
    player_passed = turn.state.last_passed is WhoseTurn.PLAYER
    turn.emit(AiTurnEnded(passed=True))
    if player_passed:
        end_round(turn, "the player passed and then the AI passed")


def _carry_out(turn: ConflictOfHeroesTurn, card: Card, p: Plan) -> None:
    if p.instruction is not None and p.kind is not None:
        kind = p.kind
        turn.emit(
            MissionInstructionIssued(
                kind=kind,
                number=p.instruction.number,
                text=p.instruction.text,
                rule=cite("7.0" if kind is OrderAction.COUNTERACTION else "7.1"),
                explanation=f"{kind.value.replace('_', ' ')} {p.instruction.number}: "
                f"{p.instruction.text}",
            )
        )
        mission.carry_out(
            turn, p.instruction, cite("7.0" if kind is OrderAction.COUNTERACTION else "7.1")
        )
    done: Executed | None = None
    if p.order is not None:
        done = execute(turn, p.order, p.options, p.rejected)
    if card.colour is CardColour.GREEN and done is not None and done.ap_cost > 0:
        spent_check(turn, Side.AI, (done.unit,), done.ap_cost)
    turn.emit(AiTurnEnded(passed=False))


def end_round(turn: ConflictOfHeroesTurn, why: str) -> None:
    """3.0: consecutive passes end the round; every counter is fresh again and the CAPs
    are reset (less the destroyed Units on the CAP track, 7.3)."""
    ended = mission.last_round_over(turn.state)
    if ended is not None:
        turn.emit(ended)
        return
    r = turn.state.rules
    caps = max(
        0, r.player_caps - turn.state.destroyed_player_units * r.caps_lost_per_destroyed_unit
    )
    turn.emit(
        RoundEnded(
            round=turn.state.round + 1,
            caps=caps,
            rule=cite("3.0"),
            explanation=f"{why}: round {turn.state.round} is over; round {turn.state.round + 1} "
            f"begins with every counter fresh and {caps} CAPs",
        )
    )
    if r.reshuffle_each_round:
        reshuffle(
            turn,
            cite("3.0") + " (new round: discards reshuffled, README)",
            "a new round: the discards are reshuffled into the deck",
        )
