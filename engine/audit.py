"""Auditing a log: the hash chain, the seed commitment, every server roll, and every
decision re-made from the recorded command and dice (ARCHITECTURE.md "The ruleset contract").

Pure: it takes envelopes (from a store or an export) and returns a report; the first
divergence is reported with its seq, the check that failed, and expected versus found.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import msgspec
from msgspec import Struct

from engine import registry
from engine.dice import DiceKind, DiceSpec, RecordedDice, derive_faces
from engine.game import Game, apply, codec_for, fold, ruleset_of, state_hash
from engine.handling import decide_command
from engine.roles import Role
from engine.ruleset import Ruleset
from events.chain import verify_chain
from events.codec import canonical_json
from events.envelope import Envelope
from events.epochs import epochs_of
from events.errors import UmpireError
from events.types import CommandRecorded, DiceRolled, GameCreated, Roller, SeedRevealed


class AuditFailure(Struct, frozen=True, kw_only=True):
    """The first divergence an audit found."""

    seq: int
    check: str
    message: str
    expected: str = ""
    found: str = ""
    rule: str = ""


class AuditReport(Struct, frozen=True, kw_only=True):
    """What an audit checked and found."""

    game_id: str
    ruleset: str
    events: int
    commands: int
    decisions_checked: int
    server_rolls: int
    player_rolls: int
    rolls_verified: int
    seed_revealed: bool
    state_hash: str
    pending: tuple[str, ...] = ()
    failure: AuditFailure | None = None

    @property
    def ok(self) -> bool:
        """True when no check failed (pending checks are not failures)."""
        return self.failure is None


@dataclass
class _Tally:
    """What the audit has counted so far."""

    game_id: str
    events: int
    ruleset: str = ""
    commands: int = 0
    decisions_checked: int = 0
    server_rolls: int = 0
    player_rolls: int = 0
    rolls_verified: int = 0
    seed_revealed: bool = False
    state_hash: str = ""

    def report(
        self, *, failure: AuditFailure | None = None, pending: tuple[str, ...] = ()
    ) -> AuditReport:
        return AuditReport(**asdict(self), pending=pending, failure=failure)


def _batches(envelopes: Sequence[Envelope]) -> list[list[Envelope]]:
    batches: list[list[Envelope]] = []
    for env in envelopes:
        if batches and batches[-1][-1].command_id == env.command_id:
            batches[-1].append(env)
        else:
            batches.append([env])
    return batches


def _spec_of(roll: DiceRolled) -> DiceSpec:
    return DiceSpec(DiceKind(roll.kind), tuple(roll.sides), tuple(roll.labels))


def _describe(event: Struct | None) -> str:
    if event is None:
        return "(nothing)"
    return canonical_json(event).decode()[:500]


def audit(
    envelopes: Sequence[Envelope],
    *,
    ruleset: Ruleset[Any] | None = None,
    snapshots: Sequence[tuple[int, str]] = (),
    progress: Callable[[int], None] | None = None,
) -> AuditReport:
    """Audit a whole log. `snapshots` are (seq, state hash) pairs recorded by the store.

    `ruleset` overrides the one the log names (re-adjudication under corrected rules).
    """
    tally = _Tally(game_id=envelopes[0].game_id if envelopes else "", events=len(envelopes))

    def fail(seq: int, check: str, message: str, **kw: str) -> AuditReport:
        failure = AuditFailure(seq=seq, check=check, message=message, **kw)
        return tally.report(failure=failure)

    if not envelopes:
        return fail(0, "log", "the log is empty")
    try:
        verify_chain(envelopes, game_id=tally.game_id, epochs=epochs_of(envelopes))
    except UmpireError as exc:
        return fail(int(exc.details.get("seq", 0)), "hash_chain", exc.message)
    try:
        ruleset = ruleset or ruleset_of(envelopes[0])
        codec = codec_for(ruleset)
        decoded = [codec.decode(e.type, e.version, e.payload, seq=e.seq) for e in envelopes]
    except UmpireError as exc:
        return fail(int(exc.details.get("seq", 0)), "decode", exc.message)
    tally.ruleset = ruleset.name
    created = decoded[0]
    assert isinstance(created, GameCreated)
    seed: bytes | None = None
    for env, event in zip(envelopes, decoded, strict=True):
        if isinstance(event, SeedRevealed):
            seed = bytes.fromhex(event.seed)
            if hashlib.sha256(seed).hexdigest() != created.seed_commitment:
                return fail(
                    env.seq, "seed_commitment", "the revealed seed does not match its commitment",
                    expected=created.seed_commitment, found=hashlib.sha256(seed).hexdigest(),
                )  # fmt: skip
            tally.seed_revealed = True
    # Every roll: numbered in order, and server rolls re-derived from the revealed seed.
    roll_no = 0
    for env, event in zip(envelopes, decoded, strict=True):
        if not isinstance(event, DiceRolled):
            continue
        if event.roll != roll_no:
            return fail(env.seq, "dice_numbering", f"roll number {event.roll}, expected {roll_no}")
        roll_no += 1
        if event.by is Roller.PLAYER:
            tally.player_rolls += 1
            continue
        tally.server_rolls += 1
        if seed is not None:
            faces = derive_faces(seed, created.client_seed, event.roll, _spec_of(event))
            if faces != tuple(event.faces):
                return fail(
                    env.seq, "server_roll", f"roll {event.roll} ({event.purpose}) does not "
                    "match the revealed seed", expected=str(list(faces)),
                    found=str(list(event.faces)), rule=event.rule,
                )  # fmt: skip
            tally.rolls_verified += 1
    # Re-run decide on every recorded command with the recorded dice.
    by_seq = dict(zip((e.seq for e in envelopes), decoded, strict=True))
    game: Game | None = None
    snapshot_hashes = dict(snapshots)
    for batch in _batches(envelopes):
        first = by_seq[batch[0].seq]
        if isinstance(first, CommandRecorded) and game is not None:
            tally.commands += 1
            found = [by_seq[e.seq] for e in batch]
            # The server publishes the seed right after a GameEnded, in the same batch.
            if len(found) > 1 and isinstance(found[-1], SeedRevealed):
                found = found[:-1]
            rolls = [e for e in found if isinstance(e, DiceRolled)]
            try:
                expected = decide_command(
                    ruleset, game, first.command, RecordedDice(rolls),
                    role=Role(first.role), manual=first.manual_dice,
                )  # fmt: skip
            except UmpireError as exc:
                return fail(
                    batch[0].seq, "decision", f"the rules refuse the recorded command: "
                    f"{exc.message}", rule=str(exc.details.get("rule", "")),
                )  # fmt: skip
            for offset in range(max(len(expected), len(found))):
                want = expected[offset] if offset < len(expected) else None
                got = found[offset] if offset < len(found) else None
                if want is None or got is None or canonical_json(want) != canonical_json(got):
                    rule = str(getattr(want, "rule", "") or getattr(got, "rule", ""))
                    return fail(
                        batch[0].seq + offset, "decision",
                        "the rules make a different decision than the log holds",
                        expected=_describe(want), found=_describe(got), rule=rule,
                    )  # fmt: skip
            tally.decisions_checked += 1
        for env in batch:
            event = by_seq[env.seq]
            try:
                if game is None:
                    game = fold([env], None, ruleset)
                else:
                    game = apply(ruleset, game, event)
                    game = Game(
                        msgspec.structs.replace(game.meta, seq=env.seq, last_hash=env.hash),
                        game.state,
                    )
            except Exception as exc:  # evolve must be total: anything else is a finding
                return fail(env.seq, "evolve", f"the log does not fold: {exc}")
            if (
                env.seq in snapshot_hashes
                and game is not None
                and state_hash(game) != snapshot_hashes[env.seq]
            ):
                return fail(
                        env.seq, "snapshot", "the fold does not reproduce the snapshot's "
                        "state hash", expected=snapshot_hashes[env.seq], found=state_hash(game),
                    )  # fmt: skip
        if progress is not None:
            progress(batch[-1].seq)
    pending: list[str] = []
    if seed is None and tally.server_rolls:
        pending.append(
            f"{tally.server_rolls} server rolls await the seed reveal before they can be recomputed"
        )
    assert game is not None
    tally.state_hash = state_hash(game)
    return tally.report(pending=tuple(pending))


def registered_ruleset(name: str) -> Ruleset[Any]:
    """The ruleset of this build called `name` (for re-adjudication)."""
    return registry.get(name)
