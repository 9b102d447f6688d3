"""The records of an append-only file's RESP part, damaged ones found and stepped over.

Sans-I/O: bytes in, records out. A record is what Valkey wrote for one step: a
MULTI ... EXEC transaction (one append of the append script: its XADDs, the head, the
dedupe entry) or one command on its own (the games index, a credential). Valkey's own
checker (`valkey-check-aof`) stops at the first bad byte and offers only to cut
everything after it; this scanner resynchronises on the next well-formed command, so
`umpire store repair` can say what a cut would lose and `--salvage` can keep every
complete record after a damaged one (server/store_repair.py).

A record is damaged when its framing is broken, or when a stored event in it does not
decode, does not match its own hash or digest, or disagrees with the head and dedupe
entry the same step wrote: so a changed byte inside a value is found here as well.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from umpire.events.chain import digest_matches
from umpire.events.envelope import decode_envelope, expected_hash
from umpire.events.errors import UmpireError
from umpire.events.store import parse_command_entry

MAX_ARGS = 1 << 20
MAX_BULK = 512 << 20
_NAME = re.compile(rb"[A-Z]{2,20}")
_TAG = re.compile(rb"\{[^{}]+\}")
_GAME = re.compile(rb"\{([^{}]+)\}:(events|meta|commands)$")
# What damaged bytes may still say of the event they held: `{game}:events`, its id `N-0`.
_HINT = re.compile(rb"\{([A-Za-z0-9_.:-]{1,128})\}:events\r\n\$\d+\r\n(\d{1,18})-0\r\n")
# What damaged bytes may still say of a record that held no event: the keys it wrote
# (events/redis_keys.py): a game's `{game}:part`, or the store-wide `receipt-keys`, `games`.
_KEY = re.compile(rb"\r\n[A-Za-z0-9_.-]{1,64}:(?:\{([A-Za-z0-9_.:-]{1,128})\}:([a-z-]{1,32})"
                  rb"|(receipt-keys|games))\r\n")  # fmt: skip
_PARTS = {
    "meta": "head",
    "commands": "command ids",
    "secret": "seed",
    "snapshot": "snapshot",
    "credentials": "credentials",
}


@dataclass(frozen=True)
class Command:
    start: int
    end: int
    args: list[bytes]

    @property
    def name(self) -> bytes:
        return self.args[0].upper()


@dataclass
class Record:
    """Bytes `start`..`end` of the file: one step's commands, or damage (`why`)."""

    start: int
    end: int
    commands: list[Command] = field(default_factory=list)
    why: str = ""  # empty: intact
    events: list[tuple[str, int]] = field(default_factory=list)  # (game, seq) it holds
    keys: list[str] = field(default_factory=list)  # what else a damaged one names, in words

    @property
    def damaged(self) -> bool:
        return bool(self.why)


def parse_command(data: bytes, pos: int) -> Command | None:
    """The RESP array of bulk strings at `pos`, or None if there is none whole there."""
    try:
        if data[pos : pos + 1] != b"*":
            return None
        eol = data.index(b"\r\n", pos)
        count = _number(data[pos + 1 : eol], MAX_ARGS)
        at = eol + 2
        args = []
        for _ in range(count):
            if data[at : at + 1] != b"$":
                return None
            eol = data.index(b"\r\n", at)
            length = _number(data[at + 1 : eol], MAX_BULK)
            begin = eol + 2
            if data[begin + length : begin + length + 2] != b"\r\n":
                return None
            args.append(data[begin : begin + length])
            at = begin + length + 2
    except ValueError:
        return None
    if not args or not _NAME.fullmatch(args[0].upper()):
        return None
    return Command(pos, at, args)


def _number(text: bytes, limit: int) -> int:
    if not text.isdigit() or len(text) > 10:
        raise ValueError(text)
    value = int(text)
    if value > limit:
        raise ValueError(text)
    return value


def _resync(data: bytes, pos: int) -> int | None:
    """The next offset after `pos` where a well-formed command starts."""
    at = data.find(b"*", pos)
    while at != -1:
        if parse_command(data, at) is not None:
            return at
        at = data.find(b"*", at + 1)
    return None


def scan(data: bytes) -> list[Record]:
    """Every record of `data` in file order, damaged spans as records with a `why`."""
    records: list[Record] = []
    pos = 0
    open_tx: Record | None = None
    while pos < len(data):
        command = parse_command(data, pos)
        if command is None:
            start = open_tx.start if open_tx is not None else pos
            open_tx = None
            pos = _damaged(data, start, pos, records)
            continue
        pos = command.end
        if command.name == b"MULTI":
            if open_tx is not None:  # a MULTI inside a MULTI: the first lost its EXEC
                records.append(Record(open_tx.start, command.start, why="a step without its end"))
            open_tx = Record(command.start, command.end, [command])
        elif command.name == b"EXEC" and open_tx is not None:
            open_tx.commands.append(command)
            open_tx.end = command.end
            records.append(open_tx)
            open_tx = None
        elif command.name == b"EXEC":
            records.append(
                Record(command.start, command.end, [command], why="an end without its step")
            )
        elif open_tx is not None:
            open_tx.commands.append(command)
        else:
            records.append(Record(command.start, command.end, [command]))
    if open_tx is not None:
        records.append(
            Record(
                open_tx.start, len(data), open_tx.commands, why="torn: the file ends inside a step"
            )
        )
    for record in records:
        _validate(data, record)
    return records


def _damaged(data: bytes, start: int, bad: int, records: list[Record]) -> int:
    """Record the damaged span that starts at `start` (the first bad byte at `bad`) and
    return where scanning goes on: the next well-formed command, or past the EXEC that
    ends the step the damage was in (its commands are not applied without their start)."""
    resumed = _resync(data, bad + 1)
    if resumed is None:
        records.append(
            Record(start, len(data), why="not a complete command (to the end of the file)")
        )
        return len(data)
    at = resumed
    while at < len(data):
        command = parse_command(data, at)
        if command is None or command.name == b"MULTI":
            break
        if command.name == b"EXEC":
            records.append(Record(start, command.end, why="not a well-formed command"))
            return command.end
        at = command.end
    records.append(Record(start, resumed, why="not a well-formed command"))
    return resumed


def _validate(data: bytes, record: Record) -> None:
    """Name the events a record holds, and mark it damaged if a stored value in it does
    not hold together (see the module's docstring)."""
    if record.damaged:
        record.events = sorted(
            {(m[1].decode(), int(m[2])) for m in _HINT.finditer(data, record.start, record.end)}
        )
        record.keys = _named_keys(data, record.start, record.end)
        if not record.commands:
            return
    if record.commands[0].name == b"MULTI" and not record.damaged:
        # One step is one game's append: every key in it carries that game's {tag}.
        keyed = [c for c in record.commands if c.name not in (b"MULTI", b"EXEC", b"SELECT")]
        tags = {m[0] if len(c.args) > 1 and (m := _TAG.search(c.args[1])) else b""
                for c in keyed}  # fmt: skip
        if b"" in tags or len(tags) > 1:
            record.why = "a key in the step is not its game's"
        elif any(c.name == b"XADD" and not _GAME.search(c.args[1]) for c in keyed):
            record.why = "an event added under another key than its game's events"
    last_hash: dict[str, str] = {}
    seqs: dict[str, list[int]] = {}
    for command in record.commands:
        args = command.args
        if command.name == b"XADD" and len(args) == 5 and (key := _GAME.search(args[1])):
            game = key[1].decode(errors="replace")
            try:
                seq = int(args[2].split(b"-")[0])
            except ValueError:
                record.why = record.why or "an event filed under an unreadable id"
                continue
            seqs.setdefault(game, []).append(seq)
            if (game, seq) not in record.events:
                record.events.append((game, seq))
            try:
                env = decode_envelope(args[4], where=f"seq {seq}")
            except UmpireError:
                record.why = record.why or f"game {game} seq {seq} does not decode"
                continue
            if env.game_id != game or env.seq != seq or expected_hash(env) != env.hash:
                record.why = record.why or f"game {game} seq {seq} does not match its hash"
            elif not env.committed and digest_matches(env, None) is False:
                record.why = (
                    record.why or f"game {game} seq {seq}: its payload does not match its digest"
                )
            last_hash[game] = env.hash
    for command in record.commands:
        args = command.args
        if command.name not in (b"HSET", b"HSETNX") or not (key := _GAME.search(args[1])):
            continue
        game = key[1].decode(errors="replace")
        if game not in seqs or game not in last_hash:
            continue
        fields = dict(zip(args[2::2], args[3::2], strict=False))
        if key[2] == b"meta" and (
            fields.get(b"last_hash") != last_hash[game].encode()
            or fields.get(b"version") != str(max(seqs[game])).encode()
        ):
            record.why = (
                record.why
                or f"game {game}: the head written with seq {max(seqs[game])} is not its hash"
            )
        if key[2] == b"commands":
            want = (min(seqs[game]), max(seqs[game]), last_hash[game])
            if any(not _entry_names(value, want) for value in fields.values()):
                record.why = (
                    record.why
                    or f"game {game}: the dedupe entry written with seq {max(seqs[game])} "
                    "does not match it"
                )


def _named_keys(data: bytes, start: int, end: int) -> list[str]:
    """The keys other than a game's events that damaged bytes still name, in words
    (`game g1's credentials`, `the receipt keys`), so a loss that holds no event is named
    by what it was rather than by its bytes alone."""
    named: list[str] = []
    for match in _KEY.finditer(data, max(start - 2, 0), end):
        if match[3] is not None:
            words = "the receipt keys" if match[3] == b"receipt-keys" else "the games index"
        elif match[2] == b"events":
            continue  # an event is named by its seq (`events`)
        else:
            part = match[2].decode()
            words = f"game {match[1].decode()}'s {_PARTS.get(part, part)}"
        if words not in named:
            named.append(words)
    return named


def _entry_names(value: bytes, want: tuple[int, int, str]) -> bool:
    """Whether a dedupe entry (events/store.py `parse_command_entry`: first, last, last
    hash, and the body's hash where one was kept) names exactly these events."""
    try:
        entry = parse_command_entry(value)
    except (ValueError, UnicodeDecodeError):
        return False
    return (entry.first_seq, entry.last_seq, entry.last_hash) == want


def ranges(events: list[tuple[str, int]]) -> dict[str, list[tuple[int, int]]]:
    """(game, seq) pairs as each game's runs of seqs."""
    out: dict[str, list[tuple[int, int]]] = {}
    for game, seq in sorted(set(events)):
        runs = out.setdefault(game, [])
        if runs and runs[-1][1] + 1 == seq:
            runs[-1] = (runs[-1][0], seq)
        else:
            runs.append((seq, seq))
    return out


def describe_ranges(events: list[tuple[str, int]]) -> list[str]:
    """`game g1 seqs 41 to 57` per run."""
    return [
        f"game {game} " + (f"seq {a}" if a == b else f"seqs {a} to {b}")
        for game, runs in ranges(events).items()
        for a, b in runs
    ]
