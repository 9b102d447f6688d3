"""Taking back commands (issue #18 item 4): whether the player may now, and what it writes.

A player may take back their last command, and the one before it, while no die has been
rolled and nothing hidden has been shown to them since; a ruleset may allow less
(`Ruleset.takeback`). The fold keeps what this needs (engine/game.py: `GameMeta.undo`,
`blocked_at`, `blocked_by`, `takebacks_in_row`), so the rule is checked from the log alone:
`decide_command` asks here, and the audit, which re-runs every recorded command, refuses
a `CommandTakenBack` the rule did not allow.
"""

from __future__ import annotations

from typing import Any

from umpire.engine.commands import TAKEBACK_RULE, TakeBack
from umpire.engine.errors import CommandNotAllowed
from umpire.engine.game import TAKE_BACK, Game, Undo
from umpire.engine.offers import Action
from umpire.engine.ruleset import Ruleset
from umpire.events.types import CommandTakenBack

NOTHING = "nothing to take back: no command since the start of the game"


class TakebackRefused(CommandNotAllowed):
    """A TakeBack the rule does not allow now. `why` says which part of the rule refuses:
    `roll`, `hidden`, `seed`, `forbidden`, `depth`, `amend` or `nothing`."""


def refusal(ruleset: Ruleset[Any], game: Game) -> tuple[str, str] | None:
    """Why `game`'s last command may not be taken back now, as (why, reason in words), or
    None when it may."""
    meta = game.meta
    policy = ruleset.takeback
    if policy.depth == 0:
        return "forbidden", f"the {ruleset.name} rules allow no takebacks"
    if meta.takebacks_in_row >= policy.depth:
        return "depth", (
            f"you have taken back {meta.takebacks_in_row} commands in a row, and no more "
            f"than {policy.depth} may be: that would be more than {policy.depth} deep"
        )
    if meta.undo:
        return None
    if meta.commands == 0:
        # Before any command (a seed bound at creation is no reason a player would follow).
        return "nothing", NOTHING
    kind, _, detail = meta.blocked_by.partition(":")
    at = meta.blocked_at
    match kind:
        case "roll":
            return "roll", f"a die was rolled since: at seq {at}"
        case "hidden":
            return "hidden", f"something hidden was shown since: at seq {at}"
        case "seed":
            return "seed", f"the dice seed was bound or revealed since: at seq {at}"
        case "forbidden":
            return "forbidden", f"the {ruleset.name} rules forbid taking back {detail} (seq {at})"
        case "end":
            return "end", f"the game ended at seq {at}"
        case "amend":
            return "amend", f"the game was amended at seq {at}: nothing before it comes back"
    return "nothing", NOTHING


def last_undoable(ruleset: Ruleset[Any], game: Game) -> Undo | None:
    """The command a TakeBack would take back now, or None when the rule refuses."""
    if refusal(ruleset, game) is not None:
        return None
    return game.meta.undo[-1]


def refuse(ruleset: Ruleset[Any], game: Game, allowed: list[str]) -> None:
    """Raise TakebackRefused saying why, if a TakeBack is not allowed in `game` now."""
    refused = refusal(ruleset, game)
    if refused is None:
        return
    why, reason = refused
    raise TakebackRefused(
        f"TakeBack is not allowed now: {reason}; allowed now: {', '.join(allowed) or 'nothing'}",
        rule=TAKEBACK_RULE,
        type=TAKE_BACK,
        allowed=allowed,
        why=why,
    )


def taken_back(ruleset: Ruleset[Any], game: Game) -> CommandTakenBack:
    """The event a TakeBack appends: it names the command it takes back. The caller has
    checked that the rule allows it (`refuse`)."""
    top = last_undoable(ruleset, game)
    assert top is not None, "taken_back called where the takeback rule refuses"
    return CommandTakenBack(
        seq=top.seq, command_id=top.command_id, command_type=top.command_type, rule=TAKEBACK_RULE
    )


def takeback_action(ruleset: Ruleset[Any], game: Game) -> Action | None:
    """The TakeBack legal action, naming the command it would take back, or None when the
    rule refuses now."""
    top = last_undoable(ruleset, game)
    if top is None:
        return None
    # One (empty) narrowing: the text names a seq, so the plain wire cache must not keep it.
    return Action(TakeBack, TAKEBACK_RULE, f"Take back: {top.command_type} (seq {top.seq})", ({},))
