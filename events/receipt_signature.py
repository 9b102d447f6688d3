"""Signed receipts (docs/audit.md 8.4): the server's Ed25519 signature over a receipt.

A game's receipt key is fixed at its creation: GameCreated names it (`receipt_key_id`,
`receipt_key`, the raw 32-byte public key in hex), so the log itself says which key its
receipts must be signed by. A signature covers the statement

    {"domain":"umpire-receipt-signature/1","first_seq":F,"game_id":G,"head_hash":H,
     "head_seq":S,"key_id":K,"reply":R,"role":O,"state_hash":X}

encoded as JSON with its keys sorted, no whitespace, ASCII only (every field is ASCII by
its format): "the key K said that game G's log, for the reply R to role O covering seqs
F..S, had the head H at seq S and showed O the state X there". Once given out it binds the
server: two signed statements of one key that give one seq two head hashes are a proof
of equivocation anyone can check with the public key alone (`Equivocation`).

Batches (docs/audit.md 8.4): the server signs once per event-loop turn, not once per
reply. The statements of one turn are the leaves of a Merkle tree of RFC 9162's shape
(leaf = SHA-256(0x00 || statement bytes), interior = SHA-256(0x01 || left || right)), and
the key signs the root statement

    {"domain":"umpire-receipt-batch/1","key_id":K,"root":R,"size":N}

once; each receipt carries that signature, its leaf's index, the tree's size and its
inclusion proof (the sibling hashes, leaf to root). A tree of one is a lone reply: no
proof, the root is the leaf's hash. Receipts signed before batches (a signature over the
statement itself, no tree fields) still verify.

Blinded trees (docs/audit.md 8.4): a tree mixes every game and role a worker answered in
the turn, so a proof's siblings are other views' leaves. Each leaf of such a tree is
SHA-256(0x00 || blind || statement bytes), the blind 16 random bytes the server drew for
that leaf and gave only with its receipt (`blind`, 32 hex digits): a sibling's hash then
tells nothing of its statement, whose secrets one might otherwise guess and test. Its
root statement says so by its domain, `umpire-receipt-batch/2`; a `batch/1` root covers
unblinded leaves (the trees signed before), which still verify.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from typing import Any, TypeVar

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from msgspec import Struct

from umpire.events.errors import UmpireError

SIGNATURE_DOMAIN = "umpire-receipt-signature/1"
BATCH_DOMAIN = "umpire-receipt-batch/1"  # unblinded leaves: the trees signed before blinds
BLINDED_BATCH_DOMAIN = "umpire-receipt-batch/2"  # every leaf blinded
# A leaf's blind: 128 random bits, so that no guess of a statement can be tested against
# its leaf's hash without it.
BLIND_BYTES = 16
# /1 holds receipts signed one by one; /2 may also hold batch receipts (their tree fields);
# /3 blinded batch receipts too (their `blind`).
PROOF_FORMAT = "umpire-equivocation/3"
PROOF_FORMATS = ("umpire-equivocation/1", "umpire-equivocation/2", PROOF_FORMAT)
# A tree's height is at most 63 (its size is a positive 64-bit integer): a longer proof is
# refused before any hashing.
MAX_PROOF = 63
_HASH64 = re.compile(r"[0-9a-f]{64}")
_BLIND = re.compile(r"[0-9a-f]{32}")
KEY_BYTES = 32
_HEX = re.compile(r"[0-9a-f]*")
_SORTED = msgspec.json.Encoder(order="sorted")

# A batch receipt's place in its tree: (leaf index, tree size, proof as hex hashes); its
# leaf's blind goes beside it (`blind`, "" for a leaf of an unblinded tree).
Batch = tuple[int, int, Sequence[str]]


def key_id_of(public_key: str) -> str:
    """A key's id: the first 16 hex digits of SHA-256 over its raw 32 public bytes."""
    return hashlib.sha256(bytes.fromhex(public_key)).hexdigest()[:16]


class Statement(Struct, frozen=True, kw_only=True):
    """What a receipt signature covers (the module docstring gives its bytes)."""

    game_id: str
    key_id: str
    reply: str
    role: str
    first_seq: int
    head_seq: int
    head_hash: str
    state_hash: str

    def signed_bytes(self) -> bytes:
        """The exact bytes signed: the statement as canonical JSON, domain first by name.

        msgspec writes the keys sorted and no whitespace in ~1 us, where json.dumps took
        ~8 (on every accepted reply); the two agree byte for byte on text that needs no
        escape. A statement with anything to escape (nothing, by its fields' formats) goes
        through json.dumps, whose escapes are the ones specified."""
        body = {
            "domain": SIGNATURE_DOMAIN, "game_id": self.game_id, "key_id": self.key_id,
            "reply": self.reply, "role": self.role, "first_seq": self.first_seq,
            "head_seq": self.head_seq, "head_hash": self.head_hash,
            "state_hash": self.state_hash,
        }  # fmt: skip
        try:
            encoded = _SORTED.encode(body)
        except UnicodeEncodeError:  # a lone surrogate: json.dumps escapes it
            encoded = b"\\"
        # Printable ASCII with no escape (json.dumps also escapes DEL, msgspec does not).
        if encoded.isascii() and b"\\" not in encoded and b"\x7f" not in encoded:
            return encoded
        return json.dumps(body, sort_keys=True, separators=(",", ":")).encode("ascii")


class ReceiptSigner:
    """A receipt key's private half, held by the server (never in the log)."""

    __slots__ = ("_private", "key_id", "public_key")

    def __init__(self, seed: bytes) -> None:
        if len(seed) != KEY_BYTES:
            raise ValueError("a receipt key's private half is a 32-byte Ed25519 seed")
        self._private = Ed25519PrivateKey.from_private_bytes(seed)
        # public_bytes_raw, not public_bytes(Encoding.Raw, ...): the serialization module
        # costs ~14 ms to import on every `umpire` command that keeps a receipt.
        self.public_key = self._private.public_key().public_bytes_raw().hex()
        self.key_id = key_id_of(self.public_key)

    def sign(self, statement: Statement) -> str:
        """The signature (128 hex digits) of `statement`, which must name this key."""
        if statement.key_id != self.key_id:
            raise ValueError(f"the statement names key {statement.key_id}, not {self.key_id}")
        return self._private.sign(statement.signed_bytes()).hex()

    def sign_root(self, root: bytes, size: int, *, blinded: bool) -> str:
        """The signature (128 hex digits) of a batch's root statement (`root_statement`)."""
        return self._private.sign(root_statement(self.key_id, root, size, blinded)).hex()


# -- batches: one signature over a Merkle tree of statements (docs/audit.md 8.4) -------------


def leaf_hash(statement: bytes, blind: bytes = b"") -> bytes:
    """RFC 9162 2.1.1: a leaf's hash, SHA-256(0x00 || the statement's bytes); in a blinded
    tree SHA-256(0x00 || blind || the statement's bytes), the blind of fixed length first
    (so the bytes split one way only, and a statement, which starts with `{`, never
    reads as another's blind and statement)."""
    return hashlib.sha256(b"\x00" + blind + statement).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """RFC 9162 2.1.1: an interior node's hash, SHA-256(0x01 || left || right)."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def root_statement(key_id: str, root: bytes, size: int, blinded: bool) -> bytes:
    """The bytes a batch's signature covers: canonical JSON (keys sorted, no whitespace)
    of the key's id, the tree's root (hex) and its size, under the domain that says
    whether its leaves are blinded."""
    domain = BLINDED_BATCH_DOMAIN if blinded else BATCH_DOMAIN
    return (
        f'{{"domain":"{domain}","key_id":{json.dumps(key_id)},"root":"{root.hex()}","size":{size}}}'
    ).encode("ascii")


class BatchSignature(Struct, frozen=True, kw_only=True):
    """What one receipt of a signed batch carries: the root's signature, its leaf's index,
    the tree's size, the inclusion proof (hex sibling hashes, leaf to root) and its leaf's
    blind (32 hex digits; "" in an unblinded tree)."""

    signature: str
    leaf_index: int
    tree_size: int
    proof: list[str]
    blind: str = ""


Node = TypeVar("Node", bytes, str)  # a tree's node: its hash, or the hash in hex


def tree_levels(leaves: Sequence[bytes]) -> list[list[bytes]]:
    """Every level of the tree over `leaves` (leaf hashes), leaves first, root last.

    Built bottom up: nodes pair left to right and a level's odd last node moves up as it
    is. That is RFC 9162's recursive shape (the left subtree the largest power of two
    below the size) for every size, not only powers of two."""
    levels = [list(leaves)]
    while len(levels[-1]) > 1:
        below = levels[-1]
        above = [node_hash(below[i], below[i + 1]) for i in range(0, len(below) - 1, 2)]
        if len(below) % 2:
            above.append(below[-1])
        levels.append(above)
    return levels


def inclusion_proof(levels: Sequence[Sequence[Node]], index: int) -> list[Node]:
    """RFC 9162 2.1.3.1: leaf `index`'s audit path in a tree given by `tree_levels` (its
    hashes, or those in hex), leaf to root (a promoted odd node has no sibling at that
    level)."""
    proof = []
    for level in levels[:-1]:
        sibling = index ^ 1
        if sibling < len(level):
            proof.append(level[sibling])
        index >>= 1
    return proof


def root_from_proof(leaf: bytes, index: int, size: int, proof: Sequence[bytes]) -> bytes | None:
    """RFC 9162 2.1.3.2: the root that `proof` leads to from `leaf` at `index` of a tree of
    `size`, or None if the proof does not fit that index and size."""
    if not 0 <= index < size or len(proof) > MAX_PROOF:
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


def sign_batch(
    signer: ReceiptSigner, statements: Sequence[Statement], *, blinds: bytes | None
) -> list[BatchSignature]:
    """One signature over the tree of `statements` (each naming `signer`'s key): each
    statement's BatchSignature, in order. `blinds` is BLIND_BYTES random bytes a statement,
    drawn by the caller (events/ draws no randomness), sliced in order: leaf i's blind is
    its i-th slice, and the root is signed as a blinded tree's (`batch/2`); None signs the
    unblinded form (`batch/1`, as before blinds: for tests and the worked example)."""
    if blinds is not None and len(blinds) != BLIND_BYTES * len(statements):
        raise ValueError(f"a blinded tree takes {BLIND_BYTES} random bytes a statement")
    leaves = []
    for i, statement in enumerate(statements):
        if statement.key_id != signer.key_id:
            raise ValueError(f"the statement names key {statement.key_id}, not {signer.key_id}")
        blind = b"" if blinds is None else blinds[BLIND_BYTES * i : BLIND_BYTES * (i + 1)]
        leaves.append(leaf_hash(statement.signed_bytes(), blind))
    levels = tree_levels(leaves)
    size = len(leaves)
    signature = signer.sign_root(levels[-1][0], size, blinded=blinds is not None)
    # Each node in hex once: a node is in the proof of every leaf below its sibling, so
    # hexing each proof's hashes made n log n strings for a tree of n, where this makes 2n.
    hexed = [[node.hex() for node in level] for level in levels]
    hexed_blinds = "" if blinds is None else blinds.hex()
    return [
        BatchSignature(
            signature=signature,
            leaf_index=i,
            tree_size=size,
            proof=inclusion_proof(hexed, i),
            blind=hexed_blinds[2 * BLIND_BYTES * i : 2 * BLIND_BYTES * (i + 1)],
        )
        for i in range(size)
    ]


def signature_valid(
    public_key: str,
    statement: Statement,
    signature: str,
    batch: Batch | None = None,
    blind: str = "",
) -> bool:
    """Whether `signature` is `public_key`'s over `statement` (and the statement names that
    key): over the statement itself, or, with `batch` (its leaf index, tree size and
    proof), over the root its proof leads to: a blinded tree's (`batch/2`) from the leaf
    with `blind` (32 hex digits), an unblinded one's (`batch/1`) without. Malformed keys,
    signatures, blinds and proofs are simply not valid."""
    if len(public_key) != 2 * KEY_BYTES or not _HEX.fullmatch(public_key):
        return False
    if len(signature) != 128 or not _HEX.fullmatch(signature):
        return False
    if statement.key_id != key_id_of(public_key):
        return False
    if blind and (batch is None or not isinstance(blind, str) or not _BLIND.fullmatch(blind)):
        return False  # a blind belongs to a leaf of a tree, and is 32 lowercase hex digits
    signed = statement.signed_bytes()
    if batch is not None:
        index, size, proof = batch
        if not all(isinstance(h, str) and _HASH64.fullmatch(h) for h in proof):
            return False
        leaf = leaf_hash(signed, bytes.fromhex(blind))
        root = root_from_proof(leaf, index, size, [bytes.fromhex(h) for h in proof])
        if root is None:
            return False
        signed = root_statement(statement.key_id, root, size, bool(blind))
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key)).verify(
            bytes.fromhex(signature), signed
        )
    except InvalidSignature:
        return False
    return True


# -- proofs of equivocation (docs/audit.md 8.5) ----------------------------------------------


class ProofInvalid(UmpireError):
    """A proof file that is not docs/audit.md 8.5's format, or that proves nothing."""

    code = "proof_invalid"


class SignedReceipt(Struct, frozen=True, kw_only=True):
    """One signed receipt as a proof holds it: its statement and signature, and for a batch
    receipt its place in the tree (`tree_size` 0: signed on its own) and its leaf's blind
    ("" in an unblinded tree)."""

    statement: Statement
    signature: str
    leaf_index: int = 0
    tree_size: int = 0
    proof: list[str] = msgspec.field(default_factory=list)
    blind: str = ""

    @property
    def batch(self) -> Batch | None:
        return (self.leaf_index, self.tree_size, self.proof) if self.tree_size else None

    def valid(self, public_key: str) -> bool:
        """Whether the receipt's signature is `public_key`'s (docs/audit.md 8.4)."""
        return signature_valid(public_key, self.statement, self.signature, self.batch, self.blind)

    def record(self) -> dict[str, Any]:
        """The receipt as a proof file writes it."""
        s = self.statement
        record = {
            "reply": s.reply, "role": s.role, "first_seq": s.first_seq,
            "head_seq": s.head_seq, "head_hash": s.head_hash, "state_hash": s.state_hash,
            "key_id": s.key_id, "signature": self.signature,
        }  # fmt: skip
        if self.tree_size:
            record |= {"leaf_index": self.leaf_index, "tree_size": self.tree_size,
                       "proof": list(self.proof)}  # fmt: skip
        if self.blind:
            record["blind"] = self.blind
        return record


class Equivocation(Struct, frozen=True, kw_only=True):
    """Two receipts one key signed for one game that give one seq two head hashes."""

    game_id: str
    public_key: str
    first: SignedReceipt
    second: SignedReceipt

    @property
    def seq(self) -> int:
        return self.first.statement.head_seq

    def text(self) -> str:
        """The proof file's text (one JSON object)."""
        # The oldest format that holds both receipts, so an older verifier still reads it:
        # /1 for two signed one by one, /2 for unblinded trees, /3 once one is blinded.
        receipts = (self.first, self.second)
        blinded = any(r.blind for r in receipts)
        form = 2 if blinded else 1 if any(r.tree_size for r in receipts) else 0
        return json.dumps({
            "format": PROOF_FORMATS[form], "game_id": self.game_id,
            "key_id": key_id_of(self.public_key), "public_key": self.public_key,
            "receipts": [self.first.record(), self.second.record()],
        }, indent=1) + "\n"  # fmt: skip

    def summary(self) -> str:
        a, b = self.first.statement, self.second.statement
        return (
            f"equivocation proven: key {a.key_id} signed two heads for seq {a.head_seq} of "
            f"game {self.game_id}: {a.head_hash} ({a.reply}) and {b.head_hash} ({b.reply})"
        )


def find_equivocation(
    game_id: str, public_key: str, signed: list[SignedReceipt]
) -> Equivocation | None:
    """The first pair (by seq) of `signed` (each already checked valid under `public_key`)
    that disagree on the head hash of one seq, or None."""
    seen: dict[int, SignedReceipt] = {}
    for receipt in sorted(signed, key=lambda r: r.statement.head_seq):
        s = receipt.statement
        before = seen.setdefault(s.head_seq, receipt)
        if before.statement.head_hash != s.head_hash:
            return Equivocation(game_id=game_id, public_key=public_key, first=before,
                                second=receipt)  # fmt: skip
    return None


def _signed(record: Any, game_id: str, which: str) -> SignedReceipt:
    if not isinstance(record, dict):
        raise ProofInvalid(f"the proof's {which} receipt is not a JSON object")
    try:
        statement = Statement(
            game_id=game_id, key_id=str(record["key_id"]), reply=str(record["reply"]),
            role=str(record["role"]), first_seq=int(record["first_seq"]),
            head_seq=int(record["head_seq"]), head_hash=str(record["head_hash"]),
            state_hash=str(record["state_hash"]),
        )  # fmt: skip
        signature = str(record["signature"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ProofInvalid(f"the proof's {which} receipt lacks or garbles {exc}") from None
    blind = record.get("blind", "")
    if not isinstance(blind, str):
        raise ProofInvalid(f"the {which} receipt's signature is not valid under the key")
    if not record.get("tree_size"):  # signed on its own (docs/audit.md 8.4)
        return SignedReceipt(statement=statement, signature=signature, blind=blind)
    index, size, proof = record.get("leaf_index"), record["tree_size"], record.get("proof")
    if (
        type(index) is not int or type(size) is not int or size < 1 or not isinstance(proof, list)
        or not all(isinstance(h, str) for h in proof)
    ):  # fmt: skip
        # Not the proof's format, but no valid signature either: said as one.
        raise ProofInvalid(f"the {which} receipt's signature is not valid under the key")
    return SignedReceipt(statement=statement, signature=signature, leaf_index=index,
                         tree_size=size, proof=proof, blind=blind)  # fmt: skip


def check_proof(text: str) -> Equivocation:
    """A proof file's equivocation, checked: both signatures valid under its key, one seq,
    two head hashes. ProofInvalid saying what fails otherwise."""
    try:
        proof = json.loads(text)
    except ValueError as exc:
        raise ProofInvalid(f"the proof is not JSON ({exc})") from None
    if not isinstance(proof, dict) or proof.get("format") not in PROOF_FORMATS:
        raise ProofInvalid(f"the proof is not an {' or '.join(PROOF_FORMATS)} object")
    game_id, public_key = proof.get("game_id"), proof.get("public_key")
    receipts = proof.get("receipts")
    if not isinstance(game_id, str) or not isinstance(public_key, str):
        raise ProofInvalid("the proof names no game_id or public_key")
    if not isinstance(receipts, list) or len(receipts) != 2:
        raise ProofInvalid("the proof holds two receipts, no more and no fewer")
    if len(public_key) != 2 * KEY_BYTES or not _HEX.fullmatch(public_key):
        raise ProofInvalid("the proof's public_key is not 64 lowercase hex digits")
    if proof.get("key_id") != key_id_of(public_key):
        raise ProofInvalid("the proof's key_id is not the id of its public_key")
    # /1 holds receipts signed one by one, /2 unblinded trees too, /3 blinded ones too.
    form = PROOF_FORMATS.index(proof["format"])
    first, second = _signed(receipts[0], game_id, "first"), _signed(receipts[1], game_id, "second")
    for which, r in (("first", first), ("second", second)):
        newer = (form < 1 and r.tree_size) or (form < 2 and r.blind)
        if newer or not r.valid(public_key):
            raise ProofInvalid(f"the {which} receipt's signature is not valid under the key")
    if first.statement.head_seq != second.statement.head_seq:
        raise ProofInvalid("the two receipts are of different seqs: they do not conflict")
    if first.statement.head_hash == second.statement.head_hash:
        raise ProofInvalid("the two receipts give the same head hash: they do not conflict")
    return Equivocation(game_id=game_id, public_key=public_key, first=first, second=second)


def receipt_statement(
    signer: ReceiptSigner | None,
    game_id: str,
    reply: str,
    role: str,
    seqs: Sequence[int],
    head_seq: int,
    head_hash: str,
    state_hash: str,
) -> Statement | None:
    """The statement a reply's receipt signs, or None with no signer or receipt. The seq
    range runs from the reply's first seq (`seqs`; 1 for a creation) to the head."""
    if signer is None or not head_hash:
        return None
    return Statement(
        game_id=game_id, key_id=signer.key_id, reply=reply, role=role,
        first_seq=seqs[0] if seqs else head_seq, head_seq=head_seq, head_hash=head_hash,
        state_hash=state_hash,
    )  # fmt: skip
