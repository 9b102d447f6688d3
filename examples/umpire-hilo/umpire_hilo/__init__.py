"""Hi-lo: a d6 bot with one hidden roll, installed as its own package.

The bot hides a d6, the player calls it high or low, the bot shows it; a right call scores
(RULES.md beside this file, cited as `hilo Rn`). It is the ruleset docs/rulesets.md's
walk-through builds, step by step; umpire finds it through the `umpire.rulesets` entry
point of this package's pyproject.toml, and nothing in umpire names it.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Annotated, Any

import msgspec
from msgspec import Meta, Struct

from umpire.engine.actions import Action, offer
from umpire.engine.decision import Decision
from umpire.engine.dice import Dice, d6
from umpire.engine.errors import RuleError
from umpire.engine.kit.citation import citations
from umpire.engine.kit.decider import decider
from umpire.engine.kit.dispatch import Dispatch
from umpire.engine.kit.labels import Labels
from umpire.engine.kit.turn import Turn
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset, Testing
from umpire.engine.secret_fields import Redactions, SecretFields, SecretState
from umpire.events.types import GameEnded

# Step 1: the set-up and the state.


class Setup(Struct, frozen=True, kw_only=True):
    rounds: Annotated[int, Meta(ge=1, le=20)] = 3


class State(Struct, frozen=True, kw_only=True):
    rounds: int
    round: int = 0
    score: int = 0
    held: int = 0  # the bot's hidden die (0: none held); the referee's alone (R2)
    held_roll: int = 0  # the roll number of the held die (public, as every roll's is)


# Step 2: the commands and the events.


class Call(StrEnum):
    HIGH = "high"
    LOW = "low"


class Hide(Struct, frozen=True, tag="Hide", kw_only=True):
    pass


class CallDie(Struct, frozen=True, tag="CallDie", kw_only=True):
    call: Call


class DieHidden(Decision, frozen=True, tag="hilo.DieHidden", kw_only=True):
    held: int


class DieShown(Decision, frozen=True, tag="hilo.DieShown", kw_only=True):
    shown: int
    call: Call
    right: bool


cite = citations("hilo")
RULE_GAME = cite("R1")
RULE_HIDE = cite("R2")
RULE_CALL = cite("R3")
RULE_END = cite("R4")


def initial_state(setup: Setup) -> State:
    """R1: the set-up's rounds, a score of 0."""
    return State(rounds=setup.rounds)


# Step 3: decide, one handler per command, through the ruleset's Turn and the kit.


class HiloTurn(Turn[State]):
    """The kit's Turn for hi-lo: its fold (`evolve`) and its `cite`."""

    __slots__ = ()

    def __init__(self, state: State, dice: Dice) -> None:
        super().__init__(state, dice, evolve=evolve, cite=cite)


def hide(turn: HiloTurn, command: Hide) -> None:
    """R2: the bot rolls a hidden d6 and holds it."""
    if turn.state.held:
        raise RuleError(f"{RULE_HIDE}: the bot already holds its die; call it", rule=RULE_HIDE)
    roll = turn.roll(d6(), "the bot's hidden die", RULE_HIDE, hidden=True)
    turn.emit(DieHidden(held=roll.total, rule=RULE_HIDE, dice=(roll.roll,)))


def call_die(turn: HiloTurn, command: CallDie) -> None:
    """R3: the bot shows its die; a right call scores."""
    held = turn.state.held
    if not held:
        raise RuleError(f"{RULE_CALL}: the bot holds no die yet; let it hide one", rule=RULE_CALL)
    high = held >= 4
    right = high == (command.call is Call.HIGH)
    turn.emit(
        DieShown(
            shown=held,
            call=command.call,
            right=right,
            rule=RULE_CALL,
            dice=(turn.state.held_roll,),
            explanation=f"the die is {held}: {'high' if high else 'low'}",
        )
    )


DISPATCH: Dispatch[Callable[[HiloTurn, Any], None]] = Dispatch(
    {Hide: hide, CallDie: call_die}, rule=RULE_HIDE
)


def last_call(turn: HiloTurn) -> None:
    """R4: the last round's call ends the game (checked after every command)."""
    state = turn.state
    if not state.held and state.round >= state.rounds:
        turn.emit(GameEnded(result=f"{state.score} of {state.rounds}", rule=RULE_END))


# The events a command causes (R2 to R4), or RuleError citing the rule it breaks.
decide = decider(DISPATCH, HiloTurn, end=last_call)


# Step 4: evolve, the fold.


def evolve(state: State, event: Struct) -> State:
    """The state after one event; events it does not know change nothing."""
    if isinstance(event, DieHidden):
        return msgspec.structs.replace(
            state, held=event.held, held_roll=event.dice[0], round=state.round + 1
        )
    if isinstance(event, DieShown):
        return msgspec.structs.replace(state, held=0, score=state.score + event.right)
    return state


# Step 5: the secret, declared once: the redaction, the view and the leak checks follow.


def view(state: State, role: Role) -> dict[str, object]:
    """The state as a role sees it (SECRETS leaves `held` out but for the referee, R2)."""
    data: dict[str, object] = msgspec.to_builtins(state)
    return data


SECRETS = Redactions(
    SecretFields(DieHidden, fields={"held": -1}, why="R2: the bot's die is hidden until shown"),
    SecretState("held", why="R2: the held die is the referee's alone"),
)


# Step 6: the legal actions.


def actions(state: State, role: Role) -> list[Action]:
    """Let the bot hide its die (R2), or call the held die (R3)."""
    if state.held:
        return [offer(CallDie, RULE_CALL, "Call the bot's die high or low")]
    return [offer(Hide, RULE_HIDE, "Let the bot hide its die")]


# Step 7: the Ruleset, with its test profile.

# The view in the rules' words (engine/kit/labels.py): `umpire state` and the browser show
# these, never the field names.
LABELS = Labels(
    fields={
        "rounds": "Rounds",
        "round": "Round",
        "score": "Score",
        "held": "Bot's held die (R2)",
        "held_roll": "Roll number of the held die",
    },
    values={"held": {"0": "none held"}, "held_roll": {"0": "none held"}},
)


RULESET: Ruleset[State] = Ruleset(
    name="hilo",
    version="1",
    title="Hi-lo (example ruleset)",
    seed="hilo",
    setup_type=Setup,
    state_type=State,
    event_types=(DieHidden, DieShown),
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    view=view,
    secrets=SECRETS,
    actions=actions,
    openings=(Hide(), CallDie(call=Call.HIGH)),
    # R3: the call shows the hidden die: DieShown uses the hidden roll, by the rules.
    testing=Testing(published=("hilo.DieShown",)),
    labels=LABELS,
)
