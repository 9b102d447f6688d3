"""Counter: the smallest complete ruleset, installed as its own package.

The player adds to a total, the bot pushes by a d6 roll, the bot can hide a secret number
(a hidden roll) that players must not see, and reaching the target ends the game. Its rules
are RULES.md beside this file, cited as `test-counter Rn`. umpire finds it through the
`umpire.rulesets` entry point this package's pyproject.toml declares.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import msgspec
from msgspec import Meta, Struct

from umpire.engine.actions import Action, offer
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
from umpire.events.types import DiceRolled, GameEnded


class Setup(Struct, frozen=True, kw_only=True):
    target: Annotated[int, Meta(ge=1, le=1_000_000)] = 50


class State(Struct, frozen=True, kw_only=True):
    target: int
    total: int = 0
    pushes: int = 0
    secret: int = 0
    last_roll: int = 0


class Add(Struct, frozen=True, tag="Add", kw_only=True):
    amount: Annotated[int, Meta(ge=1, le=6)]


class Push(Struct, frozen=True, tag="Push", kw_only=True):
    pass


class Hide(Struct, frozen=True, tag="Hide", kw_only=True):
    pass


class Added(Struct, frozen=True, tag="counter.Added", kw_only=True):
    amount: int


class BotPushed(Struct, frozen=True, tag="counter.BotPushed", kw_only=True):
    amount: int
    rule: str
    dice: tuple[int, ...]


class SecretChosen(Struct, frozen=True, tag="counter.SecretChosen", kw_only=True):
    value: int
    rule: str
    dice: tuple[int, ...]


cite = citations("test-counter")
RULE_ADD = cite("R1")
RULE_PUSH = cite("R2")
RULE_HIDE = cite("R3")
RULE_END = cite("R4")


def initial_state(setup: Setup) -> State:
    """The start: a total of 0 towards the setup's target (R1)."""
    return State(target=setup.target)


class CounterTurn(Turn[State]):
    """The kit's Turn for the counter: its fold (`evolve`) and its `cite`."""

    __slots__ = ()

    def __init__(self, state: State, dice: Dice) -> None:
        super().__init__(state, dice, evolve=evolve, cite=cite)


def add(turn: CounterTurn, command: Add) -> None:
    """R1: the player adds to the total, never past the target."""
    if turn.state.total + command.amount > turn.state.target:
        raise RuleError(
            f"{RULE_ADD}: the player may not add past the target "
            f"(at most {turn.state.target - turn.state.total} now)",
            rule=RULE_ADD,
        )
    turn.emit(Added(amount=command.amount))


def push(turn: CounterTurn, command: Push) -> None:
    """R2: the bot pushes the total by a d6."""
    roll = turn.roll(d6(), "bot push", RULE_PUSH)
    turn.emit(BotPushed(amount=roll.total, rule=RULE_PUSH, dice=(roll.roll,)))


def hide(turn: CounterTurn, command: Hide) -> None:
    """R3: the bot hides a secret number (a hidden d6)."""
    roll = turn.roll(d6(), "bot secret", RULE_HIDE, hidden=True)
    turn.emit(SecretChosen(value=roll.total, rule=RULE_HIDE, dice=(roll.roll,)))


DISPATCH: Dispatch[Callable[[CounterTurn, Any], None]] = Dispatch(
    {Add: add, Push: push, Hide: hide}, rule=RULE_ADD
)


def target_reached(turn: CounterTurn) -> None:
    """R4: reaching the target ends the game, whatever command reached it."""
    if turn.state.total >= turn.state.target:
        turn.emit(GameEnded(result=f"target {turn.state.target} reached", rule=RULE_END))


# The events a command causes (R1 to R4), or RuleError citing the rule it breaks.
decide = decider(DISPATCH, CounterTurn, end=target_reached)


def evolve(state: State, event: Struct) -> State:
    """The state after one event; events it does not know change nothing."""
    if isinstance(event, Added):
        return msgspec.structs.replace(state, total=state.total + event.amount)
    if isinstance(event, BotPushed):
        return msgspec.structs.replace(
            state, total=state.total + event.amount, pushes=state.pushes + 1
        )
    if isinstance(event, SecretChosen):
        return msgspec.structs.replace(state, secret=event.value)
    if isinstance(event, DiceRolled):
        return msgspec.structs.replace(state, last_roll=event.roll)
    return state


def view(state: State, role: Role) -> dict[str, object]:
    """The state as a role sees it (SECRETS leaves the secret out but for the referee)."""
    data: dict[str, object] = msgspec.to_builtins(state)
    return data


# R3: the bot's secret number, declared once: redaction, the view and the leak checks
# follow from it.
SECRETS = Redactions(
    SecretFields(SecretChosen, withheld=True, why="R3: the bot's secret number is hidden"),
    SecretState("secret", why="R3: the bot's secret number is the referee's"),
)


def actions(state: State, role: Role) -> list[Action]:
    """Add up to the target (R1), push (R2) or hide (R3)."""
    room = min(6, state.target - state.total)
    out = [offer(Add, RULE_ADD, "Add to the total", amount={"maximum": room})] if room >= 1 else []
    return [
        *out,
        offer(Push, RULE_PUSH, "Let the bot push by a d6"),
        offer(Hide, RULE_HIDE, "Let the bot hide a secret number"),
    ]


# The view in the rules' words (engine/kit/labels.py): `umpire state` and the browser show
# these, never the field names.
LABELS = Labels(
    fields={
        "target": "Target (R1)",
        "total": "Total",
        "pushes": "Bot pushes (R2)",
        "secret": "Bot's secret number (R3)",
        "last_roll": "Last roll",
    },
    values={"last_roll": {"0": "none yet"}, "secret": {"0": "none chosen"}},
)


RULESET: Ruleset[State] = Ruleset(
    name="counter",
    version="1",
    title="Counter (example ruleset)",
    # The name its citations use; the rules document is RULES.md in `data_package`.
    seed="test-counter",
    setup_type=Setup,
    state_type=State,
    event_types=(Added, BotPushed, SecretChosen),
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    view=view,
    secrets=SECRETS,
    actions=actions,
    openings=(Push(), Hide(), Add(amount=2)),
    # Driven test games aim far: the target is never reached in a few hundred commands.
    testing=Testing(setup=Setup(target=10_000)),
    labels=LABELS,
)
