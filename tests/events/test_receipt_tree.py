"""Batch receipts (docs/audit.md 8.4): one signature over a Merkle tree of one loop turn's
receipt statements, in RFC 9162's shape, each receipt with its inclusion proof.

The reference here is RFC 9162 2.1.1 and 2.1.3.1 written out as the RFC writes them
(recursive, the left subtree the largest power of two below the size); the code builds
the tree bottom up. Every leaf's proof must verify (RFC 9162 2.1.3.2), and any flipped bit
of the leaf, a proof element, the index or the size must not.
"""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from umpire.events.receipt_signature import (
    ReceiptSigner,
    Statement,
    inclusion_proof,
    leaf_hash,
    root_from_proof,
    sign_batch,
    signature_valid,
    tree_levels,
)

SIGNER = ReceiptSigner(hashlib.sha256(b"tree test key").digest())


def _split(n: int) -> int:
    """RFC 9162 2.1.1: the largest power of two smaller than n (n > 1)."""
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def mth(leaves: list[bytes]) -> bytes:
    """RFC 9162 2.1.1: MTH(D[n]) over leaf entries (not yet hashed)."""
    if len(leaves) == 1:
        return hashlib.sha256(b"\x00" + leaves[0]).digest()
    k = _split(len(leaves))
    return hashlib.sha256(b"\x01" + mth(leaves[:k]) + mth(leaves[k:])).digest()


def path(m: int, leaves: list[bytes]) -> list[bytes]:
    """RFC 9162 2.1.3.1: PATH(m, D[n]), leaf to root."""
    if len(leaves) == 1:
        return []
    k = _split(len(leaves))
    if m < k:
        return [*path(m, leaves[:k]), mth(leaves[k:])]
    return [*path(m - k, leaves[k:]), mth(leaves[:k])]


def _flip(data: bytes, bit: int) -> bytes:
    bit %= 8 * len(data)
    out = bytearray(data)
    out[bit // 8] ^= 1 << (bit % 8)
    return bytes(out)


def _statement(i: int) -> Statement:
    return Statement(
        game_id=f"g{i:016x}", key_id=SIGNER.key_id, reply="accepted", role="player",
        first_seq=i + 1, head_seq=i + 2, head_hash=f"{i:064x}", state_hash="cd" * 32,
    )  # fmt: skip


def test_the_tree_has_rfc_9162s_shape_for_sizes_1_to_17() -> None:
    for n in range(1, 18):
        entries = [b"entry %d" % i for i in range(n)]
        levels = tree_levels([leaf_hash(e) for e in entries])
        assert levels[-1] == [mth(entries)], n
        for m in range(n):
            assert inclusion_proof(levels, m) == path(m, entries), (n, m)
            # RFC 9162 2.1.3.2: a proof one hash short or long for the index and size leads
            # to no root at all (not merely to another one).
            proof, leaf = path(m, entries), leaf_hash(entries[m])
            assert root_from_proof(leaf, m, n, [*proof, bytes(32)]) is None, (n, m)
            if proof:
                assert root_from_proof(leaf, m, n, proof[:-1]) is None, (n, m)


@settings(max_examples=300, deadline=None)
@given(
    size=st.integers(1, 17),
    pick=st.integers(0, 16),
    bit=st.integers(0, 255),
    what=st.sampled_from(["leaf", "proof", "index", "size"]),
)
def test_every_proof_verifies_and_any_flipped_bit_fails(
    size: int, pick: int, bit: int, what: str
) -> None:
    entries = [b"statement %d" % i for i in range(size)]
    levels = tree_levels([leaf_hash(e) for e in entries])
    index = pick % size
    leaf, proof = leaf_hash(entries[index]), inclusion_proof(levels, index)
    assert root_from_proof(leaf, index, size, proof) == levels[-1][0]
    # What is signed is the root with the size: a proof alone does not fix the size (leaf
    # 0's path is the same in trees of 5 to 8), the signed root statement does.
    signature = SIGNER.sign_root(levels[-1][0], size, blinded=False)

    def verifies(leaf: bytes, index: int, size: int, proof: list[bytes]) -> bool:
        root = root_from_proof(leaf, index, size, proof)
        return root is not None and SIGNER.sign_root(root, size, blinded=False) == signature

    assert verifies(leaf, index, size, proof)
    if what == "leaf":
        leaf = _flip(leaf, bit)
    elif what == "proof":
        if not proof:  # a tree of one has no proof: add an element instead
            proof = [bytes(32)]
        else:
            proof = list(proof)
            proof[bit % len(proof)] = _flip(proof[bit % len(proof)], bit)
    elif what == "index":
        index ^= 1 << (bit % 6)
    else:
        size ^= 1 << (bit % 6)
    assert not verifies(leaf, index, size, proof)


def test_an_unblinded_batch_is_one_signature_and_each_receipt_verifies_alone() -> None:
    """The trees signed before blinds (`batch/1`): each receipt still verifies."""
    statements = [_statement(i) for i in range(5)]
    signed = sign_batch(SIGNER, statements, blinds=None)
    assert len({s.signature for s in signed}) == 1
    assert [(s.leaf_index, s.tree_size) for s in signed] == [(i, 5) for i in range(5)]
    for statement, s in zip(statements, signed, strict=True):
        batch = (s.leaf_index, s.tree_size, s.proof)
        assert signature_valid(SIGNER.public_key, statement, s.signature, batch)
        # Not signed on its own, nor under another index, size or statement.
        assert not signature_valid(SIGNER.public_key, statement, s.signature)
        assert not signature_valid(SIGNER.public_key, statement, s.signature,
                                   ((s.leaf_index + 1) % 5, 5, s.proof))  # fmt: skip
        assert not signature_valid(SIGNER.public_key, statement, s.signature,
                                   (s.leaf_index, 6, s.proof))  # fmt: skip
        other = _statement(9)
        assert not signature_valid(SIGNER.public_key, other, s.signature, batch)


def test_a_tree_of_one_has_no_proof_and_its_root_is_the_leaf() -> None:
    statement = _statement(0)
    (signed,) = sign_batch(SIGNER, [statement], blinds=None)
    assert (signed.leaf_index, signed.tree_size, signed.proof) == (0, 1, [])
    assert signature_valid(SIGNER.public_key, statement, signed.signature, (0, 1, []))
    # The root statement signed is over the leaf's hash itself.
    leaf = leaf_hash(statement.signed_bytes())
    assert SIGNER.sign_root(leaf, 1, blinded=False) == signed.signature
