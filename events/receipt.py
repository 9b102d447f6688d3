"""Receipts (docs/audit.md "Receipts"): what a reply or a state frame lets a role keep.

A receipt names the head of the log (seq and hash) and a state hash over the view that the
role receiving it may see at that head. The state hash is computed from that view only,
never from the whole state, so it tells the role nothing it was not shown (a hash of the
full state would let a player search for hidden values).

state_hash = SHA-256("umpire-receipt:" || seq || ":" || head_hash || ":" || view JSON),
with the view as canonical JSON: keys sorted, no whitespace, UTF-8.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from typing import Any

import msgspec
from msgspec import Struct

from umpire.events.envelope import Envelope
from umpire.events.errors import UmpireError
from umpire.events.plurals import counted
from umpire.events.receipt_signature import (
    Equivocation,
    SignedReceipt,
    Statement,
    find_equivocation,
)

RECEIPT_LABEL = b"umpire-receipt:"

# "sorted" orders a Struct's fields by name as canonical JSON orders a dict's keys, so a view
# that holds Structs encodes to the same bytes as its `msgspec.to_builtins` form: a receipt
# hashes the view as `view` made it, without building that copy first (~12 µs of a
# Downtown command's ack), or the builtins a frame already holds. The one difference would
# be a set, sorted here and kept in iteration order by to_builtins; views hold none
# (tests/events/test_receipt_encoding.py).
_view_json = msgspec.json.Encoder(order="sorted")


def receipt_state_hash(seq: int, head_hash: str, view: Any) -> str:
    """The state hash of a receipt: the view a role was sent at `seq` (as `view` made it,
    or its builtins as sent on the wire), bound to the head."""
    return receipt_hash_of_json(seq, head_hash, view_json(view))


def view_json(view: Any) -> bytes:
    """A view as the state hash covers it: canonical JSON (keys sorted, no whitespace)."""
    return _view_json.encode(view)


def receipt_hash_of_json(seq: int, head_hash: str, view: bytes) -> str:
    """`receipt_state_hash` of a view already encoded by `view_json` (a view that did not
    change since the last receipt is not encoded again: server/view_digests.py)."""
    return hashlib.sha256(RECEIPT_LABEL + f"{seq}:{head_hash}:".encode() + view).hexdigest()


# -- the receipts file (docs/audit.md 8.1) ---------------------------------------------------

# Version 2 adds each receipt's `first_seq`, `key_id` and `signature` (docs/audit.md 8.4)
# and the game's public receipt key in the header; version 3 a batch receipt's
# `leaf_index`, `tree_size` and `proof`. Version 1 and 2 files stay readable (version 1's
# receipts are unsigned, so they count against no export; version 2's signed one by one).
RECEIPTS_FORMAT = "umpire-receipts/3"
READABLE_FORMATS = ("umpire-receipts/1", "umpire-receipts/2", RECEIPTS_FORMAT)
REPLIES = ("created", "accepted", "state")
ROLES = ("player", "spectator", "referee")
_HEX64 = re.compile(r"[0-9a-f]{64}")


class ReceiptsInvalid(UmpireError):
    """A receipts file that is not docs/audit.md 8.1's format (or not of this game)."""

    code = "receipts_invalid"


class Anchor(Struct, frozen=True, kw_only=True):
    """One line of a receipts file: a receipt (`kind` "receipt") or a seed commitment
    (`kind` "commitment"). `line` is its line number in the file (1 is the header)."""

    kind: str
    line: int = 0
    reply: str = ""
    command_id: str = ""
    role: str = "player"
    head_seq: int = 0
    head_hash: str = ""
    state_hash: str = ""
    epoch: int = 0
    commitment: str = ""
    received_at: str = ""
    # The signature (docs/audit.md 8.4): the first seq the reply covers, the receipt key's
    # id and the Ed25519 signature (hex); "" and 0 for an unsigned receipt.
    first_seq: int = 0
    key_id: str = ""
    signature: str = ""
    # A batch receipt's place in the tree its signature covers (docs/audit.md 8.4): 0 and
    # () for a receipt signed on its own.
    leaf_index: int = 0
    tree_size: int = 0
    proof: tuple[str, ...] = ()
    # What the client that kept this receipt found wrong with its signature when it arrived
    # ("" if nothing, or if it did not check): a failed receipt is kept all the same, as
    # evidence of what the server sent. Verifiers read it as a note, never as a verdict:
    # they check every signature themselves.
    client_check: str = ""
    # The blind of a blinded tree's leaf (docs/audit.md 8.4: 32 hex digits); "" for one
    # signed before blinds. An optional key of version 3 lines: a reader that predates it
    # finds the receipt not signed, which counts neither for nor against an export.
    blind: str = ""

    def signed(self, game_id: str) -> SignedReceipt:
        """The receipt as its signature covers it."""
        return SignedReceipt(
            statement=self.statement(game_id), signature=self.signature,
            leaf_index=self.leaf_index, tree_size=self.tree_size, proof=list(self.proof),
            blind=self.blind,
        )  # fmt: skip

    def statement(self, game_id: str) -> Statement:
        """What this receipt's signature covers."""
        return Statement(
            game_id=game_id, key_id=self.key_id, reply=self.reply, role=self.role,
            first_seq=self.first_seq, head_seq=self.head_seq, head_hash=self.head_hash,
            state_hash=self.state_hash,
        )  # fmt: skip

    def named(self) -> str:
        """How a failure names this anchor: its line and what it came with."""
        if self.kind == "commitment":
            return f"commitment on line {self.line} (epoch {self.epoch})"
        what = f", command {self.command_id}" if self.command_id else ""
        return f"receipt on line {self.line} ({self.reply}{what})"

    def line_json(self) -> str:
        """The anchor as a line of the file (its line number left out)."""
        if self.kind == "commitment":
            body: dict[str, Any] = {
                "kind": "commitment", "epoch": self.epoch, "commitment": self.commitment,
            }  # fmt: skip
        else:
            body = {
                "kind": "receipt", "reply": self.reply, "command_id": self.command_id,
                "role": self.role, "head_seq": self.head_seq, "head_hash": self.head_hash,
                "state_hash": self.state_hash,
            }  # fmt: skip
            if self.signature:
                body |= {"first_seq": self.first_seq, "key_id": self.key_id,
                         "signature": self.signature}  # fmt: skip
            if self.tree_size:
                body |= {"leaf_index": self.leaf_index, "tree_size": self.tree_size,
                         "proof": list(self.proof)}  # fmt: skip
            if self.blind:
                body["blind"] = self.blind
            if self.client_check:
                body["client_check"] = self.client_check
        if self.received_at:
            body["received_at"] = self.received_at
        return json.dumps(body)


def receipts_header(game_id: str, public_key: str = "") -> str:
    """Line 1 of a receipts file (with the game's public receipt key, when known)."""
    header = {"format": RECEIPTS_FORMAT, "game_id": game_id}
    return json.dumps(header | ({"public_key": public_key} if public_key else {}))


def _anchor(record: Any, number: int) -> Anchor:
    def bad(why: str) -> ReceiptsInvalid:
        return ReceiptsInvalid(f"receipts file line {number}: {why}", line=number)

    if not isinstance(record, dict):
        raise bad("not a JSON object")
    kind = record.get("kind")
    if kind == "receipt":
        reply, seq = record.get("reply"), record.get("head_seq")
        if reply not in REPLIES:
            raise bad(f"reply is {reply!r}, one of {', '.join(REPLIES)} is allowed")
        if type(seq) is not int or seq < 1:
            raise bad(f"head_seq is {seq!r}, an integer of 1 or more is allowed")
        if not isinstance(record.get("head_hash"), str) or not _HEX64.fullmatch(
            record["head_hash"]
        ):
            raise bad("head_hash is not 64 lowercase hex digits")
        state_hash = record.get("state_hash", "")
        if not isinstance(state_hash, str) or (state_hash and not _HEX64.fullmatch(state_hash)):
            raise bad("state_hash is neither 64 lowercase hex digits nor empty")
        command_id, role = record.get("command_id", ""), record.get("role", "player")
        if not isinstance(command_id, str) or role not in ROLES:
            raise bad(f"command_id is not a string, or role is not one of {', '.join(ROLES)}")
        first, key_id, signature = (
            record.get("first_seq", 0), record.get("key_id", ""), record.get("signature", "")
        )  # fmt: skip
        if type(first) is not int or not isinstance(key_id, str) or not isinstance(signature, str):
            raise bad("first_seq is not an integer, or key_id or signature not a string")
        index, size, proof = (
            record.get("leaf_index", 0), record.get("tree_size", 0), record.get("proof", [])
        )  # fmt: skip
        if (
            type(index) is not int or type(size) is not int or not isinstance(proof, list)
            or not all(isinstance(h, str) for h in proof)
        ):  # fmt: skip
            raise bad("leaf_index or tree_size is not an integer, or proof not a list of strings")
        client_check, blind = record.get("client_check", ""), record.get("blind", "")
        if not isinstance(client_check, str) or not isinstance(blind, str):
            raise bad("client_check or blind is not a string")
        return Anchor(
            kind="receipt", line=number, reply=reply, command_id=command_id, role=role,
            head_seq=seq, head_hash=record["head_hash"], state_hash=state_hash,
            received_at=str(record.get("received_at", "")), first_seq=first, key_id=key_id,
            signature=signature, leaf_index=index, tree_size=size, proof=tuple(proof),
            client_check=client_check, blind=blind,
        )  # fmt: skip
    if kind == "commitment":
        epoch, commitment = record.get("epoch"), record.get("commitment")
        if type(epoch) is not int or epoch < 0:
            raise bad(f"epoch is {epoch!r}, an integer of 0 or more is allowed")
        if not isinstance(commitment, str) or not _HEX64.fullmatch(commitment):
            raise bad("commitment is not 64 lowercase hex digits")
        return Anchor(
            kind="commitment", line=number, epoch=epoch, commitment=commitment,
            received_at=str(record.get("received_at", "")),
        )  # fmt: skip
    raise bad(f"kind is {kind!r}, receipt or commitment is allowed")


def read_receipts(text: str, source: str = "the receipts file") -> tuple[str, list[Anchor]]:
    """The game id and anchors of a receipts file's text; ReceiptsInvalid if it is not
    docs/audit.md 8.1's format (version 2 or 1)."""
    game_id, _, anchors = read_receipts_file(text, source)
    return game_id, anchors


def read_receipts_file(
    text: str, source: str = "the receipts file"
) -> tuple[str, str, list[Anchor]]:
    """The game id, public receipt key ("" if the header names none) and anchors of a
    receipts file's text."""
    lines = text.split("\n")
    records: list[tuple[int, Any]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append((number, json.loads(line)))
        except ValueError as exc:
            raise ReceiptsInvalid(f"{source} line {number} is not JSON ({exc})") from None
    if not records:
        raise ReceiptsInvalid(f"{source} is empty: its first line is the header")
    _, header = records[0]
    if not isinstance(header, dict) or header.get("format") not in READABLE_FORMATS:
        raise ReceiptsInvalid(
            f"{source}: line 1 is not the header of {' or '.join(READABLE_FORMATS)}"
        )
    game_id, public_key = header.get("game_id"), header.get("public_key", "")
    if not isinstance(game_id, str) or not game_id:
        raise ReceiptsInvalid(f"{source}: the header names no game_id")
    if not isinstance(public_key, str):
        raise ReceiptsInvalid(f"{source}: the header's public_key is not a string")
    return game_id, public_key, [_anchor(record, number) for number, record in records[1:]]


class AnchorFailure(Struct, frozen=True, kw_only=True):
    """The first seq at which a log disagrees with an anchor, and what differs; with
    `equivocation`, two signed receipts that disagree with each other (docs/audit.md 8.5)."""

    seq: int
    message: str
    equivocation: Equivocation | None = None


def game_receipt_key(envelopes: Sequence[Envelope]) -> str:
    """The public receipt key the log's GameCreated names ("" for a game before them)."""
    if not envelopes or envelopes[0].type != "GameCreated":
        return ""
    try:
        return msgspec.msgpack.decode(envelopes[0].payload, type=_Created).receipt_key
    except (msgspec.DecodeError, msgspec.ValidationError):
        return ""


def signed_by(anchor: Anchor, game_id: str, public_key: str) -> bool:
    """Whether a receipt carries a valid signature of the game's key (docs/audit.md 8.4)."""
    return bool(
        public_key and anchor.kind == "receipt" and anchor.signature
        and anchor.signed(game_id).valid(public_key)
    )  # fmt: skip


def split_signed(
    anchors: Sequence[Anchor], envelopes: Sequence[Envelope]
) -> tuple[list[Anchor], list[Anchor]]:
    """The anchors that count (signed receipts and commitments) and the receipts that do
    not (unsigned, or not signed by the key the log's GameCreated names)."""
    game_id = envelopes[0].game_id if envelopes else ""
    key = game_receipt_key(envelopes)
    counted: list[Anchor] = []
    unsigned: list[Anchor] = []
    for a in anchors:
        (counted if a.kind == "commitment" or signed_by(a, game_id, key) else unsigned).append(a)
    return counted, unsigned


def unsigned_note(unsigned: Sequence[Anchor]) -> str:
    """How the receipts that do not count are reported."""
    lines = ", ".join(str(a.line) for a in unsigned[:8]) + (", ..." if len(unsigned) > 8 else "")
    return (
        f"{counted(len(unsigned), 'receipt')} {'is' if len(unsigned) == 1 else 'are'} not "
        f"signed by the game's key (lines {lines}): "
        "they count neither for nor against the export"
    )


def equivocation_in(
    anchors: Sequence[Anchor], game_id: str, public_key: str
) -> Equivocation | None:
    """Two receipts validly signed by the game's key that disagree on one seq, or None."""
    signed = [a.signed(game_id) for a in anchors if signed_by(a, game_id, public_key)]
    return find_equivocation(game_id, public_key, signed)


def check_anchors(
    anchors: Sequence[Anchor], envelopes: Sequence[Envelope]
) -> tuple[AnchorFailure | None, str]:
    """Compare a log (its chain already verified) with the anchors (docs/audit.md 8.1):
    the lowest-seq disagreement, or None; and a line saying how far the anchors reach
    (starting "anchored:" only if a receipt signed by the game's key agrees). Only the
    receipts signed by the key the log's GameCreated names count (docs/audit.md 8.4);
    two of them that disagree on one seq are a proof of equivocation."""
    anchors, unsigned = split_signed(anchors, envelopes)
    game_id = envelopes[0].game_id if envelopes else ""
    equivocation = find_equivocation(game_id, game_receipt_key(envelopes), [
        a.signed(game_id) for a in anchors if a.kind == "receipt"  # checked by split_signed
    ])  # fmt: skip
    if equivocation is not None:
        return AnchorFailure(
            seq=equivocation.seq, message=equivocation.summary(), equivocation=equivocation
        ), ""
    hashes = [env.hash for env in envelopes]
    commitments = _commitments(envelopes)
    n = len(hashes)
    agreeing = sorted(
        a.head_seq for a in anchors
        if a.kind == "receipt" and a.head_seq <= n and hashes[a.head_seq - 1] == a.head_hash
    )  # fmt: skip
    failures: list[AnchorFailure] = []
    for a in anchors:
        if a.kind == "receipt":
            if a.head_seq > n:
                failures.append(AnchorFailure(seq=n + 1, message=(
                    f"{a.named()} states the hash of seq {a.head_seq} ({a.head_hash}); the "
                    f"export ends at seq {n}: the log was cut (or the export is older than "
                    "the receipt)"
                )))  # fmt: skip
            elif hashes[a.head_seq - 1] != a.head_hash:
                before = [s for s in agreeing if s < a.head_seq]
                since = (
                    f"the last receipt that agrees is at seq {before[-1]}, so the change lies "
                    f"in seqs {before[-1] + 1}..{a.head_seq}"
                    if before
                    else f"no receipt before it agrees: the change lies in seqs 1..{a.head_seq}"
                )
                failures.append(AnchorFailure(seq=a.head_seq, message=(
                    f"{a.named()} states the hash of seq {a.head_seq} is {a.head_hash}; the "
                    f"export's is {hashes[a.head_seq - 1]}: the log was rewritten at or "
                    f"before seq {a.head_seq} ({since})"
                )))  # fmt: skip
        elif a.epoch >= len(commitments):
            failures.append(AnchorFailure(seq=n + 1, message=(
                f"{a.named()} is the commitment {a.commitment} of seed epoch {a.epoch}; the "
                f"export ends at seq {n} before the reveal that opened that epoch: the log "
                "was cut (or the export is older than the commitment)"
            )))  # fmt: skip
        elif commitments[a.epoch][1] != a.commitment:
            seq, found = commitments[a.epoch]
            where = "GameCreated.seed_commitment" if a.epoch == 0 else "the next_commitment"
            failures.append(AnchorFailure(seq=seq, message=(
                f"{a.named()} is {a.commitment}; the export's {where} at seq {seq} is "
                f"{found}: the log was rewritten under a seed the player was not given"
            )))  # fmt: skip
    receipts = sum(a.kind == "receipt" for a in anchors)
    reach = max([a.head_seq for a in anchors if a.kind == "receipt"], default=0)
    reach = max([reach] + [commitments[a.epoch][0] for a in anchors
                           if a.kind == "commitment" and a.epoch < len(commitments)])  # fmt: skip
    note = f"; {unsigned_note(unsigned)}" if unsigned else ""
    if receipts:
        summary = (
            f"anchored: {counted(receipts, 'signed receipt')} and "
            f"{counted(len(anchors) - receipts, 'commitment')} agree, up to seq {reach}"
            + (f" (seqs {reach + 1}..{n} are anchored by nothing)" if reach < n else "")
            + note
        )
    else:
        summary = f"{NOT_SIGNED}{note}"
    return (min(failures, key=lambda f: f.seq) if failures else None), summary


NOT_ANCHORED = (
    "not anchored: no receipts given (--receipts FILE): a rewrite from a later seq, a "
    "relabelled roll and a log cut at a batch's end pass the log's own checks"
)
NOT_SIGNED = (
    "not anchored: no receipt is signed by the game's key, so none binds the server: a "
    "rewrite from a later seq passes the log's own checks"
)
# The headline an audit leads with (issue #42 item 6): "verified" only when a receipt the
# game's key signed agrees with the log; a log that merely holds together is no more.
VERIFIED = "verified"
CONSISTENT = "consistent, not anchored"


def headline(anchored: str) -> str:
    """The audit's first word for a log that passed, from `check_anchors`'s summary."""
    return VERIFIED if anchored.startswith("anchored:") else CONSISTENT


class _Created(Struct):
    seed_commitment: str = ""
    receipt_key: str = ""


class _Reveal(Struct):
    next_commitment: str = ""


def _commitments(envelopes: Sequence[Envelope]) -> list[tuple[int, str]]:
    """(seq, commitment) of each seed epoch the log commits: epoch 0's in GameCreated, epoch
    k's in the k-th SeedRevealed's next_commitment (a final reveal's is empty: no epoch)."""
    found: list[tuple[int, str]] = []
    for env in envelopes:
        try:
            if env.seq == 1 and env.type == "GameCreated":
                found.append(
                    (1, msgspec.msgpack.decode(env.payload, type=_Created).seed_commitment)
                )
            elif env.type == "SeedRevealed":
                following = msgspec.msgpack.decode(env.payload, type=_Reveal).next_commitment
                if following:
                    found.append((env.seq, following))
        except (msgspec.DecodeError, msgspec.ValidationError):
            found.append((env.seq, ""))
    return found
