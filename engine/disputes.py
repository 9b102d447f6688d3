"""Rules disputes, pure (issue 40; docs/audit.md "Disputes").

A player or spectator disputes one event that `decide` made (a decision or a roll of the
umpire) with a claim and, optionally, one of the ruleset's declared readings switched to
one of its alternatives (engine/kit/reading.py). The finding re-makes the disputed
decision from the log: the game is folded up to the disputed command's batch from a setup
with the reading applied, then every recorded command from there on is decided again with
the dice its batch recorded, and the new line is compared with the log. It answers
whether the disputed event comes out the same, the first seq where the two lines part,
and what changes at the head as the disputing role's view shows it.

A finding is an event of the log, which every role receives: one that would rest on
something a player or a spectator may not see yet (an event of the disputed batch, or the
event where the lines part, hidden from either on either line) is held "pending reveal"
(`find` answers None) until the log is finally revealed, whoever disputed. A dispute
filed `blind` (every dispute since DisputeFiled version 3) is given before the reveal only
where the line under the reading, re-made on the game with its secrets poisoned
(engine/poison.py), never reads one and parts from the log before any hidden event: a
rule whose outcome rests on nothing hidden either.

Everything here reads a log prefix and returns data, so the audit re-makes every finding
the same way (engine/audit_grammar.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.commands import TakeBack
from umpire.engine.dice import RecordedDice
from umpire.engine.game import CurrentLine, Game, apply, codec_for, current_line, start
from umpire.engine.handling import decide_command
from umpire.engine.kit.reading import Reading, parse_value, setup_value, value_text
from umpire.engine.poison import SecretRead, blinded_roll, blinded_state, holds_poison
from umpire.engine.redaction import is_secret, redact, view_for
from umpire.engine.replay import SeqOutOfRange, diff
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.events.codec import canonical_json
from umpire.events.envelope import Envelope
from umpire.events.errors import UmpireError
from umpire.events.types import (
    ClientSeedBound,
    CommandRecorded,
    CommandTakenBack,
    DiceRolled,
    DisputeFiled,
    DisputeFound,
    DisputeRuled,
    ExportSealed,
    GameAmended,
    GameCreated,
    GameEnded,
    HeadChange,
    SeedRevealed,
)

CLAIM_MAX = 1000  # characters
HEAD_CHANGES_MAX = 50  # changes at the head a finding lists
DISPUTE_PREFIX = "umpire:dispute:"
FINDING_PREFIX = "umpire:finding:"
RULING_PREFIX = "umpire:ruling:"
DISPUTE_EVENTS = (DisputeFiled, DisputeFound, DisputeRuled, ExportSealed)
AMEND = "amend"
TAKE_BACK = str(TakeBack.__struct_config__.tag)
SEAL_COMMAND_ID = "umpire:seal"
# Who may rule: the player of a solo game, and the operator (the referee's role); a game
# created with `referee: "operator"` (GameCreated.referee) the operator alone.
RULERS = (Role.PLAYER, Role.REFEREE)
REFEREES = ("player", "operator")  # GameCreated.referee
RULINGS = ("uphold", "amend")
PUBLIC_ROLES = (Role.PLAYER, Role.SPECTATOR)
# The events that `decide` did not make: nothing of the umpire's to dispute.
_NOT_DECISIONS = (
    GameCreated, CommandRecorded, SeedRevealed, ClientSeedBound, *DISPUTE_EVENTS,
    CommandTakenBack, GameAmended,
)  # fmt: skip


class DisputeRefused(UmpireError):
    """A dispute that may not be filed as asked; nothing is written."""

    code = "dispute_refused"


class NotDisputable(DisputeRefused):
    """The disputed seq holds no decision or roll of the umpire."""

    code = "not_disputable"


class UnknownReading(DisputeRefused):
    """The dispute claims a reading (or a value of it) the ruleset does not declare."""

    code = "unknown_reading"


class RulingRefused(DisputeRefused):
    """A ruling that may not be made as asked; nothing is written."""

    code = "ruling_refused"


class MayNotRule(RulingRefused):
    """The role may not rule on disputes."""

    code = "may_not_rule"


class ExportIsSealed(DisputeRefused):
    """The game ended and its export was sealed: no more disputes nor rulings."""

    code = "export_sealed"


class SealRefused(DisputeRefused):
    """The game's export may not be sealed now."""

    code = "seal_refused"


def _refuse_if_sealed(decoded: Sequence[Struct], what: str) -> None:
    sealed = next((i + 1 for i, e in enumerate(decoded) if isinstance(e, ExportSealed)), None)
    if sealed is not None:
        raise ExportIsSealed(
            f"this game ended and its export was sealed at seq {sealed}: it takes no more "
            f"{what}. Its disputes, findings and rulings are in its log (umpire disputes "
            "GAME); to play a decision under another reading, start a game whose setup "
            "switches it (umpire readings RULESET)",
            sealed=sealed,
        )


class SeqSuperseded(DisputeRefused):
    """The disputed seq is in a line an amendment superseded: no longer part of the game."""

    code = "seq_superseded"


def _refuse_if_superseded(line: CurrentLine, seq: int, what: str) -> None:
    """Refuse `what` of `seq` when an amendment superseded it (docs/audit.md "Amendments")."""
    amended_at = line.superseded.get(seq)
    if amended_at is not None:
        raise SeqSuperseded(
            f"seq {seq} is in a line superseded by the amendment at seq {amended_at}: it is "
            f"no longer part of the game, so it may not be {what}. Dispute a decision of the "
            f"current line instead (a seq before the superseded ones, or after seq "
            f"{amended_at}, in the amended line or later), or read the superseded line with "
            "`umpire replay GAME --line N`",
            seq=seq,
            amended=amended_at,
        )


def check_seal(decoded: Sequence[Struct]) -> None:
    """Refuse to seal a log that has not ended, holds an open dispute, or is sealed."""
    _refuse_if_sealed(decoded, "seal")
    if not any(isinstance(e, GameEnded) for e in decoded):
        raise SealRefused(
            "a running game's export may not be sealed: its log goes on (export it unsealed, "
            "a prefix, or end the game first)"
        )
    # A spectator's open dispute stays open in the sealed log (docs/audit.md "Disputes"):
    # else anyone watching could hold the player's export hostage with a frivolous one.
    open_ids = [d.id for d in disputes_of(decoded) if d.ruling is None and blocks_seal(d.filed)]
    if open_ids:
        raise SealRefused(
            f"disputes {', '.join(map(str, open_ids))} are open, filed by the player or "
            "the referee: rule on them first (umpire rule GAME ID uphold), then seal (a "
            "spectator's open dispute does not hold the seal back)",
            disputes=open_ids,
        )


def blocks_seal(filed: DisputeFiled) -> bool:
    """Whether an open dispute holds back the seal: every one but a spectator's."""
    return filed.who != Role.SPECTATOR.value


class DisputeOpen(DisputeRefused):
    """The seq already has an open dispute."""

    code = "dispute_open"


class Dispute(Struct, frozen=True, kw_only=True):
    """A dispute as the log holds it: its id (the seq of its DisputeFiled), what was
    filed, and its finding once made (None: pending reveal)."""

    id: int
    filed: DisputeFiled
    finding: DisputeFound | None = None
    ruling: DisputeRuled | None = None


def dispute_command_id(seq: int) -> str:
    """The system batch id of the DisputeFiled appended at `seq`."""
    return f"{DISPUTE_PREFIX}{seq}"


def finding_command_id(dispute: int) -> str:
    """The system batch id of the finding on dispute `dispute`."""
    return f"{FINDING_PREFIX}{dispute}"


def ruling_command_id(dispute: int) -> str:
    """The system batch id of the ruling on dispute `dispute`."""
    return f"{RULING_PREFIX}{dispute}"


def disputes_of(decoded: Sequence[Struct], start_seq: int = 1) -> list[Dispute]:
    """Every dispute of a decoded log (from `start_seq`), in the order filed."""
    found: dict[int, Dispute] = {}
    for seq, event in enumerate(decoded, start=start_seq):
        if isinstance(event, DisputeFiled):
            found[seq] = Dispute(id=seq, filed=event)
        elif isinstance(event, DisputeFound) and event.dispute in found:
            found[event.dispute] = msgspec.structs.replace(found[event.dispute], finding=event)
        elif isinstance(event, DisputeRuled) and event.dispute in found:
            found[event.dispute] = msgspec.structs.replace(found[event.dispute], ruling=event)
    return list(found.values())


def game_events_head(decoded: Sequence[Struct]) -> int:
    """The seq of the last event that is part of the game (not a dispute's)."""
    for index in range(len(decoded) - 1, -1, -1):
        if not isinstance(decoded[index], DISPUTE_EVENTS):
            return index + 1
    return 0


def check_dispute(
    ruleset: Ruleset[Any],
    decoded: Sequence[Struct],
    *,
    who: Role,
    seq: int,
    claim: str,
    reading: str = "",
    value: str = "",
) -> tuple[Reading | None, str]:
    """Refuse a dispute by `who` that may not be filed (a typed error saying what was wrong
    and what is allowed); else the claimed reading and the value text it is switched to.
    A seq has at most one open dispute per disputing role: a spectator's never stands in
    the way of the player's or the referee's."""
    _refuse_if_sealed(decoded, "disputes")
    head = len(decoded)
    if not 1 <= seq <= head:
        raise SeqOutOfRange(
            f"seq {seq} is out of range: this game holds seqs 1 to {head}", seq=seq, head=head
        )
    event = decoded[seq - 1]
    line = current_line(ruleset, decoded)
    _refuse_if_superseded(line, seq, "disputed")
    if isinstance(event, _NOT_DECISIONS):
        tag = type(event).__struct_config__.tag
        raise NotDisputable(
            f"seq {seq} is {tag}, which is no decision or roll of the umpire: a dispute "
            "names an event that a command's batch holds after its CommandRecorded (a "
            "ruleset decision, a DiceRolled or GameEnded)",
            seq=seq,
        )
    if not claim.strip() or len(claim) > CLAIM_MAX:
        raise DisputeRefused(
            f"a claim is 1 to {CLAIM_MAX} characters of text; this one has {len(claim)}",
            length=len(claim),
        )
    chosen: Reading | None = None
    if reading:
        chosen = ruleset.reading(reading)
        declared = ", ".join(r.name for r in ruleset.readings) or "none"
        if chosen is None:
            raise UnknownReading(
                f"{ruleset.name} declares no reading {reading!r}; its readings: {declared} "
                f"(umpire readings {ruleset.name})",
                reading=reading,
            )
        # As the current line plays it: an earlier amendment may have switched it.
        played = value_text(setup_value(chosen, line.created.setup))
        others = [value_text(v) for v in (chosen.default, *chosen.alternatives)
                  if value_text(v) != played]  # fmt: skip
        value = value or others[0]
        if value not in others:
            raise UnknownReading(
                f"{value!r} is not another reading of {reading!r} for this game, which plays "
                f"it as {played}; it may be disputed under: {', '.join(others)}",
                reading=reading,
            )
    elif value:
        raise UnknownReading("a reading's value needs the reading's name", value=value)
    for dispute in disputes_of(decoded):
        if dispute.filed.seq == seq and dispute.ruling is None and dispute.filed.who == who.value:
            state = "pending reveal" if dispute.finding is None else "found, awaiting a ruling"
            raise DisputeOpen(
                f"seq {seq} already has an open dispute by the {who.value} (id {dispute.id}, "
                f"{state}): the {who.value} may dispute it again once that one is ruled, or "
                "dispute another seq",
                dispute=dispute.id,
            )
    return chosen, value


def check_ruling(
    ruleset: Ruleset[Any], decoded: Sequence[Struct], *, dispute: int, ruling: str, role: Role
) -> Dispute:
    """Refuse a ruling that may not be made (a typed error saying why and what may be
    done); else the dispute it rules on."""
    _refuse_if_sealed(decoded, "rulings")
    if role not in RULERS:
        raise MayNotRule(
            f"the {role.value} may not rule on disputes: the player of a solo game rules, "
            "or the operator",
            role=role.value,
        )
    created = decoded[0]
    if (
        isinstance(created, GameCreated)
        and created.referee == "operator"
        and (role is not Role.REFEREE)
    ):
        raise MayNotRule(
            f"the {role.value} may not rule on this game's disputes: it was created with "
            "the operator as its referee (referee: operator), who rules them",
            role=role.value,
        )
    if ruling not in RULINGS:
        raise RulingRefused(f"a ruling is one of {', '.join(RULINGS)}, not {ruling!r}")
    known = {d.id: d for d in disputes_of(decoded)}
    found = known.get(dispute)
    if found is None:
        ids = ", ".join(str(i) for i in known) or "none"
        raise RulingRefused(
            f"{dispute} is no dispute of this game (a dispute's id is the seq of its "
            f"DisputeFiled; this game's: {ids})",
            dispute=dispute,
        )
    if found.ruling is not None:
        raise RulingRefused(
            f"dispute {dispute} was ruled already ({found.ruling.ruling} by the "
            f"{found.ruling.by}): dispute the seq again to reopen it",
            dispute=dispute,
        )
    if found.finding is None:
        raise RulingRefused(
            f"dispute {dispute} is pending reveal: it is ruled once it is found, when the "
            "game reveals what it rests on",
            dispute=dispute,
        )
    if ruling == AMEND:
        line = current_line(ruleset, decoded)
        # A later amendment may have superseded the seq since it was disputed.
        amended_at = line.superseded.get(found.filed.seq)
        if amended_at is not None:
            raise RulingRefused(
                f"dispute {dispute} may not be amended: its seq {found.filed.seq} is in a "
                f"line superseded by the amendment at seq {amended_at}, no longer part of "
                "the game; uphold is possible (it closes the dispute), or dispute a "
                "decision of the current line",
                dispute=dispute,
                amended=amended_at,
            )
        start_seq = _batch_start(decoded, found.filed.seq)
        for seq in (p + 1 for p in line.positions if p + 1 >= start_seq):
            event = decoded[seq - 1]
            if isinstance(event, SeedRevealed | ClientSeedBound):
                tag = type(event).__struct_config__.tag
                raise RulingRefused(
                    f"dispute {dispute} may not be amended: the line after the disputed "
                    f"decision (from seq {start_seq}) holds {tag} at seq {seq}, a seed "
                    "batch the rolls after it rest on (an ended game's final reveal among "
                    "them), which an amendment cannot return behind; uphold is",
                    dispute=dispute,
                    seq=seq,
                )
    return found


def _batch_start(decoded: Sequence[Struct], seq: int) -> int:
    """The seq of the CommandRecorded whose batch holds event `seq`."""
    for index in range(seq - 1, -1, -1):
        if isinstance(decoded[index], CommandRecorded):
            return index + 1
    raise NotDisputable(f"seq {seq} is in no command's batch", seq=seq)


def _text(event: Struct | None) -> str:
    return "(nothing)" if event is None else canonical_json(event).decode()[:500]


def _blinded(ruleset: Ruleset[Any], game: Game) -> Game:
    """`game` with every declared secret of its state poisoned (engine/poison.py), the
    states its takeback stack would restore too."""
    secrets = ruleset.secrets.state
    undo = tuple(msgspec.structs.replace(u, state=blinded_state(u.state, secrets))
                 for u in game.meta.undo)  # fmt: skip
    meta = msgspec.structs.replace(game.meta, undo=undo)
    return Game(meta, blinded_state(game.state, secrets))


class Line(Struct, frozen=True, kw_only=True):
    """A log re-made from one batch on: the game just before it (under the reading), the
    events from that batch on, the folded game at their end, and why it stopped short."""

    start: int
    before: Game
    events: tuple[Any, ...]
    game: Game
    stopped: str = ""


def setup_under(created: GameCreated, reading: Reading | None, value: str) -> GameCreated:
    """GameCreated with the claimed reading applied to its setup (as the fold's
    `engine.game.amended_setup` applies an amendment's)."""
    if reading is None:
        return created
    chosen = parse_value(reading, value)
    return msgspec.structs.replace(created, setup={**created.setup, reading.name: chosen})


def remake(
    ruleset: Ruleset[Any],
    envelopes: Sequence[Envelope],
    decoded: Sequence[Struct],
    start_seq: int,
    created: GameCreated,
    *,
    commands_only: bool = False,
    blind: bool = False,
) -> Line:
    """The line from the batch at `start_seq` on under `created`'s setup: the
    recorded events before it folded as they are, every later recorded command decided
    again with the rolls its batch recorded (other batches copied), until the end of the
    log or the first command the rules refuse or whose rolls the log does not hold.
    `envelopes` and `decoded` are a log, or its current line (`on_line`).

    `commands_only` (an amendment's re-application): other batches are not copied (a
    dispute's events stay in the superseded line), a TakeBack stops the line (it names a
    seq of the superseded line), and nothing before `start_seq` may be taken back.

    `blind`: from `start_seq` on, the game's secrets are poisoned (engine/poison.py): its
    declared secret state, every hidden roll's faces, and a copied batch's secret event
    (raised at once); SecretRead when the line reads one."""
    at = _position(envelopes, start_seq)
    game = start(ruleset, created)
    for env, event in zip(envelopes[1:at], decoded[1:at], strict=True):
        game = _step(ruleset, game, event, env.command_id, env.seq)
    if commands_only:
        meta = msgspec.structs.replace(game.meta, undo=(), blocked_at=game.meta.seq + 1,
                                       blocked_by="amend")  # fmt: skip
        game = Game(meta, game.state)
    if blind:
        game = _blinded(ruleset, game)
    before = game
    made: list[Struct] = []
    stopped = ""
    index = at
    while index < len(decoded):
        first = decoded[index]
        end = _batch_end(envelopes, decoded, index)
        if commands_only and not isinstance(first, CommandRecorded):
            index = end
            continue
        if (
            commands_only
            and isinstance(first, CommandRecorded)
            and (first.command_type == TAKE_BACK)
        ):
            stopped = f"seq {envelopes[index].seq}: a takeback is not re-applied"
            break
        if isinstance(first, CommandRecorded):
            found = list(decoded[index:end])
            rolls = [blinded_roll(e) if blind else e for e in found
                     if isinstance(e, DiceRolled)]  # fmt: skip
            dice = RecordedDice(rolls, opponent_entries=game.meta.opponent_manual_dice)
            try:
                new = decide_command(
                    ruleset, game, first.command, dice, role=Role(first.role),
                    manual=first.manual_dice, nonce=first.entropy,
                )  # fmt: skip
            except UmpireError as exc:
                stopped = f"seq {envelopes[index].seq}: {exc.message}"
                break
            if isinstance(found[-1], SeedRevealed) and any(isinstance(e, GameEnded) for e in new):
                new.append(found[-1])  # the final reveal of the ending batch, as it stands
        else:
            new = list(decoded[index:end])
            if blind and any(is_secret(ruleset, e) for e in new):
                raise SecretRead(f"the batch at seq {envelopes[index].seq} holds a secret")
        for event in new:
            game = _step(ruleset, game, event)
        made.extend(new)
        index = end
    return Line(start=start_seq, before=before, events=tuple(made), game=game,
                stopped=stopped)  # fmt: skip


def _batch_end(envelopes: Sequence[Envelope], decoded: Sequence[Struct], index: int) -> int:
    """The position after the batch at position `index` of a line: the events under one
    command id, split at each CommandRecorded (an amended line is one ruling's batch that
    holds many commands' batches)."""
    end = index + 1
    while (
        end < len(decoded)
        and envelopes[end].command_id == envelopes[index].command_id
        and not isinstance(decoded[end], CommandRecorded)
    ):
        end += 1
    return end


def on_line(
    ruleset: Ruleset[Any], envelopes: Sequence[Envelope], decoded: Sequence[Struct]
) -> tuple[GameCreated, list[Envelope], list[Struct]]:
    """A log's current line (engine/game.py `current_line`): its GameCreated with every
    amendment's reading, and the envelopes and events the game now stands on."""
    line = current_line(ruleset, decoded)
    return (
        line.created,
        [envelopes[p] for p in line.positions],
        [decoded[p] for p in line.positions],
    )


def _position(envelopes: Sequence[Envelope], seq: int) -> int:
    """The position of event `seq` in a line (it is on the line: checked before)."""
    return next(i for i, env in enumerate(envelopes) if env.seq == seq)


def _step(
    ruleset: Ruleset[Any], game: Game, event: Struct, command_id: str = "", seq: int | None = None
) -> Game:
    """One event folded on, the game's seq advanced (as `fold` does); `seq`: the event's
    own (a line's seqs skip what an amendment superseded)."""
    seq = game.meta.seq + 1 if seq is None else seq
    game = apply(ruleset, game, event, seq=seq, command_id=command_id)
    return Game(msgspec.structs.replace(game.meta, seq=seq), game.state)


def _hidden(ruleset: Ruleset[Any], event: Struct | None, role: Role, revealed: bool) -> bool:
    return event is not None and redact(ruleset, event, role, revealed=revealed) is not event


def find(
    ruleset: Ruleset[Any],
    envelopes: Sequence[Envelope],
    decoded: Sequence[Struct],
    dispute: int,
    filed: DisputeFiled,
    *,
    revealed: bool,
) -> DisputeFound | None:
    """The finding on `filed` (the DisputeFiled at seq `dispute`), re-made from the log
    before it; None while it rests on something a player or spectator may not see yet
    (`revealed`: whether the log is finally revealed by now). The head's changes are a
    spectator's view of them."""
    try:
        return _finding(ruleset, envelopes, decoded, dispute, filed, revealed=revealed)
    except SecretRead:
        # The blinded line read a secret: what it would say rests on one (engine/poison.py).
        return None


def _finding(
    ruleset: Ruleset[Any],
    envelopes: Sequence[Envelope],
    decoded: Sequence[Struct],
    dispute: int,
    filed: DisputeFiled,
    *,
    revealed: bool,
) -> DisputeFound | None:
    """`find`'s work; SecretRead where a blind dispute's line reads a secret."""
    start_seq = _batch_start(decoded[: dispute - 1], filed.seq)
    created, envelopes, decoded = on_line(ruleset, envelopes[: dispute - 1], decoded[: dispute - 1])
    reading = ruleset.reading(filed.reading) if filed.reading else None
    at = _position(envelopes, start_seq)
    played = remake(ruleset, envelopes, decoded, start_seq, created)
    claimed = setup_under(created, reading, filed.value)
    # Before the final reveal, a blind dispute's line is re-made on the game with its
    # secrets poisoned: a line that reads none is the same in every game that differs
    # only in them; one that reads one raises SecretRead, and the finding waits.
    blind = filed.blind and not revealed
    under = remake(ruleset, envelopes, decoded, start_seq, claimed, blind=blind)
    lines = (_game_only(decoded[at:]), _game_only(under.events))
    parts = _parting(ruleset, lines, blind=blind)
    if parts == _HIDDEN:
        return None
    # The finding is an event of the log, which every role receives: it may rest only on
    # what the player and a spectator may both see, whoever disputed (the operator too).
    batch = _batch_end(envelopes, decoded, at) - at
    watched = list(range(batch)) + ([parts] if parts is not None else [])
    for i in watched:
        for line in lines:
            for role in PUBLIC_ROLES:
                if _hidden(ruleset, line[i] if i < len(line) else None, role, revealed):
                    return None
    # Where the game holds a secret, the line re-made under the reading is a function of
    # it: it may reveal a pilot the game never revealed, or stop at a refusal that names a
    # limit only a hidden quality sets. So the whole finding waits, by a rule that reads
    # only what every role sees: which events are secret (each is logged under a
    # commitment), and, where none is before it, the re-made line, made from public
    # events alone (docs/audit.md "Disputes").
    if (
        filed.waits_on_secrets
        and not revealed
        and (
            any(is_secret(ruleset, e) for e in decoded)
            or any(is_secret(ruleset, e) for e in under.events)
        )
    ):
        return None
    # Seqs of the current line as logged: dispute events are not part of it.
    seqs = [env.seq for env, e in zip(envelopes[at:], decoded[at:], strict=True)
            if not isinstance(e, DISPUTE_EVENTS)]  # fmt: skip
    parts_at = 0
    if parts is not None:
        parts_at = seqs[parts] if parts < len(seqs) else seqs[-1] + 1 + parts - len(seqs)
    same = parts_at == 0 or parts_at > filed.seq
    as_played = under_reading = ""
    if parts is not None:
        as_played = _text(lines[0][parts]) if parts < len(lines[0]) else "(nothing)"
        if parts < len(lines[1]):
            under_reading = _text(lines[1][parts])
        else:
            under_reading = "(refused)" if under.stopped else "(nothing)"
    under_view = view_for(ruleset, under.game.state, Role.SPECTATOR, revealed=revealed)
    if blind and holds_poison(under_view):
        return None  # a secret reached the head's public view, though never read
    changes = diff(
        view_for(ruleset, played.game.state, Role.SPECTATOR, revealed=revealed), under_view
    )
    head = tuple(HeadChange(path=c.path, before=c.before, after=c.after)
                 for c in changes[:HEAD_CHANGES_MAX])  # fmt: skip
    return DisputeFound(
        dispute=dispute,
        same=same,
        parts_at=parts_at,
        as_played=as_played,
        under_reading=under_reading,
        stopped=under.stopped,
        head=head,
    )


_HIDDEN = -1  # `_parting`: the scan met a hidden event before the lines parted


def _parting(ruleset: Ruleset[Any], lines: tuple[list[Struct], list[Struct]], *,
             blind: bool) -> int | None:  # fmt: skip
    """The index where the played line and the line under the reading first differ (None:
    never). `blind`: a prefix scan that stops (`_HIDDEN`) at the first event a player or
    spectator may not see on either line, or that holds a poisoned secret, before comparing
    it, so where the lines part never rests on a hidden event's contents."""
    for i in range(max(map(len, lines))):
        pair = [line[i] if i < len(line) else None for line in lines]
        if blind and (
            any(_hidden(ruleset, e, role, False) for e in pair for role in PUBLIC_ROLES)
            or holds_poison(pair[1])
        ):
            return _HIDDEN
        if None in pair or canonical_json(pair[0]) != canonical_json(pair[1]):
            return i
    return None


def _game_only(events: Sequence[Struct]) -> list[Struct]:
    """The events of a line that are part of the game (a dispute's are not)."""
    return [e for e in events if not isinstance(e, DISPUTE_EVENTS)]


def codec_decoded(ruleset: Ruleset[Any], envelopes: Sequence[Envelope]) -> list[Struct]:
    """Every payload of a log decoded with its ruleset's registry."""
    codec = codec_for(ruleset)
    return [codec.decode(e.type, e.version, e.payload, seq=e.seq) for e in envelopes]


def amendment(
    ruleset: Ruleset[Any],
    envelopes: Sequence[Envelope],
    decoded: Sequence[Struct],
    dispute: Dispute,
) -> list[Struct]:
    """What follows the `DisputeRuled` of an `amend` ruling on `dispute` in its batch, the
    log ending at `len(decoded)` (the ruling's own seq is the next): `GameAmended`, then the
    line re-made from the disputed command's batch under the claimed reading, every later
    command re-applied with its nonce and the rolls its batch recorded until the first that
    is no longer legal (docs/audit.md "Amendments")."""
    filed = dispute.filed
    head = len(decoded)
    start_seq = _batch_start(decoded, filed.seq)
    created, envelopes, decoded = on_line(ruleset, envelopes, decoded)
    reading = ruleset.reading(filed.reading) if filed.reading else None
    under = remake(ruleset, envelopes, decoded, start_seq,
                   setup_under(created, reading, filed.value), commands_only=True)  # fmt: skip
    marker = GameAmended(
        dispute=dispute.id,
        parts_from=start_seq,
        superseded_to=head,
        reading=filed.reading,
        value=filed.value,
        reapplied=sum(isinstance(e, CommandRecorded) for e in under.events),
        stopped=under.stopped,
    )
    return [marker, *under.events]


def amendment_is_blind(
    ruleset: Ruleset[Any],
    envelopes: Sequence[Envelope],
    decoded: Sequence[Struct],
    dispute: Dispute,
) -> bool:
    """Whether `amendment`'s line, re-made on the game with its secrets poisoned
    (engine/poison.py, as a blind finding's line), reads none and copies none into an
    event. A finding is given where its line reads no secret, but a ruling comes later:
    the commands played since re-apply in the amended line too, and one that reads a
    secret (Downtown's SAM check reads the hidden battalions) shows, in a public event,
    `stopped` or `reapplied`, what the secret gives under the reading: a second draw on it
    the player may not have, as a takeback after something hidden was shown may not
    (red team 10). Whether it reads one rests on nothing hidden, as the blind rule's."""
    filed = dispute.filed
    start_seq = _batch_start(decoded, filed.seq)
    created, envelopes, decoded = on_line(ruleset, envelopes, decoded)
    reading = ruleset.reading(filed.reading) if filed.reading else None
    claimed = setup_under(created, reading, filed.value)
    try:
        under = remake(ruleset, envelopes, decoded, start_seq, claimed, commands_only=True,
                       blind=True)  # fmt: skip
    except SecretRead:
        return False
    return not any(holds_poison(event) for event in under.events)
