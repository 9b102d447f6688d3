"""Seed epochs (docs/audit.md "Seed epochs"): which seed opens the commitments of an event.

A game's server seeds come in epochs 0, 1, 2, ... Events before the first SeedRevealed
are epoch 0; events after the k-th SeedRevealed, up to and including the (k+1)-th, are
epoch k (a SeedRevealed belongs to the epoch whose seed it publishes). So the k-th
SeedRevealed (k = 1, 2, ...) publishes the seed of epoch k - 1, and an epoch with no
SeedRevealed yet has no known seed.

A ruleset secret (a committed event other than a DiceRolled) is keyed from the game's
sealing key instead, which only the final reveal publishes (its `sealing_key`; a log from
before sealing keys: the event's epoch seed, opened once the log is finally revealed). So
is a hidden roll of a game whose GameCreated commits to its sealing key
(`sealing_commitment`): its faces derive from that key too (engine/dice.py `roll_key`), and
a mid-game reveal leaves it shut.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence

import msgspec
from msgspec import Struct

from umpire.events.envelope import Envelope

SEED_REVEALED = "SeedRevealed"
DICE_ROLLED = "DiceRolled"
GAME_CREATED = "GameCreated"


class _Revealed(Struct):
    """The fields of SeedRevealed that epochs need (other fields are ignored)."""

    seed: str
    next_commitment: str = ""
    sealing_key: str = ""


class _Created(Struct):
    """The field of GameCreated that epochs need: whether hidden rolls are sealed."""

    sealing_commitment: str = ""


_revealed_decoder = msgspec.msgpack.Decoder(_Revealed)
_created_decoder = msgspec.msgpack.Decoder(_Created)


class Epochs:
    """The epoch of every seq and the revealed seed that opens it, from the seqs and seeds
    of a log's SeedRevealed events in log order."""

    def __init__(
        self,
        reveals: Sequence[tuple[int, bytes]],
        *,
        final: bool = False,
        sealing_key: bytes = b"",
        sealed_dice: bool = False,
    ) -> None:
        self._seqs = [seq for seq, _ in reveals]
        self._seeds = [seed for _, seed in reveals]
        self.final = final
        self.sealing_key = sealing_key
        self.sealed_dice = sealed_dice

    def key_of(self, env: Envelope) -> bytes | None:
        """The key that opens a committed event's commitment, or None while it cannot be
        opened: a ruleset secret's, and a hidden roll's in a game with a sealing commitment,
        is the sealing key the final reveal publishes (its epoch's seed in a log without
        one), so a mid-game reveal leaves it shut; an older game's hidden roll's is its
        epoch's seed."""
        if env.type == DICE_ROLLED and not self.sealed_dice:
            return self.seed_of(env.seq)
        if not self.final:
            return None
        return self.sealing_key or self.seed_of(env.seq)

    def with_held_keys(self, current_seed: bytes, sealing_key: bytes | None) -> Epochs:
        """These epochs with the keys the store holds (for `umpire store check`, which runs
        as the store's owner): the current epoch's seed and the sealing key, so every
        commitment, revealed or not, can be opened and checked."""
        reveals = [*zip(self._seqs, self._seeds, strict=True), (2**63, current_seed)]
        return Epochs(
            reveals,
            final=True,
            sealing_key=sealing_key or self.sealing_key,
            sealed_dice=self.sealed_dice,
        )

    def epoch_of(self, seq: int) -> int:
        """The epoch event `seq` belongs to (a SeedRevealed to the one it publishes)."""
        return bisect.bisect_left(self._seqs, seq)

    def seed_of_epoch(self, epoch: int) -> bytes | None:
        """The raw seed of `epoch`, or None while it is unrevealed."""
        return self._seeds[epoch] if epoch < len(self._seeds) else None

    def seed_of(self, seq: int) -> bytes | None:
        """The raw seed of event `seq`'s epoch, or None while that epoch is unrevealed."""
        epoch = self.epoch_of(seq)
        return self._seeds[epoch] if epoch < len(self._seeds) else None


def epochs_of(envelopes: Iterable[Envelope]) -> Epochs:
    """The epochs of a log, read from its SeedRevealed payloads (a payload that does not
    decode, or a seed that is not hex, reveals nothing: its commitments stay closed)."""
    reveals: list[tuple[int, bytes]] = []
    final = False
    key = b""
    sealed_dice = False
    for env in envelopes:
        if env.seq == 1 and env.type == GAME_CREATED:
            try:
                sealed_dice = _created_decoder.decode(env.payload).sealing_commitment != ""
            except (msgspec.DecodeError, msgspec.ValidationError):
                sealed_dice = False
        if env.type != SEED_REVEALED:
            continue
        try:
            revealed = _revealed_decoder.decode(env.payload)
            seed = bytes.fromhex(revealed.seed)
            final, key = not revealed.next_commitment, bytes.fromhex(revealed.sealing_key)
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError):
            seed = b""
        reveals.append((env.seq, seed))
    return Epochs(reveals, final=final, sealing_key=key, sealed_dice=sealed_dice)
