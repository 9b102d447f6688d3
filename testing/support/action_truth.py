"""Whether a game's legal actions are the whole truth at one point of play (issue 28 item 3).

`actions` is a contract, not a hint (engine/actions.py): at any point,

(a) every listed command, filled with values its narrowed schema (as a client receives it,
    JSON) allows, is accepted by `decide` (one that a hidden value decides too: it is
    accepted whatever the value, and decided sealed, engine/actions.py);
(b) every command type not listed is refused as `command_not_allowed` (the store half of
    this lives in testing/contract/test_actions_truth.py: nothing is written);
(c) the narrowing hides nothing that `decide` would accept: a command of an unlisted type
    is refused by the rules too, and a listed one with an enumerated field (a side, a
    card, a kind: values the type's own schema names) set to a value the narrowing leaves
    out is refused (Down in Flames once listed only side A's `BeginTurn` and accepted
    side B's).

(d) every listed command (a) accepted changes the state or rolls dice: a command that
    would change nothing is not listed (issue 41 item 8).

(a) covers the "e.g." command `umpire actions` prints for each action too.

`check` runs (a) and (c) on a folded game, purely (engine/handling.py `decide_command`
with dice from a fixed seed), and returns the commands (a) accepted with their events, so
a random player can go on with one of them. A disagreement is an AssertionError that names
the ruleset, the command and the rules' answer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.actions import legal_actions
from umpire.engine.commands import UNIVERSAL_COMMANDS
from umpire.engine.dice import ServerDice
from umpire.engine.errors import CommandNotAllowed, InvalidCommand
from umpire.engine.game import Game
from umpire.engine.handling import command_types, decide_command, parse_command
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.engine.schemas import struct_schema
from umpire.events.action_text import example
from umpire.events.errors import UmpireError
from umpire.events.types import DiceRolled
from umpire.events.wire import Action
from umpire.testing.support.schema_sampler import accepts, sample

# The engine's own commands: listed ones are checked like the rest, but the random player
# goes on with the ruleset's own, and an unlisted TakeBack meets the takeback rule's own
# refusal (engine/takeback.py, tests/engine/test_takeback.py).
UNIVERSAL = frozenset(str(t.__struct_config__.tag) for t in UNIVERSAL_COMMANDS)
SEED = bytes(32)


@dataclass(frozen=True)
class Accepted:
    """A listed command that `decide` accepted, and what it appends."""

    command: dict[str, Any]
    events: list[Struct]


def as_received(action: Action) -> dict[str, Any]:
    """The action's schema as a client reads it off the wire (enums as their values)."""
    schema: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(action.schema))
    return schema


def _decide(
    ruleset: Ruleset[Any], game: Game, command: dict[str, Any], role: Role, rng: random.Random
) -> list[Struct]:
    dice = ServerDice(SEED, f"truth-{rng.randrange(1 << 30)}", game.meta.rolls)
    return decide_command(ruleset, game, command, dice, role=role)


def listed(ruleset: Ruleset[Any], game: Game, role: Role) -> list[Action]:
    """What `role` may send now, as the gateway lists it."""
    return legal_actions(ruleset, game.state, role, ended=game.meta.ended, game=game)


def check(
    ruleset: Ruleset[Any], game: Game, rng: random.Random, *, samples: int = 4
) -> list[Accepted]:
    """(a) and (c) at this point of `game`, for the player, the referee (listed the same)
    and a spectator (listed nothing, refused everything); the accepted commands of the
    ruleset's own types."""
    name = ruleset.name
    assert listed(ruleset, game, Role.SPECTATOR) == [], f"{name}: a spectator is offered actions"
    actions = listed(ruleset, game, Role.PLAYER)
    # The referee (the operator's connection) commands through the same listing: it is
    # the player's here, so what holds for the player's holds for it.
    referee = listed(ruleset, game, Role.REFEREE)
    assert msgspec.json.encode(referee) == msgspec.json.encode(actions), f"{name}: referee"
    by_type = {a.type: a for a in actions}
    assert len(by_type) == len(actions), f"{name}: a type listed twice: {list(by_type)}"
    out: list[Accepted] = []
    for action in actions:
        schema = as_received(action)
        # The example `umpire actions` prints (events/action_text.py) first, then samples.
        drawn = [example(schema), *(sample(schema, rng) for _ in range(samples))]
        for command in drawn:
            try:
                events = _decide(ruleset, game, command, Role.PLAYER, rng)
            except UmpireError as exc:
                raise AssertionError(
                    f"{name} at seq {game.meta.seq}: listed {action.type} refused "
                    f"({exc.code}: {exc}); command {command}; its schema {schema}"
                ) from None
            if action.type not in UNIVERSAL:
                _changes_the_state(ruleset, game, command, events)
                out.append(Accepted(command, events))
    types = command_types(ruleset)
    for tag in sorted(types):
        if tag in UNIVERSAL:
            continue
        full = struct_schema(types[tag])
        action = by_type.get(tag)
        for _ in range(samples):
            if action is None:
                _unlisted(ruleset, game, sample(full, rng), rng)
            else:
                _enumerations(ruleset, game, action, full, rng)
    # A spectator sends nothing.
    for tag in sorted(types):
        command = sample(struct_schema(types[tag]), rng)
        try:
            _decide(ruleset, game, command, Role.SPECTATOR, rng)
        except (CommandNotAllowed, InvalidCommand):
            continue
        raise AssertionError(f"{name}: a spectator's {tag} was accepted: {command}")
    return out


def _changes_the_state(
    ruleset: Ruleset[Any], game: Game, command: dict[str, Any], events: list[Struct]
) -> None:
    """(d) an accepted listed command changes the state, or rolls (issue 41 item 8): a
    command that would change nothing is not listed, and is refused `nothing_to_do` if
    sent, with no exemption: a report that would restate the game is left out of its
    listed schema (a `not`, engine/offers.py). A ruleset names only the events that record
    a claim a hidden value voided (`Testing.voids_on_hidden`: accepted for some value of
    the secret, issue 42)."""
    if any(isinstance(event, DiceRolled) for event in events):
        return  # a roll happened: the game's dice moved on, whatever it decided
    voids = ruleset.testing.voids_on_hidden
    if any(type(event).__struct_config__.tag in voids for event in events):
        return  # a hidden value voided the claim (Testing.voids_on_hidden): it is recorded
    state = game.state
    for event in events:
        state = ruleset.evolve(state, event)
    if msgspec.msgpack.encode(state) == msgspec.msgpack.encode(game.state):
        raise AssertionError(
            f"{ruleset.name} at seq {game.meta.seq}: listed {command['type']} was accepted "
            f"and changed nothing: {command}; events {events}"
        )


def _unlisted(
    ruleset: Ruleset[Any], game: Game, command: dict[str, Any], rng: random.Random
) -> None:
    """(b) purely, and (c) for a type not listed: the engine refuses it as not allowed,
    and the rules refuse it too."""
    try:
        parsed = parse_command(ruleset, command)
    except InvalidCommand:
        return  # a value the type itself refuses (a pattern, a cross-field check)
    try:
        _decide(ruleset, game, command, Role.PLAYER, rng)
    except CommandNotAllowed:
        pass
    else:
        raise AssertionError(f"{ruleset.name}: unlisted {command['type']} accepted: {command}")
    _refused_by_rules(ruleset, game, parsed, command, None)


def _enumerations(
    ruleset: Ruleset[Any], game: Game, action: Action, full: dict[str, Any], rng: random.Random
) -> None:
    """(c) for a listed type: a listed command with one enumerated field (its type's own
    schema names the values: a side, a card, a kind) set to any value of the type's, that
    the narrowed schema leaves out, is refused by the rules. Fields without an enumeration
    in the type (ids, hexes, counts) are narrowed from nothing a client can see beyond,
    so only values the narrowing lists are tried for them, in (a)."""
    narrowed = as_received(action)
    names = [n for n, f in full.get("properties", {}).items() if "enum" in f and n != "type"]
    if not names:
        return
    command = sample(narrowed, rng)
    name = rng.choice(names)
    command[name] = rng.choice(full["properties"][name]["enum"])
    if accepts(narrowed, command):
        return
    try:
        parsed = parse_command(ruleset, command)
    except InvalidCommand:
        return
    _refused_by_rules(ruleset, game, parsed, command, narrowed)


def _refused_by_rules(
    ruleset: Ruleset[Any],
    game: Game,
    parsed: Struct,
    command: dict[str, Any],
    narrowed: dict[str, Any] | None,
) -> None:
    dice = ServerDice(SEED, "truth-outside", game.meta.rolls)
    try:
        ruleset.decide(game.state, parsed, dice)
    except UmpireError:
        return
    where = "not listed" if narrowed is None else "outside its narrowed schema"
    raise AssertionError(
        f"{ruleset.name} at seq {game.meta.seq}: {command['type']} {where} but the rules "
        f"accept it: {command}" + (f"; listed schema {narrowed}" if narrowed else "")
    )
