"""The server's receipt signing keys (docs/audit.md 8.4, docs/security.md "Receipt keys").

The private halves live in the store beside the games' seeds and sealing keys (the
embedded store's files are the owner's alone, 0700/0600; docs/security.md), never in a
log. A new game takes the current key and names it in its GameCreated, so its receipts
are signed by that key for the whole game, whatever key is current later: a rotation
(`umpire keys --rotate`) only changes the key new games take. The first gateway or
command that needs a key makes one (two at once agree on one: first_receipt_key).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from typing import Any

import msgspec

from umpire.events.receipt_signature import ReceiptSigner
from umpire.events.store import Store


class _Created(msgspec.Struct):
    receipt_key_id: str = ""
    receipt_key: str = ""


# How long a process takes the current key (what new games take) as read: a rotation by
# another process is taken up within this (and every create does not read the store for
# it: 200 creates at once would each ask the one node that holds the keys on a cluster).
CURRENT_SECONDS = 30.0
# How many games' signers a process remembers before it forgets them all (each is one
# dict entry; a forgotten one costs one read of its GameCreated the next time).
MAX_GAMES = 65536


class ReceiptKeys:
    """The signers of a store's receipt keys, and which key each game was created with."""

    __slots__ = ("_by_game", "_current", "_lock", "_signers", "draw", "store")

    def __init__(
        self, store: Store, draw: Callable[[], bytes] = lambda: secrets.token_bytes(32)
    ) -> None:
        """`draw` makes a new key's private seed (tests that compare twin stores give
        both one, as they give both one dice seed)."""
        self.store = store
        self.draw = draw
        self._signers: dict[str, ReceiptSigner | None] = {}
        self._by_game: dict[str, ReceiptSigner | None] = {}
        self._current: tuple[float, ReceiptSigner] | None = None
        self._lock = asyncio.Lock()

    async def current(self) -> ReceiptSigner:
        """The key new games take (made and kept if the store holds none); read from the
        store at most once every CURRENT_SECONDS, by one caller at a time."""
        async with self._lock:
            if self._current is not None and time.monotonic() - self._current[0] < CURRENT_SECONDS:
                return self._current[1]
            held = await self.store.receipt_key()
            if held is None:
                seed = self.draw()
                fresh = ReceiptSigner(seed)
                current = await self.store.first_receipt_key(fresh.key_id, seed)
                held = await self.store.receipt_key(current)
                assert held is not None, "the current receipt key was just kept"
            signer = self._remember(ReceiptSigner(held[1]))
            self._current = (time.monotonic(), signer)
            return signer

    async def rotate(self) -> ReceiptSigner:
        """A fresh key, current from now on for new games (older games keep theirs)."""
        seed = self.draw()
        fresh = ReceiptSigner(seed)
        await self.store.keep_receipt_key(fresh.key_id, seed, current=True)
        self._current = (time.monotonic(), fresh)
        return self._remember(fresh)

    def _remember(self, signer: ReceiptSigner) -> ReceiptSigner:
        self._signers[signer.key_id] = signer
        return signer

    def created_with(self, game_id: str, signer: ReceiptSigner) -> None:
        """A game was just created under `signer`'s key."""
        self._by_game[game_id] = signer

    def cached(self, game_id: str) -> ReceiptSigner | None:
        """The signer of a game's receipts if it is known already (no I/O), else None."""
        return self._by_game.get(game_id)

    async def for_game(self, game_id: str, created: bytes | None = None) -> ReceiptSigner | None:
        """The signer of a game's receipts: the key its GameCreated names (its payload,
        `created`, or read from the store), if the store still holds it; None for a game
        from before signed receipts or whose key was lost (docs/operations.md)."""
        if game_id in self._by_game:
            return self._by_game[game_id]
        if created is None:
            first = await self.store.read(game_id, 1, 1)
            created = first[0].payload if first else b""
        try:
            named = msgspec.msgpack.decode(created, type=_Created)
        except (msgspec.DecodeError, msgspec.ValidationError):
            named = _Created()
        signer: ReceiptSigner | None = None
        if named.receipt_key_id:
            if named.receipt_key_id not in self._signers:
                held = await self.store.receipt_key(named.receipt_key_id)
                self._signers[named.receipt_key_id] = ReceiptSigner(held[1]) if held else None
            signer = self._signers[named.receipt_key_id]
            if signer is not None and signer.public_key != named.receipt_key:
                signer = None  # a key of that id that is not the one the game names
        if len(self._by_game) >= MAX_GAMES:
            self._by_game.clear()
        self._by_game[game_id] = signer
        return signer

    async def listing(self) -> list[dict[str, Any]]:
        """/keys.json's keys: each kept key's id and public half, the current one marked."""
        held = await self.store.receipt_key()
        current = held[0] if held else ""
        keys = await self.store.receipt_keys()
        return [
            {"key_id": key_id, "algorithm": "Ed25519",
             "public_key": ReceiptSigner(seed).public_key, "current": key_id == current}
            for key_id, seed in sorted(keys.items())
        ]  # fmt: skip
