"""The Order Card deck: draws, discards, reshuffles, and the Command card an AI's
destruction costs (7.3).

Seed 003_368c69a730e6e14a.txt. A draw is `umpire.engine.dice.draw(n)`: a uniform pick among the n
cards still in the deck, face k meaning the k-th card in ascending card-number order. The
deck's remaining cards are state; discards and reshuffles are events; no shuffled order is
ever stored or logged, so nothing logged tells a future draw, and every draw can be
recomputed from the revealed seed (`umpire.engine.dice.derive_faces`).
"""

from __future__ import annotations

from umpire.engine.dice import draw
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.conflict_of_heroes.events import (
    CommandCardKept,
    CommandCardRemoved,
    DeckReshuffled,
    OrderCardDrawn,
)
from umpire.engine.rulesets.conflict_of_heroes.labels import LABELS
from umpire.engine.rulesets.conflict_of_heroes.state import Card
from umpire.engine.rulesets.conflict_of_heroes.terms import CardColour, DrawPurpose, cite
from umpire.engine.rulesets.conflict_of_heroes.turn import ConflictOfHeroesTurn

EMPTY_DECK_RULE = cite("4.0") + " (deck exhausted: discards reshuffled, README)"


def reshuffle(turn: ConflictOfHeroesTurn, rule: str, why: str) -> None:
    """Return every discard to the deck (nothing happens without discards)."""
    cards = tuple(sorted(turn.state.discards))
    if cards:
        turn.emit(DeckReshuffled(cards=cards, rule=rule, explanation=why))


def draw_card(turn: ConflictOfHeroesTurn, purpose: DrawPurpose, rule: str) -> Card:
    """Draw one Order Card and discard it; an empty deck first takes back the discards.

    In physical-deck mode (the command names its cards) the next named card is used and
    must be in the deck; otherwise the server draws. Raises RuleError for a card that is
    not in the deck, or when the command named too few cards, and OpponentDiceRefused for
    named cards in a game not created to allow the opponent's dice (the draw is the AI's).
    """
    if not turn.state.deck:
        reshuffle(turn, EMPTY_DECK_RULE, "the deck is empty: the discards are reshuffled into it")
    remaining = sorted(turn.state.deck)
    why = LABELS.words("draw_purpose", purpose)
    if not remaining:
        raise RuleError("the Order Card deck is empty and has no discards to reshuffle", rule=rule)
    if turn.physical:
        turn.check_opponent_entry(f"Order Card draw: {why}", rule)
        if not turn.cards:
            raise RuleError(
                f"this command needs another Order Card draw ({why}) but the cards "
                f"named ran out; the deck holds {remaining}",
                rule=rule,
            )
        number = turn.cards.pop(0)
        if number not in remaining:
            raise RuleError(
                f"Order Card {number} is not in the deck; the deck holds {remaining} "
                f"(discards {sorted(turn.state.discards)}, removed {sorted(turn.state.removed)})",
                rule=rule,
            )
        dice: tuple[int, ...] = ()
        how = f"the player drew card {number} from the physical deck"
    else:
        rolled = turn.roll(
            draw(len(remaining)),
            purpose=f"Order Card draw: {why}",
            rule=rule,
        )
        number = remaining[rolled.total - 1]
        dice = (rolled.roll,)
        how = (
            f"draw {rolled.total} of {len(remaining)} (cards in ascending number order) "
            f"is card {number}"
        )
    turn.last_draw_dice = dice
    turn.emit(
        OrderCardDrawn(
            card=number,
            purpose=purpose,
            remaining=len(remaining) - 1,
            by_player=turn.physical,
            rule=rule,
            dice=dice,
            explanation=f"{how}; it is discarded after use",
        )
    )
    return turn.state.card(number)


def remove_command_card(turn: ConflictOfHeroesTurn) -> None:
    """7.3: after an AI is destroyed, draw and discard until a Blue Command card is drawn
    and remove it from the game, unless only one Command card is left in the deck; then
    add all discards back and reshuffle."""
    rule = cite("7.3")
    in_game = sorted((*turn.state.deck, *turn.state.discards))
    blues = [c for c in in_game if turn.state.card(c).colour is CardColour.BLUE]
    if len(blues) <= 1:
        kept = blues[0] if blues else 0
        turn.emit(
            CommandCardKept(
                card=kept,
                rule=rule,
                explanation=f"only {len(blues)} Command Order card left in the deck "
                f"({blues}): it is not removed",
            )
        )
    else:
        while True:
            card = draw_card(turn, DrawPurpose.DESTROYED_AI, rule)
            if card.colour is CardColour.BLUE:
                turn.emit(
                    CommandCardRemoved(
                        card=card.number,
                        rule=rule,
                        explanation=f"card {card.number} is the first Blue Command Order card "
                        "drawn after the AI was destroyed: removed from the game",
                    )
                )
                break
    reshuffle(turn, rule, "7.3: all discarded cards are added back and the deck is reshuffled")
