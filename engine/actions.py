"""Legal actions: the commands a role may send now, each with its JSON Schema.

A ruleset's `actions(state, role)` names the command types its rules allow in `state`
and narrows their schemas to what is legal there (the units that may act, the hexes, the
cards in hand), using `offer` below; the engine adds the universal commands
(`RollDice`, `EndGame`, and `TakeBack` when the folded game allows it, engine/takeback.py)
and answers `[]` to a spectator and after the game has ended (`legal_actions`).
`umpire.engine.handling.decide_command` refuses a command whose type is not listed, so the list
is the contract, not a hint.

A command field the player fills for the opponent (the Order Cards drawn for the AI from a
physical deck) is named in its command type's `opponent_fields` class variable. A game
not created to take the player's entries for the opponent (GameMeta.opponent_manual_dice)
refuses any value there but the default, so `legal_actions` offers it fixed at the
default (`{"const": ...}`; a form shows no control for it).

The list is the whole truth: every command of a listed type that its narrowed schema
allows is accepted by `decide`, and no command of an unlisted type is
(testing/contract/test_actions_truth.py). Where a rule reads what the role may not see
(an opposing pilot's hidden quality), neither the list nor the answer may turn on it: the
action lists what some value the role may suppose allows, and the rules accept every such
command and decide its effect on the hidden value, sealed until the rules show it
(docs/rulesets.md "Secrets"; testing/access/test_twin_differential.py compares both).

Schemas are the command's standalone schema (engine/schemas.py), narrowed by merging
fragments into its properties. `Action` itself is a wire type (events/wire.py), so that
clients decode it without importing the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.commands import (
    GENERIC_END_RULE,
    GENERIC_ROLL_RULE,
    EndGame,
    RollDice,
)
from umpire.engine.game import Game
from umpire.engine.hexgrid import Hex, HexGrid
from umpire.engine.offers import Action, command_schema, command_tag, restating
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.engine.schemas import Schema, tag_of
from umpire.engine.takeback import takeback_action
from umpire.events.wire import Action as WireAction

__all__ = [
    "Action",
    "Schema",
    "as_next",
    "but_not",
    "command_schema",
    "every_command",
    "legal_actions",
    "map_hexes",
    "offer",
    "offer_each",
    "offered",
    "offers",
    "one_of",
    "restating",
    "universal_actions",
]


def offer(command_type: type[Struct], rule: str, text: str, **narrow: Schema) -> Action:
    """One legal action: `command_type`, the rule that allows it now, a one-line
    description (`text`, ended by the citation) and its schema narrowed by `narrow`."""
    return Action(command_type, rule, text, (narrow,) if narrow else ())


def offer_each(
    command_type: type[Struct], rule: str, text: str, variants: Sequence[Mapping[str, Schema]]
) -> Action:
    """One legal action whose fields depend on each other (an attacker and the targets of
    its side): the schema is `anyOf` one narrowed schema per variant."""
    return Action(command_type, rule, text, tuple(variants))


def as_next(action: Action) -> Action:
    """`action` marked as the sequence of play's next step: what the rules expect now (the
    phase's own procedure, the roll play waits for), which a table shows first and marked
    (the wire's `next`). The other listed actions stay allowed. A ruleset marks one where
    its sequence of play knows it, from what the role sees (the phase, what is listed):
    the flag is a channel like the rest of the listing, so twin games that differ only in
    a secret must mark the same (testing/access/test_twin_differential.py)."""
    return msgspec.structs.replace(action, next=True)


def but_not(action: Action, commands: Iterable[Struct]) -> Action:
    """`action` with its schema leaving out exactly `commands`, as a `not` of each whole
    command (`restating`): for a report of several fields whose one combination, the
    state as it is, would change nothing (issue 41 item 8), where no field alone can be
    narrowed. The rules refuse such a command `nothing_to_do`. The schemas are built only
    when the action goes on the wire (`Action.wire`), not when the command path asks
    whether a type is listed."""
    gone = tuple(commands)
    return msgspec.structs.replace(action, excluded=(*action.excluded, *gone)) if gone else action


def one_of(values: Iterable[Any]) -> Schema:
    """A schema fragment allowing exactly `values` (in the order given, duplicates out)."""
    return {"enum": list(dict.fromkeys(values))}


# A map larger than this is offered by its label pattern, not by an enum of every hex:
# the actions ride in every `state` frame.
MAX_ENUM_HEXES = 2500


def map_hexes(grid: HexGrid, keep: Callable[[str], bool] = lambda label: True) -> Schema:
    """A schema fragment for a hex of `grid`'s map (those `keep` accepts), in label order:
    an enum on a map of at most MAX_ENUM_HEXES hexes, else nothing narrower."""
    labels = _labels(grid)
    if labels is None:
        return {}
    return one_of(label for label in labels if keep(label))


@cache
def _labels(grid: HexGrid) -> tuple[str, ...] | None:
    size = (grid.max_col - grid.min_col + 1) * (grid.max_row - grid.min_row + 1)
    if size > MAX_ENUM_HEXES:
        return None
    return tuple(
        Hex(col, row).label
        for col in range(grid.min_col, grid.max_col + 1)
        for row in range(grid.min_row, grid.max_row + 1)
    )


def every_command(command_types: Sequence[type[Struct]], rule: str) -> list[Action]:
    """Every command type, unnarrowed: the default `actions` of a ruleset that does not
    know its phases (each described by its docstring's first line)."""
    out = []
    for t in command_types:
        doc = (t.__doc__ or tag_of(t)).strip().splitlines()[0]
        out.append(offer(t, rule, doc))
    return out


# What a generic roll's kind of dice does not use: a `sides` other than 6 but for custom
# dice, a `count` other than 1 but for d6, nd6 and custom (engine/handling.py refuses each,
# where it was dropped without a word). Left out of the listed schema as its `not`, so the
# listing offers what the command path takes, and no more, in one form.
_ROLL_UNUSED = {
    "anyOf": [
        {"properties": {"dice": {"enum": ["d6", "2d6", "d10", "d12", "d20", "d100", "nd6"]},
                        "sides": {"not": {"const": 6}}},
         "required": ["dice", "sides"]},
        {"properties": {"dice": {"enum": ["2d6", "d10", "d12", "d20", "d100"]},
                        "count": {"not": {"const": 1}}},
         "required": ["dice", "count"]},
    ]
}  # fmt: skip
_UNIVERSAL = (
    Action(
        RollDice, GENERIC_ROLL_RULE, "Roll dice the solo rules do not govern", unless=_ROLL_UNUSED
    ),
    Action(EndGame, GENERIC_END_RULE, "End the game with a result in your words"),
)


def universal_actions() -> list[Action]:
    """The commands every ruleset accepts while a game runs (engine/commands.py)."""
    return list(_UNIVERSAL)


_UNIVERSAL_TYPES = frozenset(action.type for action in _UNIVERSAL)


@cache
def _every_type(command_types: tuple[type[Struct], ...]) -> frozenset[str]:
    """The tags of a ruleset's command types (what `every_command` lists)."""
    return frozenset(tag_of(t) for t in command_types)


def offers(
    ruleset: Ruleset[Any], state: Any, role: Role, command_type: type[Struct], ended: bool
) -> bool:
    """Whether `offered` lists a command of type `command_type` now, for every type but
    TakeBack (engine/takeback.py says whether, and why not). The command path asks this of
    every command (engine/handling.py `check_allowed`): the universal types and the
    takeback rule are not listed for it, only the ruleset's own actions are asked for."""
    if ended or role is Role.SPECTATOR:
        return False
    kind = command_tag(command_type)
    if kind in _UNIVERSAL_TYPES:
        return True
    if ruleset.actions is None:
        return kind in _every_type(ruleset.command_types)
    for action in ruleset.actions(state, role):
        if action.command_type is command_type or command_tag(action.command_type) == kind:
            return True
    return False


def offered(
    ruleset: Ruleset[Any], state: Any, role: Role, *, ended: bool, game: Game | None = None
) -> list[Action]:
    """What `role` may send now, as offered (schemas not built): the ruleset's actions,
    then the universal ones. A spectator sends nothing; nobody sends anything after the
    game has ended. A ruleset without `actions` offers every command type, unnarrowed.
    Given the folded `game` (whose state `state` is), `TakeBack` is listed last where the
    takeback rule allows it now; without it, never."""
    if ended or role is Role.SPECTATOR:
        return []
    if ruleset.actions is None:
        own = every_command(ruleset.command_types, ruleset.seed)
    else:
        own = list(ruleset.actions(state, role))
    takeback = takeback_action(ruleset, game) if game is not None else None
    return [*own, *_UNIVERSAL, *([takeback] if takeback is not None else [])]


def legal_actions(
    ruleset: Ruleset[Any], state: Any, role: Role, *, ended: bool, game: Game | None = None
) -> list[WireAction]:
    """What `role` may send now, each with its narrowed JSON Schema (see `offered`).
    Fields for the opponent's entries are offered only to a game created to take them
    (`game.meta.opponent_manual_dice`; without `game`, none is): elsewhere each is fixed
    at its default, since the game refuses any other value (OpponentDiceRefused)."""
    listed = offered(ruleset, state, role, ended=ended, game=game)
    if game is None or not game.meta.opponent_manual_dice:
        listed = [_without_opponent_fields(action) for action in listed]
    return [action.wire() for action in listed]


def _without_opponent_fields(action: Action) -> Action:
    """`action` with its command type's `opponent_fields` fixed at their defaults."""
    fixed = _opponent_defaults(action.command_type)
    if not fixed:
        return action
    variants = action.variants or ({},)
    return msgspec.structs.replace(action, variants=tuple({**v, **fixed} for v in variants))


@cache
def _opponent_defaults(command_type: type[Struct]) -> Mapping[str, Schema]:
    """A schema fragment per field of `command_type`'s `opponent_fields`: its default."""
    names: tuple[str, ...] = getattr(command_type, "opponent_fields", ())
    fixed: dict[str, Schema] = {}
    for field in msgspec.structs.fields(command_type):
        if field.name not in names:
            continue
        if field.default is not msgspec.NODEFAULT:
            fixed[field.encode_name] = {"const": msgspec.to_builtins(field.default)}
        elif field.default_factory is not msgspec.NODEFAULT:
            fixed[field.encode_name] = {"const": msgspec.to_builtins(field.default_factory())}
    if len(fixed) != len(names):  # a renamed field must not silently stay offered
        raise KeyError(
            f"{tag_of(command_type)}: opponent_fields {names}: a field or default is missing"
        )
    return fixed
