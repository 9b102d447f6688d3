"""Receipts for the audit tests (docs/audit.md 8.1): a game of every ruleset with a
mid-game reveal, the receipts this machine kept of it, and both verifiers' verdicts."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import msgspec
import redis
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from umpire.engine import registry
from umpire.events.receipt import read_receipts
from umpire.events.receipt_signature import (
    BLIND_BYTES,
    ReceiptSigner,
    Statement,
    leaf_hash,
    root_from_proof,
    root_statement,
    sign_batch,
    signature_valid,
)
from umpire.events.wire import Accepted
from umpire.testing.support.drivers import start_setup
from umpire.testing.support.forgery import Cli, write_lines
from umpire.testing.support.verifier import after_headline, verify_with


def accepted_statement(accepted: Accepted) -> Statement:
    """The statement a player's `accepted` reply's signature covers (docs/audit.md 8.4)."""
    return Statement(
        game_id=accepted.game_id, key_id=accepted.key_id, reply="accepted", role="player",
        first_seq=accepted.seqs[0], head_seq=accepted.head_seq, head_hash=accepted.head_hash,
        state_hash=accepted.state_hash,
    )  # fmt: skip


def accepted_verifies(key: str, accepted: Accepted) -> bool:
    """Whether an `accepted` reply's batch signature verifies under the game's key."""
    batch = (accepted.leaf_index, accepted.tree_size, accepted.proof)
    return signature_valid(
        key, accepted_statement(accepted), accepted.signature, batch, accepted.blind
    )


def revealed_midway(cli: Cli, ruleset: str) -> str:
    """A game of `ruleset`: its openings, a mid-game reveal (`umpire reveal`: epoch 1
    begins under a fresh commitment), a generic 2d6 roll, and the end (the final reveal)."""
    game = cli.new(ruleset, start_setup(ruleset))
    for command in registry.get(ruleset).openings:
        cli.send(game, msgspec.to_builtins(command))
    assert cli("reveal", game).code == 0
    cli.send(game, {"type": "RollDice", "dice": "2d6", "purpose": "receipts test"})
    cli.send(game, {"type": "EndGame", "result": "receipts test over"})
    return game


def receipts_of(cli: Cli, game: str) -> Path:
    """`umpire receipts GAME` written to a file, as the player would keep it."""
    result = cli("receipts", game)
    assert result.code == 0, result.err
    path = cli.tmp / f"{game}.receipts.jsonl"
    path.write_text(result.out)
    return path


def verdicts(
    cli: Cli, header: dict[str, Any], records: list[dict[str, Any]], name: str,
    receipts: Path | None,
) -> tuple[str, str]:  # fmt: skip
    """(verify_export.py's, `umpire audit --file`'s) exit code and output, one line each,
    on these records written as an export, with `receipts` if given."""
    path = write_lines(cli.tmp / f"{name}.jsonl", header, records)
    extra = ("--receipts", str(receipts)) if receipts is not None else ()
    code, verified = verify_with(path, *extra)
    audited_code, audited = audit_verdict(cli, path, receipts)
    return f"{code} {' '.join(after_headline(verified).split())}", f"{audited_code} {audited}"


def audit_verdict(cli: Cli, path: Path, receipts: Path | None) -> tuple[int, str]:
    """`umpire audit --file PATH` (with `--receipts`, if given; else `--no-receipts`, not
    the receipts this machine kept): its exit code and output, stdout and stderr, on one
    line."""
    extra = ("--receipts", str(receipts)) if receipts is not None else ("--no-receipts",)
    audited = cli("audit", "--file", str(path), *extra)
    return audited.code, " ".join(f"{after_headline(audited.out)} {audited.err}".split())


def server_signer(cli: Cli) -> ReceiptSigner:
    """The store's current receipt key, as a server that misbehaves holds it: what signs a
    receipt the honest code would never give (a view the log does not make, a second head)."""
    client = redis.Redis.from_url(cli.redis_url)
    try:
        key = f"{cli.prefix}:receipt-keys"
        current = client.hget(key, "current")
        assert current is not None, "no receipt key in the store"
        seed = client.hget(key, current)
        assert seed is not None
    finally:
        client.close()
    return ReceiptSigner(bytes.fromhex(seed.decode()))


def signed_line(
    record: dict[str, Any], game_id: str, signer: ReceiptSigner, *, blinded: bool = True
) -> dict[str, Any]:
    """A receipts file's receipt line (`record`, changed as a test likes) signed anew, as
    the middle leaf of a batch of three (docs/audit.md 8.4): blinded as the server signs
    now, or (`blinded` False) an unblinded `batch/1` tree as before blinds."""
    _, (anchor,) = read_receipts(
        json.dumps({"format": "umpire-receipts/3", "game_id": game_id}) + "\n"
        + json.dumps(record) + "\n"
    )  # fmt: skip
    anchor = msgspec.structs.replace(anchor, key_id=signer.key_id,
                                     first_seq=anchor.first_seq or anchor.head_seq)  # fmt: skip
    statement = anchor.statement(game_id)
    others = [msgspec.structs.replace(statement, head_seq=statement.head_seq + n) for n in (1, 2)]
    blinds = os.urandom(3 * BLIND_BYTES) if blinded else None
    _, signed, _ = sign_batch(signer, [others[0], statement, others[1]], blinds=blinds)
    record = {k: v for k, v in record.items() if k != "blind"}
    return {**record, "key_id": signer.key_id, "first_seq": anchor.first_seq,
            "signature": signed.signature, "leaf_index": signed.leaf_index,
            "tree_size": signed.tree_size, "proof": signed.proof,
            **({"blind": signed.blind} if blinded else {})}  # fmt: skip


def with_lines(receipts: Path, name: str, *records: dict[str, Any]) -> Path:
    """A copy of a receipts file with `records` appended as lines (named `name`)."""
    path = receipts.with_name(f"{name}.receipts.jsonl")
    path.write_text(receipts.read_text() + "".join(json.dumps(r) + "\n" for r in records))
    return path


def last_accepted(receipts: Path) -> dict[str, Any]:
    """The last `accepted` receipt line of a receipts file."""
    lines = [json.loads(line) for line in receipts.read_text().splitlines()[1:]]
    return [r for r in lines if r.get("reply") == "accepted"][-1]


def fabricated(receipts: Path) -> Path:
    """The receipts with two lines a player could write without the server's key: the last
    accepted receipt with another head hash, once unsigned and once with its signature
    kept (now over other bytes). Before signed receipts, they framed an honest export."""
    real = last_accepted(receipts)
    unsigned = {k: v for k, v in real.items() if k not in ("key_id", "signature", "first_seq")}
    return with_lines(
        receipts, "fabricated", unsigned | {"head_hash": "ab" * 32}, real | {"head_hash": "cd" * 32}
    )


def marked(receipts: Path) -> Path:
    """The receipts as a client that checks signatures keeps them (docs/audit.md 8.1): one
    more line, the last accepted receipt with its signature's first digit flipped in flight,
    marked `client_check`; and an honest receipt marked too (a mark is the client's note,
    never a verdict: every verifier checks each signature itself)."""
    real = last_accepted(receipts)
    flipped = ("1" if real["signature"][0] == "0" else "0") + real["signature"][1:]
    note = "the signature does not verify under the game's key"
    lines = receipts.read_text().splitlines()
    honest = json.loads(lines[-1]) | {"client_check": note}
    path = receipts.with_name("marked.receipts.jsonl")
    path.write_text("".join(line + "\n" for line in [*lines[:-1], json.dumps(honest)]) + (
        json.dumps(real | {"signature": flipped, "client_check": note}) + "\n"
    ))  # fmt: skip
    return path


def conflicting(cli: Cli, game_id: str, receipts: Path) -> Path:
    """The receipts with one more, signed by the game's key, that gives the last accepted
    receipt's seq another head hash: what a server that showed two histories gives out."""
    other = last_accepted(receipts) | {"head_hash": "ef" * 32, "command_id": "other-history"}
    return with_lines(receipts, "conflicting", signed_line(other, game_id, server_signer(cli)))


def one_by_one(cli: Cli, receipts: Path) -> Path:
    """The receipts as a version 2 file (before batches): each signed receipt signed on
    its own by the game's key, over its statement (no tree fields)."""
    signer = server_signer(cli)
    lines = [json.loads(line) for line in receipts.read_text().splitlines()]
    game_id = lines[0]["game_id"]
    out = [lines[0] | {"format": "umpire-receipts/2"}]
    for record in lines[1:]:
        if record.get("signature"):
            record = {k: v for k, v in record.items()
                      if k not in ("leaf_index", "tree_size", "proof", "blind")}  # fmt: skip
            _, (anchor,) = read_receipts(json.dumps(out[0]) + "\n" + json.dumps(record) + "\n")
            record |= {"signature": signer.sign(anchor.statement(game_id))}
        out.append(record)
    path = receipts.with_name("one-by-one.receipts.jsonl")
    path.write_text("".join(json.dumps(r) + "\n" for r in out))
    return path


def unblinded(cli: Cli, game_id: str, receipts: Path) -> Path:
    """The receipts as the server signed them before blinds (docs/audit.md 8.4): each
    signed receipt the middle leaf of an unblinded `batch/1` tree, without `blind`."""
    signer = server_signer(cli)
    lines = [json.loads(line) for line in receipts.read_text().splitlines()]
    out = [lines[0]] + [
        signed_line(r, game_id, signer, blinded=False) if r.get("signature") else r
        for r in lines[1:]
    ]
    path = receipts.with_name("unblinded.receipts.jsonl")
    path.write_text("".join(json.dumps(r) + "\n" for r in out))
    return path


_TREE = ("leaf_index", "tree_size", "proof", "blind")


def older_proofs(cli: Cli, record: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A version 3 proof (`record`) as the server's key would have made it before blinds
    (version 2: each receipt the middle leaf of an unblinded tree) and before batches
    (version 1: each signed on its own): both still proofs (docs/audit.md 8.5)."""
    signer = server_signer(cli)
    game_id = record["game_id"]
    v1, v2 = [], []
    for r in record["receipts"]:
        plain = {k: v for k, v in r.items() if k not in _TREE}
        line = signed_line({"kind": "receipt", "command_id": "", **plain}, game_id, signer,
                           blinded=False)  # fmt: skip
        v2.append({k: v for k, v in line.items() if k not in ("kind", "command_id")})
        statement = Statement(
            game_id=game_id, key_id=r["key_id"], reply=r["reply"], role=r["role"],
            first_seq=r["first_seq"], head_seq=r["head_seq"], head_hash=r["head_hash"],
            state_hash=r["state_hash"],
        )  # fmt: skip
        v1.append(plain | {"signature": signer.sign(statement)})
    return {
        "proof of version 2": record | {"format": "umpire-equivocation/2", "receipts": v2},
        "proof of version 1": record | {"format": "umpire-equivocation/1", "receipts": v1},
    }


def forged_batches(cli: Cli, game_id: str, receipts: Path) -> dict[str, Path]:
    """Receipts files each with one more line: a batch receipt the game's key signed that
    gives the last accepted receipt's seq another head hash ("signed": an equivocation),
    and that line with its proof, index, size or blind changed, its blind dropped, or its
    root signed by another key ("another key"): none of those is signed by the game's
    key."""
    line = signed_line(
        last_accepted(receipts) | {"head_hash": "ef" * 32, "command_id": "other-history"},
        game_id, server_signer(cli),
    )  # fmt: skip
    proof = list(line["proof"])
    proof[0] = ("0" if proof[0][0] != "0" else "1") + proof[0][1:]
    other = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    size, index = line["tree_size"], line["leaf_index"]
    statement = read_receipts(
        json.dumps({"format": "umpire-receipts/3", "game_id": game_id}) + "\n"
        + json.dumps(line) + "\n"
    )[1][0].statement(game_id)  # fmt: skip
    leaf = leaf_hash(statement.signed_bytes(), bytes.fromhex(line["blind"]))
    root = root_from_proof(leaf, index, size, [bytes.fromhex(h) for h in line["proof"]])
    assert root is not None
    by_other = other.sign(root_statement(line["key_id"], root, size, True)).hex()
    blind = line["blind"]
    flipped = "0" if blind[-1] != "0" else "1"
    no_blind = {k: v for k, v in line.items() if k != "blind"}
    variants = {
        "signed": line,
        "a proof element changed": line | {"proof": proof},
        "another index": line | {"leaf_index": index + 1},
        "another size": line | {"tree_size": size + 1},
        "no proof": line | {"proof": []},
        "another key": line | {"signature": by_other},
        "a blind changed": line | {"blind": blind[:-1] + flipped},
        "no blind": no_blind,
    }
    return {name: with_lines(receipts, f"forged-{n}", record)
            for n, (name, record) in enumerate(variants.items())}  # fmt: skip
