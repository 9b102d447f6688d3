"""Readable renderings of events for terminals (rich) and plain text."""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import Struct

from engine.game import Game
from engine.redaction import view_for
from engine.roles import Role
from engine.ruleset import Ruleset
from events.receipt import receipt_state_hash
from events.types import CommandRecorded, DiceRolled, GameCreated, GameEnded, SeedRevealed


def describe(event: Struct) -> str:
    """One line saying what an event means."""
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


def receipt_lines(ruleset: Ruleset[Any], game: Game) -> list[str]:
    """The receipt of the game's head as each role gets it (docs/audit.md "Receipts"):
    head seq and hash, and the state hash of each role's view there, so a player's kept
    receipt can be compared with the log."""
    meta = game.meta
    revealed = meta.revealed_seed is not None
    lines = [f"head: seq {meta.seq}, hash {meta.last_hash}"]
    for role in (Role.PLAYER, Role.SPECTATOR):
        view = msgspec.to_builtins(view_for(ruleset, game.state, role, revealed=revealed))
        lines.append(
            f"state hash ({role.value}): {receipt_state_hash(meta.seq, meta.last_hash, view)}"
        )
    return lines
