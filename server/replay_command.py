"""`umpire replay`, `umpire explain` and `umpire readjudicate`: a game's log looked at again.

- `replay GAME --at SEQ [--role R]`: the state after event SEQ as role R saw it;
  `replay GAME --diff A B`: what changed between the states after A and after B.
- `explain GAME SEQ`: one event in plain words (rule, table row, dice, candidates).
- `readjudicate GAME [--ruleset-module M:A]`: the recorded commands and dice re-run under
  the installed (or given) rules into a new game; prints the first event that differs.
  The new game is stored without a dice seed: its log commits to its original's seed, and
  nothing done with the copy (reveal, export, a server roll) may publish or use that seed.

Replay and explain take `--file EXPORT.jsonl` instead of a game id.
"""

from __future__ import annotations

import argparse
import json
import secrets
from typing import Any

import msgspec
from rich.table import Table

from umpire.engine import registry
from umpire.engine.explain import explain
from umpire.engine.game import codec_for, ruleset_of
from umpire.engine.replay import (
    check_seq,
    decoded_log,
    diff,
    line_of,
    readjudicate,
    seen_by,
    state_at,
)
from umpire.events.envelope import GENESIS_HASH, check_game_id
from umpire.events.epochs import epochs_of
from umpire.events.errors import GameExists, GameNotFound, UmpireError
from umpire.events.plurals import counted
from umpire.events.recorder import seal_batch
from umpire.events.store import EventStore
from umpire.events.terminal_text import shown, terminal
from umpire.events.types import SeedRevealed
from umpire.server.config import Settings
from umpire.server.game_log import load_log, read_log, ruleset_from_module, say_gaps
from umpire.server.game_records import sealed_pending
from umpire.server.progress import progress_bar
from umpire.server.referee import role_for
from umpire.server.render import capitals_of, change_said, view_lines
from umpire.server.store_access import open_store

console = terminal(highlight=False, soft_wrap=True)
err_console = terminal(stderr=True)


class ReplayWhat(UmpireError):
    """`umpire replay` given none of --at, --diff and --line: it names each."""

    code = "replay_what"


def _dump(value: Any) -> str:
    # ensure_ascii (the default) escapes every control character a player wrote.
    return json.dumps(value, indent=2, sort_keys=True, default=str)


async def cmd_replay(settings: Settings, args: argparse.Namespace) -> int:
    """Print the state at a seq, or the changes between two seqs."""
    log = await load_log(settings, args.game, args.file)
    say_gaps("replay", log.gaps)
    role = role_for(settings, args.role, args.operator_token)
    if args.line is not None:  # a superseded line of an amended game (docs/audit.md)
        envelopes = tuple(line_of(log.envelopes, args.line))
        log = msgspec.structs.replace(log, envelopes=envelopes, source=f"{log.source} line "
                                      f"{args.line}")  # fmt: skip
    at_seq = args.at
    if at_seq is None and args.diff is None:
        if args.line is None:
            raise ReplayWhat(
                "umpire replay needs --at SEQ (the state after SEQ), --diff A B (what "
                "changed between A and B) or, for an amended game, --line N (that line's "
                "last state)"
            )
        at_seq = log.envelopes[-1].seq  # `--line N` alone: the line at its head
    if at_seq is not None:
        at = state_at(log.envelopes, at_seq, role)
        if args.json:
            print(_dump(_builtins(at)))
            return 0
        console.print(
            f"{shown(log.source)} ({at.ruleset}) after seq {at.seq} of {at.head}, as the "
            f"{at.role}{' (seed revealed: everything shown)' if at.revealed else ''}"
        )
        status = f"ended: {shown(at.result or '')}" if at.ended else "in play"
        console.print(f"{counted(at.commands, 'command')}, {counted(at.rolls, 'roll')}, {status}; "
                      f"state hash {at.state_hash}")  # fmt: skip
        # The view as `umpire state` says it, in the ruleset's words (--json: the raw keys).
        for line in view_lines(at.state, "  ", ruleset_of(log.envelopes[0]).labels):
            console.print(shown(line))
        return 0
    a, b = args.diff
    for seq in (a, b):
        check_seq(log.envelopes, seq)
    before = state_at(log.envelopes, a, role)
    after = state_at(log.envelopes, b, role)
    changes = diff(before.state, after.state)
    if args.json:
        print(_dump([_builtins(c) for c in changes]))
        return 0
    if not changes:  # an empty table's bare header says less than one line
        console.print(f"{shown(log.source)}: nothing the {role.value} sees changed from seq "
                      f"{a} to seq {b}")  # fmt: skip
        return 0
    console.print(f"{shown(log.source)}: {counted(len(changes), 'change')} from seq {a} to "
                  f"seq {b}, as the {role.value}")  # fmt: skip
    table = Table(show_lines=False)
    for column in ("where", "before", "after"):
        table.add_column(column, overflow="fold")
    # In the state's words, as `umpire state` says them (--json: the paths and values).
    labels = ruleset_of(log.envelopes[0]).labels
    for change in changes:
        # A table's cells are rich markup: what a player named (a flight "[/]") is
        # escaped, or rich would colour it, link it or stop on it (MarkupError).
        table.add_row(*(shown(cell, newlines=True) for cell in change_said(change, labels)))
    console.print(table)
    return 0


def _builtins(value: Any) -> Any:
    return msgspec.to_builtins(value)


async def cmd_explain(settings: Settings, args: argparse.Namespace) -> int:
    """Explain one event in plain words."""
    log = await load_log(settings, args.game, args.file)
    say_gaps("explain", log.gaps)
    check_seq(log.envelopes, args.seq)
    ruleset = ruleset_of(log.envelopes[0])
    events = decoded_log(log.envelopes, ruleset)
    role = role_for(settings, args.role, args.operator_token)
    # Only what the role could see: a hidden roll shows no faces, a secret event nothing.
    seen = [seen_by(ruleset, events, n, role) for n in range(1, len(events) + 1)]
    explanation = explain(seen, args.seq, capitals_of(ruleset))
    if args.json:
        print(_dump(_builtins(explanation)))
        return 0
    for line in explanation.lines(capitals_of(ruleset)):
        console.print(shown(line))
    return 0


async def cmd_readjudicate(settings: Settings, args: argparse.Namespace) -> int:
    """Re-run a game's commands and dice under the current (or given) rules, into a new game."""
    async with open_store(settings) as store:
        envelopes = await read_log(store, args.game)
        original = ruleset_of(envelopes[0])
        if args.ruleset_module:
            ruleset = ruleset_from_module(args.ruleset_module)
        else:
            ruleset = registry.get(original.name)
        new_id = check_game_id(args.new_game_id or await _free_id(store, args.game))
        if await store.version(new_id) > 0:
            raise GameExists(f"game {new_id!r} exists already: choose another --new-game-id")
        with progress_bar("re-adjudicating", len(envelopes), err_console) as advance:
            result = readjudicate(envelopes, ruleset, game_id=new_id, progress=advance)
        codec = codec_for(ruleset)
        original_epochs = epochs_of(envelopes)
        # Read only to seal the copy's commitments of the current epoch; never stored.
        try:
            current_seed: bytes | None = await store.secret(args.game)
            sealing_key = await store.sealing_key(args.game)
        except GameNotFound:
            current_seed = None  # a copy of a copy: its current epoch has no seed to key with
            sealing_key = None
        sealing_key = sealing_key or original_epochs.sealing_key or None
        seq, link = 0, GENESIS_HASH
        epoch = 0
        for batch in result.batches:
            sealed = seal_batch(
                new_id,
                # Ruleset secrets (and a sealed game's hidden rolls) under the original's
                # sealing key, so that they open with the original's final reveal (which
                # the copy records).
                sealed_pending(
                    ruleset,
                    new_id,
                    seq + 1,
                    [(e, codec.encode(e)) for e in batch.events],
                    sealing_key,
                    sealed_dice=original_epochs.sealed_dice,
                ),
                expected_version=seq,
                prev_hash=link,
                command_id=batch.command_id,
                recorded_at=batch.recorded_at,
                # No secret: the copy holds its original's commitment, never its seed. Its
                # secret events are committed with the seeds of the original's epochs, so
                # they open exactly when the original's do.
                commit_seed=original_epochs.seed_of_epoch(epoch) or current_seed,
            )
            appended = await store.append(sealed)
            seq, link = appended.last_seq, appended.last_hash
            epoch += sum(isinstance(e, SeedRevealed) for e in batch.events)
    d = result.difference
    if args.json:
        print(_dump({"game_id": args.game, "new_game_id": new_id, "ruleset": ruleset.name,
                     "ruleset_version": ruleset.version, "commands": result.commands,
                     "stopped": result.stopped, "events": seq,
                     "difference": _builtins(d) if d else None}))  # fmt: skip
        return 0
    console.print(
        f"re-adjudicated game {shown(args.game)} as {shown(new_id)} under {ruleset.name} "
        f"v{ruleset.version}: {counted(result.commands, 'command')} re-run, "
        f"{counted(seq, 'event')}"
    )
    if d is None:
        console.print("no difference: the rules make exactly the events of the original log")
        return 0
    console.print(f"first difference at seq {d.seq}: {shown(d.message)}")
    if d.rule:
        console.print(f"  rule:     {shown(d.rule)}")
    console.print(f"  original: {shown(d.expected)}")
    console.print(f"  now:      {shown(d.found)}")
    if result.stopped:
        console.print("  the new game stops there: the rules refuse the rest of the record")
    return 0


async def _free_id(store: EventStore, game_id: str) -> str:
    base = game_id[:56]
    for n in range(1, 100):
        candidate = f"{base}-r{n}"
        if await store.version(candidate) == 0:
            return candidate
    return f"{base}-{secrets.token_hex(3)}"
