"""The universal event types every game's log holds, whatever its ruleset.

Payloads are frozen msgspec Structs tagged with a stable name. New fields go at the end
with a default (msgspec schema evolution); a changed meaning gets a new version and an
upcaster in `umpire.events.codec`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, ClassVar

import msgspec
from msgspec import Meta, Struct

Hex64 = Annotated[str, Meta(pattern="^[0-9a-f]{64}$")]


class Roller(StrEnum):
    """Who produced the faces of a roll (ARCHITECTURE.md "Manual dice")."""

    SERVER = "server"
    PLAYER = "player"


class ClientEntropy(StrEnum):
    """Whether a game's rolls wait for the client's seed (docs/audit.md (4.1))."""

    BIND = "bind"  # each epoch's first roll waits for a ClientSeedBound of that epoch
    WAIVED = "waived"  # recorded at creation: the server's seed alone (client seed "")


class Owner(StrEnum):
    """Whose roll it is under the rules (ARCHITECTURE.md "Whose dice"): the player's own
    (their units, their generic rolls) or the opponent's (the AI's, the umpire's)."""

    PLAYER = "player"
    OPPONENT = "opponent"


class GameCreated(Struct, frozen=True, tag="GameCreated", kw_only=True):
    """Seq 1 of every game: the ruleset, its setup and the dice commitment.

    A new game's `client_seed` is empty: the client binds its seed (ClientSeedBound) only
    after it has seen `seed_commitment`. An old log's GameCreated holds the client seed
    itself, which counts as epoch 0's seed bound at creation.
    """

    version: ClassVar[int] = 1
    game_id: str
    ruleset: str
    ruleset_version: str
    setup: dict[str, Any]
    seed_commitment: Hex64
    client_seed: str = ""
    client_entropy: ClientEntropy = ClientEntropy.BIND
    # Whether the player may enter physical dice for the opponent's rolls (issue #16 item 6).
    opponent_manual_dice: bool = False
    # SHA-256 of the game's sealing key (hex; "" before sealing commitments): its hidden
    # rolls derive from that key, which only the final reveal publishes (engine/dice.py
    # `roll_key`, docs/audit.md section 3).
    sealing_commitment: str = ""
    # The key that signs this game's receipts (docs/audit.md 8.4), fixed at creation: its
    # id and raw Ed25519 public key (hex); "" for a game created before signed receipts.
    receipt_key_id: str = ""
    receipt_key: str = ""
    # Who rules on the game's disputes (issue 40, docs/audit.md "Disputes"): "player" (the
    # player of the solo game, or the operator) or "operator" (the operator alone).
    referee: str = "player"


class CommandRecorded(Struct, frozen=True, tag="CommandRecorded", kw_only=True):
    """The player's command as accepted; the events it produced follow it in the same batch.

    `nonce` is the entropy the client sent with the command (32 to 64 hex digits): every
    server roll of the batch derives from it too (engine/dice.py), so that nobody holding
    the store can compute them before the command arrives. Left out (UNSET, so the bytes of
    a command without one are those of a log from before nonces) when the command had none:
    physical dice, a game that waived client entropy, an old log.
    """

    version: ClassVar[int] = 1
    command_type: str
    command: dict[str, Any]
    role: str = "player"
    manual_dice: bool = False
    nonce: str | msgspec.UnsetType = msgspec.UNSET

    @property
    def entropy(self) -> str:
        """The command's nonce, "" when it had none."""
        return self.nonce if isinstance(self.nonce, str) else ""


class DiceRolled(Struct, frozen=True, tag="DiceRolled", kw_only=True):
    """One roll of one or more dice, with why it was rolled and which rule asked for it.

    `roll` is the game-wide roll number n that the server derives the faces from
    (engine/dice.py); `faces` are in the order of `labels` where labels are given.
    `hidden` rolls are the umpire's secret until the game's seed is revealed.
    """

    version: ClassVar[int] = 1
    roll: int
    kind: str
    sides: tuple[int, ...]
    faces: tuple[int, ...]
    total: int
    purpose: str
    rule: str
    by: Roller = Roller.SERVER
    labels: tuple[str, ...] = ()
    hidden: bool = False
    # Whose roll it is; None in logs from before rolls recorded it (the audit then takes
    # the owner the rules give when it re-runs the command).
    owner: Owner | None = None


class ClientSeedBound(Struct, frozen=True, tag="ClientSeedBound", kw_only=True):
    """The client's seed for seed epoch `epoch`, bound after the epoch's commitment was
    published and before its first roll (a system batch "umpire:bind:<epoch>")."""

    version: ClassVar[int] = 1
    epoch: int
    client_seed: str


class SeedRevealed(Struct, frozen=True, tag="SeedRevealed", kw_only=True):
    """The server's dice seed of epoch `epoch`, published at the end (or on the owner's
    request). Revealed while the game runs, it commits the next epoch's seed in the same
    event (`next_commitment`); the final reveal has none. The final reveal also publishes
    the game's sealing key (`sealing_key`, hex; "" for a game created before them), which
    opens the commitments of the ruleset's secrets (docs/audit.md section 3): a mid-game
    reveal opens the epoch's dice, never a secret still in play."""

    version: ClassVar[int] = 1
    seed: Hex64
    epoch: int = 0
    next_commitment: str = ""
    sealing_key: str = ""


class Winner(StrEnum):
    """Who won, as the end of the game states it (GameEnded.winner)."""

    PLAYER = "player"  # the player's side
    OPPONENT = "opponent"  # the side the rules play (the AI, the bots, the umpire's side)
    DRAW = "draw"
    # The rules the game runs state no victory condition: who won is the scenario's (or the
    # base game's) to judge, and the result says what each side came to.
    NONE_STATED = "none_stated"


class GameEnded(Struct, frozen=True, tag="GameEnded", kw_only=True):
    """The game is over; no further commands are accepted except the seed reveal.

    `winner` is who won as the ruleset's end states it. Left out (UNSET, so the bytes of an
    end without one are those of a log from before winners) where the end does not say:
    the player's own `EndGame`, a ruleset that does not judge, an old log.
    """

    version: ClassVar[int] = 1
    result: str
    rule: str = ""
    winner: Winner | msgspec.UnsetType = msgspec.UNSET


class CommandTakenBack(Struct, frozen=True, tag="CommandTakenBack", kw_only=True):
    """The player took back the command recorded at `seq` (with `command_id`): the fold
    returns to the state just before it. It follows `CommandRecorded(TakeBack)` in the
    same batch; the taken-back batch stays in the log (events are never deleted)."""

    version: ClassVar[int] = 1
    seq: int
    command_id: str
    command_type: str
    rule: str = ""


class DisputeFiledV1(Struct, frozen=True, tag="DisputeFiled", kw_only=True):
    """Version 1 of DisputeFiled, as logs before version 2 hold it: its finding waits for
    the final reveal by the narrower rule (engine/disputes.py `find`). The stored format:
    do not edit."""

    version: ClassVar[int] = 1
    who: str
    seq: int
    claim: str
    reading: str = ""
    value: str = ""


class DisputeFiledV2(Struct, frozen=True, tag="DisputeFiled", kw_only=True):
    """Version 2 of DisputeFiled, as logs before version 3 hold it: its finding is given
    at once or waits by the rules before the blinded line (engine/disputes.py `find`).
    The stored format: do not edit."""

    version: ClassVar[int] = 2
    who: str
    seq: int
    claim: str
    reading: str = ""
    value: str = ""
    waits_on_secrets: bool = False


class DisputeFiled(Struct, frozen=True, tag="DisputeFiled", kw_only=True):
    """A rules dispute (docs/audit.md, "Disputes"): `who` (a role) disputes the decision or
    roll at `seq` with `claim`, optionally under the ruleset's declared reading `reading`
    switched to `value` (engine/kit/reading.py `value_text`). A system batch of its own,
    "umpire:dispute:<its seq>"; its seq is the dispute's id.

    `waits_on_secrets` (version 2 on; the server sets it on a spectator's dispute): its
    finding waits for the final reveal while the game so far, or the line re-made under
    the reading, holds any secret event. A line re-made under another reading can make
    public what the game never did: a Down in Flames spectator disputing the player's
    three-burst attack under the gyro reading learnt whether the player's pilot is a crack
    shot (a PilotRevealed on the re-made line, or a refusal naming "2 a turn"; red team,
    2026-11-29). A version 1 dispute, read as this with False, was found by the narrower
    rule, and is audited by it (docs/security.md).

    `blind` (version 3 on; the server sets it on every dispute): its finding is given
    before the final reveal only where the line re-made under the reading, on the game
    with every secret poisoned (engine/poison.py), never reads one, and the two lines part
    before any event a player or spectator may not see (docs/audit.md "Disputes"). A
    player's dispute could otherwise be answered from the opponent's secret (a refusal
    naming a hidden pilot's limit). A version 1 or 2 dispute, read as this with False,
    was found without it, and is audited so.
    """

    version: ClassVar[int] = 3
    old_versions: ClassVar[tuple[type[Struct], ...]] = (DisputeFiledV1, DisputeFiledV2)
    who: str
    seq: int
    claim: str
    reading: str = ""
    value: str = ""
    waits_on_secrets: bool = False
    blind: bool = False


class HeadChange(Struct, frozen=True, kw_only=True):
    """One difference at the head between the line as played and the line under the
    reading, as the disputing role's view shows it."""

    path: str
    before: Any = None
    after: Any = None


class DisputeFound(Struct, frozen=True, tag="DisputeFound", kw_only=True):
    """The umpire's finding on dispute `dispute` (the seq of its DisputeFiled), re-made
    from the log before it (engine/disputes.py): whether the disputed event comes out the
    `same` under the claimed reading; `parts_at`, the first seq where the two lines part
    (0: they never do up to the head); the event there as played and under the reading;
    `stopped`, why the reading's line stopped short; and what changes at the head. A
    system batch of its own, "umpire:finding:<dispute>"."""

    version: ClassVar[int] = 1
    dispute: int
    same: bool
    parts_at: int = 0
    as_played: str = ""
    under_reading: str = ""
    stopped: str = ""
    head: tuple[HeadChange, ...] = ()


class DisputeRuled(Struct, frozen=True, tag="DisputeRuled", kw_only=True):
    """The ruling on dispute `dispute` (the seq of its DisputeFiled), once found: `uphold`
    (the log stands) or `amend`, by `by` (a role that may rule: the player of a solo game,
    or the operator). A system batch of its own, "umpire:ruling:<dispute>"; it closes the
    dispute."""

    version: ClassVar[int] = 1
    dispute: int
    ruling: str
    by: str


class GameAmended(Struct, frozen=True, tag="GameAmended", kw_only=True):
    """A ruling of `amend` on dispute `dispute` (docs/audit.md "Amendments"): the game goes
    on from the disputed decision made under the claimed reading (`reading` switched to
    `value`). The events at seqs `parts_from` .. `superseded_to` stay in the log as the
    superseded line; the fold returns to the state before `parts_from` with the reading
    applied and takes the events that follow this one in its batch, the later commands
    re-applied with their own nonces and recorded dice (`reapplied` of them; `stopped`
    says which command was no longer legal, "" if none). It stands in the ruling's batch,
    right after its DisputeRuled."""

    version: ClassVar[int] = 1
    dispute: int
    parts_from: int
    superseded_to: int
    reading: str = ""
    value: str = ""
    reapplied: int = 0
    stopped: str = ""


class ExportSealed(Struct, frozen=True, tag="ExportSealed", kw_only=True):
    """An ended game's log closed for good (`umpire export GAME --seal`): nothing may follow
    it, no dispute nor ruling; `head` is the seq before it. A system batch "umpire:seal"."""

    version: ClassVar[int] = 1
    head: int


UniversalEvent = (
    GameCreated
    | CommandRecorded
    | DiceRolled
    | SeedRevealed
    | GameEnded
    | ClientSeedBound
    | CommandTakenBack
    | DisputeFiled
    | DisputeFound
    | DisputeRuled
    | ExportSealed
    | GameAmended
)

UNIVERSAL_EVENT_TYPES: tuple[type[Struct], ...] = (
    GameCreated,
    CommandRecorded,
    DiceRolled,
    SeedRevealed,
    GameEnded,
    ClientSeedBound,
    CommandTakenBack,
    DisputeFiled,
    DisputeFound,
    DisputeRuled,
    ExportSealed,
    GameAmended,
)


def event_tag(event: Struct) -> str:
    """The stable type tag of an event payload."""
    tag = type(event).__struct_config__.tag
    if not isinstance(tag, str):
        raise TypeError(f"{type(event).__name__} has no string tag")
    return tag


def event_version(event_type: type[Struct]) -> int:
    """The schema version of an event type (class attribute `version`, default 1)."""
    return int(getattr(event_type, "version", 1))


def to_builtins(event: Struct) -> dict[str, Any]:
    """An event payload as plain JSON-able data, tag included."""
    data = msgspec.to_builtins(event)
    assert isinstance(data, dict)
    return data
