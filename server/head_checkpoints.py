"""Head checkpoints: each game's last acknowledged seq and head hash, outside the store.

The store's own files can lose a suffix (a repair's cut, a salvage, a restore from an older
backup) and still hold a consistent, shorter chain that every check of the log alone
passes. So every process that appends (each `umpire serve` worker, each CLI command) also
records the head it acknowledged in `<data dir>/store-heads.log`, and `umpire store
check`, `store repair`, `store restore` and `umpire audit` compare the store against it:
"game X lost seqs 41 to 57" instead of a silent shorter prefix.

One file for every process, append-only: each record is one line written with one
`write()` on an `O_APPEND` descriptor (so records of several workers never interleave) and
carries its own CRC-32, so a torn or damaged line is skipped and counted, never misread.
Records:

- `H <game> <seq> <hash>`: a head acknowledged (a game's head is its highest `H` seq);
- `R <game> <seq> <hash>`: a rebase, written by restore/repair after naming a loss: the
  game's head is this from here on (earlier `H` records of the game no longer count);
- `L <game> <first> <last> <why>`: acknowledged seqs named lost (kept for every later
  check and audit to name again), by restore and repair, or by a writer whose append
  began at a seq an acknowledged head already covered (`HeadCheckpoints._overwritten`).
- `C <game> <changes> <fields>`: a change of the game's credentials (the store counts
  them beside the credentials, events/redis_credentials.py CHANGES_FIELD), and how many
  entries they hold after it; the game's is its highest `changes`. `store check` names a
  game whose store holds fewer changes, or as many with other entries: a credential given
  out that no longer works, or a revoked one that works again. A restore or repair
  names such a game too, and then writes a `D` for it; an `R` alone does not reset it
  (the credentials are not in the log: a backup's may be older).
- `D <game> <changes> <fields>`: the game's credentials rebased, written by restore and
  repair after naming their loss: the store's count from here on (earlier `C` and `K`
  records of the game no longer count), so a loss named once is not named by every later
  check.
- `B <game> <changes> <fields> <since>`: the game's credentials counted from here on (a
  baseline: the store's count and entries at `since`, a UTC time), written by `umpire
  serve` at its start for a game whose credentials had never been counted (made before
  the store counted their changes, so no `C` line names it). It counts only where no
  `C` or `D` line of the game came first; `store check` says from when each is counted.
- `K <game> <changes> <why>`: the game's credentials named lost, kept for every later
  check to name until a restore or repair rebases them (`D`): written when a change
  arrives numbered at or below one already recorded (the store lost changes and counted
  again: later changes would otherwise bring its count back level with the record and
  hide the loss, red team 9b), and by `umpire serve` at its start for a loss it finds.
  A change number recorded twice since the game's last `D` is read as such a loss too,
  whoever wrote it (a process that had not read the first writes no `K`).

Batched: `note()` adds a head to the current loop turn's batch and returns that turn's
one future; at the end of the turn the batch is written as one `write()` (a few
microseconds) and the future resolves, so an append is acknowledged only after its head
is in the file: a crash of umpire or of Valkey never loses it. A thread `fdatasync`s the
file at most every FSYNC_INTERVAL (an fsync here costs ~90 us of CPU and 0.2 to 2.5 ms of
wall time, which a wait per command would put on every ack): only a power loss inside
that window can lose a checkpoint, and the AOF (`appendfsync always`) holds those
commands. The file is compacted (one `H` per game, every `L`, each game's `B`, `C` and `K`)
under an exclusive `flock` once it passes COMPACT_BYTES; writers hold a shared `flock`
per write and reopen the file when the one they hold was replaced.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import threading
import time
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, unquote

FILE = "store-heads.log"
COMPACT_BYTES = 1 << 20
FSYNC_INTERVAL = 0.01  # at most 100 fdatasyncs a second, off the event loop
log = logging.getLogger("umpire.heads")


@dataclass(frozen=True)
class Loss:
    """Acknowledged seqs `first`..`last` of a game, named lost (`why`: by what)."""

    game_id: str
    first: int
    last: int
    why: str

    def describe(self) -> str:
        seqs = (
            f"seq {self.first}"
            if self.first == self.last
            else (f"seqs {self.first} to {self.last}")
        )
        return f"game {self.game_id} lost {seqs} ({self.why})"


@dataclass
class Heads:
    """What the checkpoint file says: each game's acknowledged head (seq, hash), the
    losses named so far, and how many lines were torn or damaged (skipped)."""

    heads: dict[str, tuple[int, str]] = field(default_factory=dict)
    losses: list[Loss] = field(default_factory=list)
    damaged_lines: int = 0
    # Each game's credentials at their last recorded change: (changes, fields).
    credentials: dict[str, tuple[int, int]] = field(default_factory=dict)
    # Each game whose credentials were named lost (`K`) since their last rebase: why.
    credential_losses: dict[str, str] = field(default_factory=dict)
    # Each game whose credentials were first counted by a baseline (`B`): since when.
    counted_since: dict[str, str] = field(default_factory=dict)

    def losses_of(self, game_id: str) -> list[Loss]:
        return [loss for loss in self.losses if loss.game_id == game_id]


def checkpoint_path(data_dir: Path) -> Path:
    return Path(data_dir) / FILE


def _line(*fields: str | int) -> bytes:
    body = " ".join(str(f) for f in fields)
    return f"{body} {zlib.crc32(body.encode()):08x}\n".encode()


def head_line(game_id: str, seq: int, hash_: str) -> bytes:
    return _line("H", game_id, seq, hash_)


def rebase_line(game_id: str, seq: int, hash_: str) -> bytes:
    return _line("R", game_id, seq, hash_)


def credentials_line(game_id: str, changes: int, fields: int) -> bytes:
    return _line("C", game_id, changes, fields)


def credentials_rebase_line(game_id: str, changes: int, fields: int) -> bytes:
    return _line("D", game_id, changes, fields)


def counted_line(game_id: str, changes: int, fields: int, since: str) -> bytes:
    return _line("B", game_id, changes, fields, since)


def credentials_loss_line(game_id: str, changes: int, why: str) -> bytes:
    return _line("K", game_id, changes, quote(why, safe=""))


def loss_line(loss: Loss) -> bytes:
    return _line("L", loss.game_id, loss.first, loss.last, quote(loss.why, safe=""))


def parse(data: bytes) -> Heads:
    """The records of a checkpoint file's bytes, in order (see the module's docstring)."""
    found = Heads()
    # Each game's change numbers recorded since its last rebase: the store numbers its
    # changes one by one, so a number recorded twice was counted again after the store
    # lost the change it first stood for (red team 10: a process that had not read the
    # first, such as a worker started before an `umpire revoke`, wrote no `K` for it).
    numbered: dict[str, set[int]] = {}
    for raw in data.split(b"\n"):
        if not raw:
            continue
        try:
            body, crc = raw.decode("ascii").rsplit(" ", 1)
            if f"{zlib.crc32(body.encode()):08x}" != crc:
                raise ValueError("crc")
            kind, *fields = body.split(" ")
            if kind == "H":
                game, seq, hash_ = fields[0], int(fields[1]), fields[2]
                held = found.heads.get(game)
                if held is None or seq > held[0]:
                    found.heads[game] = (seq, hash_)
            elif kind == "R":
                found.heads[fields[0]] = (int(fields[1]), fields[2])
            elif kind == "C":
                game, changes, fields_ = fields[0], int(fields[1]), int(fields[2])
                seen = numbered.setdefault(game, set())
                if changes in seen:
                    found.credential_losses.setdefault(game, recounted(changes))
                seen.add(changes)
                known = found.credentials.get(game)
                if known is None or changes > known[0]:
                    found.credentials[game] = (changes, fields_)
            elif kind == "D":
                found.credentials[fields[0]] = (int(fields[1]), int(fields[2]))
                found.credential_losses.pop(fields[0], None)
                numbered.pop(fields[0], None)
            elif kind == "B":
                game, since = fields[0], fields[3]
                changes, fields_ = int(fields[1]), int(fields[2])
                if game not in found.credentials:
                    found.credentials[game] = (changes, fields_)
                    found.counted_since[game] = since
            elif kind == "K":
                game, _, why = fields[0], int(fields[1]), unquote(fields[2])
                found.credential_losses.setdefault(game, why)
            elif kind == "L":
                game, first, last, why = fields
                found.losses.append(Loss(game, int(first), int(last), unquote(why)))
            else:
                raise ValueError(kind)
        except (ValueError, IndexError, UnicodeDecodeError):
            found.damaged_lines += 1
    return found


def recounted(changes: int) -> str:
    """Why a game's credentials are named lost when change `changes` is recorded twice."""
    return (
        f"its credentials lost changes: change {changes} is recorded twice in the head "
        "checkpoints (the store lost the first and counted again): a credential given out "
        "may no longer work, or a revoked one work again; restore a backup, or revoke the "
        "game's credentials and give out new ones"
    )


def read_heads(data_dir: Path) -> Heads:
    """The checkpoint file of `data_dir` (empty when there is none)."""
    try:
        return parse(checkpoint_path(data_dir).read_bytes())
    except FileNotFoundError:
        return Heads()


def append_records(data_dir: Path, lines: Iterable[bytes]) -> None:
    """Append records (rebases and losses, from restore and repair) and fsync them."""
    with _Writer(checkpoint_path(data_dir)) as writer:
        writer.write(b"".join(lines), sync=True)


class _Writer:
    """The file, opened for appending, with its shared-lock and compaction protocol."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd = -1
        self._open()

    def _open(self) -> None:
        self.fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        self.written = 0  # bytes this writer added: the size is looked at only past the bound

    def write(self, data: bytes, *, sync: bool = False) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_SH)
        if os.fstat(self.fd).st_nlink == 0:  # compacted by another process: its new file
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self._open()
            fcntl.flock(self.fd, fcntl.LOCK_SH)
        try:
            os.write(self.fd, data)
            if sync:
                os.fdatasync(self.fd)
        finally:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
        self.written += len(data)
        if self.written > COMPACT_BYTES // 4 and os.fstat(self.fd).st_size > COMPACT_BYTES:
            self.compact()
        elif self.written > COMPACT_BYTES // 4:
            self.written = 0

    def compact(self) -> None:
        """Rewrite the file as one `R` per game and every `L`, if no one else writes now."""
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return
        try:
            if os.fstat(self.fd).st_nlink == 0:
                return
            held = parse(self.path.read_bytes())
            lines = [rebase_line(g, s, h) for g, (s, h) in sorted(held.heads.items())]
            lines += [loss_line(loss) for loss in held.losses]
            lines += [
                counted_line(g, *held.credentials[g], since)
                for g, since in sorted(held.counted_since.items())
                if g in held.credentials
            ]
            lines += [credentials_line(g, c, f) for g, (c, f) in sorted(held.credentials.items())]
            lines += [
                credentials_loss_line(g, held.credentials.get(g, (0, 0))[0], why)
                for g, why in sorted(held.credential_losses.items())
            ]
            temporary = self.path.with_suffix(".new")
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                os.write(fd, b"".join(lines))
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(temporary, self.path)
            _fsync_dir(self.path.parent)
        finally:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)
        self._open()

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> _Writer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class HeadCheckpoints:
    """The writer of one process: `await note(game, seq, hash)` after each append."""

    def __init__(self, data_dir: Path, fsync_interval: float = FSYNC_INTERVAL) -> None:
        self.path = checkpoint_path(data_dir)
        self.fsync_interval = fsync_interval
        # Each game's acknowledged head as the file said when this process began, then as
        # it wrote them. Only a store that lost acknowledged events writes a seq at or
        # below one (an append's first seq is one past the store's head, which never
        # falls below a head it acknowledged): the loss is then recorded as it happens,
        # before the new events' ack. Unrecorded, the new heads passed the lost ones, and
        # `store check` and `umpire audit` passed the game (red team, 2026-11-29).
        # (Seqs only: one small entry a game this process met, as the file holds a line.)
        held = read_heads(data_dir)
        self._known = {game: seq for game, (seq, _) in held.heads.items()}
        # Each game's highest credentials change recorded, and the games whose credentials
        # are named lost already: a change numbered at or below the highest is a loss.
        self._changes = {game: changes for game, (changes, _) in held.credentials.items()}
        self._credentials_named = set(held.credential_losses)
        self._batch: dict[str, tuple[int, str]] = {}
        self._firsts: dict[str, int] = {}
        self._turn: asyncio.Future[None] | None = None
        self._writer: _Writer | None = None
        self._dirty = threading.Event()
        self._closing = False
        self._syncer: threading.Thread | None = None
        self.writes = 0  # batches written (a figure for tests and metrics)
        self._failed = False

    def note(self, game_id: str, seq: int, hash_: str, first: int = 0) -> asyncio.Future[None]:
        """Add a head to this loop turn's batch (`first`: its append's first seq); the
        future resolves once it is written."""
        held = self._batch.get(game_id)
        if held is None or seq > held[0]:
            self._batch[game_id] = (seq, hash_)
        if first and first < self._firsts.get(game_id, first + 1):
            self._firsts[game_id] = first
        if self._turn is None:
            loop = asyncio.get_running_loop()
            self._turn = loop.create_future()
            loop.call_soon(self._write_turn)
        return self._turn

    def _write_turn(self) -> None:
        batch, turn, firsts = self._batch, self._turn, self._firsts
        self._batch, self._turn, self._firsts = {}, None, {}
        self.record(batch, firsts)
        if turn is not None and not turn.done():
            turn.set_result(None)

    def record(
        self, batch: dict[str, tuple[int, str]], firsts: dict[str, int] | None = None
    ) -> None:
        """Write these heads now as one write (a few microseconds: no fsync here), after a
        loss line for each game whose first seq written (`firsts`) an acknowledged head
        already covered."""
        lines = self._overwritten(firsts) if firsts else []
        lines += [head_line(g, s, h) for g, (s, h) in batch.items()]
        for game_id, (seq, _) in batch.items():
            self._known[game_id] = seq
        try:
            if self._writer is None:
                self._writer = _Writer(self.path)
            self._writer.write(b"".join(lines))
            self.writes += 1
            self._to_sync()
        except OSError as exc:
            # The command is in the store already: failing its ack would only make the
            # client retry it. A loss after this is still found by the chain and by any
            # earlier checkpoint, but this head is not on record: say so, once.
            if not self._failed:
                log.warning("head checkpoints not written to %s: %s", self.path, exc)
                self._failed = True

    def _to_sync(self) -> None:
        """Have what was just written fdatasynced within `fsync_interval`."""
        # Set only when clear: `Event.set` takes the event's lock and wakes its waiters,
        # three futex calls and ~5 us a write, and the syncer clears the flag only just
        # before its fdatasync, which covers every write made before that.
        if not self._dirty.is_set():
            self._dirty.set()
        if self._syncer is None:
            self._syncer = threading.Thread(
                target=self._sync, name="head-checkpoints-fsync", daemon=True
            )
            self._syncer.start()

    def credentials(self, game_id: str, changes: int, fields: int) -> None:
        """Write a change of a game's credentials now (see the module's docstring): the
        change is made, so like a head's, a failed write is said once and not raised.
        A change numbered at or below one recorded before means the store lost changes
        and counted again: named (`K`) before it, once."""
        lines = []
        known = self._changes.get(game_id, 0)
        if changes <= known and game_id not in self._credentials_named:
            why = (
                f"its credentials lost changes: change {changes} was made again after the "
                f"head checkpoints recorded change {known} (the store had lost changes "
                f"{changes} to {known}): a credential given out may no longer work, or a "
                "revoked one work again; restore a backup, or revoke the game's credentials "
                "and give out new ones"
            )
            log.error("game %s: %s", game_id, why)
            lines.append(credentials_loss_line(game_id, changes, why))
            self._credentials_named.add(game_id)
        self._changes[game_id] = max(known, changes)
        lines.append(credentials_line(game_id, changes, fields))
        try:
            if self._writer is None:
                self._writer = _Writer(self.path)
            self._writer.write(b"".join(lines))
            self._to_sync()
        except OSError as exc:
            if not self._failed:
                log.warning("head checkpoints not written to %s: %s", self.path, exc)
                self._failed = True

    def acknowledged(self, game_id: str) -> int | None:
        """The highest seq of `game_id` ever acknowledged, as the file and this process
        know it: its head, or the last seq of a loss named; None when they hold nothing
        of the game (one from before the checkpoints, or the file deleted)."""
        held = read_heads(self.path.parent)
        seqs = [loss.last for loss in held.losses_of(game_id)]
        if game_id in held.heads:
            seqs.append(held.heads[game_id][0])
        if game_id in self._known:
            seqs.append(self._known[game_id])
        return max(seqs) if seqs else None

    def _overwritten(self, firsts: dict[str, int]) -> list[bytes]:
        """Loss lines for the acknowledged seqs the store no longer held when it wrote
        from `firsts` (game -> first seq written)."""
        lines = []
        named: Heads | None = None
        for game_id, first in firsts.items():
            known = self._known.get(game_id)
            if known is None or first > known:
                continue
            # Named already (by `umpire serve`'s start, or another worker): not twice.
            # Read only here, where a loss is found, never on a move's path.
            if named is None:
                named = read_heads(self.path.parent)
            if any(n.first <= first and known <= n.last for n in named.losses_of(game_id)):
                continue
            loss = Loss(
                game_id, first, known,
                f"acknowledged up to seq {known} by the head checkpoint, then missing "
                f"from the store, which was written again from seq {first} on",
            )  # fmt: skip
            log.error("the store lost acknowledged events: %s", loss.describe())
            lines.append(loss_line(loss))
        return lines

    def _sync(self) -> None:
        """fdatasync what was written, at most once every `fsync_interval` seconds."""
        while not self._closing:
            self._dirty.wait()
            time.sleep(self.fsync_interval)
            self._dirty.clear()
            writer = self._writer
            if writer is not None:
                with contextlib.suppress(OSError):
                    os.fdatasync(writer.fd)

    def close(self) -> None:
        """fsync what was written and stop."""
        if self._syncer is not None:
            self._closing = True
            self._dirty.set()
            self._syncer.join()
            self._syncer = None
        if self._writer is not None:
            with contextlib.suppress(OSError):
                os.fdatasync(self._writer.fd)
            self._writer.close()
            self._writer = None
