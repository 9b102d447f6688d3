"""`umpire actions GAME`: the commands a role may send now, with their fields.

Prints the role's legal actions (engine/actions.py): each command type, the rule that
allows it, every field with its type and what it accepts (values by name, list items'
fields, every case of a choice) and an example command (events/action_text.py). The
player's by default; `--json` prints the actions as the gateway sends them in `state`
frames.
"""

from __future__ import annotations

import argparse
import json

import msgspec

from umpire.engine.actions import legal_actions
from umpire.engine.citations import names_of, readable
from umpire.engine.roles import Role
from umpire.events.action_text import render
from umpire.events.citation_words import SeedNames
from umpire.events.terminal_text import shown, terminal
from umpire.events.wire import Action
from umpire.server.config import Settings
from umpire.server.games import Games
from umpire.server.store_access import open_store

console = terminal(highlight=False, soft_wrap=True)


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
        f" (umpire send {shown(args.game)} followed by the words or the JSON of an example)"
    )
    names = names_of(ruleset)  # its own seed: not every installed ruleset imported
    for action in actions:
        for line in printed(action, names):
            console.print(line)
    return 0


def printed(action: Action, names: SeedNames | None = None) -> list[str]:
    """An action's lines as printed: its citations by the rulebook's title and heading
    (engine/citations.py, as `umpire log` shows them; `--json` keeps the file and rule);
    the accepted values hold ids players chose, so every control character is escaped,
    and markup too (events/terminal_text.py)."""
    return [shown(readable(line, names)) for line in render(action)]
