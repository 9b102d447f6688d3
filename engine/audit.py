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

from umpire.engine import registry
from umpire.engine.audit_failure import AuditFailure
from umpire.engine.audit_grammar import check_batches
from umpire.engine.dice import DiceKind, DiceSpec, derive_faces, hidden_dice_key, roll_key
from umpire.engine.game import codec_for, ruleset_of, state_hash
from umpire.engine.redaction import is_secret
from umpire.engine.ruleset import Ruleset
from umpire.events.chain import verify_chain
from umpire.events.codec import canonical_json
from umpire.events.envelope import ENVELOPE_VERSION, Envelope
from umpire.events.epochs import epochs_of
from umpire.events.errors import UmpireError
from umpire.events.plurals import counted
from umpire.events.rules_words import roll_name
from umpire.events.types import (
    ClientEntropy,
    ClientSeedBound,
    CommandRecorded,
    DiceRolled,
    GameAmended,
    GameCreated,
    GameEnded,
    Roller,
    SeedRevealed,
)

__all__ = ["AuditFailure", "AuditReport", "audit", "registered_ruleset"]


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
    client_entropy: str = "bind"
    epochs: int = 1
    opponent_rolls_by_player: int = 0  # the player's dice for the opponent's rolls
    opponent_manual_dice: bool = False  # the game was created to allow them
    # A finished game: GameEnded and its final reveal are in the log. Anything else is a
    # prefix (a running game, a cut log, one ended without its final reveal), which no
    # verifier calls "OK" (docs/audit.md section 7).
    complete: bool = False
    # Server rolls whose command sent a nonce (docs/security.md): only these were unknown
    # to whoever held the store before their command arrived.
    nonce_rolls: int = 0

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
    client_entropy: str = "bind"
    epochs: int = 1
    opponent_rolls_by_player: int = 0
    opponent_manual_dice: bool = False
    complete: bool = False
    nonce_rolls: int = 0

    def report(
        self, *, failure: AuditFailure | None = None, pending: tuple[str, ...] = ()
    ) -> AuditReport:
        return AuditReport(**asdict(self), pending=pending, failure=failure)


def _spec_of(roll: DiceRolled) -> DiceSpec:
    return DiceSpec(DiceKind(roll.kind), tuple(roll.sides), tuple(roll.labels))


class _Commitments(Struct):
    """The fields of GameCreated and SeedRevealed that name seed commitments."""

    seed_commitment: str = ""
    seed: str = ""
    next_commitment: str = ""


_commitments_decoder = msgspec.msgpack.Decoder(_Commitments)


def _forged_reveal(envelopes: Sequence[Envelope]) -> int | None:
    """The seq of the first SeedRevealed whose seed is not its epoch's commitment, if any
    (read from the raw payloads, before the log is decoded)."""
    commitment = ""
    for env in envelopes:
        if env.type not in ("GameCreated", "SeedRevealed"):
            continue
        try:
            fields = _commitments_decoder.decode(env.payload)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None
        if env.type == "GameCreated":
            commitment = fields.seed_commitment
            continue
        try:
            opened = hashlib.sha256(bytes.fromhex(fields.seed)).hexdigest()
        except ValueError:
            return env.seq
        if opened != commitment:
            return env.seq
        commitment = fields.next_commitment
    return None


def _check_dice(
    envelopes: Sequence[Envelope], decoded: Sequence[Struct], created: GameCreated, tally: _Tally
) -> AuditFailure | None:
    """Seed epochs and rolls (docs/audit.md (4.1)): each SeedRevealed opens its epoch's
    commitment and may commit the next; rolls are numbered in order across epochs; each
    server roll is derived from its epoch's seed and client seed, and none may come before
    that client seed is bound (unless the game waived it). Returns the first failure."""
    tally.client_entropy = created.client_entropy.value
    waived = created.client_entropy is ClientEntropy.WAIVED
    commitments = [created.seed_commitment]
    client_seeds: dict[int, str] = {0: created.client_seed} if created.client_seed else {}
    seeds: dict[int, bytes] = {}
    epoch = 0
    roll_no = 0
    epoch_rolls: list[tuple[Envelope, DiceRolled, int, str]] = []
    hidden_key: bytes | None = None  # a sealed game's, once its final reveal opens it
    # Each command's nonce by its id: a roll takes the nonce of the CommandRecorded under
    # its own command id ("" for none: a roll outside a command batch fails the grammar).
    nonces: dict[str, str] = {}
    numbered: dict[int, DiceRolled] = {}  # every roll by its number, for an amendment's
    amending = ""  # the command id of the amending ruling's batch, once one is folded
    for env, event in zip(envelopes, decoded, strict=True):
        if isinstance(event, CommandRecorded):
            nonces[env.command_id] = event.entropy
        elif isinstance(event, ClientSeedBound):
            if waived:
                return AuditFailure(
                    seq=env.seq, check="client_seed", message="a client seed bound in a game "
                    "that waived client entropy (every epoch's client seed is \"\")",
                )  # fmt: skip
            if event.epoch != epoch or epoch in client_seeds:
                return AuditFailure(
                    seq=env.seq, check="client_seed", message=f"a client seed for epoch "
                    f"{event.epoch} where seed epoch {epoch} " + ("has one already"
                    if epoch in client_seeds else "is current"),
                )  # fmt: skip
            client_seeds[epoch] = event.client_seed
        elif isinstance(event, SeedRevealed):
            seed = bytes.fromhex(event.seed)
            opened = hashlib.sha256(seed).hexdigest()
            if event.epoch != epoch or opened != commitments[epoch]:
                return AuditFailure(
                    seq=env.seq, check="seed_commitment", message=f"the revealed seed (epoch "
                    f"{event.epoch}) does not match the commitment of seed epoch {epoch}",
                    expected=commitments[epoch], found=opened,
                )  # fmt: skip
            seeds[epoch] = seed
            tally.seed_revealed = True
            if not event.next_commitment and created.sealing_commitment:
                # The final reveal opens the sealing key the game committed to at creation:
                # the key of its hidden rolls (engine/dice.py `roll_key`).
                try:
                    sealing = bytes.fromhex(event.sealing_key)
                except ValueError:
                    sealing = b"not hex"
                if hashlib.sha256(sealing).hexdigest() != created.sealing_commitment:
                    return AuditFailure(
                        seq=env.seq, check="sealing_commitment", message="the sealing key "
                        "the final reveal publishes does not match GameCreated's "
                        "sealing_commitment",
                        expected=created.sealing_commitment,
                        found=hashlib.sha256(sealing).hexdigest(),
                    )  # fmt: skip
                hidden_key = hidden_dice_key(sealing)
            if event.next_commitment:
                commitments.append(event.next_commitment)
                epoch += 1
        elif isinstance(event, GameAmended):
            amending = env.command_id
        elif isinstance(event, DiceRolled):
            if env.command_id == amending and event.roll < roll_no:
                # An amendment re-applies a superseded roll under its number and faces
                # (the batch grammar checks it is the one the re-application consumes):
                # it is no new roll, and was checked against its seed where it was made.
                held = numbered.get(event.roll)
                if held is None or canonical_json(held) != canonical_json(event):
                    return AuditFailure(
                        seq=env.seq, check="dice_numbering", message=f"{roll_name(event.roll)} "
                        "re-applied by the amendment is not the roll the log made under "
                        "that number",
                    )  # fmt: skip
                continue
            numbered[event.roll] = event
            if event.roll != roll_no:
                return AuditFailure(
                    seq=env.seq, check="dice_numbering",
                    message=f"{roll_name(event.roll)} is out of order: "
                    f"expected {roll_name(roll_no)}",
                )  # fmt: skip
            roll_no += 1
            if event.by is not Roller.PLAYER and not waived and epoch not in client_seeds:
                return AuditFailure(
                    seq=env.seq, check="client_seed", message=f"server {roll_name(event.roll)} "
                    f"comes before the client seed of seed epoch {epoch} was bound",
                )  # fmt: skip
            epoch_rolls.append((env, event, epoch, nonces.get(env.command_id, "")))
    tally.epochs = epoch + 1
    for env, event, roll_epoch, roll_nonce in epoch_rolls:
        if event.by is Roller.PLAYER:
            tally.player_rolls += 1
            continue
        tally.server_rolls += 1
        tally.nonce_rolls += bool(roll_nonce)
        sealed = event.hidden and created.sealing_commitment != ""
        if roll_epoch in seeds and (hidden_key is not None or not sealed):
            client_seed = client_seeds.get(roll_epoch, "")
            key = roll_key(seeds[roll_epoch], hidden_key if sealed else None, hidden=sealed)
            faces = derive_faces(key, client_seed, event.roll, _spec_of(event), roll_nonce)
            if faces != tuple(event.faces):
                return AuditFailure(
                    seq=env.seq, check="server_roll", message=f"{roll_name(event.roll)} "
                    f"({event.purpose}) does not match the revealed "
                    + ("sealing key (a hidden roll)" if sealed else f"seed of epoch {roll_epoch}")
                    + (" and its command's nonce" if roll_nonce else ""),
                    expected=str(list(faces)), found=str(list(event.faces)), rule=event.rule,
                )  # fmt: skip
            tally.rolls_verified += 1
    return None


def _check_sealing(
    envelopes: Sequence[Envelope], decoded: Sequence[Struct], ruleset: Ruleset[Any]
) -> AuditFailure | None:
    """docs/audit.md section 3: every version-2 event a player or spectator may not see in
    full (a hidden roll, a ruleset secret) is committed, so that nobody can test a guess
    against its digest; the first one published with a plain digest fails (check
    `uncommitted_secret`)."""
    for env, event in zip(envelopes, decoded, strict=True):
        if env.envelope_version != ENVELOPE_VERSION or env.committed:
            continue
        if is_secret(ruleset, event):
            what = "a hidden roll" if isinstance(event, DiceRolled) else "a secret event"
            return AuditFailure(
                seq=env.seq, check="uncommitted_secret", message=f"{what} ({env.type}) is "
                "published with a plain SHA-256 digest, not a commitment: anyone could test "
                "guesses of it against the digest before the reveal",
                expected="committed: true", found="committed: false",
            )  # fmt: skip
    return None


def audit(
    envelopes: Sequence[Envelope],
    *,
    ruleset: Ruleset[Any] | None = None,
    snapshots: Sequence[tuple[int, str]] = (),
    progress: Callable[[int], None] | None = None,
    commitment: str | None = None,
) -> AuditReport:
    """Audit a whole log. `snapshots` are (seq, state hash) pairs recorded by the store.

    `ruleset` overrides the one the log names (re-adjudication under corrected rules).
    `commitment` is the seed commitment the player received at creation, kept out of band:
    a log rewritten under another seed fails against it at seq 1.
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
        # A commitment that does not open with its epoch's revealed seed may mean that the
        # seed was forged, not the event: name the reveal whose seed is not the committed one.
        if exc.details.get("reason") == "payload_mismatch":
            forged = _forged_reveal(envelopes)
            if forged is not None and forged != exc.details.get("seq"):
                return fail(
                    forged, "seed_commitment", "the revealed seed does not match its "
                    "commitment, so the commitments of its epoch cannot be opened",
                )  # fmt: skip
        return fail(int(exc.details.get("seq", 0)), "hash_chain", exc.message)
    try:
        ruleset = ruleset or ruleset_of(envelopes[0])
        codec = codec_for(ruleset)
        decoded = [codec.decode(e.type, e.version, e.payload, seq=e.seq) for e in envelopes]
    except UmpireError as exc:
        return fail(int(exc.details.get("seq", 0)), "decode", exc.message)
    tally.ruleset = ruleset.name
    ended = [n for n, e in enumerate(decoded) if isinstance(e, GameEnded)]
    tally.complete = bool(ended) and any(
        isinstance(e, SeedRevealed) and not e.next_commitment for e in decoded[ended[0] :]
    )
    created = decoded[0]
    assert isinstance(created, GameCreated)
    tally.opponent_manual_dice = created.opponent_manual_dice
    # Each check stops at its first failure; the report names the earliest of them, so a
    # forged event is reported where it stands, not where a later check trips over it.
    failures: list[AuditFailure] = []
    if commitment is not None and commitment != created.seed_commitment:
        failures.append(AuditFailure(
            seq=1, check="seed_commitment", message="the log's seed commitment is not the "
            "one given (the commitment its player received at creation): the log was "
            "rewritten under another seed", expected=commitment, found=created.seed_commitment,
        ))  # fmt: skip
    sealing = _check_sealing(envelopes, decoded, ruleset)
    if sealing is not None:
        failures.append(sealing)
    dice_failure = _check_dice(envelopes, decoded, created, tally)
    if dice_failure is not None:
        failures.append(dice_failure)
    # The batch grammar: every command re-run, every other event a system batch.
    walk = check_batches(envelopes, decoded, ruleset, snapshots=snapshots, progress=progress)
    tally.commands = walk.commands
    tally.decisions_checked = walk.decisions_checked
    tally.opponent_rolls_by_player = walk.opponent_rolls_by_player
    if walk.failure is not None:
        failures.append(walk.failure)
    # A log made under an older version of the rules is audited under the installed ones;
    # say so, since a rule corrected since then shows up as a different decision.
    version_note = (
        f"the log was made under {ruleset.name} v{created.ruleset_version}; audited under "
        f"v{ruleset.version} (a rule corrected since shows as a different decision)"
        if created.ruleset_version != ruleset.version
        else ""
    )
    if failures:
        first = min(failures, key=lambda f: f.seq)
        return tally.report(failure=first, pending=(version_note,) if version_note else ())
    pending: list[str] = list(walk.notes)
    if version_note:
        pending.append(version_note)
    unverified = tally.server_rolls - tally.rolls_verified
    if unverified:
        pending.append(
            f"{counted(unverified, 'server roll')} "
            + (
                "awaits the seed reveal before it"
                if unverified == 1
                else "await the seed reveal before they"
            )
            + " can be recomputed"
            " (a hidden roll: the final reveal, which publishes the sealing key)"
        )
    assert walk.game is not None
    tally.state_hash = state_hash(walk.game)
    return tally.report(pending=tuple(pending))


def registered_ruleset(name: str) -> Ruleset[Any]:
    """The ruleset of this build called `name` (for re-adjudication)."""
    return registry.get(name)
