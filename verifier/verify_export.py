"""An independent verifier of umpire exports, written from docs/audit.md alone.

It imports nothing of umpire: the Python standard library, a MessagePack library
(`msgpack`) and `cryptography` (Ed25519, for the receipts' signatures). Run it as

    python verifier/verify_export.py game.jsonl [--commitment HEX] [--receipts FILE]
    python verifier/verify_export.py --proof PROOF.json

`--commitment` is the seed commitment the player received when the game was created (the
`created` reply), kept out of band: a log rewritten under another seed fails against it.
`--receipts` is the player's receipts file (docs/audit.md 8.1): every receipt signed by the
game's key (8.4) and every later epoch's commitment in it is an anchor the export must
agree with; a receipt not signed by that key is reported and counts for nothing.
`--proof` checks a proof of equivocation (8.5) on its own: exit 0 if it proves one.

It leads with its headline, "verified" (a receipt signed by the game's key agrees) or
"consistent, not anchored", then prints `OK` with what it checked and exits 0, or prints
the first failure, naming its seq, and exits 1 (2 for a file it cannot read at all, or a
malformed argument).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import itertools
import json
import re
import struct
import sys
from dataclasses import dataclass, field
from typing import Any

try:
    import msgpack
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
except ModuleNotFoundError as missing:
    # A third party runs this file with whatever Python is at hand (umpire's own install
    # does not bring msgpack): say what to install, not a traceback.
    print(
        f"verify_export.py needs the Python package {missing.name!r}: "
        "pip install msgpack cryptography",
        file=sys.stderr,
    )
    sys.exit(2)

FORMAT = "umpire-export/1"
GENESIS = "0" * 64
WORD = 2**32


class Failure(Exception):
    """The first thing that does not verify, at `seq` (0: the file as a whole)."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"seq {seq}: {reason}")
        self.seq = seq
        self.reason = reason


def _roll_said(number: Any) -> str:
    """A roll as a player counts the game's rolls, from 1 (`umpire log`, the table, `umpire
    audit`): the log's `roll` field counts from 0, so its roll 0 is "roll 1". A value that
    is no roll number (a forged log's) is said as it was written."""
    if isinstance(number, int) and not isinstance(number, bool):
        return f"roll {number + 1}"
    return f"roll {number}"


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- section 2: the hash chain --------------------------------------------------------------


def envelope_hash(record: dict[str, Any], payload: bytes) -> str:
    """docs/audit.md section 2: version 2 hashes the digest, version 1 the payload."""
    version = record.get("envelope_version", 1)
    if version == 2:
        body = [2, record["game_id"], record["seq"], record["type"], record["version"],
                record["digest"], record["committed"], record["command_id"],
                record["recorded_at"], record["prev_hash"]]  # fmt: skip
    elif version == 1:
        body = [record["game_id"], record["seq"], record["type"], record["version"], payload,
                record["command_id"], record["recorded_at"], record["prev_hash"]]  # fmt: skip
    else:
        raise Failure(record["seq"], f"unknown envelope version {version!r}")
    return sha256_hex(msgpack.packb(body, use_bin_type=True))


# -- section 3: commitments -----------------------------------------------------------------


def commitment(seed: bytes, game_id: str, seq: int, payload: bytes) -> str:
    """docs/audit.md section 3: the keyed commitment of a secret payload."""
    key = hmac.new(seed, f"umpire-commitment:{game_id}:{seq}".encode(), hashlib.sha256).digest()
    return hmac.new(key, payload, hashlib.sha256).hexdigest()


# -- section 4: epochs ----------------------------------------------------------------------


@dataclass
class Epochs:
    """Which epoch each seq belongs to, and each epoch's revealed seed (section 4)."""

    reveal_seqs: list[int] = field(default_factory=list)
    seeds: list[bytes] = field(default_factory=list)

    def epoch_of(self, seq: int) -> int:
        return sum(1 for s in self.reveal_seqs if s < seq)

    def seed_of(self, seq: int) -> bytes | None:
        epoch = self.epoch_of(seq)
        return self.seeds[epoch] if epoch < len(self.seeds) else None


# -- section 5: the dice --------------------------------------------------------------------


def roll_key(seed: bytes, sealing_key: bytes | None, *, sealed_hidden: bool) -> bytes | None:
    """Section 3: which key a server roll derives from. A hidden roll of a game whose
    GameCreated holds a `sealing_commitment` takes HMAC(sealing key, "umpire-hidden-dice")
    (None until the final reveal publishes the sealing key); every other roll its epoch's
    seed."""
    if not sealed_hidden:
        return seed
    if sealing_key is None:
        return None
    return hmac.new(sealing_key, b"umpire-hidden-dice", hashlib.sha256).digest()


def server_faces(
    seed: bytes, client_seed: str, nonce: str, n: int, kind: str, sides: list[int]
) -> list[int]:
    """Section 5: the faces of server roll n, the whole derivation in one place.

    `seed` is the roll's epoch's seed (32 raw bytes), `client_seed` the epoch's client
    seed ("" when waived), `nonce` the nonce of the command whose batch holds the roll
    (its CommandRecorded's `nonce`, "" when it has none). The byte stream is
    HMAC-SHA256(seed, "<client_seed>:<n>:<block>" + (":<nonce>" if nonce)) for block
    0, 1, ..., each block read as eight big-endian 32-bit words; a die of s sides takes the
    first word w below 2**32 - (2**32 mod s) and shows low + w mod s (low 0 for the dice of
    a d100, else 1)."""
    tail = f":{nonce}" if nonce else ""
    words: list[int] = []
    block = 0
    faces = []
    for s in sides:
        limit = WORD - (WORD % s)
        while True:
            if not words:
                message = f"{client_seed}:{n}:{block}{tail}".encode()
                words = list(struct.unpack(">8I", hmac.new(seed, message, hashlib.sha256).digest()))
                block += 1
            w = words.pop(0)
            if w < limit:
                break
        low = 0 if kind == "d100" else 1
        faces.append(low + w % s)
    return faces


def total_of(kind: str, faces: list[int]) -> int:
    if kind == "d100":
        value = faces[0] * 10 + faces[1]
        return 100 if value == 0 else value
    return sum(faces)


# -- section 1: reading an export ------------------------------------------------------------


@dataclass
class Event:
    record: dict[str, Any]
    payload_bytes: bytes
    payload: Any


def same_data(hashed: Any, readable: Any) -> bool:
    """Section 1, "compared as data": maps by keys and values, arrays in order, and every
    scalar of the same type and value (so 1 is not 1.0 and true is not 1); a bin or ext
    value in the hashed bytes never matches (a payload holds none)."""
    if isinstance(hashed, dict):
        return (isinstance(readable, dict) and hashed.keys() == readable.keys()
                and all(same_data(hashed[k], readable[k]) for k in hashed))  # fmt: skip
    if isinstance(hashed, list):
        return (isinstance(readable, list) and len(hashed) == len(readable)
                and all(map(same_data, hashed, readable)))  # fmt: skip
    if not isinstance(hashed, (str, int, float, type(None))):
        return False  # bin (bytes) or ext
    return type(hashed) is type(readable) and hashed == readable


def read(path: str) -> tuple[dict[str, Any], list[Event]]:
    with open(path, encoding="utf-8") as f:
        lines = [line for line in f.read().splitlines() if line.strip()]
    if not lines:
        raise Failure(0, "the file is empty")
    header = json.loads(lines[0])
    if header.get("format") != FORMAT:
        raise Failure(0, f"the header's format is {header.get('format')!r}, not {FORMAT!r}")
    events = []
    for number, line in enumerate(lines[1:], start=2):
        record = json.loads(line)
        seq = record.get("seq", 0)
        if "payload_b64" not in record:
            raise Failure(seq, f"line {number} carries no payload_b64: the hash cannot be checked")
        try:
            raw = base64.b64decode(record["payload_b64"], validate=True)
            decoded = msgpack.unpackb(raw, raw=False, strict_map_key=False)
        except Exception as exc:
            raise Failure(seq, f"payload_b64 does not decode: {exc}") from None
        if not same_data(decoded, record.get("payload")):
            raise Failure(seq, "the readable payload differs from the hashed payload bytes")
        events.append(Event(record, raw, decoded))
    return header, events


# -- section 6: the batch grammar (structure only) ------------------------------------------

SYSTEM_PREFIX = "umpire:"
SYSTEM_TAGS = ("GameCreated", "ClientSeedBound", "SeedRevealed")
BIND_ID = re.compile(r"umpire:bind:(0|[1-9][0-9]*)")
REVEAL_ID = re.compile(r"umpire:reveal(?::([1-9][0-9]*))?")
# Rules disputes (docs/audit.md, "Disputes"): each its own system batch, also after the end.
DISPUTE_ID = re.compile(r"umpire:dispute:([1-9][0-9]*)")
FINDING_ID = re.compile(r"umpire:finding:([1-9][0-9]*)")
RULING_ID = re.compile(r"umpire:ruling:([1-9][0-9]*)")
DISPUTE_TAGS = ("DisputeFiled", "DisputeFound", "DisputeRuled")
RULERS = ("player", "referee")  # the player of a solo game, or the operator
NOT_DISPUTABLE = ("GameCreated", "CommandRecorded", "SeedRevealed", "ClientSeedBound",
                  "CommandTakenBack", "ExportSealed", "GameAmended", *DISPUTE_TAGS)  # fmt: skip


@dataclass
class Grammar:
    """What the walk over the batches found (section 6, without re-running the rules)."""

    commands: int = 0
    system: int = 0
    player_rolls: int = 0
    ended_at: int = 0
    disputes: int = 0
    findings: int = 0
    sealed_at: int = 0
    final_reveal: bool = False
    taken_back: int = 0
    amendments: int = 0


@dataclass
class _Batch:
    """The command batch being walked: its command's id, seq and manual-dice flag."""

    command_id: str
    seq: int
    manual: bool
    command_type: str = ""
    events: int = 1  # events of the batch so far


TAKE_BACK = "TakeBack"
MAX_TAKEBACK_DEPTH = 2


@dataclass
class _Takebacks:
    """Section 6, "Takeback": the command batches that may still be taken back (at most
    two, the last on top) and how many were taken back in a row."""

    undoable: list[tuple[int, str, str]] = field(default_factory=list)  # seq, id, type
    in_row: int = 0
    blocked: str = "no command has been recorded yet"

    def block(self, why: str) -> None:
        self.undoable.clear()
        self.blocked = why

    def command(self, batch: _Batch) -> None:
        if batch.command_type != TAKE_BACK:
            self.undoable = [*self.undoable, (batch.seq, batch.command_id, batch.command_type)]
            self.undoable = self.undoable[-MAX_TAKEBACK_DEPTH:]
            self.in_row = 0

    def taken_back(self, ev: Event, batch: _Batch | None) -> None:
        """A CommandTakenBack: the second event of a TakeBack batch, naming the command
        on top, no more than two in a row."""
        seq, p = ev.record["seq"], ev.payload
        if batch is None or batch.command_type != TAKE_BACK or batch.events != 2:
            raise Failure(seq, "CommandTakenBack stands only right after a recorded TakeBack "
                               "command, in its batch")  # fmt: skip
        if self.in_row >= MAX_TAKEBACK_DEPTH:
            raise Failure(seq, f"a takeback more than {MAX_TAKEBACK_DEPTH} deep: "
                               f"{self.in_row} commands were taken back in a row")  # fmt: skip
        if not self.undoable:
            raise Failure(seq, f"a takeback where none is allowed: {self.blocked}")
        top_seq, top_id, top_type = self.undoable[-1]
        named = (p.get("seq"), p.get("command_id"), p.get("command_type"))
        if named != (top_seq, top_id, top_type):
            raise Failure(seq, f"CommandTakenBack names {named!r}, but the command it may "
                               f"take back is {top_type} at seq {top_seq} "
                               f"(id {top_id!r})")  # fmt: skip
        self.undoable.pop()
        self.in_row += 1


def check_grammar(events: list[Event]) -> Grammar:
    """Section 6, what needs no rules engine: batch boundaries by command id, the system
    batches, unique command ids, nothing after the end, who may roll, client seeds bound
    in order. Raises Failure at the first event that breaks it."""
    found = Grammar()
    first = events[0]
    if first.record["type"] != "GameCreated":
        raise Failure(1, f"seq 1 is {first.record['type']}, not GameCreated: a log begins "
                         "with the game's creation")  # fmt: skip
    created = first.payload
    waived = created.get("client_entropy") == "waived"
    opponent_dice = bool(created.get("opponent_manual_dice", False))
    # An old log's client seed is in GameCreated: epoch 0 is bound at creation.
    bound: set[int] = {0} if created.get("client_seed") else set()
    used = {first.record["command_id"]: 1}
    epoch = epoch_rolls = 0
    batch: _Batch | None = None
    amending: _Batch | None = None  # an amending ruling's batch, while it is walked
    takebacks = _Takebacks()
    found.system = 1
    for ev in events[1:]:
        r, p = ev.record, ev.payload
        seq, tag, cid = r["seq"], r["type"], r["command_id"]
        if batch is not None and batch.command_type == TAKE_BACK:
            _takeback_batch(batch, seq, tag, cid)
        if found.sealed_at:
            raise Failure(seq, f"{tag} follows the seal of the export (ExportSealed at seq "
                               f"{found.sealed_at}): nothing may")  # fmt: skip
        if tag == "ExportSealed":
            _seal(ev, events, used, found)
            batch = None
            continue
        if amending is not None and cid == amending.command_id:
            batch = _amended_event(ev, events, amending, batch, found, opponent_dice)
            # The takeback stack as the fold keeps it: emptied by the amendment, then the
            # amended line's commands, rolls and hidden events as in any batch.
            if tag == "GameAmended":
                takebacks.block(f"the game was amended at seq {seq}")
            elif tag == "CommandRecorded" and batch is not None:
                takebacks.command(batch)
            elif tag == "DiceRolled":
                takebacks.block(f"a die was rolled at seq {seq}")
            elif r.get("committed", False):
                takebacks.block(f"something hidden was shown at seq {seq}")
            continue
        if amending is not None and amending.events == 1:
            raise Failure(seq, f"the amending ruling at seq {amending.seq} is not followed by "
                               "its GameAmended")  # fmt: skip
        amending = None
        if tag == "GameAmended":
            raise Failure(seq, "GameAmended stands only right after an amending "
                               "DisputeRuled, in its batch")  # fmt: skip
        if tag in DISPUTE_TAGS:
            # Ends any command batch; the finding itself is re-made by `umpire audit`, which
            # runs the rules: here, only where it stands and what it answers.
            batch = None
            _dispute(ev, events, used, found)
            if tag == "DisputeRuled" and p.get("ruling") == "amend":
                amending = _Batch(cid, seq, False)
            continue
        if found.ended_at:
            if (tag == "SeedRevealed" and seq == found.ended_at + 1 and batch is not None
                    and cid == batch.command_id):  # fmt: skip
                found.final_reveal = True
                epoch += 1
                continue
            raise Failure(seq, f"{tag} follows the end of the game (GameEnded at seq "
                               f"{found.ended_at}): nothing may, except the final reveal "
                               "in the ending command's batch")  # fmt: skip
        if tag == "CommandRecorded":
            if cid.startswith(SYSTEM_PREFIX):
                raise Failure(seq, f"command id {cid!r} is reserved for system batches "
                                   f"({SYSTEM_PREFIX}...): no client command has it")  # fmt: skip
            if cid in used:
                raise Failure(seq, f"command id {cid!r} was used by the batch at seq "
                                   f"{used[cid]}: the store answers a repeated id with its "
                                   "first result and appends nothing")  # fmt: skip
            used[cid] = seq
            batch = _Batch(cid, seq, bool(p.get("manual_dice", False)),
                           str(p.get("command_type", "")))  # fmt: skip
            takebacks.command(batch)
            found.commands += 1
        elif tag not in SYSTEM_TAGS and batch is not None and cid == batch.command_id:
            batch.events += 1  # the next event of the command's batch
            if tag == "CommandTakenBack":
                takebacks.taken_back(ev, batch)
                found.taken_back += 1
            elif r.get("committed", False):
                takebacks.block(f"something hidden was shown at seq {seq}")
        else:
            batch = None
            if tag == "ClientSeedBound" and waived:
                raise Failure(seq, "a client seed bound in a game that waived client entropy "
                                   "(every epoch's client seed is \"\")")  # fmt: skip
            _system(ev, epoch, bound, epoch_rolls, used)
            takebacks.block(f"the dice seed was bound or revealed at seq {seq}")
            found.system += 1
            if tag == "ClientSeedBound":
                bound.add(epoch)
            else:  # SeedRevealed closes its epoch
                epoch += 1
                epoch_rolls = 0
            continue
        if tag == "GameEnded":
            found.ended_at = seq
        elif tag == "DiceRolled":
            assert batch is not None
            takebacks.block(f"a die was rolled at seq {seq}")
            _roll(ev, batch, opponent_dice)
            if p.get("by", "server") == "player":
                found.player_rolls += 1
            elif not waived and epoch not in bound:
                raise Failure(seq, f"server {_roll_said(p.get('roll'))} comes before the client "
                                   f"seed of seed epoch {epoch} was bound")  # fmt: skip
            else:
                epoch_rolls += 1  # a server roll: the epoch takes no client seed after it
    if batch is not None and batch.command_type == TAKE_BACK and batch.events == 1:
        raise Failure(batch.seq, f"the TakeBack at seq {batch.seq} has no CommandTakenBack")
    if amending is not None and amending.events == 1:
        raise Failure(amending.seq, f"the amending ruling at seq {amending.seq} is not "
                                    "followed by its GameAmended")  # fmt: skip
    return found


def _amended_event(ev: Event, events: list[Event], amending: _Batch, batch: _Batch | None,
                   found: Grammar, opponent_dice: bool) -> _Batch | None:  # fmt: skip
    """An event of an amending ruling's batch (docs/audit.md "Amendments"): first the
    GameAmended naming the dispute, the superseded seqs (from the disputed command's
    CommandRecorded to the seq before the ruling); then the re-made line, whose commands
    and rolls are checked here for who may roll only (`umpire audit` re-makes it). The
    command batch being re-made, if any, is returned."""
    r, p = ev.record, ev.payload
    seq, tag = r["seq"], r["type"]
    amending.events += 1
    if amending.events == 2:
        if tag != "GameAmended":
            raise Failure(seq, f"the amending ruling at seq {amending.seq} is followed by "
                               f"{tag}, not its GameAmended")  # fmt: skip
        ruling = events[amending.seq - 1].payload
        dispute = p.get("dispute")
        if dispute != ruling.get("dispute") or not isinstance(dispute, int):
            raise Failure(seq, f"GameAmended names dispute {dispute!r}, not the ruling's "
                               f"{ruling.get('dispute')!r}")  # fmt: skip
        disputed = events[dispute - 1].payload.get("seq")
        start, end = p.get("parts_from"), p.get("superseded_to")
        if (not isinstance(start, int) or not isinstance(disputed, int)
                or not 1 < start <= disputed
                or events[start - 1].record["type"] != "CommandRecorded"
                or any(e.record["type"] == "CommandRecorded"
                       for e in events[start : disputed - 1])):  # fmt: skip
            raise Failure(
                seq,
                f"GameAmended's parts_from {start!r} is not the "
                f"CommandRecorded of the batch of disputed seq {disputed!r}",
            )
        if end != amending.seq - 1:
            raise Failure(seq, f"GameAmended's superseded_to {end!r} is not the seq before "
                               f"its ruling, {amending.seq - 1}")  # fmt: skip
        later = superseded(events[: amending.seq - 1]).get(disputed)
        if later is not None:
            raise Failure(seq, f"the amendment at seq {seq} starts from seq {disputed}, which "
                               f"the amendment at seq {later} superseded")  # fmt: skip
        _amended_answer(ev, events, amending)
        found.amendments += 1
        return None
    if tag != "CommandRecorded" and batch is None:
        raise Failure(seq, f"{tag} at seq {seq} in the amended line stands outside a "
                           "re-applied command's batch")  # fmt: skip
    if tag in ("SeedRevealed", "ClientSeedBound", "CommandTakenBack", "GameAmended",
               "ExportSealed", *DISPUTE_TAGS):  # fmt: skip
        raise Failure(seq, f"{tag} at seq {seq} may not stand in an amended line (commands "
                           "and what the rules made of them only)")  # fmt: skip
    if found.ended_at:
        raise Failure(seq, f"{tag} at seq {seq} follows the end of the game (GameEnded at "
                           f"seq {found.ended_at}) in the amended line")  # fmt: skip
    if tag == "CommandRecorded":
        found.commands += 1
        return _Batch(amending.command_id, seq, bool(p.get("manual_dice", False)),
                      str(p.get("command_type", "")))  # fmt: skip
    assert batch is not None
    if tag == "GameEnded":
        found.ended_at = seq
    elif tag == "DiceRolled":
        _roll(ev, batch, opponent_dice)
        if p.get("by", "server") == "player":
            found.player_rolls += 1
    return batch


def _amended_answer(ev: Event, events: list[Event], amending: _Batch) -> None:
    """The amended line against its dispute and finding, as far as needs no rules
    (docs/audit.md "What a verifier without the rules checks"): the dispute's reading and
    value; `reapplied` and `stopped` as the line holds its commands; and, where no
    amendment stands between the dispute and its ruling, the line parting from the
    superseded line exactly where the finding says."""
    p, seq = ev.payload, ev.record["seq"]
    dispute = p["dispute"]
    filed = events[dispute - 1].payload
    for key in ("reading", "value"):
        if p.get(key, "") != filed.get(key, ""):
            raise Failure(seq, f"GameAmended's {key} {p.get(key, '')!r} is not its "
                               f"dispute's, {filed.get(key, '')!r}")  # fmt: skip
    made = list(itertools.takewhile(lambda e: e.record["command_id"] == amending.command_id,
                                    events[seq:]))  # fmt: skip
    start = p["parts_from"]
    taken = [e for e in current_line(events[: amending.seq - 1]) if e.record["seq"] >= start
             and e.record["type"] not in (*DISPUTE_TAGS, "ExportSealed")]  # fmt: skip
    commands = sum(e.record["type"] == "CommandRecorded" for e in taken)
    reapplied = sum(e.record["type"] == "CommandRecorded" for e in made)
    if p.get("reapplied") != reapplied or reapplied > commands:
        raise Failure(seq, f"GameAmended says {p.get('reapplied')!r} commands re-applied; "
                           f"its line holds {reapplied} of the {commands} commands it "
                           "supersedes")  # fmt: skip
    if bool(p.get("stopped", "")) != (reapplied < commands):
        raise Failure(seq, f"GameAmended's stopped {p.get('stopped', '')!r}: the line "
                           f"re-applies {reapplied} of {commands} commands, so it "
                           f"{'stopped' if reapplied < commands else 'did not stop'}")  # fmt: skip
    if any(e.record["type"] == "GameAmended" for e in events[dispute : amending.seq - 1]):
        return  # an amendment between may have switched a reading: `umpire audit` re-makes it
    finding = next(e for e in events[dispute : amending.seq - 1]
                   if e.record["type"] == "DisputeFound"
                   and e.payload.get("dispute") == dispute)  # fmt: skip
    line = compared(events, dispute)
    # The finding's line under the reading is the amended line's events of the commands
    # the finding compares; a takeback is not re-applied (it stops the amended line), so
    # the two are compared up to the first one only.
    stop = next((i for i, e in enumerate(line) if e.record["type"] == "CommandRecorded"
                 and e.payload.get("command_type") == TAKE_BACK), len(line))  # fmt: skip
    ours = _commands(made, sum(e.record["type"] == "CommandRecorded" for e in line[:stop]))
    # An event logged under another version of its type than its re-made twin: the two
    # compare only after upcasting, which needs the ruleset; nothing is known from there.
    unknown = next((i for i in range(min(stop, len(ours)))
                    if line[i].record["type"] == ours[i].record["type"]
                    and line[i].record.get("version") != ours[i].record.get("version")),
                   None)  # fmt: skip
    span = max(stop, len(ours)) if unknown is None else unknown
    parts = next((i for i in range(span)
                  if i >= stop or i >= len(ours) or _event_key(line[i]) != _event_key(ours[i])),
                 None)  # fmt: skip
    if parts is None:
        expected = 0
    elif parts < len(line):
        expected = line[parts].record["seq"]
    else:
        expected = line[-1].record["seq"] + 1
    said = finding.payload.get("parts_at", 0)
    cut = stop if unknown is None else unknown
    beyond = parts is None and cut < len(line)  # equal up to there: no more is known
    if said != expected and not (beyond and (said == 0 or said >= line[cut].record["seq"])):
        raise Failure(seq, f"the finding at seq {finding.record['seq']} says the lines part "
                           f"at seq {said} (0: nowhere before the dispute), but the amended "
                           f"line parts from the superseded line at seq {expected or 'none'}"
                           )  # fmt: skip


def _commands(made: list[Event], count: int) -> list[Event]:
    """The events of the first `count` command batches of an amended line."""
    starts = [i for i, e in enumerate(made) if e.record["type"] == "CommandRecorded"]
    return made if count >= len(starts) else made[: starts[count]]


def _event_key(ev: Event) -> tuple[str, bytes]:
    """An event as the lines compare it: its type and its payload's bytes."""
    return ev.record["type"], ev.payload_bytes


def superseded(events: list[Event]) -> dict[int, int]:
    """Each seq that an amendment superseded, with the seq of its GameAmended (docs/audit.md
    "Amendments"): the current line is the log from seq 1; a GameAmended takes out of it
    every seq from its parts_from on (its own ruling among them), and the events after it
    continue it, so a later amendment may start anywhere on that line."""
    line: list[int] = []
    gone: dict[int, int] = {}
    for ev in events:
        seq, start = ev.record["seq"], ev.payload.get("parts_from")
        if ev.record["type"] != "GameAmended" or not isinstance(start, int):
            line.append(seq)
            continue
        gone.update({s: seq for s in line if s >= start})
        line = [s for s in line if s < start]
    return gone


def _dispute(ev: Event, events: list[Event], used: dict[str, int], found: Grammar) -> None:
    """A DisputeFiled under umpire:dispute:<its seq> naming an earlier decision or roll
    not disputed before; a DisputeFound under umpire:finding:<dispute> answering an earlier
    dispute not answered before."""
    r, p = ev.record, ev.payload
    seq, tag, cid = r["seq"], r["type"], r["command_id"]
    if cid in used:
        raise Failure(seq, f"command id {cid!r} was used by the batch at seq {used[cid]}")
    used[cid] = seq
    earlier = events[: seq - 1]
    if tag == "DisputeFiled":
        match = DISPUTE_ID.fullmatch(cid)
        if match is None or int(match[1]) != seq:
            raise Failure(seq, f"DisputeFiled under command id {cid!r}, not "
                               f"'umpire:dispute:{seq}'")  # fmt: skip
        disputed = p.get("seq")
        if not isinstance(disputed, int) or not 1 <= disputed < seq:
            raise Failure(seq, f"the dispute at seq {seq} names seq {disputed!r}, which is no "
                               "earlier event")  # fmt: skip
        amended_at = superseded(earlier).get(disputed)
        if amended_at is not None:
            raise Failure(seq, f"the dispute at seq {seq} names seq {disputed}, which the "
                               f"amendment at seq {amended_at} superseded: no longer part "
                               "of the game")  # fmt: skip
        kind = earlier[disputed - 1].record["type"]
        if kind in NOT_DISPUTABLE:
            raise Failure(seq, f"the dispute at seq {seq} names seq {disputed}, a {kind}: "
                               "no decision or roll")  # fmt: skip
        claim = p.get("claim")
        if not isinstance(claim, str) or not claim.strip() or len(claim) > 1000:
            raise Failure(seq, f"the dispute at seq {seq} has no claim of 1 to 1,000 characters")
        # At most one open dispute of a seq per disputing role (docs/audit.md "Disputes").
        ruled = {e.payload.get("dispute") for e in earlier if e.record["type"] == "DisputeRuled"}
        if any(e.record["type"] == "DisputeFiled" and e.payload.get("seq") == disputed
               and e.payload.get("who") == p.get("who")
               and e.record["seq"] not in ruled for e in earlier):  # fmt: skip
            raise Failure(seq, f"the dispute at seq {seq} names seq {disputed}, which an "
                               f"earlier dispute by the {p.get('who')} names: it is still "
                               "open")  # fmt: skip
        found.disputes += 1
        return
    if tag == "DisputeRuled":
        _ruling(ev, earlier)
        return
    match = FINDING_ID.fullmatch(cid)
    dispute = p.get("dispute")
    if match is None or int(match[1]) != dispute:
        raise Failure(seq, f"DisputeFound under command id {cid!r}, not "
                           f"'umpire:finding:{dispute}'")  # fmt: skip
    assert isinstance(dispute, int)
    if not 1 <= dispute < seq or earlier[dispute - 1].record["type"] != "DisputeFiled":
        raise Failure(seq, f"the finding at seq {seq} answers seq {dispute}, which is no dispute")
    if any(e.record["type"] == "DisputeFound" and e.payload.get("dispute") == dispute
           for e in earlier):  # fmt: skip
        raise Failure(seq, f"the finding at seq {seq} answers dispute {dispute} a second time")
    _answer(ev, events)
    found.findings += 1


HEAD_CHANGES_MAX = 50  # the changes at the head a finding lists


def current_line(events: list[Event]) -> list[Event]:
    """The current line of a log (docs/audit.md "Amendments"): every event that no
    amendment superseded, GameAmended itself left out."""
    gone = superseded(events)
    return [e for e in events if e.record["seq"] not in gone
            and e.record["type"] != "GameAmended"]  # fmt: skip


def batch_start(events: list[Event], seq: int) -> int:
    """The seq of the CommandRecorded whose batch holds event `seq` (0: none)."""
    return next((e.record["seq"] for e in reversed(events[:seq])
                 if e.record["type"] == "CommandRecorded"), 0)  # fmt: skip


def compared(events: list[Event], dispute: int) -> list[Event]:
    """What the finding on the dispute at seq `dispute` compares (docs/audit.md
    "Disputes" 4.): the current line before the DisputeFiled, from the disputed batch's
    CommandRecorded on, dispute events left out."""
    start = batch_start(events, events[dispute - 1].payload.get("seq", 0))
    return [e for e in current_line(events[: dispute - 1]) if e.record["seq"] >= start
            and e.record["type"] not in (*DISPUTE_TAGS, "ExportSealed")]  # fmt: skip


def _answer(ev: Event, events: list[Event]) -> None:
    """What a finding answers, as far as needs no rules (docs/audit.md "Disputes",
    "What a verifier without the rules checks"): its fields well formed, `parts_at` a seq
    the finding compares (or one past the last) and `same` as `parts_at` says."""
    p, seq = ev.payload, ev.record["seq"]
    dispute = p["dispute"]
    texts = ("as_played", "under_reading", "stopped")
    parts_at, same, head = p.get("parts_at", 0), p.get("same"), p.get("head", [])
    if (not isinstance(same, bool) or type(parts_at) is not int or parts_at < 0
            or not all(isinstance(p.get(k, ""), str) for k in texts)
            or not isinstance(head, list) or len(head) > HEAD_CHANGES_MAX
            or not all(isinstance(c, dict) and isinstance(c.get("path"), str)
                       for c in head)):  # fmt: skip
        raise Failure(seq, f"the finding at seq {seq} is not well formed: same a bool, "
                           "parts_at a seq or 0, as_played, under_reading and stopped "
                           f"text, head at most {HEAD_CHANGES_MAX} changes each with its "
                           "path")  # fmt: skip
    disputed = events[dispute - 1].payload.get("seq")
    as_played, under, stopped = (p.get(k, "") for k in texts)
    line = compared(events, dispute)
    if parts_at == 0:
        if not same or as_played or under or stopped:
            raise Failure(seq, f"the finding at seq {seq} says the lines never part "
                               "(parts_at 0), yet not the same, or with the events where "
                               "they part, or a line stopped")  # fmt: skip
        return
    seqs = [e.record["seq"] for e in line]
    past = bool(seqs) and parts_at == seqs[-1] + 1
    if parts_at not in seqs and not past:
        raise Failure(seq, f"the finding at seq {seq} says the lines part at seq {parts_at}, "
                           f"no event the finding compares (the current line from seq "
                           f"{seqs[0] if seqs else '?'} before the dispute at seq {dispute}, "
                           "dispute events left out) nor the one past its last")  # fmt: skip
    if same != (parts_at > disputed):
        raise Failure(seq, f"the finding at seq {seq} says same={same} where the lines part "
                           f"at seq {parts_at}, disputed seq {disputed}: same is true only "
                           "where they part after the disputed seq")  # fmt: skip
    if (not as_played or not under or (as_played == "(nothing)") != past
            or (under == "(refused)" and not stopped)):  # fmt: skip
        raise Failure(seq, f"the finding at seq {seq} shows no events where the lines part "
                           "as they stand: as_played (\"(nothing)\" past the end of the "
                           "line) and under_reading (\"(refused)\" only where the "
                           "reading's line stopped)")  # fmt: skip


def _seal(ev: Event, events: list[Event], used: dict[str, int], found: Grammar) -> None:
    """ExportSealed under umpire:seal, after the end, with every dispute ruled but a
    spectator's (docs/audit.md "Disputes"); `head` is the seq before it."""
    r, p = ev.record, ev.payload
    seq, cid = r["seq"], r["command_id"]
    if cid != "umpire:seal" or cid in used:
        raise Failure(seq, f"ExportSealed under command id {cid!r}: it stands once, under "
                           "'umpire:seal'")  # fmt: skip
    used[cid] = seq
    if not found.ended_at:
        raise Failure(seq, "ExportSealed before the end of the game: a running game's log "
                           "goes on")  # fmt: skip
    if p.get("head") != seq - 1:
        raise Failure(seq, f"the seal at seq {seq} names head {p.get('head')!r}, not {seq - 1}")
    earlier = events[: seq - 1]
    ruled = {e.payload.get("dispute") for e in earlier if e.record["type"] == "DisputeRuled"}
    if any(e.record["type"] == "DisputeFiled" and e.record["seq"] not in ruled
           and e.payload.get("who") != "spectator" for e in earlier):  # fmt: skip
        raise Failure(seq, f"the seal at seq {seq} comes while a dispute of the player or "
                           "the referee is open")  # fmt: skip
    found.sealed_at = seq


def _ruling(ev: Event, earlier: list[Event]) -> None:
    """A DisputeRuled under umpire:ruling:<dispute>, on a found dispute not ruled before,
    by a role that may rule; an `amend` is followed in its batch by GameAmended and the
    amended line (`_amended_event`)."""
    r, p = ev.record, ev.payload
    seq, cid, dispute = r["seq"], r["command_id"], p.get("dispute")
    match = RULING_ID.fullmatch(cid)
    if match is None or int(match[1]) != dispute:
        raise Failure(seq, f"DisputeRuled under command id {cid!r}, not "
                           f"'umpire:ruling:{dispute}'")  # fmt: skip
    if p.get("by") not in RULERS:
        raise Failure(seq, f"the ruling at seq {seq} is by the {p.get('by')!r}, who may not "
                           "rule: the player of a solo game rules, or the operator")  # fmt: skip
    if earlier[0].payload.get("referee", "player") == "operator" and p.get("by") != "referee":
        raise Failure(
            seq,
            f"the ruling at seq {seq} is by the {p.get('by')!r}, who may not "
            "rule: the game was created with the operator as its referee",
        )
    if p.get("ruling") not in ("uphold", "amend"):
        raise Failure(seq, f"the ruling at seq {seq} is {p.get('ruling')!r}, neither uphold "
                           "nor amend")  # fmt: skip
    if not any(e.record["type"] == "DisputeFound" and e.payload.get("dispute") == dispute
               for e in earlier):  # fmt: skip
        raise Failure(seq, f"the ruling at seq {seq} rules on {dispute!r}, no found dispute")
    if any(e.record["type"] == "DisputeRuled" and e.payload.get("dispute") == dispute
           for e in earlier):  # fmt: skip
        raise Failure(seq, f"the ruling at seq {seq} rules on dispute {dispute} a second time")


def _takeback_batch(batch: _Batch, seq: int, tag: str, cid: str) -> None:
    """A TakeBack batch is exactly its CommandRecorded and one CommandTakenBack."""
    if batch.events == 1 and (tag != "CommandTakenBack" or cid != batch.command_id):
        raise Failure(seq, f"the TakeBack at seq {batch.seq} has no CommandTakenBack: "
                           f"{tag} follows it")  # fmt: skip
    if batch.events == 2 and cid == batch.command_id and tag not in SYSTEM_TAGS:
        raise Failure(seq, f"{tag} in the batch of the TakeBack at seq {batch.seq}, which "
                           "holds its CommandTakenBack only")  # fmt: skip


def _system(ev: Event, epoch: int, bound: set[int], epoch_rolls: int,
            used: dict[str, int]) -> None:  # fmt: skip
    """An event outside every command's batch: it must be, alone, a system batch."""
    r, p = ev.record, ev.payload
    seq, tag, cid = r["seq"], r["type"], r["command_id"]
    if tag == "GameCreated":
        raise Failure(seq, "GameCreated after seq 1: the creation stands at seq 1 only")
    if tag == "ClientSeedBound":
        match = BIND_ID.fullmatch(cid)
        if match is None:
            raise Failure(seq, f"ClientSeedBound under command id {cid!r}, not "
                               "'umpire:bind:<epoch>'")  # fmt: skip
        named = int(match[1])
    elif tag == "SeedRevealed":
        match = REVEAL_ID.fullmatch(cid)
        if match is None:
            raise Failure(seq, f"SeedRevealed under command id {cid!r}, which is neither "
                               "'umpire:reveal' nor 'umpire:reveal:<epoch>' (nor the final "
                               "reveal, right after GameEnded in its batch)")  # fmt: skip
        named = int(match[1]) if match[1] else 0
    else:
        raise Failure(seq, f"{tag} is in no command's batch, and it is not a system batch "
                           "(GameCreated, ClientSeedBound, SeedRevealed): no command "
                           "produced it")  # fmt: skip
    if named != epoch:
        raise Failure(seq, f"{tag}'s command id {cid!r} names epoch {named}, but the log is "
                           f"in seed epoch {epoch} here")  # fmt: skip
    payload_epoch = p.get("epoch", 0) if tag == "SeedRevealed" else p.get("epoch")
    if not isinstance(payload_epoch, int) or payload_epoch != epoch:
        raise Failure(seq, f"{tag} is for epoch {payload_epoch!r}, but the log is in seed "
                           f"epoch {epoch} here")  # fmt: skip
    if tag == "ClientSeedBound" and epoch in bound:
        raise Failure(seq, f"a second client seed for seed epoch {epoch}: one per epoch")
    if tag == "ClientSeedBound" and epoch_rolls:
        raise Failure(seq, f"ClientSeedBound comes after {epoch_rolls} rolls of seed epoch "
                           f"{epoch}, and must come before the first")  # fmt: skip
    if cid in used:
        raise Failure(seq, f"command id {cid!r} was used by the batch at seq {used[cid]}")
    used[cid] = seq


def _roll(ev: Event, batch: _Batch, opponent_dice: bool) -> None:
    """Who may have rolled a roll of a command batch (section 6, the player-roll rule)."""
    seq, p = ev.record["seq"], ev.payload
    by = p.get("by", "server")
    wanted = "player" if batch.manual else "server"
    if by != wanted:
        how = "with" if batch.manual else "without"
        raise Failure(seq, f"{_roll_said(p.get('roll'))} is marked as rolled by the {by}, but its "
                           f"command (seq {batch.seq}) was recorded {how} manual dice, so "
                           f"every roll of it is the {wanted}'s")  # fmt: skip
    if by == "player" and p.get("owner") == "opponent" and not opponent_dice:
        raise Failure(seq, f"{_roll_said(p.get('roll'))} ({p.get('purpose')}) is the opponent's, "
                           "but the player entered it, and the game was not created to "
                           "allow that (GameCreated.opponent_manual_dice)")  # fmt: skip


# -- section 7: the checks ------------------------------------------------------------------


def verify(
    header: dict[str, Any],
    events: list[Event],
    *,
    kept_commitment: str | None = None,
    anchors: list[dict[str, Any]] | None = None,
) -> list[str]:
    """Every check of docs/audit.md section 7; what was verified, or raise Failure.

    The chain is checked first (the other checks read what it covers). Of the other checks
    each stops at its first failure, and the earliest of those is raised, so a forged event
    is named where it stands, not where a later check trips over it.
    """
    if not events:
        raise Failure(1, "the export holds no events: a log begins with GameCreated")
    check_chain(header, events)
    failures: list[Failure] = []
    created = events[0].payload if events[0].record["type"] == "GameCreated" else {}
    if kept_commitment is not None and created.get("seed_commitment") != kept_commitment:
        failures.append(Failure(1, "the log's seed commitment is not the one given (the "
                                   "commitment its player received at creation): the log "
                                   "was rewritten under another seed"))  # fmt: skip
    if header.get("receipt_key", "") not in ("", created.get("receipt_key", "")):
        failures.append(Failure(1, "the header's receipt_key is not the one GameCreated names: "
                                   "a receipt counts only under the log's own key"))  # fmt: skip
    grammar = Grammar()
    try:
        grammar = check_grammar(events)
    except Failure as failure:
        failures.append(failure)
    done: list[str] = []
    try:
        done = check_seeds_and_dice(events)
    except Failure as failure:
        failures.append(failure)
    secrecy = ""
    try:
        secrecy = check_secrecy(header, events)
    except Failure as failure:
        failures.append(failure)
    anchored = NOT_ANCHORED
    if anchors is not None:
        anchor_failure, anchored = check_anchors(anchors, events)
        if anchor_failure is not None:
            failures.append(anchor_failure)
    if failures:
        raise min(failures, key=lambda f: f.seq)
    done.append(secrecy)
    batches = (
        f"{counted(grammar.commands, 'command batch', 'command batches')}, "
        f"{counted(grammar.system, 'system batch', 'system batches')}"
    )
    if grammar.taken_back:
        batches += f" ({counted(grammar.taken_back, 'command')} taken back)"
    done.insert(
        1, f"batch grammar holds: {batches}, {counted(grammar.player_rolls, 'player roll')}"
    )
    if grammar.disputes:
        done.append(
            f"{counted(grammar.disputes, 'dispute')}, {counted(grammar.findings, 'finding')}, "
            f"{counted(grammar.amendments, 'amendment')}: where they stand and what they "
            "answer hold "
            "(`umpire audit` re-makes the findings and the amended lines)"
        )
    if grammar.ended_at:
        how = "with" if grammar.final_reveal else "without"
        done.append(f"the game ended at seq {grammar.ended_at} {how} its final reveal")
    if kept_commitment is not None:
        done.append("the seed commitment is the one given")
    done.append(anchored)
    # Section 1: complete means ended and finally revealed; anything else is a prefix, and
    # a header that calls a prefix complete was cut or edited.
    complete = bool(grammar.ended_at and grammar.final_reveal)
    if header.get("complete") is True and not complete:
        raise Failure(
            len(events),
            "the header says the game is complete, but the log does not end with GameEnded "
            "and its final reveal: it was cut",
        )
    if not complete:
        done.insert(0, prefix_note(len(events)))
    return done


def prefix_note(n: int) -> str:
    """The first line of a log that is not a finished game (section 7)."""
    return f"prefix of {counted(n, 'event')}, not a finished game"


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and the noun, singular for exactly one ("1 server roll", "2 server rolls")."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


# -- section 8.1: anchors (the receipts file) -----------------------------------------------

RECEIPTS_FORMATS = ("umpire-receipts/1", "umpire-receipts/2", "umpire-receipts/3")
HEX64 = re.compile(r"[0-9a-f]{64}")
NOT_ANCHORED = (
    "not anchored: no receipts given (--receipts FILE): a rewrite from a later seq, a "
    "relabelled roll and a log cut at a batch's end pass the log's own checks"
)
NOT_SIGNED = (
    "not anchored: no receipt is signed by the game's key, so none binds the server: a "
    "rewrite from a later seq passes the log's own checks"
)


class ReceiptsUnreadable(Exception):
    """A receipts file that is not section 8.1's format, or not of this game."""


def read_receipts(path: str) -> tuple[str, list[dict[str, Any]]]:
    """Section 8.1: the game id and the anchors (each with its `line`) of a receipts file."""
    with open(path, encoding="utf-8") as f:
        numbered = [(n, line) for n, line in enumerate(f.read().split("\n"), 1) if line.strip()]
    if not numbered:
        raise ReceiptsUnreadable("the receipts file is empty")
    header = json.loads(numbered[0][1])
    if not isinstance(header, dict) or header.get("format") not in RECEIPTS_FORMATS:
        raise ReceiptsUnreadable(
            f"line 1 of the receipts file is not a {' or '.join(RECEIPTS_FORMATS)} header"
        )
    anchors = []
    for number, line in numbered[1:]:
        record = json.loads(line)
        kind = record.get("kind") if isinstance(record, dict) else None
        if kind == "receipt":
            ok = (
                record.get("reply") in ("created", "accepted", "state")
                and type(record.get("head_seq")) is int
                and record["head_seq"] >= 1
                and isinstance(record.get("head_hash"), str)
                and HEX64.fullmatch(record["head_hash"]) is not None
            )
        elif kind == "commitment":
            ok = (
                type(record.get("epoch")) is int
                and record["epoch"] >= 0
                and isinstance(record.get("commitment"), str)
                and HEX64.fullmatch(record["commitment"]) is not None
            )
        else:
            ok = False
        if not ok:
            raise ReceiptsUnreadable(f"line {number} of the receipts file is not an anchor")
        anchors.append({**record, "line": number})
    return str(header.get("game_id")), anchors


def _named(anchor: dict[str, Any]) -> str:
    if anchor["kind"] == "commitment":
        return f"commitment on line {anchor['line']} (epoch {anchor['epoch']})"
    command = f", command {anchor['command_id']}" if anchor.get("command_id") else ""
    return f"receipt on line {anchor['line']} ({anchor['reply']}{command})"


# -- section 8.4: signed receipts -----------------------------------------------------------


def key_id_of(public_key: str) -> str:
    """Section 8.4: the first 16 hex digits of SHA-256 over the raw 32-byte public key."""
    return sha256_hex(bytes.fromhex(public_key))[:16]


def signed_statement(game_id: str, r: dict[str, Any]) -> bytes:
    """Section 8.4: the bytes a receipt's signature covers (canonical JSON, keys sorted)."""
    body = {
        "domain": "umpire-receipt-signature/1", "game_id": game_id, "key_id": r["key_id"],
        "reply": r["reply"], "role": r.get("role", "player"), "first_seq": r["first_seq"],
        "head_seq": r["head_seq"], "head_hash": r["head_hash"],
        "state_hash": r.get("state_hash", ""),
    }  # fmt: skip
    return json.dumps(body, sort_keys=True, separators=(",", ":")).encode("ascii")


def leaf_hash(statement: bytes, blind: bytes = b"") -> bytes:
    """Section 8.4 (RFC 9162 2.1.1): a leaf of a batch's tree; a blinded tree's leaf hashes
    the receipt's 16-byte blind before the statement."""
    return hashlib.sha256(b"\x00" + blind + statement).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """Section 8.4 (RFC 9162 2.1.1): an interior node of a batch's tree."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def root_from_proof(leaf: bytes, index: int, size: int, proof: list[bytes]) -> bytes | None:
    """Section 8.4 (RFC 9162 2.1.3.2): the root the inclusion proof leads to from leaf
    `index` of a tree of `size`, or None if the proof does not fit them."""
    if not 0 <= index < size or len(proof) > 63:
        return None
    fn, sn, node = index, size - 1, leaf
    for sibling in proof:
        if sn == 0:
            return None
        if fn & 1 or fn == sn:
            node = node_hash(sibling, node)
            while fn and not fn & 1:
                fn >>= 1
                sn >>= 1
        else:
            node = node_hash(node, sibling)
        fn >>= 1
        sn >>= 1
    return node if sn == 0 else None


def signed_bytes(game_id: str, r: dict[str, Any]) -> bytes | None:
    """Section 8.4: what a receipt's signature covers: its statement (a receipt signed on
    its own: no `tree_size`, or 0), or the root statement of the tree its proof leads to (a
    batch receipt: `batch/2` from a leaf with its `blind`, `batch/1` from one without);
    None for a batch receipt whose proof leads nowhere, or a blind that is not 32 hex
    digits or belongs to no tree."""
    statement = signed_statement(game_id, r)
    blind = r.get("blind", "")
    if not isinstance(blind, str) or (blind and not re.fullmatch(r"[0-9a-f]{32}", blind)):
        return None
    if not r.get("tree_size"):
        return None if blind else statement
    index, size, proof = r.get("leaf_index"), r.get("tree_size"), r.get("proof")
    if type(index) is not int or type(size) is not int or not isinstance(proof, list):
        return None
    if not all(isinstance(h, str) and HEX64.fullmatch(h) for h in proof):
        return None
    leaf = leaf_hash(statement, bytes.fromhex(blind))
    root = root_from_proof(leaf, index, size, [bytes.fromhex(h) for h in proof])
    if root is None:
        return None
    domain = "umpire-receipt-batch/2" if blind else "umpire-receipt-batch/1"
    body = {"domain": domain, "key_id": r["key_id"], "root": root.hex(), "size": size}
    return json.dumps(body, sort_keys=True, separators=(",", ":")).encode("ascii")


def signature_valid(game_id: str, public_key: str, r: dict[str, Any]) -> bool:
    """Section 8.4: whether a receipt carries a valid signature of `public_key`."""
    signature = r.get("signature")
    if not isinstance(public_key, str) or not HEX64.fullmatch(public_key):
        return False
    if not isinstance(signature, str) or not re.fullmatch(r"[0-9a-f]{128}", signature):
        return False
    if r.get("key_id") != key_id_of(public_key) or type(r.get("first_seq")) is not int:
        return False
    fields = (r.get("reply"), r.get("head_hash"), r.get("role", "player"), r.get("state_hash", ""))
    if not all(isinstance(value, str) for value in fields):
        return False
    try:
        signed = signed_bytes(game_id, r)
        if signed is None:
            return False
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key)).verify(
            bytes.fromhex(signature), signed
        )
    except (InvalidSignature, UnicodeEncodeError, TypeError, ValueError):
        return False
    return True


def equivocation(
    game_id: str, public_key: str, signed: list[dict[str, Any]]
) -> tuple[int, str] | None:
    """Section 8.5: two signed receipts that give one seq two head hashes: (the seq, what
    is proven), or None."""
    seen: dict[int, dict[str, Any]] = {}
    for r in sorted(signed, key=lambda r: r["head_seq"]):
        before = seen.setdefault(r["head_seq"], r)
        if before["head_hash"] != r["head_hash"]:
            return r["head_seq"], (
                f"equivocation proven: key {key_id_of(public_key)} signed two heads for seq "
                f"{r['head_seq']} of game {game_id}: {before['head_hash']} "
                f"({before['reply']}) and {r['head_hash']} ({r['reply']})"
            )
    return None


def check_proof(path: str) -> str:
    """Section 8.5: a proof of equivocation, checked on its own; what it proves."""
    with open(path, encoding="utf-8") as f:
        proof = json.load(f)
    formats = ("umpire-equivocation/1", "umpire-equivocation/2", "umpire-equivocation/3")
    if not isinstance(proof, dict) or proof.get("format") not in formats:
        raise Failure(0, f"the proof is not an {' or '.join(formats)} object")
    game_id, key, receipts = proof.get("game_id"), proof.get("public_key"), proof.get("receipts")
    if not isinstance(game_id, str) or not isinstance(key, str) or not HEX64.fullmatch(key):
        raise Failure(0, "the proof names no game_id, or its public_key is not 64 hex digits")
    if proof.get("key_id") != key_id_of(key):
        raise Failure(0, "the proof's key_id is not the id of its public_key")
    if not isinstance(receipts, list) or len(receipts) != 2:
        raise Failure(0, "the proof holds two receipts, no more and no fewer")
    for which, r in zip(("first", "second"), receipts, strict=True):
        # Version 1 holds receipts signed on their own; version 2 unblinded batch receipts
        # too; version 3 blinded ones too.
        form = formats.index(proof["format"])
        newer = isinstance(r, dict) and (
            (form < 1 and r.get("tree_size")) or (form < 2 and r.get("blind"))
        )
        if not isinstance(r, dict) or newer or not signature_valid(game_id, key, r):
            raise Failure(0, f"the {which} receipt's signature is not valid under the key")
    first, second = receipts
    if first["head_seq"] != second["head_seq"]:
        raise Failure(0, "the two receipts are of different seqs: they do not conflict")
    found = equivocation(game_id, key, receipts)
    if found is None:
        raise Failure(0, "the two receipts give the same head hash: they do not conflict")
    return found[1]


def check_anchors(anchors: list[dict[str, Any]], events: list[Event]) -> tuple[Failure | None, str]:
    """Sections 8.1-8.5: the lowest-seq disagreement of the export with an anchor that
    counts (or None), and how far the anchors reach. Only receipts signed by the key the
    export's GameCreated names count; two of them that disagree are an equivocation."""
    n = len(events)
    game_id = events[0].record["game_id"] if events else ""
    created = events[0].payload if events and events[0].record["type"] == "GameCreated" else {}
    key = created.get("receipt_key", "") if isinstance(created, dict) else ""
    unsigned = [
        a for a in anchors if a["kind"] == "receipt" and not signature_valid(game_id, key, a)
    ]
    anchors = [a for a in anchors if not any(a is u for u in unsigned)]
    hashes = [ev.record["hash"] for ev in events]
    commitments: list[tuple[int, str]] = []  # (seq, commitment) of epoch 0, 1, ...
    for ev in events:
        if ev.record["seq"] == 1 and ev.record["type"] == "GameCreated":
            commitments.append((1, ev.payload.get("seed_commitment", "")))
        elif ev.record["type"] == "SeedRevealed" and ev.payload.get("next_commitment"):
            commitments.append((ev.record["seq"], ev.payload["next_commitment"]))
    receipts = [a for a in anchors if a["kind"] == "receipt"]
    two_heads = equivocation(game_id, key, receipts)
    if two_heads is not None:
        return Failure(*two_heads), ""
    agreeing = sorted(
        a["head_seq"]
        for a in receipts
        if a["head_seq"] <= n and hashes[a["head_seq"] - 1] == a["head_hash"]
    )
    failures = []
    for a in anchors:
        if a["kind"] == "receipt":
            seq = a["head_seq"]
            if seq > n:
                failures.append(
                    Failure(
                        n + 1,
                        f"{_named(a)} states the hash of seq {seq} "
                        f"({a['head_hash']}); the export ends at seq {n}: the log was "
                        "cut (or the export is older than the receipt)",
                    )
                )
            elif hashes[seq - 1] != a["head_hash"]:
                before = [s for s in agreeing if s < seq]
                since = (
                    f"the last receipt that agrees is at seq {before[-1]}, so the change "
                    f"lies in seqs {before[-1] + 1}..{seq}"
                    if before
                    else f"no receipt before it agrees: the change lies in seqs 1..{seq}"
                )
                failures.append(
                    Failure(
                        seq,
                        f"{_named(a)} states the hash of seq {seq} is "
                        f"{a['head_hash']}; the export's is {hashes[seq - 1]}: the log "
                        f"was rewritten at or before seq {seq} ({since})",
                    )
                )
        elif a["epoch"] >= len(commitments):
            failures.append(
                Failure(
                    n + 1,
                    f"{_named(a)} is the commitment {a['commitment']} of "
                    f"seed epoch {a['epoch']}; the export ends at seq {n} before the "
                    "reveal that opened that epoch: the log was cut (or the export is "
                    "older than the commitment)",
                )
            )
        elif commitments[a["epoch"]][1] != a["commitment"]:
            seq, found = commitments[a["epoch"]]
            where = "GameCreated.seed_commitment" if a["epoch"] == 0 else "the next_commitment"
            failures.append(
                Failure(
                    seq,
                    f"{_named(a)} is {a['commitment']}; the export's "
                    f"{where} at seq {seq} is {found}: the log was rewritten under a "
                    "seed the player was not given",
                )
            )
    reach = max(
        [a["head_seq"] for a in receipts]
        + [
            commitments[a["epoch"]][0]
            for a in anchors
            if a["kind"] == "commitment" and a["epoch"] < len(commitments)
        ],
        default=0,
    )
    note = ""
    if unsigned:
        lines = ", ".join(str(a["line"]) for a in unsigned[:8])
        note = (
            f"; {counted(len(unsigned), 'receipt')} {'is' if len(unsigned) == 1 else 'are'} "
            f"not signed by the game's key (lines {lines}"
            f"{', ...' if len(unsigned) > 8 else ''}): they count neither for nor against "
            "the export"
        )
    if not receipts:
        return (min(failures, key=lambda f: f.seq) if failures else None), NOT_SIGNED + note
    summary = (
        f"anchored: {counted(len(receipts), 'signed receipt')} and "
        f"{counted(len(anchors) - len(receipts), 'commitment')} agree, up to seq {reach}"
        + (f" (seqs {reach + 1}..{n} are anchored by nothing)" if reach < n else "")
        + note
    )
    return (min(failures, key=lambda f: f.seq) if failures else None), summary


def check_secrecy(header: dict[str, Any], events: list[Event]) -> str:
    """Section 3: every version-2 event whose type's secrecy class in the header makes it
    secret is committed (`secret` always; `hidden_roll` when the roll's `hidden` is true;
    `secret_when` and `ruleset_code` need the rules: not checked here; a committed
    `public` event hides nothing and is not a failure).
    Without classes in the header (an older export) only hidden rolls are checked (in
    check_seeds_and_dice)."""
    classes = header.get("secrecy")
    if not isinstance(classes, dict):
        return "no secrecy classes in the header: only hidden rolls checked for commitment"
    checked = 0
    for ev in events:
        r = ev.record
        if r.get("envelope_version", 1) != 2:
            continue
        kind = classes.get(r["type"])
        if kind is None:
            raise Failure(r["seq"], f"the header names no secrecy class for {r['type']!r}")
        if kind == "hidden_roll":
            must = ev.payload.get("hidden") is True
        elif kind in ("public", "secret"):
            must = kind == "secret"
        else:
            continue
        if must and not r["committed"]:
            raise Failure(r["seq"], f"a {kind.replace('_', ' ')} event ({r['type']}) is "
                                    "published with a plain digest, not a commitment "
                                    "(section 3)")  # fmt: skip
        checked += must
    return f"{counted(checked, 'secret event')} committed as " + (
        "its secrecy class requires" if checked == 1 else "their secrecy class requires"
    )


def check_chain(header: dict[str, Any], events: list[Event]) -> None:
    """Sections 1 and 2: seqs, game, links and hashes, and the header's count and head."""
    game_id = header.get("game_id")
    # 2: seqs, game, links and hashes
    prev = GENESIS
    current_since = 0  # the first seq of envelope version 2 (0: none yet)
    for expected, ev in enumerate(events, start=1):
        r = ev.record
        if r.get("envelope_version", 1) == 2 and not current_since:
            current_since = expected
        elif r.get("envelope_version", 1) != 2 and current_since:
            raise Failure(expected, f"envelope version {r.get('envelope_version', 1)} after "
                                    f"version 2 (from seq {current_since}): a log never goes "
                                    "back to the old rule")  # fmt: skip
        if r["seq"] != expected:
            raise Failure(expected, f"expected seq {expected}, found {r['seq']}: an event is "
                                    "missing or out of order")  # fmt: skip
        if r["game_id"] != game_id:
            raise Failure(expected, f"the event belongs to game {r['game_id']!r}")
        if r["prev_hash"] != prev:
            raise Failure(expected, "prev_hash does not link to the previous event's hash")
        if envelope_hash(r, ev.payload_bytes) != r["hash"]:
            raise Failure(expected, "the hash does not match the event")
        prev = r["hash"]
    if len(events) != header.get("events"):
        raise Failure(min(len(events), header.get("events") or 0) + 1,
                      f"the header announces {header.get('events')} events, the file holds "
                      f"{len(events)}")  # fmt: skip
    if events and header.get("last_hash") != prev:
        raise Failure(len(events), "the header's last_hash is not the last event's hash")


def check_seeds_and_dice(events: list[Event]) -> list[str]:
    """Sections 3 to 5: seeds and their commitments, digests, commitments, roll numbers
    and server rolls; what was verified, or raise Failure."""
    # 4: epochs, seeds and their commitments
    epochs = Epochs()
    commitments: list[str] = []  # the commitment each epoch's seed must match
    client_seeds: dict[int, str] = {}  # the client seed bound for each epoch
    waived = False  # the game waived client entropy: every epoch's client seed is ""
    final, sealing_key = False, b""  # the final reveal, and the sealing key it publishes
    sealing_commitment = ""  # a game's hidden rolls derive from its sealing key (section 3)
    for ev in events:
        r, p = ev.record, ev.payload
        if r["type"] == "GameCreated":
            if r["seq"] != 1:
                raise Failure(r["seq"], "GameCreated after seq 1")
            commitments.append(p["seed_commitment"])
            sealing_commitment = p.get("sealing_commitment", "")
            waived = p.get("client_entropy") == "waived"
            if p.get("client_seed"):  # an old log: epoch 0's client seed, bound at creation
                client_seeds[0] = p["client_seed"]
        elif r["type"] == "ClientSeedBound":
            client_seeds[int(p["epoch"])] = p["client_seed"]
        elif r["type"] == "SeedRevealed":
            epoch = len(epochs.seeds)
            try:
                seed = bytes.fromhex(p["seed"])
            except ValueError:
                raise Failure(r["seq"], "the revealed seed is not hex") from None
            if epoch >= len(commitments) or sha256_hex(seed) != commitments[epoch]:
                raise Failure(r["seq"], f"the revealed seed of epoch {epoch} does not match "
                                        "its commitment")  # fmt: skip
            epochs.reveal_seqs.append(r["seq"])
            epochs.seeds.append(seed)
            if p.get("next_commitment"):
                commitments.append(p["next_commitment"])
            else:  # the final reveal: it publishes the sealing key (section 3)
                final = True
                try:
                    sealing_key = bytes.fromhex(p.get("sealing_key", ""))
                except ValueError:
                    raise Failure(r["seq"], "the sealing key is not hex") from None
                if sealing_commitment and sha256_hex(sealing_key) != sealing_commitment:
                    raise Failure(r["seq"], "the sealing key does not match GameCreated's "
                                            "sealing_commitment")  # fmt: skip
    # 3: digests and commitments
    opened = pending = 0
    for ev in events:
        r = ev.record
        if r.get("envelope_version", 1) != 2:
            continue
        if not r["committed"]:
            if r["type"] == "DiceRolled" and ev.payload.get("hidden") is True:
                raise Failure(r["seq"], "a hidden roll is published with a plain digest, not "
                                        "a commitment (section 3): its faces could be tested "
                                        "against it before the reveal")  # fmt: skip
            if r["digest"] != sha256_hex(ev.payload_bytes):
                raise Failure(r["seq"], "the payload does not match its digest")
            continue
        # A ruleset secret, and a hidden roll of a game with a sealing commitment, open with
        # the sealing key of the final reveal (a log without one: its epoch's seed), never
        # before it; an older game's hidden roll with its epoch's seed.
        if r["type"] == "DiceRolled" and not sealing_commitment:
            seed = epochs.seed_of(r["seq"])
        else:
            seed = (sealing_key or epochs.seed_of(r["seq"])) if final else None
        if seed is None:
            pending += 1
            continue
        if r["digest"] != commitment(seed, r["game_id"], r["seq"], ev.payload_bytes):
            raise Failure(r["seq"], "the payload does not open its commitment")
        opened += 1
    # 5: roll numbers and server rolls; a roll takes the nonce of its command's batch
    rolls = checked = with_nonce = 0
    nonces: dict[str, str] = {}  # command id -> its CommandRecorded's nonce
    numbered: dict[int, Any] = {}  # each roll's payload by its number
    amending = ""  # the amending ruling's batch id, once its GameAmended is read
    for ev in events:
        r, p = ev.record, ev.payload
        if r["type"] == "CommandRecorded":
            nonces[r["command_id"]] = p.get("nonce", "")
        if r["type"] == "GameAmended":
            amending = r["command_id"]
        if r["type"] != "DiceRolled":
            continue
        if r["command_id"] == amending and isinstance(p["roll"], int) and p["roll"] < rolls:
            # Re-applied by the amendment under its number: the same roll, checked where it
            # was made (`umpire audit` checks it is the one the re-application consumes).
            if numbered.get(p["roll"]) != p:
                raise Failure(
                    r["seq"],
                    f"{_roll_said(p['roll'])} re-applied by the amendment is "
                    "not the roll the log made under that number",
                )
            continue
        if isinstance(p["roll"], int):
            numbered[p["roll"]] = p
        if p["roll"] != rolls:
            raise Failure(
                r["seq"], f"{_roll_said(p['roll'])} is out of order: expected {_roll_said(rolls)}"
            )
        rolls += 1
        if p.get("by", "server") != "server":
            continue
        seed = epochs.seed_of(r["seq"])
        if seed is None:
            continue
        client_seed = client_seeds.get(epochs.epoch_of(r["seq"]), "" if waived else None)
        if client_seed is None:
            raise Failure(r["seq"], "no client seed is bound for this roll's epoch")
        nonce = nonces.get(r["command_id"], "")
        if not isinstance(nonce, str):
            raise Failure(r["seq"], "its command's nonce is not a string")
        sealed_hidden = bool(sealing_commitment) and p.get("hidden") is True
        key = roll_key(seed, sealing_key if final else None, sealed_hidden=sealed_hidden)
        if key is None:  # a hidden roll: checked once the final reveal opens its key
            continue
        faces = server_faces(key, client_seed, nonce, p["roll"], p["kind"], p["sides"])
        if faces != p["faces"] or total_of(p["kind"], faces) != p["total"]:
            raise Failure(r["seq"], f"server {_roll_said(p['roll'])} shows {p['faces']} "
                                    f"(total {p['total']}), its key"
                                    + (" and its command's nonce give" if nonce else " gives")
                                    + f" {faces}")  # fmt: skip
        checked += 1
        with_nonce += bool(nonce)
    return [
        f"{counted(len(events), 'event')}, hash chain intact",
        f"{counted(opened, 'commitment')} opened, {pending} still closed (unrevealed epoch, "
        "or a secret still in play before the final reveal)",
        f"{counted(len(epochs.seeds), 'revealed seed')} "
        + ("matches its commitment" if len(epochs.seeds) == 1 else "match their commitments"),
        f"{counted(rolls, 'roll')} numbered, {counted(checked, 'server roll')} recomputed "
        f"({with_nonce} of them from their command's nonce too)",
    ]


def _commitment_arg(text: str) -> str:
    if re.fullmatch(r"[0-9a-f]{64}", text) is None:
        raise argparse.ArgumentTypeError("a seed commitment is 64 lowercase hex digits")
    return text


# What a terminal acts on (umpire's events/terminal_text.py, written again here: this file
# imports nothing of umpire): C0 controls, newline included, DEL, C1 controls, the line
# and paragraph separators and the bidirectional overrides and isolates. An export, a
# receipts file or a proof may come from a hostile server: a value it holds that a line
# quotes (a seq, an event type) is shown as escapes, so it can neither clear or retitle
# the terminal nor start a line of its own that reads as a verdict.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _say(line: str) -> None:
    """Print one line of the verdict, every control character in it an escape."""
    print(_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", line))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="verify_export.py", description="Verify an umpire export (docs/audit.md)."
    )
    parser.add_argument("file", metavar="GAME.jsonl", nargs="?", help="the exported game")
    parser.add_argument(
        "--commitment", metavar="HEX", type=_commitment_arg,
        help="the seed commitment the player received at creation (the created reply)",
    )  # fmt: skip
    parser.add_argument(
        "--receipts", metavar="FILE",
        help="the player's receipts file (docs/audit.md 8.1): anchors the export must agree with",
    )  # fmt: skip
    parser.add_argument(
        "--proof", metavar="FILE",
        help="check a proof of equivocation (docs/audit.md 8.5) on its own, instead",
    )  # fmt: skip
    args = parser.parse_args(argv[1:])  # a malformed argument exits 2
    if args.proof is not None:
        try:
            _say(check_proof(args.proof))
        except Failure as failure:
            _say(f"NOT A PROOF: {failure.reason}")
            return 1
        except (OSError, ValueError) as exc:
            _say(f"NOT A PROOF: the file is not readable ({type(exc).__name__}: {exc})")
            return 2
        return 0
    if args.file is None:
        parser.error("give the exported game (GAME.jsonl), or --proof FILE")
    anchors = None
    if args.receipts is not None:
        try:
            receipts_game, anchors = read_receipts(args.receipts)
        except (OSError, ValueError, ReceiptsUnreadable) as exc:
            _say(f"FAILED at seq 0: the receipts file is not readable ({exc})")
            return 2
    try:
        header, events = read(args.file)
        if anchors is not None and receipts_game != header.get("game_id"):
            _say(f"FAILED at seq 0: the receipts are of game {receipts_game!r}, the export "
                  f"of game {header.get('game_id')!r}")  # fmt: skip
            return 2
        done = verify(header, events, kept_commitment=args.commitment, anchors=anchors)
    except Failure as failure:
        _say(f"FAILED at seq {failure.seq}: {failure.reason}")
        return 1
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        _say(f"FAILED at seq 0: the file is not a readable export ({type(exc).__name__}: {exc})")
        return 2
    # A prefix (not ended and finally revealed) is never "OK": what it holds verified, but
    # what follows it, and the secrets still sealed, are unknown (section 7).
    prefix = done[0] == prefix_note(len(events))
    # The headline (section 8.4): "verified" only when a receipt the game's key signed
    # agrees; a log that merely holds together could have been rewritten whole.
    anchored = done[-1].startswith("anchored:")
    _say(
        "verified: the export agrees with receipts signed by the game's key"
        if anchored
        else "consistent, not anchored: the export holds together, but no receipt signed "
        "by the game's key anchors it"
    )
    _say(("PREFIX: " if prefix else "OK: ") + "; ".join(done))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
