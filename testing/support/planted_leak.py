"""A ruleset built to leak, for the twin differential to catch (issue #42 item 5).

A bot deals itself a card face down (a hidden d6); the player draws against it (a public
d6): the higher card wins the round, and the bot's card is shown. `planted(leak=True)`
lists the player's draw as "Draw against the bot (it holds 5)": everything else (events,
redaction, view) keeps the bot's card hidden, so only a check of the listed actions'
texts finds it. `planted(leak=False)` is the same game without the leak, the control that
shows the differential passes it. Test support only: no entry point installs it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import msgspec
from msgspec import Meta, Struct

from umpire.engine.actions import Action, as_next, offer
from umpire.engine.decision import Decision
from umpire.engine.dice import Dice, d6
from umpire.engine.errors import RuleError
from umpire.engine.kit.citation import citations
from umpire.engine.kit.decider import decider
from umpire.engine.kit.dispatch import Dispatch
from umpire.engine.kit.turn import Turn
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset, Testing
from umpire.engine.secret_fields import Redactions, SecretFields, SecretState
from umpire.events.types import GameEnded

cite = citations("planted")
RULE_DEAL, RULE_DRAW, RULE_END = cite("R1"), cite("R2"), cite("R3")


class Setup(Struct, frozen=True, kw_only=True):
    rounds: Annotated[int, Meta(ge=1, le=20)] = 4


class State(Struct, frozen=True, kw_only=True):
    rounds: int
    round: int = 0
    wins: int = 0
    held: int = 0  # the bot's face-down card (0: none dealt); the referee's alone
    held_roll: int = 0


class Deal(Struct, frozen=True, tag="Deal", kw_only=True):
    pass


class Draw(Struct, frozen=True, tag="Draw", kw_only=True):
    pass


class BotDealt(Decision, frozen=True, tag="planted.BotDealt", kw_only=True):
    held: int


class RoundPlayed(Decision, frozen=True, tag="planted.RoundPlayed", kw_only=True):
    shown: int
    drawn: int
    won: bool


class PlantedTurn(Turn[State]):
    __slots__ = ()

    def __init__(self, state: State, dice: Dice) -> None:
        super().__init__(state, dice, evolve=evolve, cite=cite)


def deal(turn: PlantedTurn, command: Deal) -> None:
    """R1: the bot deals itself a card face down."""
    if turn.state.held:
        raise RuleError("the bot already holds a card", rule=RULE_DEAL)
    roll = turn.roll(d6(), "the bot's face-down card", RULE_DEAL, hidden=True)
    turn.emit(BotDealt(held=roll.total, rule=RULE_DEAL, dice=(roll.roll,)))


def draw(turn: PlantedTurn, command: Draw) -> None:
    """R2: the player draws; the higher card wins and the bot's is shown."""
    state = turn.state
    if not state.held:
        raise RuleError("the bot holds no card yet", rule=RULE_DRAW)
    roll = turn.roll(d6(), "the player's card", RULE_DRAW)
    turn.emit(
        RoundPlayed(
            shown=state.held,
            drawn=roll.total,
            won=roll.total > state.held,
            rule=RULE_DRAW,
            dice=(state.held_roll, roll.roll),
        )
    )


DISPATCH: Dispatch[Callable[[PlantedTurn, Any], None]] = Dispatch(
    {Deal: deal, Draw: draw}, rule=RULE_DEAL
)


def last_round(turn: PlantedTurn) -> None:
    """R3: the game ends after the last round."""
    if not turn.state.held and turn.state.round >= turn.state.rounds:
        turn.emit(GameEnded(result=f"{turn.state.wins} of {turn.state.rounds}", rule=RULE_END))


def evolve(state: State, event: Struct) -> State:
    if isinstance(event, BotDealt):
        return msgspec.structs.replace(
            state, held=event.held, held_roll=event.dice[0], round=state.round + 1
        )
    if isinstance(event, RoundPlayed):
        return msgspec.structs.replace(state, held=0, wins=state.wins + event.won)
    return state


def view(state: State, role: Role) -> dict[str, object]:
    data: dict[str, object] = msgspec.to_builtins(state)
    return data


def planted(*, leak: bool, by_next: bool = False) -> Ruleset[State]:
    """The card game, its draw's text naming the bot's card when `leak`; with `by_next`,
    the leak is the draw marked as the next step (`as_next`) only while the bot's card is
    odd, the text honest: the flag is a channel too."""

    def actions(state: State, role: Role) -> list[Action]:
        if not state.held:
            return [offer(Deal, RULE_DEAL, "Let the bot deal itself a card")]
        if by_next:
            draw = offer(Draw, RULE_DRAW, "Draw against the bot")
            return [as_next(draw) if leak and state.held % 2 else draw]
        text = f"Draw against the bot (it holds {state.held})" if leak else "Draw against the bot"
        return [offer(Draw, RULE_DRAW, text)]

    name = "planted_leak" if leak else "planted_honest"
    return Ruleset(
        name=f"{name}_next" if by_next else name,
        version="1",
        title="A card game built to leak (test support)",
        seed="planted",
        setup_type=Setup,
        state_type=State,
        event_types=(BotDealt, RoundPlayed),
        initial_state=lambda setup: State(rounds=setup.rounds),
        decide=decider(DISPATCH, PlantedTurn, end=last_round),
        evolve=evolve,
        view=view,
        secrets=Redactions(
            SecretFields(BotDealt, fields={"held": -1}, why="R1: the bot's card is face down"),
            SecretState("held", why="R1: the face-down card is the referee's alone"),
        ),
        actions=actions,
        openings=(Deal(), Draw()),
        testing=Testing(published=("planted.RoundPlayed",)),  # R2 shows the bot's card
    )
