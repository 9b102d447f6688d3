"""The batch grammar of a log, checked by the audit (docs/audit.md (6)).

A log is a sequence of batches. A command batch is a `CommandRecorded` followed by exactly
what re-running `decide` on the state before it produces, all under the command's id; the
batch whose events include `GameEnded` may end with the final `SeedRevealed`, and nothing
follows it. Every other event stands alone as one of the system batches of
`SYSTEM_BATCHES`, which are data: a tag, the pattern of its command id and where it may
stand, so that a new system batch is one entry.

Batch boundaries come from the rules, not from command ids: the batch of a command is as
long as `decide` says, and an event after it that is not a system batch is an event no
command produced, whatever command id it carries. Command ids are then checked against
the boundaries (every event of a batch carries its command's id; no id is used twice;
"umpire:" ids are the server's).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.audit_dice import AuditDice
from umpire.engine.audit_failure import AuditFailure
from umpire.engine.disputes import (
    AMEND,
    DISPUTE_EVENTS,
    amendment,
    check_dispute,
    check_ruling,
    check_seal,
    disputes_of,
    find,
    finding_command_id,
    ruling_command_id,
)
from umpire.engine.errors import DiceMismatch, PlayerRollRefused
from umpire.engine.game import Game, apply, fold, state_hash
from umpire.engine.handling import decide_command
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.events.codec import canonical_json
from umpire.events.envelope import Envelope
from umpire.events.errors import UmpireError
from umpire.events.types import (
    CommandRecorded,
    DiceRolled,
    DisputeFiled,
    DisputeFound,
    DisputeRuled,
    ExportSealed,
    GameAmended,
    GameCreated,
    GameEnded,
    Roller,
    SeedRevealed,
)

SYSTEM_PREFIX = "umpire:"
"""Command ids of system batches start with this; a client's command may not use it."""


class Placement(StrEnum):
    """Where a system batch may stand."""

    FIRST = "first"  # seq 1, and only there
    RUNNING = "running"  # between two batches, while the game has not ended
    AFTER_FIRST = "after first"  # between two batches or after the end (disputes)
    AFTER_END = "after end"  # after the end only (the export's seal)


class SystemBatch(Struct, frozen=True, kw_only=True):
    """One kind of batch that stands outside a command: a single event of type `tag`.

    `command_id` is a regular expression the whole id must match; a named group `epoch`
    must equal the current seed epoch, and `epoch` fixes the epoch when the id does not
    carry it; a named group `seq` must equal the event's own seq. `once_per_epoch` allows
    at most one such batch per epoch;
    `before_epoch_rolls` requires that no roll of the epoch came before it.
    """

    name: str
    tag: str
    command_id: str
    placement: Placement
    epoch: int | None = None
    once_per_epoch: bool = False
    before_epoch_rolls: bool = False


_EPOCH = r"(?P<epoch>0|[1-9][0-9]*)"
_EPOCH_AFTER_FIRST = r"(?P<epoch>[1-9][0-9]*)"

SYSTEM_BATCHES: tuple[SystemBatch, ...] = (
    SystemBatch(name="creation", tag="GameCreated", command_id=r".+", placement=Placement.FIRST),
    SystemBatch(
        name="client entropy",
        tag="ClientSeedBound",
        command_id=SYSTEM_PREFIX + "bind:" + _EPOCH,
        placement=Placement.RUNNING,
        once_per_epoch=True,
        before_epoch_rolls=True,
    ),
    SystemBatch(
        name="reveal",
        tag="SeedRevealed",
        command_id=SYSTEM_PREFIX + "reveal",
        placement=Placement.RUNNING,
        epoch=0,
    ),
    SystemBatch(
        name="rotation",
        tag="SeedRevealed",
        command_id=SYSTEM_PREFIX + "reveal:" + _EPOCH_AFTER_FIRST,
        placement=Placement.RUNNING,
    ),
    # Rules disputes (docs/audit.md "Disputes"): each stands alone, in a running game or
    # after its end; the audit re-makes every finding (engine/disputes.py).
    SystemBatch(
        name="dispute",
        tag="DisputeFiled",
        command_id=SYSTEM_PREFIX + r"dispute:(?P<seq>[1-9][0-9]*)",
        placement=Placement.AFTER_FIRST,
    ),
    SystemBatch(
        name="finding",
        tag="DisputeFound",
        command_id=SYSTEM_PREFIX + r"finding:(?P<dispute>[1-9][0-9]*)",
        placement=Placement.AFTER_FIRST,
    ),
    SystemBatch(
        name="seal",
        tag="ExportSealed",
        command_id=SYSTEM_PREFIX + "seal",
        placement=Placement.AFTER_END,
    ),
    SystemBatch(
        name="ruling",
        tag="DisputeRuled",
        command_id=SYSTEM_PREFIX + r"ruling:(?P<dispute>[1-9][0-9]*)",
        placement=Placement.AFTER_FIRST,
    ),
)

AFTER_END = frozenset(
    s.tag for s in SYSTEM_BATCHES if s.placement in (Placement.AFTER_FIRST, Placement.AFTER_END)
)
"""The system batches that may follow the end of a game (the disputes, the seal)."""

FINAL_REVEAL_TAG = "SeedRevealed"
"""The one event that may follow `GameEnded`: last in the ending command's batch."""


class GrammarError(UmpireError):
    """An event that stands where the batch grammar does not allow it."""

    code = "grammar"


@dataclass
class Position:
    """Where in a log an event stands, as far as the system batches care: its seq, the
    seed epoch, the epochs whose client entropy is bound, and the epoch's rolls so far."""

    seq: int
    epoch: int = 0
    bound_epochs: set[int] = field(default_factory=set)
    epoch_rolls: int = 0
    ended: bool = False


def system_batch(tag: str, command_id: str, at: Position) -> SystemBatch:
    """The system batch an event of `tag` with `command_id` is at `at`, or GrammarError
    saying why it may not stand there (and what may)."""
    kinds = [s for s in SYSTEM_BATCHES if s.tag == tag]
    if not kinds:
        names = ", ".join(f"{s.name} ({s.tag})" for s in SYSTEM_BATCHES)
        raise GrammarError(
            f"{tag} at seq {at.seq} is in no command's batch, and it is not a system batch "
            f"(those are: {names}): no command produced it",
            seq=at.seq,
        )
    reasons: list[str] = []
    for kind in kinds:
        reason = _misplaced(kind, command_id, at)
        if reason is None:
            return kind
        reasons.append(reason)
    raise GrammarError(f"{tag} at seq {at.seq} " + "; nor ".join(reasons), seq=at.seq)


def _misplaced(kind: SystemBatch, command_id: str, at: Position) -> str | None:
    if (kind.placement is Placement.FIRST) != (at.seq == 1):
        where = "only at seq 1" if kind.placement is Placement.FIRST else "only after seq 1"
        return f"is no {kind.name} batch: that stands {where}"
    if kind.placement is Placement.AFTER_END and not at.ended:
        return f"is no {kind.name} batch: that stands only after the end of the game"
    match = re.fullmatch(kind.command_id, command_id)
    if match is None:
        return f"is no {kind.name} batch: its command id {command_id!r} is not {kind.command_id!r}"
    if "seq" in match.groupdict() and int(match["seq"]) != at.seq:
        return f"is no {kind.name} batch: its command id names seq {match['seq']}, not {at.seq}"
    if "epoch" in match.groupdict():
        epoch = int(match["epoch"])
    else:
        epoch = kind.epoch if kind.epoch is not None else at.epoch
    if epoch != at.epoch:
        return (
            f"is no {kind.name} batch: its command id names epoch {epoch}, but the log is "
            f"in seed epoch {at.epoch} here"
        )
    if kind.once_per_epoch and at.epoch in at.bound_epochs:
        return f"is no {kind.name} batch: epoch {at.epoch} has had one already"
    if kind.before_epoch_rolls and at.epoch_rolls:
        return (
            f"is no {kind.name} batch: it comes after {at.epoch_rolls} rolls of epoch "
            f"{at.epoch}, and must come before the first"
        )
    return None


def describe_event(event: Struct | None) -> str:
    """An event as canonical JSON, cut short, for a failure's expected and found."""
    if event is None:
        return "(nothing)"
    return canonical_json(event).decode()[:500]


@dataclass
class BatchWalk:
    """What walking the batches found: the folded game, counts, a failure, notes."""

    game: Game | None = None
    commands: int = 0
    decisions_checked: int = 0
    opponent_rolls_by_player: int = 0
    failure: AuditFailure | None = None
    notes: list[str] = field(default_factory=list)


@dataclass
class _Walker:
    envelopes: Sequence[Envelope]
    decoded: Sequence[Struct]
    ruleset: Ruleset[Any]
    snapshots: dict[int, str]
    progress: Callable[[int], None] | None
    walk: BatchWalk = field(default_factory=BatchWalk)
    used_ids: dict[str, int] = field(default_factory=dict)
    at: Position = field(default_factory=lambda: Position(seq=1))
    ended_at: int = 0
    final_revealed: bool = False  # a SeedRevealed committing no next seed is folded
    sealed_at: int = 0

    def fail(self, seq: int, check: str, message: str, **kw: str) -> BatchWalk:
        self.walk.failure = AuditFailure(seq=seq, check=check, message=message, **kw)
        return self.walk

    def _foreign(self, j: int, env: Envelope, offset: int, batch: str) -> bool:
        """Whether event `j` (seq `env.seq + offset`) carries another command id than the
        batch it belongs to, opened by `env` (`batch` names it); fails the walk if so."""
        found = self.envelopes[j].command_id
        if found == env.command_id:
            return False
        self.fail(
            env.seq + offset, "command_id", f"seq {env.seq + offset} belongs to the {batch} "
            f"at seq {env.seq} (id {env.command_id!r}) but carries command id {found!r}",
        )  # fmt: skip
        return True

    def run(self) -> BatchWalk:
        first = self.envelopes[0]
        try:
            system_batch(first.type, first.command_id, self.at)
        except GrammarError as exc:
            return self.fail(1, "grammar", exc.message)
        created = self.decoded[0]
        assert isinstance(created, GameCreated)
        # An old log's client seed is in GameCreated: epoch 0 is bound at creation.
        self.at = Position(seq=2, bound_epochs={0} if created.client_seed else set())
        self.used_ids[first.command_id] = 1
        if self._fold(0, 1) is not None:
            return self.walk
        index = 1
        while index < len(self.envelopes):
            env = self.envelopes[index]
            self.at.seq = env.seq
            if self.sealed_at:
                return self.fail(
                    env.seq, "grammar", f"{env.type} at seq {env.seq} follows the seal of the "
                    f"export (ExportSealed at seq {self.sealed_at}): nothing may",
                )  # fmt: skip
            self.at.ended = bool(self.ended_at)
            if self.ended_at and env.type not in AFTER_END:
                return self.fail(
                    env.seq, "grammar", f"{env.type} at seq {env.seq} follows the end of the "
                    f"game (GameEnded at seq {self.ended_at}): nothing may, except the final "
                    "reveal in the ending command's batch",
                )  # fmt: skip
            if isinstance(self.decoded[index], CommandRecorded):
                length = self._command(index)
            else:
                length = self._system(index)
            if length is None:
                return self.walk
            if self._fold(index, index + length) is not None:
                return self.walk
            index += length
        return self.walk

    def _id_unused(self, env: Envelope) -> bool:
        first = self.used_ids.get(env.command_id)
        if first is not None:
            self.fail(
                env.seq, "command_id", f"command id {env.command_id!r} at seq {env.seq} was "
                f"used by the batch at seq {first}: the store answers a repeated id with its "
                "first result and appends nothing",
            )  # fmt: skip
            return False
        self.used_ids[env.command_id] = env.seq
        return True

    def _system(self, index: int) -> int | None:
        env = self.envelopes[index]
        try:
            kind = system_batch(env.type, env.command_id, self.at)
        except GrammarError as exc:
            self.fail(env.seq, "grammar", exc.message)
            return None
        if not self._id_unused(env):
            return None
        event = self.decoded[index]
        payload_epoch = getattr(event, "epoch", None)
        if isinstance(payload_epoch, int) and payload_epoch != self.at.epoch:
            self.fail(
                env.seq, "grammar", f"{env.type} at seq {env.seq} is for epoch "
                f"{payload_epoch}, but the log is in seed epoch {self.at.epoch} here",
            )  # fmt: skip
            return None
        if kind.once_per_epoch:
            self.at.bound_epochs.add(self.at.epoch)
        if isinstance(event, DISPUTE_EVENTS) and not self._dispute(index, event):
            return None
        if isinstance(event, DisputeRuled) and event.ruling == AMEND:
            return self._amended(index, event)
        return 1

    def _amended(self, index: int, ruled: DisputeRuled) -> int | None:
        """An amending ruling's batch: its DisputeRuled, then exactly the GameAmended and
        the line the log before it re-makes under the claimed reading (engine/disputes.py
        `amendment`), every event under the ruling's command id."""
        env = self.envelopes[index]
        prefix = self.decoded[:index]
        found = next(d for d in disputes_of(prefix) if d.id == ruled.dispute)
        try:
            made = amendment(self.ruleset, self.envelopes[:index], prefix, found)
        except UmpireError as exc:
            self.fail(env.seq, "dispute", f"the amendment at seq {env.seq} could not have "
                      f"been made: {exc.message}")  # fmt: skip
            return None
        for offset, want in enumerate(made, start=1):
            j = index + offset
            got = self.decoded[j] if j < len(self.decoded) else None
            if got is None or canonical_json(want) != canonical_json(got):
                self.fail(
                    env.seq + offset, "amendment", "the amended line is not the one the log "
                    f"before the ruling at seq {env.seq} re-makes under the reading",
                    expected=describe_event(want), found=describe_event(got),
                )  # fmt: skip
                return None
            if self._foreign(j, env, offset, "amending ruling's batch"):
                return None
            if isinstance(want, GameEnded):
                self.ended_at = env.seq + offset
            if isinstance(want, CommandRecorded):
                self.walk.commands += 1
                self.walk.decisions_checked += 1
        return 1 + len(made)

    def _dispute(self, index: int, event: Struct) -> bool:
        """A dispute that could be filed where it stands, or a finding that is the one the
        log before its dispute makes (engine/disputes.py), made no earlier than the role
        that disputed may see what it rests on."""
        env = self.envelopes[index]
        prefix = self.decoded[:index]
        if isinstance(event, ExportSealed):
            try:
                check_seal(prefix)
            except UmpireError as exc:
                self.fail(env.seq, "dispute", f"the seal at seq {env.seq} could not have been "
                          f"made: {exc.message}")  # fmt: skip
                return False
            if event.head != env.seq - 1:
                self.fail(env.seq, "dispute", f"the seal at seq {env.seq} names head "
                          f"{event.head}, not {env.seq - 1}")  # fmt: skip
                return False
            self.sealed_at = env.seq
            return True
        if isinstance(event, DisputeFiled):
            try:
                check_dispute(self.ruleset, prefix, who=Role(event.who), seq=event.seq,
                              claim=event.claim, reading=event.reading,
                              value=event.value)  # fmt: skip
            except (UmpireError, ValueError) as exc:
                message = exc.message if isinstance(exc, UmpireError) else str(exc)
                self.fail(env.seq, "dispute", f"the dispute at seq {env.seq} could not have "
                          f"been filed: {message}")  # fmt: skip
                return False
            return True
        if isinstance(event, DisputeRuled):
            try:
                check_ruling(self.ruleset, prefix, dispute=event.dispute, ruling=event.ruling,
                             role=Role(event.by))  # fmt: skip
            except (UmpireError, ValueError) as exc:
                message = exc.message if isinstance(exc, UmpireError) else str(exc)
                self.fail(env.seq, "dispute", f"the ruling at seq {env.seq} could not have "
                          f"been made: {message}")  # fmt: skip
                return False
            wanted = ruling_command_id(event.dispute)
            if env.command_id != wanted:
                self.fail(env.seq, "dispute", f"the ruling at seq {env.seq} stands under "
                          f"{env.command_id!r}, not {wanted!r}")  # fmt: skip
                return False
            return True
        assert isinstance(event, DisputeFound)
        open_ids = {d.id: d for d in disputes_of(prefix) if d.finding is None}
        wanted = finding_command_id(event.dispute)
        if env.command_id != wanted or event.dispute not in open_ids:
            self.fail(
                env.seq, "dispute", f"the finding at seq {env.seq} answers dispute "
                f"{event.dispute}, which is no open dispute of the log before it (open: "
                f"{sorted(open_ids) or 'none'}; its batch id must be {wanted!r})",
            )  # fmt: skip
            return False
        filed = open_ids[event.dispute].filed
        remade = find(self.ruleset, self.envelopes, self.decoded, event.dispute, filed,
                      revealed=self.final_revealed)  # fmt: skip
        if remade is None:
            self.fail(env.seq, "dispute", f"the finding at seq {env.seq} on dispute "
                      f"{event.dispute} rests on what the {filed.who} may not see before "
                      "the final reveal, and comes before it")  # fmt: skip
            return False
        if canonical_json(remade) != canonical_json(event):
            self.fail(env.seq, "dispute", f"the finding at seq {env.seq} is not the one the "
                      f"log makes of dispute {event.dispute}",
                      expected=describe_event(remade), found=describe_event(event))  # fmt: skip
            return False
        return True

    def _command(self, index: int) -> int | None:
        env = self.envelopes[index]
        recorded = self.decoded[index]
        assert isinstance(recorded, CommandRecorded)
        if env.command_id.startswith(SYSTEM_PREFIX):
            self.fail(
                env.seq, "command_id", f"command id {env.command_id!r} at seq {env.seq} is "
                f"reserved for system batches ({SYSTEM_PREFIX}...): no client command has it",
            )  # fmt: skip
            return None
        if not self._id_unused(env):
            return None
        end = next(
            (j for j in range(index + 1, len(self.decoded))
             if isinstance(self.decoded[j], CommandRecorded)),
            len(self.decoded),
        )  # fmt: skip
        rolls = [
            (self.envelopes[j].seq, e)
            for j in range(index + 1, end)
            if isinstance(e := self.decoded[j], DiceRolled)
        ]
        game = self.walk.game
        assert game is not None
        dice = AuditDice(
            rolls, next_roll=game.meta.rolls, manual=recorded.manual_dice,
            opponent_dice=game.meta.opponent_manual_dice,
        )  # fmt: skip
        try:
            expected = decide_command(
                self.ruleset, game, recorded.command, dice, role=Role(recorded.role),
                manual=recorded.manual_dice, nonce=recorded.entropy,
            )  # fmt: skip
        except PlayerRollRefused as exc:
            self.fail(int(exc.details.get("seq", env.seq)), "player_roll", exc.message,
                      rule=str(exc.details.get("rule", "")))  # fmt: skip
            return None
        except DiceMismatch as exc:
            seq = int(exc.details.get("seq", env.seq))
            self.fail(seq, "decision", f"the rules and the log's dice disagree: {exc.message}",
                      rule=str(exc.details.get("rule", "")))  # fmt: skip
            return None
        except (UmpireError, ValueError) as exc:
            message = exc.message if isinstance(exc, UmpireError) else str(exc)
            rule = str(exc.details.get("rule", "")) if isinstance(exc, UmpireError) else ""
            self.fail(env.seq, "decision", f"the rules refuse the command recorded at seq "
                      f"{env.seq}: {message}", rule=rule)  # fmt: skip
            return None
        for offset, want in enumerate(expected):
            j = index + offset
            got = self.decoded[j] if j < len(self.decoded) else None
            if got is None or canonical_json(want) != canonical_json(got):
                rule = str(getattr(want, "rule", "") or getattr(got, "rule", ""))
                self.fail(
                    env.seq + offset, "decision",
                    "the rules make a different decision than the log holds",
                    expected=describe_event(want), found=describe_event(got), rule=rule,
                )  # fmt: skip
                return None
            if self._foreign(j, env, offset, "batch of the command"):
                return None
        length = len(expected)
        ending = next((o for o, e in enumerate(expected) if isinstance(e, GameEnded)), None)
        if ending is not None:
            if ending != length - 1:
                self._fail_after_end(index + ending + 1, env.seq + ending)
                return None
            final = index + length
            if (
                final < len(self.envelopes)
                and self.envelopes[final].type == FINAL_REVEAL_TAG
                and self.envelopes[final].command_id == env.command_id
            ):
                length += 1
            else:
                self.walk.notes.append(
                    f"the game ended at seq {env.seq + ending} without its final reveal"
                )
            self.ended_at = env.seq + ending
        self.walk.commands += 1
        self.walk.decisions_checked += 1
        self.walk.opponent_rolls_by_player += dice.opponent_rolls_by_player
        return length

    def _fail_after_end(self, index: int, ended: int) -> None:
        env = self.envelopes[index]
        self.fail(
            env.seq, "grammar", f"{env.type} at seq {env.seq} follows the end of the game "
            f"(GameEnded at seq {ended}): nothing may, except the final reveal",
        )  # fmt: skip

    def _fold(self, start: int, stop: int) -> AuditFailure | None:
        for j in range(start, stop):
            env, event = self.envelopes[j], self.decoded[j]
            try:
                if self.walk.game is None:
                    self.walk.game = fold([env], None, self.ruleset)
                elif isinstance(event, GameAmended):  # returns behind: folded from seq 1
                    self.walk.game = fold(self.envelopes[: j + 1], None, self.ruleset)
                else:
                    game = apply(self.ruleset, self.walk.game, event, seq=env.seq,
                                 command_id=env.command_id)  # fmt: skip
                    meta = msgspec.structs.replace(game.meta, seq=env.seq, last_hash=env.hash)
                    self.walk.game = Game(meta, game.state)
            except Exception as exc:  # evolve must be total: anything else is a finding
                self.fail(env.seq, "evolve", f"the log does not fold: {exc}")
                return self.walk.failure
            if isinstance(event, DiceRolled) and event.by is Roller.SERVER:
                self.at.epoch_rolls += 1  # physical dice do not close the epoch's bind
            elif isinstance(event, SeedRevealed):
                self.final_revealed = self.final_revealed or not event.next_commitment
                # SeedRevealed closes its epoch: the next event is in the next one.
                self.at.epoch += 1
                self.at.epoch_rolls = 0
            assert self.walk.game is not None
            wanted = self.snapshots.get(env.seq)
            if wanted is not None and state_hash(self.walk.game) != wanted:
                self.fail(
                    env.seq, "snapshot", "the fold does not reproduce the snapshot's state "
                    "hash", expected=wanted, found=state_hash(self.walk.game),
                )  # fmt: skip
                return self.walk.failure
        if self.progress is not None:
            self.progress(self.envelopes[stop - 1].seq)
        return None


def check_batches(
    envelopes: Sequence[Envelope],
    decoded: Sequence[Struct],
    ruleset: Ruleset[Any],
    *,
    snapshots: Sequence[tuple[int, str]] = (),
    progress: Callable[[int], None] | None = None,
) -> BatchWalk:
    """Walk a decoded log batch by batch (its chain already verified): check the grammar,
    re-run every command, fold the state and check the store's snapshot hashes.

    Stops at the first failure, which names its seq, the check and the reason.
    """
    walker = _Walker(envelopes, decoded, ruleset, dict(snapshots), progress)
    return walker.run()
