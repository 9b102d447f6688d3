"""`umpire readings`, `umpire dispute` and `umpire disputes` (issue 40; docs/audit.md
"Disputes").

- `readings RULESET [--json]`: the ruleset's documented readings (engine/kit/reading.py).
- `dispute GAME SEQ --claim TEXT [--reading NAME[=VALUE]]`: dispute the decision or roll at
  SEQ as the chosen role; prints the dispute's id and the finding, or "pending reveal".
- `disputes GAME [--json]`: every dispute of a game with its finding and ruling.
- `rule GAME DISPUTE_ID uphold|amend`: the ruling, by a role that may rule.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import msgspec

from umpire.engine import registry
from umpire.engine.citations import names_of, readable
from umpire.engine.disputes import Dispute
from umpire.engine.kit.reading import listed_reading, value_text
from umpire.events.rules_words import finding_lines
from umpire.events.terminal_text import shown, terminal
from umpire.events.types import DisputeFound
from umpire.server.config import Settings
from umpire.server.referee import role_for
from umpire.server.render import capitals_of
from umpire.server.store_access import open_store
from umpire.server.store_commands import command_games

console = terminal(highlight=False, soft_wrap=True)


def cmd_readings(settings: Settings, args: argparse.Namespace) -> int:
    """Print a ruleset's documented readings."""
    ruleset = registry.get(args.ruleset)
    listed = [listed_reading(r) for r in ruleset.readings]
    if args.json:
        print(json.dumps(listed, indent=2))
        return 0
    if not listed:
        console.print(f"{ruleset.name} declares no readings")
    names = names_of(ruleset)  # cite by the rulebook's title and heading (issue 41 item 7)
    for reading in ruleset.readings:
        others = ", ".join(value_text(v) for v in reading.alternatives)
        console.print(f"{reading.name}  (setup field; {shown(readable(reading.rule, names))})")
        console.print(f"  default {value_text(reading.default)}; alternatives: {others}")
        console.print(f"  {reading.summary}")
        # The ruleset's own README (its folder's), not the project's at the top.
        console.print(f"  argued in the {ruleset.name} ruleset's {reading.readme}")
    return 0


def _finding_lines(found: DisputeFound | None, capitals: frozenset[str]) -> list[str]:
    """The finding under its dispute, in words (server/render.py `finding_lines`)."""
    if found is None:
        return ["  finding: pending reveal (it rests on what players may not see yet)"]
    first, *rest = finding_lines(found, capitals)
    said = first.partition(": ")[2]  # "finding on dispute N: ..." under its dispute's line
    return [f"  finding: {shown(said)}"] + [f"    {shown(line)}" for line in rest]


async def cmd_dispute(settings: Settings, args: argparse.Namespace) -> int:
    """File a dispute and print its finding."""
    role = role_for(settings, args.role, args.operator_token)
    reading, _, value = str(args.reading).partition("=")
    async with open_store(settings) as store:
        games = command_games(settings, store)
        filed = await games.dispute(
            args.game, role=role, seq=args.seq, claim=args.claim, reading=reading, value=value
        )
        ruleset, _ = await games.disputes(args.game)  # its capitals, for the events' types
    console.print(f"dispute {filed.id} of seq {args.seq} filed by the {role.value}")
    for line in _finding_lines(filed.finding, capitals_of(ruleset)):
        console.print(line)
    return 0


async def cmd_rule(settings: Settings, args: argparse.Namespace) -> int:
    """Rule on a found dispute as the chosen role."""
    role = role_for(settings, args.role, args.operator_token)
    async with open_store(settings) as store:
        games = command_games(settings, store)
        seq = await games.rule(args.game, role=role, dispute=args.dispute, ruling=args.ruling)
    console.print(f"dispute {args.dispute}: {args.ruling} (by the {role.value}) → seq {seq}")
    return 0


def dispute_data(dispute: Dispute) -> dict[str, Any]:
    """A dispute as JSON: its id, what was filed and the finding (null: pending)."""
    data: dict[str, Any] = msgspec.to_builtins(dispute)
    return data


async def cmd_disputes(settings: Settings, args: argparse.Namespace) -> int:
    """List a game's disputes."""
    async with open_store(settings) as store:
        games = command_games(settings, store)
        await games.find_pending(args.game)
        ruleset, disputes = await games.disputes(args.game)
    if args.json:
        print(json.dumps([dispute_data(d) for d in disputes], indent=2))
        return 0
    if not disputes:
        console.print(f"game {shown(args.game)} has no disputes")
    for dispute in disputes:
        filed = dispute.filed
        under = f" under {filed.reading}={filed.value}" if filed.reading else ""
        console.print(f"dispute {dispute.id}: seq {filed.seq} by the {filed.who}{under}: "
                      f"{shown(filed.claim)}")  # fmt: skip
        for line in _finding_lines(dispute.finding, capitals_of(ruleset)):
            console.print(line)
        ruled = dispute.ruling
        console.print(f"  ruling: {ruled.ruling} by the {ruled.by}" if ruled else "  open")
    return 0
