"""Readable renderings of events for terminals (rich) and plain text.

`describe` returns printable text: what a player wrote in an event (a purpose, a
command's fields, a result) has its control characters escaped. Printing it where rich
parses markup needs `shown` (events/terminal_text.py) as well.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import Struct

from events.terminal_text import printable
from events.types import CommandRecorded, DiceRolled, GameCreated, GameEnded, SeedRevealed


def describe(event: Struct) -> str:
    """One line saying what an event means, safe to print (control characters escaped)."""
    return printable(_describe(event))


def _describe(event: Struct) -> str:
    if isinstance(event, GameCreated):
        return (
            f"game {event.game_id} created: {event.ruleset} v{event.ruleset_version}, "
            f"seed commitment {event.seed_commitment[:16]}…, client seed {event.client_seed!r}"
        )
    if isinstance(event, CommandRecorded):
        fields = {k: v for k, v in event.command.items() if k != "type"}
        manual = " (manual dice)" if event.manual_dice else ""
        return f"{event.role} command {event.command_type} {fields}{manual}"
    if isinstance(event, DiceRolled):
        if event.hidden and not event.faces:
            return f"roll #{event.roll} {event.kind} for {event.purpose} [hidden] — {event.rule}"
        labels = (
            " ".join(f"{lab}={f}" for lab, f in zip(event.labels, event.faces, strict=False))
            if event.labels
            else " ".join(map(str, event.faces))
        )
        who = "player" if event.by == "player" else "server"
        return (
            f"roll #{event.roll} {event.kind} [{labels}] = {event.total} ({who}) for "
            f"{event.purpose} — {event.rule}"
        )
    if isinstance(event, SeedRevealed):
        return f"seed revealed: {event.seed}"
    if isinstance(event, GameEnded):
        return f"game ended: {event.result}" + (f" — {event.rule}" if event.rule else "")
    data: dict[str, Any] = msgspec.to_builtins(event)
    tag = data.pop("type", type(event).__name__)
    explanation = data.pop("explanation", "")
    rule = data.pop("rule", "")
    data.pop("candidates", None)
    head = f"{tag}: {explanation}" if explanation else f"{tag} {data}"
    return head + (f" — {rule}" if rule else "")
