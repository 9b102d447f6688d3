"""3.1.1 'AP Spent Check' for Units and AIs.

Seed 003_368c69a730e6e14a.txt 3.1.1: after a fresh Unit or AI executes an action that
costs APs, draw an Order Card and compare its AP Spent Number with the AP cost of the
action; if the cost is equal to or greater, the unit is marked spent. A Player reduces the
AP cost by supplementing part of it with CAPs (3.2.1); a card with the 'Remain Fresh'
symbol leaves the unit fresh; a failed check marks every unit of a group action spent.
"""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.rulesets.conflict_of_heroes.deck import draw_card
from umpire.engine.rulesets.conflict_of_heroes.events import SpentCheckMade
from umpire.engine.rulesets.conflict_of_heroes.terms import DrawPurpose, Side, cite
from umpire.engine.rulesets.conflict_of_heroes.turn import ConflictOfHeroesTurn

RULE = cite("3.1.1")


def spent_check(
    turn: ConflictOfHeroesTurn, side: Side, units: tuple[str, ...], ap_cost: int
) -> bool:
    """3.1.1: draw a card and mark `units` spent if `ap_cost` >= its AP Spent Number
    (unless it shows the Remain Fresh symbol). Returns whether they became spent."""
    card = draw_card(turn, DrawPurpose.SPENT_CHECK, RULE)
    reaches = ap_cost >= card.ap_spent_number
    spent = reaches and not card.remain_fresh
    if card.remain_fresh:
        fresh = "the unit remains" if len(units) == 1 else "the units remain"
        why = f"card {card.number} shows the Remain Fresh symbol: {fresh} fresh"
    elif spent:
        why = f"AP cost {ap_cost} >= AP Spent Number {card.ap_spent_number}: marked spent"
    else:
        why = f"AP cost {ap_cost} < AP Spent Number {card.ap_spent_number}: remain fresh"
    if spent and len(units) > 1:
        why += " (group action: all involved units are marked spent)"
    turn.emit(
        SpentCheckMade(
            side=side,
            units=units,
            ap_cost=ap_cost,
            card=card.number,
            ap_spent_number=card.ap_spent_number,
            remain_fresh=card.remain_fresh,
            spent=units if spent else (),
            rule=RULE + (" (group action)" if len(units) > 1 else ""),
            dice=turn.last_draw_dice,
            candidates=(
                Candidate(option="spent", chosen=spent, reason=why),
                Candidate(option="fresh", chosen=not spent, reason=why),
            ),
            explanation=why,
        )
    )
    return spent
