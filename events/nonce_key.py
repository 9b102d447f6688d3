"""The secret a client derives its command nonces from, kept beside its receipts.

A command's nonce (docs/protocol.md "Command nonces") is entropy the server's rolls of
that command also derive from. A client must send the same nonce every time it sends one
command id: a server that withholds the answer to a command (having seen its roll) and
waits for the resend would otherwise get a second draw of the dice. A nonce drawn at
random and held in memory is lost with the process, so a restarted client drew a fresh
one. Here the nonce is derived, not drawn: the first 32 hex digits of
HMAC-SHA256(key, "<game_id>:<command_id>"), under a 32-byte key made once and kept in the
client's receipts folder (`nonce.key`, 64 hex digits, made 0600 in a 0700 folder, and
read only if it is this user's own file: events/private_folder.py). Every
restart of every client holding the key sends the same nonce for a command id, and
nobody without the key can compute a nonce before its command is sent. The browser client
does the same with a key of its own in IndexedDB (clients/web/umpire.js).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
from pathlib import Path

from umpire.events.errors import UmpireError
from umpire.events.private_folder import open_private

KEY_FILE = "nonce.key"
KEY_BYTES = 32
NONCE_HEX = 32


class NonceKeyInvalid(UmpireError):
    """The nonce key file holds something other than a key."""

    code = "nonce_key_invalid"


def derive_nonce(key: bytes, game_id: str, command_id: str) -> str:
    """The nonce of command `command_id` of `game_id` under `key` (module docstring)."""
    message = f"{game_id}:{command_id}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:NONCE_HEX]


def _read(path: Path) -> bytes:
    # This user's own regular file only: a key another account planted (or a symlink it
    # put in its place) would let it compute every nonce before its command is sent.
    with os.fdopen(open_private(path, os.O_RDONLY), encoding="ascii", errors="replace") as f:
        text = f.read().strip()
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise NonceKeyInvalid(
            f"{path} is not a nonce key ({2 * KEY_BYTES} hex digits): restore it from a "
            "backup; a new key would give a command id sent before another nonce",
            path=str(path),
        )
    return key


def load_nonce_key(directory: str | os.PathLike[str]) -> bytes:
    """The key kept in `directory`, made there first if there is none.

    Made by writing a file of its own and linking it into place, so two clients that
    start at once both end up with the one key that won (never a half-written file)."""
    folder = Path(directory)
    path = folder / KEY_FILE
    with contextlib.suppress(FileNotFoundError):
        return _read(path)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    draft = folder / f".{KEY_FILE}.{secrets.token_hex(8)}"
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(secrets.token_bytes(KEY_BYTES).hex() + "\n")
            f.flush()
            os.fsync(f.fileno())
        with contextlib.suppress(FileExistsError):  # another client made it first
            os.link(draft, path)
    finally:
        draft.unlink(missing_ok=True)
    return _read(path)
