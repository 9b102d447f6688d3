"""Commit-reveal dice: deterministic, verifiable, and the only source of chance in umpire.

Roll n of a game draws its faces from HMAC-SHA256(server seed,
"<client seed>:<n>:<block>:<nonce>") (block 0, 1, ... as more bytes are needed), read as
big-endian 32-bit words. The nonce is the one the command that made the roll sent with it
(CommandRecorded.nonce: fresh client entropy per command, so that nobody who holds the
store can compute a roll before its command arrives, docs/security.md); a command recorded
without one (an old log, a game that waived client entropy) leaves out ":<nonce>". A die of s
sides takes the first word w below 2**32 - (2**32 mod s), rejecting the rest, and shows
w mod s: no modulo bias. Faces run 1..s, except the percentile dice (0..9 each).

The seed and client seed are those of the roll's seed epoch: a mid-game reveal publishes
the epoch's seed and commits the next one, and each epoch takes its own client seed, bound
after its commitment was published (docs/audit.md (4.1)). A hidden roll of a game with a
sealing key takes the game's hidden-dice key in place of the seed (`roll_key`: the one
place that says which key a roll uses), so a mid-game reveal, which publishes the seed,
does not open the faces of hidden rolls; the final reveal does (docs/audit.md section 3).

Four sources share one interface: ServerDice derives faces from the epoch's seeds,
UnboundDice refuses to roll until the client's seed is bound, ManualDice takes the faces a
player entered from physical dice, RecordedDice replays the faces of a log (for audits).
Each logs every roll it made, so the caller can check that the ruleset emitted a DiceRolled
event for each one.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import struct
from collections.abc import Sequence
from enum import StrEnum
from typing import Protocol

from msgspec import Struct

from umpire.engine.errors import (
    ClientSeedRequired,
    DiceMismatch,
    InvalidNonce,
    ManualDiceError,
    NonceRequired,
    OpponentDiceRefused,
)
from umpire.events.plurals import counted
from umpire.events.types import DiceRolled, Owner, Roller

WORD = 2**32
NONCE_DIGITS = (32, 64)  # a command's nonce: 32 to 64 lowercase hex digits (128 to 256 bits)


class DiceKind(StrEnum):
    """The kinds of roll the seeds call for."""

    D6 = "d6"
    TWO_D6 = "2d6"
    D10 = "d10"
    D12 = "d12"
    D20 = "d20"
    D100 = "d100"  # 000_842c81c5c58bc2f6.txt 1.2.3: tens and units die, 00 = 100
    ND6 = "nd6"  # several d6 at once (e.g. count the sixes)
    COLOURED = "coloured"  # named dice, e.g. Nightfighter's blue and purple pair
    DRAW = "draw"  # one card drawn uniformly from the n still in a deck
    CUSTOM = "custom"  # any other set of dice, e.g. a d3 or a solo die


class DiceSpec(Struct, frozen=True):
    """What to roll: the kind, the sides of each die and optional labels for each die."""

    kind: DiceKind
    sides: tuple[int, ...]
    labels: tuple[str, ...] = ()


def d6() -> DiceSpec:
    """One six-sided die."""
    return DiceSpec(DiceKind.D6, (6,))


def two_d6() -> DiceSpec:
    """Two six-sided dice summed (doubles are visible in the faces)."""
    return DiceSpec(DiceKind.TWO_D6, (6, 6))


def d10() -> DiceSpec:
    """One ten-sided die, faces 1..10."""
    return DiceSpec(DiceKind.D10, (10,))


def d12() -> DiceSpec:
    """One twelve-sided die."""
    return DiceSpec(DiceKind.D12, (12,))


def d20() -> DiceSpec:
    """One twenty-sided die."""
    return DiceSpec(DiceKind.D20, (20,))


def d100() -> DiceSpec:
    """Percentile dice: a tens die and a units die, each 0..9; 00 reads as 100."""
    return DiceSpec(DiceKind.D100, (10, 10), ("tens", "units"))


def nd6(count: int) -> DiceSpec:
    """`count` six-sided dice rolled together."""
    if not 1 <= count <= 100:
        raise ValueError(f"nd6 takes 1 to 100 dice, not {count}")
    return DiceSpec(DiceKind.ND6, (6,) * count)


def coloured(**dice: int) -> DiceSpec:
    """Named dice rolled together, e.g. coloured(blue=6, purple=6)."""
    if not dice:
        raise ValueError("coloured dice need at least one named die")
    return DiceSpec(DiceKind.COLOURED, tuple(dice.values()), tuple(dice))


def draw(remaining: int) -> DiceSpec:
    """Draw one card from `remaining` cards: face k means the k-th card (1-based)."""
    if remaining < 1:
        raise ValueError("cannot draw from an empty deck")
    return DiceSpec(DiceKind.DRAW, (remaining,))


def custom(*sides: int, labels: Sequence[str] = ()) -> DiceSpec:
    """Any dice: one entry of `sides` per die."""
    if not sides or any(s < 2 for s in sides):
        raise ValueError("custom dice need at least one die of 2 or more sides")
    return DiceSpec(DiceKind.CUSTOM, tuple(sides), tuple(labels))


def face_range(spec: DiceSpec, index: int) -> tuple[int, int]:
    """The lowest and highest face die `index` of `spec` can show."""
    if spec.kind is DiceKind.D100:
        return 0, 9
    return 1, spec.sides[index]


def total_of(spec: DiceSpec, faces: Sequence[int]) -> int:
    """The reading of a roll: percentile tens*10+units with 00 = 100, otherwise the sum."""
    if spec.kind is DiceKind.D100:
        value = faces[0] * 10 + faces[1]
        return 100 if value == 0 else value
    return sum(faces)


def is_doubles(event: DiceRolled) -> bool:
    """Whether a two-dice roll shows the same face twice."""
    return len(event.faces) == 2 and event.faces[0] == event.faces[1]


def commitment(seed: bytes) -> str:
    """The SHA-256 commitment to a server seed, logged in GameCreated."""
    return hashlib.sha256(seed).hexdigest()


HIDDEN_DICE = b"umpire-hidden-dice"


def hidden_dice_key(sealing_key: bytes) -> bytes:
    """The key a game's hidden rolls derive from: HMAC(sealing key, "umpire-hidden-dice").
    The sealing key is committed at creation (GameCreated.sealing_commitment) and published
    by the final reveal only, so nobody, the server included, can choose a hidden roll, and
    nobody but the server knows one before the game ends."""
    return hmac.new(sealing_key, HIDDEN_DICE, hashlib.sha256).digest()


def roll_key(seed: bytes, hidden_key: bytes | None, *, hidden: bool) -> bytes:
    """Which key a server roll derives from: a hidden roll the game's hidden-dice key (a
    game created with a sealing commitment), every other roll its epoch's seed."""
    return hidden_key if hidden and hidden_key is not None else seed


# One C-level match, not a generator over the digits: it runs on every command (0.99 ->
# 0.28 µs a 32-digit nonce).
_HEX = re.compile(r"[0-9a-f]+")


def check_nonce(nonce: object) -> str:
    """`nonce` if it is a command nonce (32 to 64 lowercase hex digits); else InvalidNonce
    saying what is allowed. Hex only, so the derivation's message stays unambiguous."""
    low, high = NONCE_DIGITS
    if not isinstance(nonce, str) or not low <= len(nonce) <= high or not _HEX.fullmatch(nonce):
        raise InvalidNonce(
            f"a command's nonce is {low} to {high} lowercase hexadecimal digits (fresh random "
            "bytes the client draws for the command, e.g. 16 bytes as 32 hex digits)"
        )
    return nonce


def require_nonce(nonce: str) -> str:
    """The nonce of a command that may make server rolls in a game that binds client
    entropy: refused (NonceRequired) when missing. Checked before the rules run, whatever
    the command would do, so that the refusal says nothing of the command's rule path."""
    if not nonce:
        raise NonceRequired(
            "this game binds client entropy: every command sent without physical dice "
            "carries a `nonce`, fresh random entropy of the client's (32 to 64 lowercase hex "
            "digits), from which with the seeds the command's server rolls derive; the "
            "umpire clients add one by themselves (docs/protocol.md)"
        )
    return check_nonce(nonce)


def derive_faces(
    seed: bytes, client_seed: str, roll: int, spec: DiceSpec, nonce: str = ""
) -> tuple[int, ...]:
    """The faces of roll number `roll` under `seed`, `client_seed` and its command's
    `nonce` ("" for a command without one; see module doc)."""
    # The words of block 0, then of block 1, ... taken in order, as a generator over the
    # blocks gave them; read by index (one HMAC in C per block, no generator frame: a d6
    # draws one word of the first block).
    head = f"{client_seed}:{roll}:"
    tail = f":{nonce}" if nonce else ""
    block = 0
    words = _block_words(seed, head, block, tail)
    at = 0
    percentile = spec.kind is DiceKind.D100
    faces: list[int] = []
    for sides in spec.sides:
        limit = WORD - (WORD % sides)
        while True:
            if at == _BLOCK_WORDS:
                block += 1
                words = _block_words(seed, head, block, tail)
                at = 0
            w = words[at]
            at += 1
            if w < limit:
                break
        # face_range: a percentile die shows 0 to 9, every other die 1 to its sides.
        faces.append((0 if percentile else 1) + w % sides)
    return tuple(faces)


_BLOCK_WORDS = 8  # 32-bit words in one HMAC-SHA256 digest


def _block_words(seed: bytes, head: str, block: int, tail: str) -> tuple[int, ...]:
    """The eight big-endian 32-bit words of HMAC-SHA256(seed, head + block + tail)."""
    digest = hmac.digest(seed, f"{head}{block}{tail}".encode(), "sha256")
    return struct.unpack(">8I", digest)


class Dice(Protocol):
    """A source of dice for `decide`. Every roll comes back as a DiceRolled event, which
    the ruleset must include in the events it returns."""

    rolled: list[DiceRolled]
    # Whether the player may enter the opponent's random results other than dice (the
    # Order Cards drawn for the AI from a physical deck): the game's
    # GameCreated.opponent_manual_dice, the same policy as the opponent's dice.
    opponent_entries: bool

    def roll(
        self, spec: DiceSpec, *, purpose: str, rule: str, owner: Owner, hidden: bool = False
    ) -> DiceRolled:
        """Roll `spec` for `purpose` as `rule` requires."""
        ...


def roll_event(
    spec: DiceSpec,
    roll: int,
    faces: tuple[int, ...],
    *,
    purpose: str,
    rule: str,
    hidden: bool,
    by: Roller,
    owner: Owner | None,
) -> DiceRolled:
    """The DiceRolled event of roll number `roll` of `spec` showing `faces`."""
    return DiceRolled(
        roll=roll,
        kind=str(spec.kind),  # its value (a StrEnum; `.value` is two Python calls a read)
        sides=spec.sides,
        faces=faces,
        total=total_of(spec, faces),
        purpose=purpose,
        rule=rule,
        by=by,
        labels=spec.labels,
        hidden=hidden,
        owner=owner,
    )


class ServerDice:
    """Dice derived from the game's secret seed; `next_roll` is the game's roll count and
    `nonce` the entropy the command sent ("": none). Every roll of the command's batch takes
    the command's nonce, the opponent's rolls it triggers included. `hidden_key`
    (`hidden_dice_key`) derives the hidden rolls, where the game has one."""

    def __init__(
        self,
        seed: bytes,
        client_seed: str,
        next_roll: int,
        *,
        nonce: str = "",
        opponent_entries: bool = False,
        hidden_key: bytes | None = None,
    ) -> None:
        self.opponent_entries = opponent_entries
        self._seed = seed
        self._hidden_key = hidden_key
        self._client_seed = client_seed
        self._nonce = nonce
        self._next = next_roll
        self.rolled: list[DiceRolled] = []

    def roll(
        self, spec: DiceSpec, *, purpose: str, rule: str, owner: Owner, hidden: bool = False
    ) -> DiceRolled:
        """Derive the next roll's faces from the seed."""
        key = roll_key(self._seed, self._hidden_key, hidden=hidden)
        faces = derive_faces(key, self._client_seed, self._next, spec, self._nonce)
        event = roll_event(
            spec, self._next, faces, purpose=purpose, rule=rule, hidden=hidden, by=Roller.SERVER,
            owner=owner,
        )  # fmt: skip
        self._next += 1
        self.rolled.append(event)
        return event


class UnboundDice:
    """The dice of an epoch whose client seed is not bound yet: any roll is refused, so a
    command that would roll writes nothing, and one that rolls nothing goes ahead."""

    def __init__(self, epoch: int, *, opponent_entries: bool = False) -> None:
        self.opponent_entries = opponent_entries
        self._epoch = epoch
        self.rolled: list[DiceRolled] = []

    def roll(
        self, spec: DiceSpec, *, purpose: str, rule: str, owner: Owner, hidden: bool = False
    ) -> DiceRolled:
        """Refuse: the faces would come from the server's seed alone. The refusal names
        no roll (kind, purpose, rule): which roll a command would make next can depend on
        what the player's view hides (issue #30 item 5, as for a refused command)."""
        raise ClientSeedRequired(
            f"this command needs a server roll, but the client seed of seed epoch "
            f"{self._epoch} is not bound yet: bind a client seed first (the `bind_seed` "
            "message, after you have seen the seed commitment), or enter the faces of "
            "physical dice",
            epoch=self._epoch,
        )


def _dice(count: int) -> str:
    """`count` dice in words: '1 die', '2 dice'."""
    return f"{count} {'die' if count == 1 else 'dice'}"


class ManualDice:
    """Faces the player rolled on physical dice, used in order, one entry per roll.

    Every entry must match the roll the rules ask for (its number of dice and face range);
    a command that needs more rolls than were entered, or fewer, is refused, naming the
    roll that is missing or left over. With `opponent_dice` false, a roll of the
    opponent's is refused (OpponentDiceRefused): command handling passes the game's
    GameCreated.opponent_manual_dice. Tests that drive `decide` directly with worked-example
    dice keep the default (any roll).
    """

    def __init__(
        self, entries: Sequence[Sequence[int]], next_roll: int, *, opponent_dice: bool = True
    ) -> None:
        self._opponent_dice = opponent_dice
        self.opponent_entries = opponent_dice
        self._entries = [tuple(e) for e in entries]
        self._used = 0
        self._next = next_roll
        self.rolled: list[DiceRolled] = []

    def roll(
        self, spec: DiceSpec, *, purpose: str, rule: str, owner: Owner, hidden: bool = False
    ) -> DiceRolled:
        """Take the next entered faces, checked against `spec`.

        A refusal writes nothing, so it says only what was wrong with the dice given (how
        many, which face) and what is allowed: never the purpose, rule, kind or owner of a
        roll, which would preview the rest of the command's rule path beyond what the
        player's view shows (issue #30 break 9: one command refused eleven times told its
        rolls one by one). An entry with the wrong number of dice is told how many dice
        that roll takes (the player cannot mend it otherwise; the face check tells as much,
        its range). Dice run out before a roll's owner is judged, so entering fewer rolls
        never tells whose the next one is."""
        entry = self._used + 1
        if self._used >= len(self._entries):
            raise ManualDiceError(
                f"the dice entered ran out: this command makes more rolls than the "
                f"{len(self._entries)} entered; enter every roll it makes, in order, or send "
                "it without dice and the server rolls them",
                entered=len(self._entries),
            )
        if owner is Owner.OPPONENT and not self._opponent_dice:
            raise OpponentDiceRefused(
                f"roll {entry} entered is the opponent's: this game takes the player's dice "
                "only for the player's own rolls (create it with opponent dice allowed, "
                "umpire new --allow-opponent-dice, to enter them); send the command without "
                "dice and the server rolls it",
                entry=entry,
            )
        faces = self._entries[self._used]
        if len(faces) != len(spec.sides):
            # The count, not the kind: the player needs it to mend the entry, and it tells
            # no more than the face check below does of the same roll (its range).
            takes = len(spec.sides)
            raise ManualDiceError(
                f"roll {entry} entered ({list(faces)}) has {_dice(len(faces))}, "
                f"{'too many' if len(faces) > takes else 'too few'}: that roll takes "
                f"{_dice(takes)}; each entry holds one roll's faces, one per die, in the "
                "order the rules roll them",
                entry=entry,
                dice=len(faces),
                takes=takes,
            )
        for index, face in enumerate(faces):
            low, high = face_range(spec, index)
            if type(face) is not int:  # a bool is an int to Python, not to the log's decoder
                raise ManualDiceError(
                    f"roll {entry}: face {face!r} is not a whole number: a face is an "
                    f"integer from 1 to its die's sides (0 to 9 for a percentile die)",
                    entry=entry,
                )
            if not low <= face <= high:
                raise ManualDiceError(
                    f"roll {entry}: face {face} is not on the die it was entered for: a face "
                    "runs from 1 to its die's sides (0 to 9 for a percentile die)",
                    entry=entry,
                )
        self._used += 1
        event = roll_event(
            spec, self._next, faces, purpose=purpose, rule=rule, hidden=hidden, by=Roller.PLAYER,
            owner=owner,
        )  # fmt: skip
        self._next += 1
        self.rolled.append(event)
        return event

    def check_all_used(self) -> None:
        """Refuse entered rolls the command did not need."""
        if self._used != len(self._entries):
            raise ManualDiceError(
                f"{counted(len(self._entries), 'roll')} "
                f"{'was' if len(self._entries) == 1 else 'were'} entered, more than this "
                f"command makes: with them it made {self._used}; enter only the rolls it "
                "makes, in order",
                entered=len(self._entries),
                made=self._used,
            )


def recorded_roll(
    event: DiceRolled | None, spec: DiceSpec, *, purpose: str, rule: str, **where: int
) -> DiceRolled:
    """`event`, the log's next roll, if it is the roll the rules ask for (`spec`); else
    DiceMismatch naming the roll (and `where`, e.g. its seq). None: the log holds no more."""
    if event is None:
        raise DiceMismatch(
            f"the rules ask for a roll ({purpose}, {rule}) the log does not hold",
            purpose=purpose,
            rule=rule,
        )
    if event.kind != spec.kind.value or tuple(event.sides) != spec.sides:
        raise DiceMismatch(
            f"the rules ask for {spec.kind.value} {list(spec.sides)} ({purpose}, {rule}) "
            f"but the log holds {event.kind} {list(event.sides)} ({event.purpose})",
            roll=event.roll,
            purpose=purpose,
            rule=rule,
            **where,
        )
    return event


class RecordedDice:
    """The rolls of a log, handed back in order to re-run `decide` in an audit."""

    def __init__(self, recorded: Sequence[DiceRolled], *, opponent_entries: bool = False) -> None:
        self.opponent_entries = opponent_entries
        self._recorded = list(recorded)
        self._used = 0
        self.rolled: list[DiceRolled] = []

    def roll(
        self, spec: DiceSpec, *, purpose: str, rule: str, owner: Owner, hidden: bool = False
    ) -> DiceRolled:
        """The next recorded roll, if it is the roll asked for (its owner as recorded)."""
        held = self._recorded[self._used] if self._used < len(self._recorded) else None
        event = recorded_roll(held, spec, purpose=purpose, rule=rule)
        self._used += 1
        self.rolled.append(event)
        return event
