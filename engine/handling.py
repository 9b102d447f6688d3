"""From a command to the events it appends: parse, check, decide, check the dice.

This is the pure half of command handling; server/games.py does the I/O around it
(load, append with the expected version, retry on conflict). A command whose type is not
among the role's legal actions now (engine/actions.py) is refused before the rules see it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.actions import offered, offers
from umpire.engine.commands import (
    GENERIC_END_RULE,
    GENERIC_ROLL_RULE,
    UNIVERSAL_COMMANDS,
    EndGame,
    RollDice,
    RollKind,
    TakeBack,
)
from umpire.engine.dice import (
    Dice,
    DiceSpec,
    RecordedDice,
    custom,
    d6,
    d10,
    d12,
    d20,
    d100,
    nd6,
    two_d6,
)
from umpire.engine.errors import (
    CommandNotAllowed,
    ContractViolation,
    GameOver,
    InvalidCommand,
    RuleError,
)
from umpire.engine.game import Game
from umpire.engine.offers import command_tag
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.engine.schemas import struct_schema
from umpire.engine.takeback import refuse, taken_back
from umpire.engine.validation import field_words, in_words
from umpire.events.errors import UmpireError
from umpire.events.types import CommandRecorded, DiceRolled, GameEnded, Owner


@cache
def command_types(ruleset: Ruleset[Any]) -> dict[str, type[Struct]]:
    """The command types a ruleset accepts, universal ones included, by tag."""
    types = (*ruleset.command_types, *UNIVERSAL_COMMANDS)
    return {str(t.__struct_config__.tag): t for t in types}


@cache
def field_names(command_type: type[Struct]) -> tuple[str, ...]:
    """The fields a command type takes, by their names on the wire, in order."""
    return tuple(field.encode_name for field in msgspec.structs.fields(command_type))


@cache
def _keys(command_type: type[Struct]) -> frozenset[str]:
    """The keys a command of `command_type` may have on the wire: its fields and "type"."""
    return frozenset((*field_names(command_type), "type"))


def command_names(ruleset: Ruleset[Any]) -> list[str]:
    """Every command type a ruleset accepts, universal ones included, sorted."""
    return sorted(command_types(ruleset))


def parse_command(ruleset: Ruleset[Any], command: dict[str, Any]) -> Struct:
    """Turn wire data `{"type": ..., ...fields}` into a typed command, or InvalidCommand."""
    if not isinstance(command, dict):
        raise InvalidCommand("a command must be an object with a 'type' field")
    kind = command.get("type")
    target = command_types(ruleset).get(kind) if isinstance(kind, str) else None
    if target is None:
        allowed = command_names(ruleset)
        what = (
            "a command needs a 'type' field naming the command"
            if "type" not in command
            else f"unknown command type {str(kind)[:80]!r} for {ruleset.name}"
        )
        raise InvalidCommand(
            f"{what}; allowed: {', '.join(allowed)}",
            type=str(kind)[:80],
            allowed=allowed,
        )
    fields = field_names(target)
    # The keys checked as a set first (in C); the first unknown one found in order only
    # when there is one to name.
    unknown = (
        None
        if command.keys() <= _keys(target)
        else next((key for key in command if key != "type" and key not in fields), None)
    )
    if unknown is not None:
        # Decoding would drop it without a word, and a misspelt optional field would run
        # the command on its default (`cout` for `count`: one die rolled, not three).
        # The fields by their words (engine/validation.py): the table and `umpire send`
        # show the message as it is, and `umpire actions` names each field to fill.
        said = [field_words(f) for f in fields]
        takes = f"it takes {', '.join(said)}" if fields else "it takes no fields"
        message = f"{kind} has no field {str(unknown)[:80]!r}; {takes}"
        raise InvalidCommand(message, type=kind, error=message)
    try:
        parsed: Struct = msgspec.convert(command, target)
    except msgspec.ValidationError as exc:
        message = in_words(str(exc), struct_schema(target), ruleset.labels)
        raise InvalidCommand(
            f"{kind} command is not valid: {message}", type=kind, error=message
        ) from exc
    return parsed


def check_allowed(ruleset: Ruleset[Any], game: Game, parsed: Struct, role: Role) -> None:
    """Refuse a command whose type is not among `role`'s legal actions now.

    Raises CommandNotAllowed naming the command and listing the types allowed now. Where
    the rules themselves say why (the ruleset's `decide` refuses it, tried without dice),
    that reason and its rule are given too (to the player; a spectator, who may send
    nothing, gets the listing only).
    """
    # The common case without the listing (the takeback rule is asked below).
    if not isinstance(parsed, TakeBack) and offers(
        ruleset, game.state, role, type(parsed), game.meta.ended
    ):
        return
    kind = command_tag(type(parsed))
    listed = offered(ruleset, game.state, role, ended=game.meta.ended, game=game)
    allowed = [a.type for a in listed]
    if isinstance(parsed, TakeBack) and role is not Role.SPECTATOR:
        refuse(ruleset, game, allowed)  # says which part of the takeback rule refuses
    if kind in allowed:
        return
    rule = f"{ruleset.seed} (legal actions)"
    reason = ""
    # A spectator sends nothing: the rules' reason would be judged on the whole state,
    # secrets included, and say more than the spectator's view (issue 32).
    if role is not Role.SPECTATOR and not isinstance(parsed, (RollDice, EndGame, TakeBack)):
        try:
            ruleset.decide(game.state, parsed, RecordedDice(()))
        except RuleError as exc:
            rule, reason = exc.rule, f" ({exc.message})"
        except UmpireError:
            pass  # it got as far as a roll: the rules gave no reason of their own
    raise CommandNotAllowed(
        f"{kind} is not allowed now{reason}; allowed now: {', '.join(allowed) or 'nothing'}",
        rule=rule,
        type=kind,
        allowed=allowed,
    )


# The kinds whose dice `count` sets, and the one whose `sides` it is: for every other kind
# the field would be dropped without a word ({"dice": "d20", "count": 3} rolled one d20,
# {"dice": "d6", "sides": 20} rolled d6; red team 9), so a value other than its default
# is refused, and the default (as a form sends it) is allowed.
_COUNTED = (RollKind.D6, RollKind.ND6, RollKind.CUSTOM)


def _generic_spec(cmd: RollDice) -> DiceSpec:
    if cmd.sides != 6 and cmd.dice is not RollKind.CUSTOM:
        message = (
            f"RollDice: sides {cmd.sides} is not used by {cmd.dice.value} dice: sides sets "
            f"the dice of a custom roll only; send dice 'custom' with sides {cmd.sides}, or "
            "leave sides out"
        )
        raise InvalidCommand(message, type="RollDice", error=message)
    if cmd.count != 1 and cmd.dice not in _COUNTED:
        message = (
            f"RollDice: count {cmd.count} is not used by {cmd.dice.value}, which is one "
            "roll of its own dice: count sets how many dice a d6, nd6 or custom roll "
            "rolls; send dice 'custom' with its sides and count, or leave count out"
        )
        raise InvalidCommand(message, type="RollDice", error=message)
    match cmd.dice:
        case RollKind.D6:
            return d6() if cmd.count == 1 else nd6(cmd.count)
        case RollKind.TWO_D6:
            return two_d6()
        case RollKind.D10:
            return d10()
        case RollKind.D12:
            return d12()
        case RollKind.D20:
            return d20()
        case RollKind.D100:
            return d100()
        case RollKind.ND6:
            return nd6(cmd.count)
        case RollKind.CUSTOM:
            return custom(*([cmd.sides] * cmd.count))


def decide_command(
    ruleset: Ruleset[Any],
    game: Game,
    command: dict[str, Any],
    dice: Dice,
    *,
    role: Role = Role.PLAYER,
    manual: bool = False,
    nonce: str = "",
    parsed: Struct | None = None,
) -> list[Struct]:
    """The events one command appends: CommandRecorded, then what the rules decide.

    `nonce` is the entropy the command was sent with, recorded in CommandRecorded (left out
    when ""); the caller's `dice` derive the command's server rolls from it. `parsed`: the
    caller's `parse_command(ruleset, command)`, if it parsed it already (not again).

    Raises GameOver after the game has ended, InvalidCommand for a malformed command,
    CommandNotAllowed for a command type that is not among the role's legal actions now
    (TakebackRefused, saying why, for a TakeBack the takeback rule refuses), RuleError
    (from the ruleset) for an illegal one, and ContractViolation if the ruleset rolled
    dice that it did not return as DiceRolled events in order.
    """
    if game.meta.ended:
        raise GameOver(
            f"game {game.meta.game_id!r} has ended ({game.meta.result}); it takes no commands"
        )
    if parsed is None:
        parsed = parse_command(ruleset, command)
    check_allowed(ruleset, game, parsed, role)
    decided: list[Struct]
    if isinstance(parsed, RollDice):
        # A generic roll is the player's own (a base-game roll the solo rules do not govern).
        spec = _generic_spec(parsed)
        decided = [
            dice.roll(spec, purpose=parsed.purpose, rule=GENERIC_ROLL_RULE, owner=Owner.PLAYER)
        ]
    elif isinstance(parsed, EndGame):
        decided = [GameEnded(result=parsed.result, rule=GENERIC_END_RULE)]
    elif isinstance(parsed, TakeBack):
        decided = [taken_back(ruleset, game)]
    else:
        decided = list(ruleset.decide(game.state, parsed, dice))
        # The ruleset's decide is held to the contract; the three universal commands
        # above return what they roll by construction (the roll itself, or none).
        logged = [e for e in decided if isinstance(e, DiceRolled)]
        if logged != dice.rolled:
            raise ContractViolation(
                f"{ruleset.name}: decide rolled {len(dice.rolled)} dice but returned "
                f"{len(logged)} DiceRolled events (or out of order)",
                ruleset=ruleset.name,
            )
    body = msgspec.to_builtins(parsed)
    recorded = CommandRecorded(
        command_type=command_tag(type(parsed)),
        command=body,
        role=str(role),  # its value (`.value` is two Python calls a read)
        manual_dice=manual,
        nonce=nonce or msgspec.UNSET,
    )
    return [recorded, *decided]
