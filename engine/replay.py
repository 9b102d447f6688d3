"""Replay, pure: a game's state at any seq as a role sees it, what changed between two seqs,
and re-adjudication (the recorded commands and dice re-run under other rules).

ARCHITECTURE.md: replaying a log is folding `evolve` over its events. Nothing here does
I/O; `server/replay_command.py` reads the log and prints what these functions return.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.dice import RecordedDice
from umpire.engine.game import Game, apply, codec_for, fold, ruleset_of
from umpire.engine.handling import decide_command
from umpire.engine.redaction import redact, view_for
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.events.codec import canonical_json
from umpire.events.envelope import Envelope
from umpire.events.errors import UmpireError
from umpire.events.receipt import receipt_state_hash
from umpire.events.types import (
    CommandRecorded,
    DiceRolled,
    GameAmended,
    GameCreated,
    GameEnded,
    SeedRevealed,
)

AMENDED_TAG = str(GameAmended.__struct_config__.tag)


class SeqOutOfRange(UmpireError):
    """A seq that the game's log does not hold."""

    code = "seq_out_of_range"


class AmendedNotReadjudicated(UmpireError):
    """A log an amendment continued (docs/audit.md "Amendments"): re-adjudication re-runs
    one line, the log as recorded, and an amended log is not one."""

    code = "game_amended"


class Change(Struct, frozen=True, kw_only=True):
    """One difference between two states: where, and the value before and after.

    `added` or `removed` marks a path present on one side only.
    """

    path: str
    before: Any = None
    after: Any = None
    added: bool = False
    removed: bool = False


class StateAt(Struct, frozen=True, kw_only=True):
    """A game as one role sees it at one seq; `state_hash` is that view's as a receipt of
    the seq states it (events/receipt.py `receipt_state_hash`)."""

    game_id: str
    ruleset: str
    seq: int
    head: int
    role: str
    revealed: bool
    ended: bool
    result: str
    commands: int
    rolls: int
    state_hash: str
    state: Any


def check_seq(envelopes: Sequence[Envelope], seq: int) -> None:
    """Raise SeqOutOfRange unless `seq` is one of the log's seqs (1..head)."""
    head = envelopes[-1].seq if envelopes else 0
    if not 1 <= seq <= head:
        raise SeqOutOfRange(
            f"seq {seq} is out of range: this game holds seqs 1 to {head}", seq=seq, head=head
        )


def game_at(envelopes: Sequence[Envelope], seq: int, ruleset: Ruleset[Any] | None = None) -> Game:
    """The folded game after event `seq` (envelopes must start at seq 1)."""
    check_seq(envelopes, seq)
    game = fold(envelopes[:seq], None, ruleset)
    assert game is not None
    return game


class NoSuchLine(UmpireError):
    """`--line N` names no line of the log."""

    code = "no_such_line"


def line_of(envelopes: Sequence[Envelope], line: int) -> Sequence[Envelope]:
    """The log of line `line` (docs/audit.md "Amendments"): line 0 as first played, line N
    as the N-th amendment left it. A line before the last ends where its superseding
    amendment's batch starts (the DisputeRuled right before GameAmended); the last line is
    the whole log."""
    amended = [e.seq for e in envelopes if e.type == AMENDED_TAG]
    if not 0 <= line <= len(amended):
        raise NoSuchLine(
            f"line {line} is no line of this game: it has lines 0 (as first played) to "
            f"{len(amended)} (one more per amendment)",
            line=line,
            lines=len(amended) + 1,
        )
    if line == len(amended):
        return envelopes
    return envelopes[: amended[line] - 2]


def state_at(
    envelopes: Sequence[Envelope], seq: int, role: Role, ruleset: Ruleset[Any] | None = None
) -> StateAt:
    """The state after event `seq` as `role` sees it now: everything once the log is
    finally revealed (ARCHITECTURE.md: after the final reveal, anyone with the log sees
    all). A mid-game reveal opens dice, not the state: its secrets are still in play."""
    ruleset = ruleset or ruleset_of(envelopes[0])
    game = game_at(envelopes, seq, ruleset)
    revealed = log_finally_revealed(envelopes)
    view = view_for(ruleset, game.state, role, revealed=revealed)
    return StateAt(
        game_id=game.meta.game_id,
        ruleset=ruleset.name,
        seq=seq,
        head=envelopes[-1].seq,
        role=role.value,
        revealed=revealed,
        ended=game.meta.ended,
        result=game.meta.result,
        commands=game.meta.commands,
        rolls=game.meta.rolls,
        # The role's view's, as its receipt states it (docs/audit.md 8), never the whole
        # game's: that hash covers every secret, unblinded, so one who knows the rest of
        # the game could try each value of a secret until it matched.
        state_hash=receipt_state_hash(seq, game.meta.last_hash, view),
        state=msgspec.to_builtins(view),
    )


def _plain(value: Any) -> Any:
    """Plain data with tuples as lists, all the way down (views hold both)."""
    value = msgspec.to_builtins(value) if isinstance(value, Struct) else value
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def diff(before: Any, after: Any, path: str = "") -> list[Change]:
    """Every leaf that differs between two plain-data values, in a deterministic order.

    Dicts are compared key by key (sorted); lists (and tuples) are aligned, so an element
    inserted into or removed from a list is one change at its index, not a change at
    every later index; an element changed in place shows what changed inside it.
    """
    return _diff(_plain(before), _plain(after), path)


def _diff(before: Any, after: Any, path: str) -> list[Change]:
    if isinstance(before, dict) and isinstance(after, dict):
        changes: list[Change] = []
        for key in sorted(set(before) | set(after), key=str):
            where = f"{path}.{key}" if path else str(key)
            if key not in before:
                changes.append(Change(path=where, after=after[key], added=True))
            elif key not in after:
                changes.append(Change(path=where, before=before[key], removed=True))
            else:
                changes.extend(_diff(before[key], after[key], where))
        return changes
    if isinstance(before, list) and isinstance(after, list):
        keys = [[json.dumps(item, sort_keys=True, default=str) for item in side]
                for side in (before, after)]  # fmt: skip
        changes = []
        matcher = SequenceMatcher(None, keys[0], keys[1], autojunk=False)
        for tag, a0, a1, b0, b1 in matcher.get_opcodes():
            if tag == "equal":
                continue
            paired = min(a1 - a0, b1 - b0) if tag == "replace" else 0
            for k in range(paired):  # changed in place: what changed inside it
                changes.extend(_diff(before[a0 + k], after[b0 + k], f"{path}[{b0 + k}]"))
            for k in range(a0 + paired, a1):
                changes.append(Change(path=f"{path}[{k}]", before=before[k], removed=True))
            for k in range(b0 + paired, b1):
                changes.append(Change(path=f"{path}[{k}]", after=after[k], added=True))
        return changes
    if before != after:
        return [Change(path=path or "(state)", before=before, after=after)]
    return []


def decoded_log(envelopes: Sequence[Envelope], ruleset: Ruleset[Any] | None = None) -> list[Struct]:
    """Every event payload of a log, decoded with its ruleset's registry."""
    ruleset = ruleset or ruleset_of(envelopes[0])
    codec = codec_for(ruleset)
    return [codec.decode(e.type, e.version, e.payload, seq=e.seq) for e in envelopes]


def log_finally_revealed(envelopes: Sequence[Envelope]) -> bool:
    """Whether the log holds its final reveal: a SeedRevealed that no reveal command wrote
    (the one in the batch that ends the game), which publishes the sealing key too."""
    return any(
        env.type == "SeedRevealed" and not env.command_id.startswith("umpire:reveal")
        for env in envelopes
    )


def seen_by(ruleset: Ruleset[Any], events: Sequence[Struct], seq: int, role: Role) -> Struct | None:
    """Event `seq` of a decoded log as `role` sees it now (None: hidden from that role):
    a hidden roll or a ruleset secret shows only once the log is finally revealed (a
    SeedRevealed committing no next seed); a mid-game reveal opens neither."""
    final = any(isinstance(e, SeedRevealed) and not e.next_commitment for e in events)
    return redact(ruleset, events[seq - 1], role, revealed=final)


# -- re-adjudication -------------------------------------------------------------------------


class Batch(Struct, frozen=True, kw_only=True):
    """The events one command (or one server step) appends, with its command id."""

    command_id: str
    recorded_at: str
    events: tuple[Any, ...]


class Difference(Struct, frozen=True, kw_only=True):
    """The first event where re-adjudication departs from the original log."""

    seq: int
    rule: str
    message: str
    expected: str = ""
    found: str = ""


class Readjudication(Struct, frozen=True, kw_only=True):
    """A log re-run under other rules: the new game's batches and the first difference."""

    batches: tuple[Batch, ...]
    commands: int
    stopped: bool
    difference: Difference | None = None


def _text(event: Struct | None) -> str:
    return "(nothing)" if event is None else canonical_json(event).decode()[:500]


def _batches(envelopes: Sequence[Envelope], events: Sequence[Struct]) -> list[Batch]:
    out: list[Batch] = []
    for env, event in zip(envelopes, events, strict=True):
        if out and out[-1].command_id == env.command_id:
            last = out[-1]
            out[-1] = Batch(
                command_id=last.command_id,
                recorded_at=last.recorded_at,
                events=(*last.events, event),
            )
        else:
            out.append(Batch(command_id=env.command_id, recorded_at=env.recorded_at,
                             events=(event,)))  # fmt: skip
    return out


def _refuse_if_amended(envelopes: Sequence[Envelope]) -> None:
    """An amended log holds its superseded line and the amended one: re-running it batch
    by batch would decide the superseded commands again and copy the amended line as it
    stands (its rolls numbered after the superseded ones), a copy no fold or audit reads
    as either line. Refused, naming what reads it instead."""
    amended = [env.seq for env in envelopes if env.type == AMENDED_TAG]
    if not amended:
        return
    game_id = envelopes[0].game_id
    raise AmendedNotReadjudicated(
        f"game {game_id!r} was amended (GameAmended at seq "
        f"{', '.join(map(str, amended))}): readjudicate re-runs a log of one line and "
        f"cannot re-run an amended one. Instead, `umpire audit {game_id}` re-makes every "
        "finding and amended line under the installed rules (`--ruleset-module` for "
        f"others), and `umpire replay {game_id} --line N` shows each line "
        f"(0 to {len(amended)})",
        game_id=game_id,
        amended=amended,
    )


def readjudicate(
    envelopes: Sequence[Envelope],
    ruleset: Ruleset[Any],
    *,
    game_id: str,
    progress: Callable[[int], None] | None = None,
) -> Readjudication:
    """Re-run every recorded command with its recorded dice under `ruleset`, as game `game_id`.

    Each command gets exactly the rolls its original batch logged, in order. Where the rules
    now refuse a command, or ask for a roll the log does not hold, the new game stops there
    (the difference names the seq and why). Batches that are not commands (the seed reveal)
    are copied. Returns the new game's batches and the first event that differs from the
    original (the new GameCreated differs only in its game id, which is not counted).
    """
    _refuse_if_amended(envelopes)
    original = decoded_log(envelopes)
    created = original[0]
    assert isinstance(created, GameCreated)
    new_created = msgspec.structs.replace(
        created, game_id=game_id, ruleset=ruleset.name, ruleset_version=ruleset.version
    )
    batches = _batches(envelopes, original)
    head = batches[0]
    out = [Batch(command_id=head.command_id, recorded_at=head.recorded_at, events=(new_created,))]
    game = fold(envelopes[:1], None, ruleset)
    assert game is not None
    produced: list[Struct] = [created]
    commands = 0
    stopped = False
    refusal: Difference | None = None
    seq = 1
    for batch in batches[1:]:
        first = batch.events[0]
        seq_of_batch = seq + 1
        seq += len(batch.events)
        if not isinstance(first, CommandRecorded):
            new_events = list(batch.events)
        else:
            found = list(batch.events)
            reveal = found[-1] if len(found) > 1 and isinstance(found[-1], SeedRevealed) else None
            rolls = [e for e in found if isinstance(e, DiceRolled)]
            dice = RecordedDice(rolls, opponent_entries=game.meta.opponent_manual_dice)
            try:
                new_events = decide_command(
                    ruleset, game, first.command, dice, role=Role(first.role),
                    manual=first.manual_dice, nonce=first.entropy,
                )  # fmt: skip
            except UmpireError as exc:
                refusal = Difference(
                    seq=seq_of_batch, rule=str(exc.details.get("rule", "")),
                    message=f"the rules now refuse the command recorded at seq "
                    f"{seq_of_batch}: {exc.message}",
                    expected=_text(first), found="(refused)",
                )  # fmt: skip
                stopped = True
                break
            commands += 1
            if reveal is not None and any(isinstance(e, GameEnded) for e in new_events):
                new_events.append(reveal)
        # The new game's own seqs: its batches may differ in length from the original's.
        for offset, event in enumerate(new_events):
            game = _step(ruleset, game, event, len(produced) + 1 + offset, batch.command_id)
        produced.extend(new_events)
        out.append(Batch(command_id=batch.command_id, recorded_at=batch.recorded_at,
                         events=tuple(new_events)))  # fmt: skip
        if progress is not None:
            progress(seq)
    difference = _first_difference(original, produced)
    if difference is None or (refusal is not None and refusal.seq <= difference.seq):
        difference = refusal or difference
    return Readjudication(
        batches=tuple(out), commands=commands, stopped=stopped, difference=difference
    )


def _step(ruleset: Ruleset[Any], game: Game, event: Struct, seq: int, command_id: str) -> Game:
    return apply(ruleset, game, event, seq=seq, command_id=command_id)


def _first_difference(original: Sequence[Struct], produced: Sequence[Struct]) -> Difference | None:
    # Seq 1 is the new game's own GameCreated: compared from seq 2 on.
    for index in range(1, max(len(original), len(produced))):
        want = original[index] if index < len(original) else None
        got = produced[index] if index < len(produced) else None
        if want is None or got is None or canonical_json(want) != canonical_json(got):
            rule = str(getattr(got, "rule", "") or getattr(want, "rule", ""))
            if want is None:
                message = "the new rules append an event the original log does not hold"
            elif got is None:
                message = "the new rules stop before this event of the original log"
            else:
                message = "the new rules make a different event here"
            return Difference(
                seq=index + 1, rule=rule, message=message, expected=_text(want), found=_text(got)
            )
    return None
