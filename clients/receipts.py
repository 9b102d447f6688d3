"""Where the Python client keeps the receipts of the games it plays (docs/audit.md 8.1).

`UmpireClient(url, receipts=...)` keeps, for every game it plays, the anchors the server
gives it: the seed commitment of epoch 0 (`created`) and of each later epoch (the
`next_commitment` of a mid-game reveal it sees in its subscription), and the receipt of
every `created`, `accepted` and `state` it receives. A store is any object with `keep`
and `export` (the `Receipts` protocol); two ship here:

- `MemoryReceipts()` (the default): kept in the client object, lost with it;
- `ReceiptFiles(directory)`: one file per game, `<directory>/<game_id>.jsonl`, in the
  receipts file format itself (a header line, then one anchor a line, appended as they
  come), so the file is what the verifiers take: `verify_export.py EXPORT --receipts FILE`.

Each also keeps the key the client derives its command nonces from (`nonce_key()`,
events/nonce_key.py): `ReceiptFiles` in `<directory>/nonce.key`, so a client restarted on
the same folder sends a command id again with the same nonce.

`export(game_id)` gives the receipts file of a game as text (umpire-receipts/3: each
receipt with the server's signature and the tree it covers, the header with the game's key
when `created` gave it).

`machine_receipts()` is the folder the `umpire` command line keeps them in, on this
machine: `<data dir>/receipts` (`UMPIRE_DATA_DIR`, else `$XDG_DATA_HOME/umpire` or
`~/.local/share/umpire`), which `umpire receipts GAME` prints from and `umpire import`
checks against; `umpire play` keeps its receipts there.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from umpire.events.envelope import check_game_id
from umpire.events.nonce_key import KEY_BYTES, load_nonce_key
from umpire.events.private_folder import open_private, private_folder
from umpire.events.receipt import Anchor, receipts_header, signed_by
from umpire.events.receipt_signature import KEY_BYTES as PUBLIC_KEY_BYTES
from umpire.events.receipt_signature import key_id_of

__all__ = [
    "MemoryReceipts", "ReceiptFiles", "Receipts", "commitment", "machine_receipts", "receipt",
    "receipt_fault",
]  # fmt: skip


class Receipts(Protocol):
    """A store of anchors by game."""

    def keep(self, game_id: str, anchor: Anchor, public_key: str = "") -> None:
        """Keep one anchor of a game (in the order received); `public_key`, the game's
        receipt key as `created` gave it, goes into the file's header."""
        ...

    def export(self, game_id: str) -> str:
        """The game's receipts file (docs/audit.md 8.1) as text."""
        ...

    def nonce_key(self) -> bytes:
        """The key the client derives its command nonces from (events/nonce_key.py),
        kept with these receipts: the same for as long as they are."""
        ...


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def receipt(
    reply: str,
    command_id: str,
    role: str,
    seq: int,
    head: str,
    state: str,
    *,
    first_seq: int = 0,
    key_id: str = "",
    signature: str = "",
    leaf_index: int = 0,
    tree_size: int = 0,
    proof: Sequence[str] = (),
    blind: str = "",
) -> Anchor:
    """A receipt as received with a `created`, `accepted` or `state`, with its signature
    (docs/audit.md 8.4) if the reply carried one, and the tree that signature covers
    (`tree_size` 0: a receipt signed on its own, as before batches) with its leaf's blind
    ("" for an unblinded tree's)."""
    signed = bool(signature)
    return Anchor(
        kind="receipt", reply=reply, command_id=command_id, role=role, head_seq=seq,
        head_hash=head, state_hash=state, received_at=_now(),
        first_seq=first_seq if signed else 0, key_id=key_id, signature=signature,
        leaf_index=leaf_index if signed else 0, tree_size=tree_size if signed else 0,
        proof=tuple(proof) if signed else (), blind=blind if signed else "",
    )  # fmt: skip


def receipt_fault(game_id: str, anchor: Anchor, public_key: str) -> str:
    """What is wrong with a receipt's signature (`created`, `accepted` or `state`) under
    the game's receipt key (docs/audit.md 8.4), in a few words, or "" if nothing is. A
    game whose key is "" (created before signed receipts) has nothing to check against:
    "" too."""
    if not public_key:
        return ""
    if len(public_key) != 2 * PUBLIC_KEY_BYTES or not all(c in HEX for c in public_key):
        return "the game's receipt key is not 64 lowercase hex digits"
    if not anchor.signature:
        return "the reply carries no signature"
    if anchor.key_id != key_id_of(public_key):
        return f"signed by key {anchor.key_id!r}, not the game's key {key_id_of(public_key)}"
    if not signed_by(anchor, game_id, public_key):
        return "the signature does not verify under the game's key"
    return ""


HEX = frozenset("0123456789abcdef")


def commitment(epoch: int, value: str) -> Anchor:
    """The seed commitment of a seed epoch as announced."""
    return Anchor(kind="commitment", epoch=epoch, commitment=value, received_at=_now())


def _text(game_id: str, anchors: list[Anchor], public_key: str = "") -> str:
    return "".join(line + "\n" for line in [receipts_header(game_id, public_key)] + [
        a.line_json() for a in anchors
    ])  # fmt: skip


class MemoryReceipts:
    """Anchors kept in memory (the client's default)."""

    def __init__(self) -> None:
        self.games: dict[str, list[Anchor]] = {}
        self._nonce_key = secrets.token_bytes(KEY_BYTES)  # kept, and lost, with the rest
        self.keys: dict[str, str] = {}

    def keep(self, game_id: str, anchor: Anchor, public_key: str = "") -> None:
        self.games.setdefault(game_id, []).append(anchor)
        if public_key:
            self.keys.setdefault(game_id, public_key)

    def export(self, game_id: str) -> str:
        return _text(game_id, self.games.get(game_id, []), self.keys.get(game_id, ""))

    def nonce_key(self) -> bytes:
        return self._nonce_key


class ReceiptFiles:
    """One receipts file per game in `directory` (made 0700; files 0600)."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self._checked: Path | None = None

    def path(self, game_id: str) -> Path:
        """The game's receipts file (a game id from the server names no other file)."""
        return self.directory / f"{check_game_id(game_id)}.jsonl"

    def _folder(self) -> Path:
        """The folder, made private on first use (events/private_folder.py): a folder
        another account made first, or reaches through a directory or symlink of its own,
        is refused (UnsafeComponent), so it can neither plant the nonce key nor swap a
        receipts file for a symlink."""
        if self._checked is None:
            self._checked = private_folder(self.directory)
        return self._checked

    def keep(self, game_id: str, anchor: Anchor, public_key: str = "") -> None:
        path = self._folder() / self.path(game_id).name
        fd = open_private(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        with os.fdopen(fd, "a", encoding="utf-8") as f:
            fresh = os.fstat(fd).st_size == 0
            head = receipts_header(game_id, public_key) + "\n" if fresh else ""
            f.write(head + anchor.line_json() + "\n")

    def export(self, game_id: str) -> str:
        path = self._folder() / self.path(game_id).name
        try:
            fd = open_private(path, os.O_RDONLY)
        except FileNotFoundError:
            return _text(game_id, [])
        with os.fdopen(fd, encoding="utf-8") as f:
            return f.read()

    def nonce_key(self) -> bytes:
        """`<directory>/nonce.key`, made (0600) on first use and read on every restart."""
        return load_nonce_key(self._folder())


def machine_receipts() -> ReceiptFiles:
    """The receipts folder of this machine's data directory (module docstring)."""
    data = os.environ.get("UMPIRE_DATA_DIR", "").strip()
    if not data:
        base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
        data = os.path.join(base, "umpire")
    return ReceiptFiles(Path(data) / "receipts")
