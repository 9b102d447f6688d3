"""`umpire proof` and `umpire keys`: proofs of equivocation and the receipt keys.

`umpire proof --receipts FILE [--receipts FILE ...] [-o PROOF.json]` looks through the
receipts of one game for two that the game's key signed and that give one seq two head
hashes, and writes them with the key as one small self-contained file (docs/audit.md 8.5),
which `umpire proof --check`, `verify_export.py --proof` and the /verify page each check
on their own. Exit codes: 0 a proof written (or checked), 1 none found (or not a proof),
2 bad input.

`umpire keys [--rotate]` lists the server's receipt keys (what /keys.json serves), or makes
a fresh one current for new games (docs/operations.md "Receipt keys").
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from umpire.events.errors import UmpireError
from umpire.events.receipt import ReceiptsInvalid, equivocation_in, read_receipts_file
from umpire.events.receipt_signature import ProofInvalid, check_proof, key_id_of
from umpire.events.terminal_text import shown, terminal
from umpire.server.config import Settings
from umpire.server.input_files import utf8_text
from umpire.server.output_files import write_output
from umpire.server.receipt_keys import ReceiptKeys
from umpire.server.store_access import open_store

NO_PROOF = 1
console = terminal(highlight=False, soft_wrap=True)
_KEY = re.compile(r"[0-9a-f]{64}")


def cmd_proof(settings: Settings, args: argparse.Namespace) -> int:
    """Write (or `--check`) a proof of equivocation."""
    if args.check is not None:
        try:
            proven = check_proof(_read(args.check, "the proof", ProofInvalid))
        except ProofInvalid as exc:
            console.print(f"NOT A PROOF: {shown(str(args.check))}: {shown(exc.message)}")
            return NO_PROOF
        console.print(shown(proven.summary()))
        console.print(f"  key {key_id_of(proven.public_key)} ({proven.public_key}): compare it "
                      "with the game's GameCreated and the server's /keys.json")  # fmt: skip
        return 0
    if not args.receipts:
        raise ReceiptsInvalid("give the receipts to look through (--receipts FILE), or --check")
    games: set[str] = set()
    keys: set[str] = {args.key} if args.key else set()
    anchors = []
    for path in args.receipts:
        text = _read(path, f"the receipts file {path}", ReceiptsInvalid)
        game_id, public_key, found = read_receipts_file(text, str(path))
        games.add(game_id)
        keys |= {public_key} if public_key and not args.key else set()
        anchors += found
    if len(games) != 1:
        raise ReceiptsInvalid(f"the receipts are of several games ({', '.join(sorted(games))})")
    if len(keys) != 1 or not _KEY.fullmatch(next(iter(keys))):
        raise ReceiptsInvalid(
            "the game's public receipt key is needed: no receipts file's header names one, "
            "or they name different ones; give it with --key HEX (GameCreated.receipt_key, "
            "or the server's /keys.json)"
        )
    (game_id,), (public_key,) = games, keys
    proof = equivocation_in(anchors, game_id, public_key)
    if proof is None:
        console.print("no proof: no two receipts signed by the game's key give one seq two "
                      "head hashes")  # fmt: skip
        return NO_PROOF
    if args.out is None:
        sys.stdout.write(proof.text())
    else:
        write_output(args.out, proof.text())
        console.print(f"{shown(proof.summary())}\n  written to {shown(str(args.out))}")
    return 0


def _read(path: Path, what: str, error: type[UmpireError]) -> str:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise error(f"{what} cannot be read ({exc.strerror or exc})") from None
    return utf8_text(raw, what, error)


async def cmd_keys(settings: Settings, args: argparse.Namespace) -> int:
    """List the receipt keys, or rotate to a fresh one."""
    async with open_store(settings) as store:
        keys = ReceiptKeys(store)
        if args.rotate:
            fresh = await keys.rotate()
            console.print(f"new games take receipt key {fresh.key_id} ({fresh.public_key}); "
                          "games created before keep theirs")  # fmt: skip
            return 0
        listed = await keys.listing()
    if not listed:
        console.print("no receipt key yet: the first game created makes one")
    else:  # the columns named once: a bare hex id and a bare key say nothing of which is which
        console.print(
            "receipt signing keys: id, algorithm, public key; new games take the current one"
        )
    for key in listed:
        mark = " (current)" if key["current"] else ""
        console.print(f"{key['key_id']}  Ed25519  {key['public_key']}{mark}")
    return 0
