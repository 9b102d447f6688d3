"""`umpire actions GAME`: the commands a role may send now, with their fields.

Prints the role's legal actions (engine/actions.py): each command type, the rule that
allows it, and every field with what it accepts (the allowed values where the state
narrows them). The player's by default; `--json` prints the actions as the gateway
sends them in `state` frames.
"""

from __future__ import annotations

import argparse
import json

import msgspec

from umpire.engine.actions import legal_actions
from umpire.engine.roles import Role
from umpire.engine.validation import describe
from umpire.events.terminal_text import shown, terminal
from umpire.events.wire import Action
from umpire.server.config import Settings
from umpire.server.games import Games
from umpire.server.store_access import open_store

console = terminal(highlight=False, soft_wrap=True)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of `umpire actions`."""
    parser.add_argument("game", help="game id in the store")
    parser.add_argument(
        "--role",
        choices=[r.value for r in Role],
        default=Role.PLAYER.value,
        help="whose actions (default: the player's; a spectator has none)",
    )
    parser.add_argument("--json", action="store_true", help="the actions as JSON")


def render(action: Action) -> list[str]:
    """An action as lines of text: the command and its description, then each field."""
    lines = [f"[bold]{shown(action.type)}[/]  {shown(action.description)}"]
    # A choice between cases (an attacker and the targets of its side): show the first.
    schema = action.schema.get("anyOf", [action.schema])[0]
    if "anyOf" in action.schema:
        lines.append(f"    (one of {len(action.schema['anyOf'])} cases, e.g.)")
    required = set(schema.get("required", ()))
    for name, field in schema.get("properties", {}).items():
        if name == "type":
            continue
        accepts = describe(field, most=12) or "any value"
        note = "" if name in required else f" (optional, default {field.get('default')!r})"
        # The accepted values hold setup and command data (ids a player chose): shown().
        lines.append(f"    {shown(name)}: {shown(accepts)}{shown(note)}")
    return lines


async def cmd_actions(settings: Settings, args: argparse.Namespace) -> int:
    """Print the legal actions of `args.role` in game `args.game`."""
    async with open_store(settings) as store:
        ruleset, game = await Games(store).load(args.game)
    actions = legal_actions(ruleset, game.state, Role(args.role), ended=game.meta.ended, game=game)
    if args.json:
        print(json.dumps(msgspec.to_builtins(actions), indent=2))
        return 0
    if not actions:
        why = "the game has ended" if game.meta.ended else f"a {args.role} sends no commands"
        console.print(f"no actions: {why}")
        return 0
    console.print(
        f"game {shown(args.game)} ({ruleset.name}), seq {game.meta.seq}: {args.role} may send"
    )
    for action in actions:
        for line in render(action):
            console.print(line)
    return 0
